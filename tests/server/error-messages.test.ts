import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { registeredErrorCodes } from '../../server/errors';
import { createTestApp, type TestApp } from '../helpers/app';

/**
 * Bad input gets a clear message in the user's language: every error code a module registers (with its HTTP status)
 * has a message in both languages, so no answer shows a bare code such as "ServiceNotStartable".
 */
const messages = (lang: string) => JSON.parse(readFileSync(join(__dirname, `../../locales/${lang}/errors.json`), 'utf8')) as Record<string, string>;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('error messages', () => {
  it('every registered error code has an Arabic and an English message', () => {
    const codes = registeredErrorCodes();
    expect(codes.length).toBeGreaterThan(20);
    for (const lang of ['ar', 'en']) expect(codes.filter((c) => !messages(lang)[c]), lang).toEqual([]);
  });

  it('starting a service that does not exist is refused in the user’s language', async () => {
    const applicant = await t.login('internal.main');
    const res = await applicant.post('/api/requests', { kind: 'nope', facilityId: 'inf-almarai-foods' }, { headers: { 'accept-language': 'ar' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({ code: 'ServiceNotStartable', message: 'لا يمكن طلب هذه الخدمة.' });
  });
});
