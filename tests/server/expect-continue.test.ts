import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Client, type TestApp } from '../helpers/app';

/**
 * A client that sends `Expect: 100-continue` (curl does for any body over 1 MB) writes its body only once the server
 * says Continue. The portal says it only when the route will read the body: an oversized or unauthorised request is
 * answered, in the caller's language, without the body ever being sent.
 */
let t: TestApp;
let base: string;
let applicant: Client;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  applicant = await t.login('internal.main');
});
afterAll(() => t.close());

interface Exchange {
  continued: boolean;
  status: number;
  body: { error?: { code: string; message: string } };
}

/** Sends the headers, waits for Continue before writing `length` bytes of JSON, and reads the answer. */
function expecting(path: string, length: number, headers: Record<string, string>): Promise<Exchange> {
  const body = Buffer.from(JSON.stringify({ type: 'EDIT', expectedVersion: 1, payload: { note: 'x'.repeat(Math.max(0, length - 64)) } }));
  return new Promise((resolve, reject) => {
    let continued = false;
    const req = request(base + path, {
      method: 'POST',
      agent: false,
      headers: { ...headers, 'content-type': 'application/json', 'content-length': body.length, expect: '100-continue' },
    });
    req.on('continue', () => {
      continued = true;
      req.end(body);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        resolve({ continued, status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') });
        req.destroy();
      });
    });
    req.on('error', reject);
  });
}

const signedIn = (lang: string) => ({ cookie: applicant.cookie, 'x-csrf-token': applicant.csrf, 'accept-language': lang });
const events = '/api/requests/00000000-0000-4000-8000-000000000000/events';

describe('Expect: 100-continue', () => {
  it('an 8 MB body over the route limit is refused with 413 in the caller language and never sent', async () => {
    for (const lang of ['en', 'ar']) {
      const answer = await expecting(events, 8_000_000, signedIn(lang));
      expect(answer).toMatchObject({ continued: false, status: 413, body: { error: { code: 'BodyTooLarge' } } });
      expect(answer.body.error!.message).toMatch(lang === 'ar' ? /[\u0600-\u06ff]/ : /^[\x20-\x7e]+$/);
    }
  });

  it('a body within the limit is asked for and read by the route', async () => {
    const answer = await expecting(events, 2_000, signedIn('en'));
    // The route read the body and answered on its merits: no such request for this facility.
    expect(answer).toMatchObject({ continued: true, status: 404, body: { error: { code: 'EntityNotFound' } } });
  });

  it('a caller without a session is refused before its body is asked for', async () => {
    const answer = await expecting(events, 2_000, { 'accept-language': 'en' });
    expect(answer).toMatchObject({ continued: false, status: 401 });
  });
});
