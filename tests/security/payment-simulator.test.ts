import { createServer, type Server } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentPortalSimulator } from '../../server/simulators/payment-portal/plugin';
import { PAYMENT_CALLBACK_PATH } from '../../server/adapters/payment-portal';

/*
 * Issue 11, point 7: the payment simulator cannot be used for SSRF. It takes only the portal's own callback route as
 * return and callback URL, and calls back the server it is mounted in, never a host named by the caller.
 */

const API_KEY = 'simulator-key';
let victim: Server;
let victimHits: string[] = [];
let victimPort = 0;

async function simulator(publicUrl?: string): Promise<{ app: FastifyInstance; origin: string; own: string[] }> {
  const app = Fastify();
  const own: string[] = [];
  // The portal's own callback route, as the portal serves it.
  app.post(PAYMENT_CALLBACK_PATH, async (request) => {
    own.push(JSON.stringify(request.body));
    return { ok: true };
  });
  await app.register(paymentPortalSimulator({ apiKey: API_KEY, callbackSecret: 'a-test-callback-secret', publicUrl, prefix: '/sim' }), { prefix: '/sim' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return { app, origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, own };
}

const create = (origin: string, callbackUrl: string, returnUrl = callbackUrl) =>
  fetch(`${origin}/sim/payments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` },
    body: JSON.stringify({ merchantReference: 'B-1', amount: '10.00', vat: '1.50', total: '11.50', currency: 'SAR', description: { ar: 'x', en: 'x' }, returnUrl, callbackUrl }),
  });

beforeAll(async () => {
  victim = createServer((req, res) => {
    victimHits.push(`${req.method} ${req.url}`);
    res.end('{}');
  });
  await new Promise<void>((r) => victim.listen(0, '127.0.0.1', r));
  const a = victim.address();
  victimPort = typeof a === 'object' && a ? a.port : 0;
});
afterAll(() => new Promise<void>((r) => victim.close(() => r())));

describe('payment simulator callbacks', () => {
  it('refuses a callback or return URL that is not the portal callback route', async () => {
    const { app, origin } = await simulator();
    try {
      for (const url of [
        'http://169.254.169.254/latest/meta-data/',
        `http://127.0.0.1:${victimPort}/admin`,
        `http://user:pw@127.0.0.1:${victimPort}${PAYMENT_CALLBACK_PATH}`,
        `file:///etc/passwd`,
        `http://127.0.0.1:${victimPort}${PAYMENT_CALLBACK_PATH}?next=http://evil.example`,
      ]) {
        expect((await create(origin, url)).status, url).toBe(400);
        expect((await create(origin, `${origin}${PAYMENT_CALLBACK_PATH}`, url)).status, url).toBe(400);
      }
    } finally {
      await app.close();
    }
  });

  it('with PUBLIC_URL, only that origin is accepted', async () => {
    const { app, origin } = await simulator('https://halal.example.gov.sa');
    try {
      expect((await create(origin, `http://127.0.0.1:${victimPort}${PAYMENT_CALLBACK_PATH}`)).status).toBe(400);
      expect((await create(origin, `https://halal.example.gov.sa${PAYMENT_CALLBACK_PATH}`)).status).toBe(201);
    } finally {
      await app.close();
    }
  });

  it('calls back its own server, never the host named in the registration', async () => {
    const { app, origin, own } = await simulator();
    victimHits = [];
    try {
      const created = await create(origin, `http://127.0.0.1:${victimPort}${PAYMENT_CALLBACK_PATH}`);
      expect(created.status).toBe(201);
      const page = new URL((await created.json()).paymentUrl);
      const paid = await fetch(`${origin}${page.pathname}${page.search}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'action=pay',
        redirect: 'manual',
      });
      expect(paid.status).toBe(303);
      expect(victimHits).toEqual([]);
      expect(own).toHaveLength(1);
      expect(JSON.parse(own[0])).toMatchObject({ merchantReference: 'B-1', status: 'paid' });
    } finally {
      await app.close();
    }
  });
});
