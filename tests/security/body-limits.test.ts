import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app';
import { PUBLIC_BODY_LIMIT, SIGNED_IN_JSON_LIMIT } from '../../server/app';
import { multipartBody, pdf } from '../helpers/multipart';

/*
 * A route anyone may call reads a small body only: a caller without a session cannot make the server buffer and parse
 * the 60 MB a signed-in user's request may carry. The refusal is the portal's error body in the caller's language,
 * and nothing is done with the body.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** A JSON body a little over the public limit, shaped like a sign-in form. */
const oversized = JSON.stringify({ userName: 'internal.main', password: 'x'.repeat(PUBLIC_BODY_LIMIT) });

describe('body limits', () => {
  it('refuses an oversized body on every public route that takes one, with a 413 in the caller’s language', async () => {
    const routes = t.app.routePolicies.filter((r) => r.policy === 'public' && UNSAFE.has(r.method));
    expect(routes.map((r) => r.url)).toContain('/api/auth/login');
    for (const [i, route] of routes.entries()) {
      const lang = i % 2 ? 'en' : 'ar';
      const url = route.url.replace(/:(\w+)/g, 'x');
      const res = await t.anonymous.request({ method: route.method as 'POST', url, payload: oversized, headers: { 'content-type': 'application/json', 'accept-language': lang } });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(413);
      expect(res.json().error.code).toBe('BodyTooLarge');
      expect(res.json().error.message).toMatch(lang === 'ar' ? /البيانات المرسلة أكبر/ : /larger than this form accepts/);
    }
  });

  it('signs nobody in from an oversized sign-in, and signs in from the same form at its usual size', async () => {
    const big = await t.anonymous.request({ method: 'POST', url: '/api/auth/login', payload: oversized, headers: { 'content-type': 'application/json' } });
    expect(big.statusCode).toBe(413);
    expect(big.headers['set-cookie']).toBeUndefined();
    const usual = await t.anonymous.post('/api/auth/login', { userName: 'internal.main', password: 'Demo@12345' });
    expect(usual.statusCode).toBe(200);
  });

  it('reads a signed-in user’s body past the public limit: an over-long note is refused by validation, not by its size', async () => {
    const owner = await t.login('internal.main');
    const started = await owner.post('/api/requests', { kind: 'internalCertificate', facilityId: 'inf-almarai-foods', data: {} });
    expect(started.statusCode).toBe(201);
    const { id, version } = started.json() as { id: string; version: number };
    // A note far longer than any form allows: refused by validation (400), not by the body limit (413).
    const res = await owner.post(`/api/requests/${id}/events`, { type: 'ADD_NOTE', expectedVersion: version, payload: { note: 'n'.repeat(PUBLIC_BODY_LIMIT * 2) } });
    expect(res.statusCode).not.toBe(413);
    expect(res.statusCode).toBeLessThan(500);
  });

  it('refuses a signed-in event body past the JSON limit with a 413 in the caller’s language, and the request stays as it was', async () => {
    const owner = await t.login('internal.main');
    const started = await owner.post('/api/requests', { kind: 'internalCertificate', facilityId: 'inf-almarai-foods', data: {} });
    const { id, version } = started.json() as { id: string; version: number };
    for (const lang of ['ar', 'en'] as const) {
      const payload = JSON.stringify({ type: 'EDIT', expectedVersion: version, payload: { factory: { nameEn: 'x'.repeat(SIGNED_IN_JSON_LIMIT) } } });
      const res = await owner.request({ method: 'POST', url: `/api/requests/${id}/events`, payload, headers: { 'content-type': 'application/json', 'accept-language': lang } });
      expect(res.statusCode).toBe(413);
      expect(res.json().error.code).toBe('BodyTooLarge');
      expect(res.json().error.message).toMatch(lang === 'ar' ? /البيانات المرسلة أكبر/ : /larger than this form accepts/);
    }
    const after = (await owner.get(`/api/requests/${id}`)).json() as { version: number; data: Record<string, unknown> };
    expect(after.version).toBe(version);
    expect(after.data.factory).toBeUndefined();
  });

  it('still reads an upload larger than the JSON limit (a file route reads up to its own per-file limit)', async () => {
    const owner = await t.login('internal.main');
    const started = await owner.post('/api/requests', { kind: 'internalCertificate', facilityId: 'inf-almarai-foods', data: {} });
    const { id } = started.json() as { id: string };
    const big = multipartBody({ name: 'big.pdf', type: 'application/pdf', content: pdf(SIGNED_IN_JSON_LIMIT + 1024) });
    const res = await owner.request({ method: 'POST', url: `/api/attachments?facilityPublicId=inf-almarai-foods&category=productCatalogue&requestId=${id}`, payload: big.payload, headers: big.headers });
    expect(res.statusCode, res.body).toBe(201);
  });
});
