import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLogs, users } from '../../db/schema';
import { withLuhnDigit } from '../../machines/forms/facilities/formats';
import { DEMO_PASSWORD } from '../../db/seed';
import { createFacilitiesTestApp, type FacilitiesTestApp } from './facilities-harness';

let t: FacilitiesTestApp;
let seq = 0;

/** A fresh account made through the sign-up calls (so the reset works on what sign-up creates). */
async function signUp(): Promise<{ nationalId: string; email: string; phone: string; password: string }> {
  const nationalId = withLuhnDigit(`1${String(71_000_000 + seq).padStart(8, '0')}`);
  const local = `05${String(61_000_000 + seq++).padStart(8, '0')}`;
  const f = { nationalId, name: 'Reem Al-Harbi', phone: local, email: `${nationalId}@example.org`, password: 'First#Pass1' };
  const sent = await t.anonymous.post('/api/account/register/send-code', { ...f, recaptchaToken: await t.recaptchaToken() });
  const phone = `+966${local.slice(1)}`;
  const created = await t.anonymous.post('/api/account/register', { ...f, challengeId: sent.json().challengeId, code: await t.lastOtp(phone) });
  expect(created.statusCode, created.body).toBe(200);
  return { nationalId, email: f.email, phone, password: f.password };
}

const forgot = async (identifier: string) =>
  t.anonymous.post('/api/account/forgot-password/send-code?lang=en', { identifier, recaptchaToken: await t.recaptchaToken() });
const login = (userName: string, password: string) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { userName, password } });

beforeAll(async () => {
  t = await createFacilitiesTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: '500' });
}, 120_000);
afterAll(() => t?.close());

describe('forgotten password', () => {
  it('a code to the registered mobile, a new password; the old one and the old sessions stop working', async () => {
    const u = await signUp();
    const oldSession = await t.login(u.nationalId, u.password);
    expect((await oldSession.get('/api/auth/session')).json().authenticated).toBe(true);

    const sent = await forgot(u.email.toUpperCase());
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().maskedPhone).toBeUndefined();
    const [sms] = await t.smsTo(u.phone);
    expect(sms.text).toMatch(/\d{6} is your code to reset your password|رمز إعادة تعيين كلمة المرور/);

    // A weak new password is refused before the code is looked at: nothing changes, the code still works.
    const weak = await t.anonymous.post('/api/account/forgot-password/reset', { challengeId: sent.json().challengeId, code: await t.lastOtp(u.phone), password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect((await login(u.nationalId, u.password)).statusCode).toBe(200);

    const reset = await t.anonymous.post('/api/account/forgot-password/reset', { challengeId: sent.json().challengeId, code: await t.lastOtp(u.phone), password: 'Second#Pass2' });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await login(u.nationalId, u.password)).statusCode).toBe(401);
    expect((await login(u.nationalId, 'Second#Pass2')).statusCode).toBe(200);
    // The session opened with the old password has ended.
    expect((await oldSession.get('/api/auth/session')).json()).toMatchObject({ authenticated: false, sessionExpired: true });
    // The code cannot be used twice.
    const again = await t.anonymous.post('/api/account/forgot-password/reset', { challengeId: sent.json().challengeId, code: await t.lastOtp(u.phone), password: 'Third#Pass3' });
    expect(again.statusCode).toBe(400);
    expect((await login(u.nationalId, 'Second#Pass2')).statusCode).toBe(200);

    const audit = await t.database.db.select().from(auditLogs).where(eq(auditLogs.action, 'account.resetPassword'));
    expect(audit.filter((a) => a.outcome === 'success')).toHaveLength(1);
  });

  it('answers an unknown id or e-mail exactly like a known one, and no code opens it', async () => {
    const u = await signUp();
    const known = await forgot(u.nationalId);
    const unknownId = await forgot(withLuhnDigit('199999999'));
    const unknownEmail = await forgot('nobody-here@example.org');
    for (const res of [known, unknownId, unknownEmail]) {
      expect(res.statusCode).toBe(200);
      expect(Object.keys(res.json()).sort()).toEqual(['challengeId', 'expiresAt', 'resendAvailableAt']);
    }
    // Wrong codes are answered alike (same code, same attempts left) whether the account exists or not.
    const tryCode = (challengeId: string) => t.anonymous.post('/api/account/forgot-password/reset?lang=en', { challengeId, code: '000000', password: 'Other#Pass9' });
    const a = await tryCode(known.json().challengeId);
    const b = await tryCode(unknownId.json().challengeId);
    if ((await t.lastOtp(u.phone)) !== '000000') expect(a.json()).toEqual(b.json());
    expect(b.json().error.code).toBe('OtpInvalid');
    // Resends too: both refused for the interval (1004).
    const r1 = await t.anonymous.post('/api/account/forgot-password/resend-code', { challengeId: known.json().challengeId, recaptchaToken: await t.recaptchaToken() });
    const r2 = await t.anonymous.post('/api/account/forgot-password/resend-code', { challengeId: unknownEmail.json().challengeId, recaptchaToken: await t.recaptchaToken() });
    expect([r1.statusCode, r1.json().error.code]).toEqual([429, '1004']);
    expect([r2.statusCode, r2.json().error.code]).toEqual([429, '1004']);
  });

  it('a known account whose mobile reached its daily SMS limit gets the same answer (no code goes)', async () => {
    const t2 = await createFacilitiesTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: '500', SMS_DUPLICATE_MAX: '1' });
    try {
      const [row] = await t2.database.db.select().from(users).where(eq(users.userName, 'new.applicant'));
      const send = async () => t2.anonymous.post('/api/account/forgot-password/send-code', { identifier: row.email, recaptchaToken: await t2.recaptchaToken() });
      expect((await send()).statusCode).toBe(200);
      const second = await send();
      expect(second.statusCode).toBe(200);
      expect(await t2.smsTo(row.phone!)).toHaveLength(1);
      // The demo password still works: nothing changed.
      expect((await t2.app.inject({ method: 'POST', url: '/api/auth/login', payload: { userName: 'new.applicant', password: DEMO_PASSWORD } })).statusCode).toBe(200);
    } finally {
      await t2.close();
    }
  }, 120_000);
});
