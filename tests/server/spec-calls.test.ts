import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app';
import { SPEC_01_CALLS } from './spec-calls';

/** Issue 12 proof: every call of spec 01 section 7 is served at its exact path and method (tests/server/spec-calls.ts). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('spec 01 section 7: the calls it makes', () => {
  it('the table holds every call the spec lists, each once', () => {
    expect(new Set(SPEC_01_CALLS.map((c) => `${c.method} ${c.url}`)).size).toBe(SPEC_01_CALLS.length);
    expect(SPEC_01_CALLS.length).toBe(73);
  });

  it.each(SPEC_01_CALLS.map((c) => [c.method, c.url] as const))('%s %s is served', (method, url) => {
    expect(t.app.hasRoute({ method: method as 'GET', url: url.replace(/\{(\w+)\}/g, ':$1') })).toBe(true);
  });
});
