import type { FastifyInstance } from 'fastify';
import { AppError, registerErrorStatus } from '../errors';
import { callJson, serviceBaseUrl } from './http';

registerErrorStatus({ RecaptchaRequired: 400, RecaptchaInvalid: 400 });

/**
 * Spec 01 section 9: a reCAPTCHA token is reused for less than 110000 ms. The web keeps one token for that long and
 * sends it with several calls; the provider (like Google's siteverify) accepts a token only once, so this verifier
 * remembers the tokens it has verified and accepts them again until 110000 ms after they were issued.
 */
export const RECAPTCHA_REUSE_MS = 110_000;

/** The provider's answer, shaped like Google's `siteverify`. */
interface SiteVerifyResponse {
  success: boolean;
  challenge_ts?: string;
  hostname?: string;
  'error-codes'?: string[];
}

export interface RecaptchaVerifier {
  /** Resolves when the token is valid (fresh, or verified less than 110000 ms after issue); throws AppError otherwise. */
  verify(token: string | undefined, remoteIp?: string): Promise<void>;
}

export interface RecaptchaOptions {
  baseUrl: string;
  secret: string;
  timeoutMs: number;
  now?: () => number;
  fetchImpl?: typeof fetch;
}

export function createRecaptchaVerifier(opts: RecaptchaOptions): RecaptchaVerifier {
  const now = opts.now ?? Date.now;
  /** token -> issue time (ms) of tokens the provider confirmed; swept as they age out. */
  const verified = new Map<string, number>();

  function sweep(at: number) {
    for (const [token, issuedAt] of verified) if (at - issuedAt >= RECAPTCHA_REUSE_MS) verified.delete(token);
  }

  return {
    async verify(token, remoteIp) {
      if (!token || !token.trim()) throw new AppError('RecaptchaRequired');
      const at = now();
      sweep(at);
      const known = verified.get(token);
      if (known !== undefined) return;
      const form = new URLSearchParams({ secret: opts.secret, response: token });
      if (remoteIp) form.set('remoteip', remoteIp);
      const { status, body } = await callJson<SiteVerifyResponse>(
        `${opts.baseUrl}/siteverify`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form.toString(),
          timeoutMs: opts.timeoutMs,
          fetchImpl: opts.fetchImpl,
        },
        'recaptcha',
      );
      if (status !== 200 || !body?.success) throw new AppError('RecaptchaInvalid');
      const issuedAt = body.challenge_ts ? Date.parse(body.challenge_ts) : at;
      if (!Number.isFinite(issuedAt) || at - issuedAt >= RECAPTCHA_REUSE_MS) throw new AppError('RecaptchaInvalid');
      verified.set(token, issuedAt);
    },
  };
}

// Keyed by the config object: every encapsulated plugin context of one server shares it, so all routes share the
// reuse memory.
const perApp = new WeakMap<object, RecaptchaVerifier>();

/** The verifier of this server (call it from any route or plugin: `recaptchaVerifierOf(app).verify(token)`). */
export function recaptchaVerifierOf(app: FastifyInstance): RecaptchaVerifier {
  let v = perApp.get(app.config);
  if (!v) {
    v = createRecaptchaVerifier({
      baseUrl: serviceBaseUrl(app.config, 'recaptcha'),
      secret: app.config.RECAPTCHA_SECRET,
      timeoutMs: app.config.EXTERNAL_TIMEOUT_MS,
    });
    perApp.set(app.config, v);
  }
  return v;
}
