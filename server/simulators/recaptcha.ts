import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';

/** Google answers `timeout-or-duplicate` for tokens older than two minutes or verified before; so does this one. */
const TOKEN_LIFETIME_MS = 120_000;

/**
 * reCAPTCHA simulator. `GET /token` plays the browser widget (`grecaptcha.execute`) and hands out a signed token;
 * `POST /siteverify` (form-encoded `secret`, `response`) answers like Google's siteverify, once per token.
 * The token `simulator-fail` is always refused, for tests of the refusal path.
 */
export const recaptchaSimulator = (secret: string): FastifyPluginAsync =>
  async (app) => {
    const key = randomBytes(32);
    const used = new Map<string, number>();
    const sign = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });

    app.get('/token', async () => {
      const payload = Buffer.from(JSON.stringify({ ts: Date.now(), n: randomBytes(6).toString('hex') })).toString('base64url');
      return { token: `${payload}.${sign(payload)}` };
    });

    app.post<{ Body: { secret?: string; response?: string } }>('/siteverify', { config: { csrf: false } }, async (request) => {
      const { secret: given, response } = request.body ?? {};
      if (given !== secret) return { success: false, 'error-codes': ['invalid-input-secret'] };
      if (!response) return { success: false, 'error-codes': ['missing-input-response'] };
      const [payload, mac] = response.split('.');
      const expected = payload ? sign(payload) : '';
      if (!payload || !mac || mac.length !== expected.length || !timingSafeEqual(Buffer.from(mac), Buffer.from(expected))) {
        return { success: false, 'error-codes': ['invalid-input-response'] };
      }
      const { ts } = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { ts: number };
      const now = Date.now();
      for (const [t, at] of used) if (now - at > TOKEN_LIFETIME_MS) used.delete(t);
      if (now - ts > TOKEN_LIFETIME_MS || used.has(response)) return { success: false, 'error-codes': ['timeout-or-duplicate'] };
      used.set(response, ts);
      return { success: true, challenge_ts: new Date(ts).toISOString(), hostname: request.hostname };
    });
  };
