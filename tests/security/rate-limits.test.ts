import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app';

/*
 * Issue 11, point 2: rate limits hold whatever X-Forwarded-For says (trustProxy is configuration, off by default),
 * and sign-in takes the same time for an unknown user name as for a wrong password.
 */

const LIMIT = 5;
const spoofed = (i: number) => ({ 'x-forwarded-for': `203.0.113.${i}, 198.51.100.${i}` });

describe('rate limits with a forged X-Forwarded-For (no trusted proxy, the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  }, 60_000);
  afterAll(() => t?.close());

  it('sign-in: a new X-Forwarded-For on every attempt does not buy more attempts', async () => {
    const codes: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/login?lang=en', headers: spoofed(i), payload: { userName: 'admin', password: `guess-${i}` } });
      codes.push(res.statusCode);
    }
    expect(codes.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(401));
    expect(codes.slice(LIMIT)).toEqual([429, 429]);
  });

  it('delegate invitation (set-password link): the same', async () => {
    const codes: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/delegate-invitations/${'x'.repeat(30)}${i}?lang=en`,
        headers: spoofed(i),
        payload: { password: 'Aa1!aaaaaaa' },
      });
      codes.push(res.statusCode);
    }
    expect(codes.at(-1)).toBe(429);
    expect(codes.slice(0, LIMIT)).not.toContain(429);
  });
});

describe('rate limits behind a configured proxy (TRUST_PROXY)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // inject() connects from 127.0.0.1: that is the proxy here, so the client is the address it forwards.
    t = await createTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: String(LIMIT), TRUST_PROXY: '127.0.0.1' });
  }, 60_000);
  afterAll(() => t?.close());

  it('counts per forwarded client address, and a forged hop left of the proxy changes nothing', async () => {
    const one = { 'x-forwarded-for': '203.0.113.7' };
    const codes: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: i % 2 ? { 'x-forwarded-for': `10.9.9.${i}, 203.0.113.7` } : one, payload: { userName: 'admin', password: 'nope' } });
      codes.push(res.statusCode);
    }
    expect(codes.at(-1)).toBe(429);
    const other = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'x-forwarded-for': '203.0.113.8' }, payload: { userName: 'admin', password: 'nope' } });
    expect(other.statusCode).toBe(401);
  });
});

describe('sign-in timing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: '1000' });
  }, 60_000);
  afterAll(() => t?.close());

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  async function time(userName: string): Promise<number> {
    const start = performance.now();
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { userName, password: 'Wrong@12345' } });
    expect(res.statusCode).toBe(401);
    return performance.now() - start;
  }

  it('an unknown user name takes as long as a wrong password (both pay one scrypt)', async () => {
    await time('no.such.user'); // warm-up: the dummy hash is made once
    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let i = 0; i < 9; i++) {
      unknown.push(await time(`no.such.user.${i}`));
      wrong.push(await time('admin'));
    }
    const ratio = median(unknown) / median(wrong);
    console.log(`sign-in median: unknown user ${median(unknown).toFixed(1)} ms, wrong password ${median(wrong).toFixed(1)} ms (ratio ${ratio.toFixed(2)})`);
    // Without the dummy hash an unknown user answers in a database lookup, over ten times faster.
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  }, 60_000);
});
