import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
import { auditLogs, otpChallenges, users } from '../../db/schema';
import { withLuhnDigit } from '../../machines/forms/facilities/formats';
import { DEMO_IDENTITIES } from '../../db/demo-identities';
import { createFacilitiesTestApp, type FacilitiesTestApp } from './facilities-harness';

let t: FacilitiesTestApp;
let seq = 0;
const newId = () => withLuhnDigit(`2${String(70_000_000 + seq++).padStart(8, '0')}`);
const newPhone = () => `05${String(60_000_000 + seq++).padStart(8, '0')}`;
const e164 = (local: string) => `+966${local.slice(1)}`;
const form = (over: Record<string, unknown> = {}) => {
  const nationalId = newId();
  return { nationalId, name: 'Samir Haddad', phone: newPhone(), email: `${nationalId}@example.com`, password: 'Strong#Pass1', ...over };
};
const userCount = async () => (await t.database.db.select({ n: count() }).from(users))[0].n;

async function sendCode(body: Record<string, unknown>, lang = 'en') {
  return t.anonymous.post(`/api/account/register/send-code?lang=${lang}`, { ...body, recaptchaToken: await t.recaptchaToken() });
}

beforeAll(async () => {
  t = await createFacilitiesTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: '500' });
}, 120_000);
afterAll(() => t?.close());

describe('sign-up with an SMS code', () => {
  it('sends a code to the mobile, creates an applicant with the code, and the new user signs in', async () => {
    const f = form();
    const sent = await sendCode(f);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().maskedPhone).toBe(`${e164(f.phone).slice(0, -7)}***${f.phone.slice(-4)}`);
    const [sms] = await t.smsTo(e164(f.phone));
    expect(sms.text).toMatch(/\d{6} is your code to create your account/);

    const before = await userCount();
    const created = await t.anonymous.post('/api/account/register', { ...f, challengeId: sent.json().challengeId, code: await t.lastOtp(e164(f.phone)) });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toEqual({ userName: f.nationalId });
    expect(await userCount()).toBe(before + 1);
    const [row] = await t.database.db.select().from(users).where(eq(users.nationalId, f.nationalId));
    expect(row).toMatchObject({ roles: ['applicant'], email: f.email, phone: e164(f.phone), name: 'Samir Haddad' });

    // Signs in with the id or the e-mail; the session holds the applicant's permissions and no facility yet.
    const byId = await t.login(f.nationalId, f.password);
    const session = (await byId.get('/api/auth/session')).json();
    expect(session).toMatchObject({ authenticated: true, isStaff: false, facilityIds: [], user: { roles: ['applicant'] } });
    expect(session.permissions.length).toBeGreaterThan(0);
    await t.login(f.email, f.password);

    const audit = await t.database.db.select().from(auditLogs).where(eq(auditLogs.action, 'account.register'));
    expect(audit.some((a) => a.userName === f.nationalId && a.outcome === 'success')).toBe(true);
  });

  it('refuses a bad form before any SMS, with a message per field in the caller language', async () => {
    const f = form({ nationalId: '1234567890', phone: '0112345678', email: 'not-an-email', password: 'weakpass' });
    const res = await sendCode(f, 'ar');
    expect(res.statusCode).toBe(400);
    const byField = Object.fromEntries(res.json().error.validationErrors.map((v: { members: string[]; message: string }) => [v.members[0], v.message]));
    expect(byField.nationalId).toBe('أدخل رقم هوية وطنية صحيحًا (يبدأ بـ 1) أو رقم إقامة (يبدأ بـ 2) من 10 أرقام.');
    expect(Object.keys(byField).sort()).toEqual(['email', 'nationalId', 'password', 'phone']);
    expect(await t.smsTo('+966112345678')).toHaveLength(0);
  });

  it('refuses the published demo password as an account\'s password, in the caller language', async () => {
    const res = await sendCode(form({ password: 'Demo@12345' }), 'en');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.validationErrors).toMatchObject([{ members: ['password'], message: "This password is published with the portal's demo accounts; choose another." }]);
  });

  it('refuses a weak password at the last step too, and creates nothing', async () => {
    const f = form();
    const sent = await sendCode(f);
    const before = await userCount();
    const res = await t.anonymous.post('/api/account/register', { ...f, password: 'alllowercase1!', challengeId: sent.json().challengeId, code: await t.lastOtp(e164(f.phone)) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.validationErrors[0]).toMatchObject({ members: ['password'] });
    expect(await userCount()).toBe(before);
    // The code was not spent: the same form with a good password goes through.
    const ok = await t.anonymous.post('/api/account/register', { ...f, challengeId: sent.json().challengeId, code: await t.lastOtp(e164(f.phone)) });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('refuses a wrong code (attempts counted) and creates nothing', async () => {
    const f = form();
    const sent = await sendCode(f);
    const right = await t.lastOtp(e164(f.phone));
    const wrong = right === '000000' ? '111111' : '000000';
    const before = await userCount();
    const res = await t.anonymous.post('/api/account/register?lang=en', { ...f, challengeId: sent.json().challengeId, code: wrong });
    expect(res.statusCode).toBe(400);
    // The attempts left travel as the message's parameter, so the web can say it again after a language switch.
    expect(res.json().error).toMatchObject({ code: 'OtpInvalid', message: 'The verification code is incorrect (4 attempts left).', params: { attemptsLeft: 4 } });
    expect(await userCount()).toBe(before);
    expect((await t.database.db.select().from(users).where(eq(users.nationalId, f.nationalId))).length).toBe(0);
  });

  it('refuses an expired code (1005) and creates nothing', async () => {
    const f = form();
    const sent = await sendCode(f);
    await t.database.db.update(otpChallenges).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(otpChallenges.id, sent.json().challengeId));
    const before = await userCount();
    const res = await t.anonymous.post('/api/account/register', { ...f, challengeId: sent.json().challengeId, code: await t.lastOtp(e164(f.phone)) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('1005');
    expect(await userCount()).toBe(before);
  });

  it('refuses a code sent to another mobile than the one in the form', async () => {
    const f = form();
    const sent = await sendCode(f);
    const res = await t.anonymous.post('/api/account/register', { ...f, phone: newPhone(), challengeId: sent.json().challengeId, code: await t.lastOtp(e164(f.phone)) });
    expect(res.json().error.code).toBe('OtpMobileChanged');
  });

  it('refuses a taken id, e-mail or mobile once the code is confirmed, and creates nothing', async () => {
    const demo = DEMO_IDENTITIES['new.applicant'];
    const [existing] = await t.database.db.select().from(users).where(eq(users.userName, 'new.applicant'));
    const cases: [Record<string, unknown>, string][] = [
      [{ nationalId: demo.nationalId }, 'AccountNationalIdTaken'],
      [{ email: existing.email.toUpperCase() }, 'AccountEmailTaken'],
      [{ phone: `0${demo.phone.slice(4)}` }, 'AccountMobileTaken'],
    ];
    for (const [over, code] of cases) {
      const f = form(over);
      const sent = await sendCode(f);
      expect(sent.statusCode, sent.body).toBe(200);
      const before = await userCount();
      const res = await t.anonymous.post('/api/account/register?lang=en', { ...f, challengeId: sent.json().challengeId, code: await t.lastOtp(e164(f.phone)) });
      expect(res.statusCode, code).toBe(409);
      expect(res.json().error.code).toBe(code);
      expect(res.json().error.message).toContain('Forgot password');
      expect(await userCount()).toBe(before);
      // The confirmed code cannot be used again.
      const again = await t.anonymous.post('/api/account/register', { ...f, nationalId: newId(), challengeId: sent.json().challengeId, code: await t.lastOtp(e164(f.phone)) });
      expect(again.json().error.code).toBe('1005');
    }
  });

  it('needs a reCAPTCHA token, and resends follow the OTP limits (1004)', async () => {
    const f = form();
    const refused = await t.anonymous.post('/api/account/register/send-code', { ...f, recaptchaToken: 'simulator-fail' });
    expect(refused.json().error.code).toBe('RecaptchaInvalid');
    expect(await t.smsTo(e164(f.phone))).toHaveLength(0);
    const sent = await sendCode(f);
    const resend = await t.anonymous.post('/api/account/register/resend-code', { challengeId: sent.json().challengeId, recaptchaToken: await t.recaptchaToken() });
    expect(resend.statusCode).toBe(429);
    expect(resend.json().error.code).toBe('1004');
    expect(await t.smsTo(e164(f.phone))).toHaveLength(1);
  });
});
