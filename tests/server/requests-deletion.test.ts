import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Client, type TestApp } from '../helpers/app';

/** GET /api/requests/:id/deletion: the generic wizard's "deleted automatically in N days", for any request kind. */
let t: TestApp;
let external: Client;
let other: Client;

beforeAll(async () => {
  t = await createTestApp();
  [external, other] = await Promise.all(['external', 'internal.main'].map((u) => t.login(u)));
});
afterAll(() => t?.close());

describe('GET /api/requests/:id/deletion', () => {
  it('tells a draft of any kind its days left, hides it from other facilities, and is gone with the deleted draft', async () => {
    const started = await external.post('/api/requests', { kind: 'shipment', facilityId: 'exf-anatolia-meat', data: { shipmentType: { goods: 'meat' } } });
    expect(started.statusCode).toBe(201);
    const r = started.json() as { id: string; version: number };
    const due = (await external.get(`/api/requests/${r.id}/deletion`)).json() as { dueAt: string; daysLeft: number };
    expect(due.daysLeft).toBe(30);
    expect(Date.parse(due.dueAt)).toBeGreaterThan(Date.now());
    expect([403, 404]).toContain((await other.get(`/api/requests/${r.id}/deletion`)).statusCode);
    const deleted = await external.post(`/api/requests/${r.id}/events`, { type: 'DELETE', expectedVersion: r.version, payload: { confirmed: true } });
    expect(deleted.statusCode).toBe(200);
    expect((await external.get(`/api/requests/${r.id}/deletion`)).statusCode).toBe(404);
  });
});
