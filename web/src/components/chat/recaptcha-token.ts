/**
 * reCAPTCHA tokens for the assistant's calls (spec 01 section 7: chat calls carry a recaptcha token header).
 * Spec 01 section 9: a token is reused for less than 110000 ms, then a new one is fetched. The token comes from
 * the portal itself (the reCAPTCHA simulator's widget endpoint, /simulators/recaptcha/token), so no request
 * leaves the portal's host.
 */
export const RECAPTCHA_HEADER = 'recaptcha-token';
const REUSE_MS = 110_000;
/** Renew a little early so a token is never sent right at the end of its reuse window. */
const SAFETY_MS = 5_000;

let cached: { token: string; at: number } | null = null;
let inflight: Promise<string> | null = null;

async function fetchToken(): Promise<string> {
  const res = await fetch('/simulators/recaptcha/token', { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`reCAPTCHA token: HTTP ${res.status}`);
  const body = (await res.json()) as { token?: unknown };
  if (typeof body.token !== 'string' || !body.token) throw new Error('reCAPTCHA token: empty answer');
  return body.token;
}

/** A token younger than 110000 ms, fetched when needed (concurrent callers share one fetch). */
export async function recaptchaToken(now: () => number = Date.now): Promise<string> {
  if (cached && now() - cached.at < REUSE_MS - SAFETY_MS) return cached.token;
  inflight ??= fetchToken()
    .then((token) => {
      cached = { token, at: now() };
      return token;
    })
    .finally(() => {
      inflight = null;
    });
  return inflight;
}

/** Forgets the token (the server refused it), so the next call fetches a fresh one. */
export function dropRecaptchaToken(): void {
  cached = null;
}
