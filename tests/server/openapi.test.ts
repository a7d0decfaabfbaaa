import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Document, Spectral } from '@stoplight/spectral-core';
import { Json as JsonParser } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { createTestApp, type TestApp } from '../helpers/app';

/**
 * Issue 16: the API describes itself. Every operation has an id, a summary, a description and its security; every
 * error answer is the one named body; file answers carry their media types; simulators are not in the document; and
 * Redocly's recommended rules find no error. (tests/security/fuzz.test.ts checks each real answer against it.)
 */
type Json = Record<string, unknown>;
type Operation = { operationId?: string; summary?: string; description?: string; security?: unknown[]; parameters?: Json[]; responses: Record<string, Json> };

let t: TestApp;
let doc: { paths: Record<string, Record<string, Operation>>; components: Json; info: Json; servers: Json[] };
const operations: [string, Operation][] = [];

beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.anonymous.get('/api/docs/json')).json();
  for (const [path, ops] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(ops)) operations.push([`${method.toUpperCase()} ${path}`, op]);
}, 120_000);
afterAll(() => t?.close());

describe('the OpenAPI document', () => {
  it('names every operation once, with a summary, a description and its security', () => {
    expect(operations.length).toBeGreaterThan(100);
    const ids = operations.map(([, op]) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [name, op] of operations) {
      expect(op.operationId, name).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(op.summary, name).toBeTruthy();
      expect(op.description, name).toBeTruthy();
      expect(Array.isArray(op.security), name).toBe(true);
      // What it answers when it works, with a media type unless it answers nothing or redirects.
      const ok = Object.entries(op.responses).filter(([s]) => Number(s) < 400);
      expect(ok.length, `${name} declares no success answer`).toBeGreaterThan(0);
    }
    expect(doc.info.license).toBeDefined();
    expect(doc.info.contact).toBeDefined();
    expect(doc.servers.length).toBeGreaterThan(0);
  });

  it('asks for a session and the CSRF header where the server does', () => {
    const [, requests] = operations.find(([n]) => n === 'POST /api/requests/{id}/events')!;
    expect(requests.security).toEqual([{ session: [] }]);
    expect(requests.parameters?.some((p) => p.in === 'header' && p.name === 'x-csrf-token' && p.required)).toBe(true);
    expect(Object.keys(requests.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '409']));
    const [, login] = operations.find(([n]) => n === 'POST /api/auth/login')!;
    expect(login.security).toEqual([]);
    expect(login.parameters?.some((p) => p.name === 'x-csrf-token') ?? false).toBe(false);
    const [, chat] = operations.find(([n]) => n === 'POST /api/public/chat')!;
    expect(chat.parameters?.some((p) => p.in === 'header' && p.name === 'recaptcha-token')).toBe(true);
  });

  it('declares every error answer as the one named error body', () => {
    expect(doc.components.schemas).toHaveProperty('Error');
    for (const [name, op] of operations)
      for (const [status, answer] of Object.entries(op.responses))
        if (Number(status) >= 400) expect(JSON.stringify(answer), `${name} ${status}`).toMatch(/#\/components\/(responses\/Error\d+|schemas\/Error)"/);
  });

  it('declares files with their media types', () => {
    const media = (name: string) => Object.keys((operations.find(([n]) => n === name)![1].responses['200']!.content ?? {}) as Json);
    expect(media('GET /api/certificates/{id}/pdf')).toEqual(['application/pdf']);
    expect(media('GET /api/certificates/{id}/mark.zip')).toEqual(['application/zip']);
    expect(media('GET /api/admin/audit-logs/export')).toEqual(['text/csv']);
  });

  it('leaves the simulators out', () => {
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/api/'))).toEqual([]);
  });

  it("passes Redocly's recommended rules without an error", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
  }, 60_000);

  it("passes Spectral's spectral:oas rules without an error", async () => {
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas as never, 'recommended']] });
    const results = await spectral.run(new Document(JSON.stringify(doc), JsonParser));
    const errors = results.filter((r) => r.severity === 0).map((r) => `${String(r.code)}: ${r.message} at ${r.path.join('.')}`);
    expect(errors).toEqual([]);
  }, 60_000);
});

describe('the workflow calls in the document', () => {
  it("shows each kind's events with their payload schemas, and the request data by section", () => {
    const schemas = doc.components.schemas as Record<string, { oneOf?: { properties: Record<string, Json> }[]; properties?: Record<string, Json> }>;
    const cb = schemas.CbDesignationEvent!.oneOf!;
    const submitPlan = cb.find((e) => (e.properties.type as { enum: string[] }).enum[0] === 'SUBMIT_PLAN');
    expect(JSON.stringify(submitPlan?.properties.payload)).toContain('teamLeaderUserId');
    expect(Object.keys(schemas.ShipmentData!.properties!)).toEqual(expect.arrayContaining(['importer', 'products', 'slaughters']));
    const events = operations.find(([n]) => n === 'POST /api/requests/{id}/events')![1] as unknown as { requestBody: { content: Record<string, { schema: Json }> } };
    expect(JSON.stringify(events.requestBody.content['application/json']!.schema)).toContain('#/components/schemas/ShipmentEvent');
    const start = operations.find(([n]) => n === 'POST /api/requests')![1] as unknown as { requestBody: { content: Record<string, { schema: { properties: Record<string, { enum?: string[] }> } }> } };
    expect(start.requestBody.content['application/json']!.schema.properties.kind!.enum).toContain('shipment');
  });
});
