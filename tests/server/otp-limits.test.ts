import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { eq, sql } from 'drizzle-orm';
import { otpChallenges, smsMessages } from '../../db/schema';
import { checkResend, checkSms, checkVerify, type ChallengeState, type OtpLimits } from '../../server/modules/facilities/otp-rules';
import { withLuhnDigit } from '../../machines/forms/facilities/formats';
import type { Client } from '../helpers/app';
import { createFacilitiesTestApp, type FacilitiesTestApp } from './facilities-harness';

const limitsArb = fc.record({
  ttlSeconds: fc.integer({ min: 30, max: 900 }),
  resendIntervalSeconds: fc.integer({ min: 0, max: 300 }),
  maxResends: fc.integer({ min: 0, max: 6 }),
  maxAttempts: fc.integer({ min: 1, max: 8 }),
  dailySmsLimit: fc.integer({ min: 1, max: 20 }),
  duplicateMax: fc.integer({ min: 1, max: 10 }),
});

/**
 * A reference run of one challenge: a random sequence of actions (wait, resend, wrong code, right code) applied
 * through the rules. Whatever the limits and the sequence, the properties below must hold.
 */
type Action = { kind: 'wait'; seconds: number } | { kind: 'resend' } | { kind: 'wrong' } | { kind: 'right' };
const actionArb: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constant('wait' as const), seconds: fc.integer({ min: 0, max: 1000 }) }),
  fc.constant({ kind: 'resend' as const }),
  fc.constant({ kind: 'wrong' as const }),
  fc.constant({ kind: 'right' as const }),
);

function run(limits: OtpLimits, actions: Action[]) {
  let now = 0;
  const c: ChallengeState = { resendCount: 0, attempts: 0, lastSentAt: 0, expiresAt: limits.ttlSeconds * 1000, verified: false };
  const log: { action: Action; refusal: string | null; at: number; state: ChallengeState }[] = [];
  let sent = 1;
  let checks = 0;
  for (const action of actions) {
    if (c.verified) break;
    let refusal: string | null = null;
    const before = { ...c };
    if (action.kind === 'wait') now += action.seconds * 1000;
    else if (action.kind === 'resend') {
      refusal = checkResend(c, now, limits);
      if (!refusal) {
        c.resendCount++;
        c.lastSentAt = now;
        c.expiresAt = now + limits.ttlSeconds * 1000;
        sent++;
      }
    } else {
      refusal = checkVerify(c, now, limits);
      if (!refusal) {
        c.attempts++;
        checks++;
        if (action.kind === 'right') c.verified = true;
      }
    }
    log.push({ action, refusal, at: now, state: before });
  }
  return { log, sent, checks, c };
}

describe('OTP limit rules (property-based)', () => {
  it('never sends more than 1 + OTP_MAX_RESENDS codes, nor checks more than OTP_MAX_ATTEMPTS codes', () => {
    fc.assert(
      fc.property(limitsArb, fc.array(actionArb, { maxLength: 60 }), (limits, actions) => {
        const { sent, checks } = run(limits, actions);
        expect(sent).toBeLessThanOrEqual(1 + limits.maxResends);
        expect(checks).toBeLessThanOrEqual(limits.maxAttempts);
      }),
    );
  });

  it('refuses each step with the right code: 1003 count, 1004 interval, 1005 expiry, 1006 attempts', () => {
    fc.assert(
      fc.property(limitsArb, fc.array(actionArb, { maxLength: 60 }), (limits, actions) => {
        for (const { action, refusal, at, state } of run(limits, actions).log) {
          if (action.kind === 'resend') {
            if (state.resendCount >= limits.maxResends) expect(refusal).toBe('1003');
            else if (at - state.lastSentAt < limits.resendIntervalSeconds * 1000) expect(refusal).toBe('1004');
            else expect(refusal).toBeNull();
          }
          if (action.kind === 'wrong' || action.kind === 'right') {
            if (state.attempts >= limits.maxAttempts) expect(refusal).toBe('1006');
            else if (at >= state.expiresAt) expect(refusal).toBe('1005');
            else expect(refusal).toBeNull();
          }
        }
      }),
    );
  });

  it('a code is never accepted after its expiry, and a resend always gives a full validity again', () => {
    fc.assert(
      fc.property(limitsArb, fc.array(actionArb, { maxLength: 60 }), (limits, actions) => {
        const { log } = run(limits, actions);
        for (const { action, refusal, at, state } of log) {
          if (action.kind === 'right' && refusal === null) expect(at).toBeLessThan(state.expiresAt);
        }
      }),
    );
  });

  it('limits SMS per phone (1001) before duplicates (1002), exactly at the configured numbers', () => {
    fc.assert(
      fc.property(limitsArb, fc.nat(30), fc.nat(30), (limits, sentToPhone, sameMessage) => {
        const r = checkSms({ sentToPhone, sameMessage }, limits);
        if (sentToPhone >= limits.dailySmsLimit) expect(r).toBe('1001');
        else if (sameMessage >= limits.duplicateMax) expect(r).toBe('1002');
        else expect(r).toBeNull();
      }),
    );
  });
});

describe('OTP limits through the delegation wizard (configured numbers, server-enforced)', () => {
  let t: FacilitiesTestApp;
  let main: Client;
  let seq = 0;
  const SUBMIT = '/api/InternalFacilityDelegation/SubmitFacilityDelegationRequest';
  const nextId = () => withLuhnDigit(`1${String(500_000_00 + seq++).padStart(8, '0')}`);
  const start = (phone: string, nationalId = nextId()) =>
    main.post(SUBMIT, {
      step: 'start',
      facilityPublicId: 'inf-almarai-foods',
      delegate: { nationalId, firstName: 'Test', lastName: 'Delegate', birthDate: '1992-05-05', phone, preferredLanguage: 'en', email: `${nationalId}@example.com` },
      delegationType: 1,
      permissions: [],
    });
  /** Moves a challenge's clock back instead of waiting (no timed tests). */
  const age = async (delegationId: string, seconds: number) => {
    await t.database.db
      .update(otpChallenges)
      .set({ lastSentAt: sql`${otpChallenges.lastSentAt} - make_interval(secs => ${seconds})`, expiresAt: sql`${otpChallenges.expiresAt} - make_interval(secs => ${seconds})` })
      .where(eq(otpChallenges.subjectId, delegationId));
  };

  beforeAll(async () => {
    t = await createFacilitiesTestApp({
      OTP_TTL_SECONDS: '120',
      OTP_RESEND_INTERVAL_SECONDS: '30',
      OTP_MAX_RESENDS: '2',
      OTP_MAX_ATTEMPTS: '3',
      SMS_DAILY_LIMIT_PER_PHONE: '4',
      SMS_DUPLICATE_MAX: '10',
    });
    main = await t.login('internal.main');
  }, 120_000);
  afterAll(() => t?.close());

  it('invalid phone numbers are refused with the phone message and send nothing', async () => {
    for (const phone of ['0112345678', '12345', '+96611234567']) {
      const res = await start(phone);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('PhoneInvalid');
    }
    const en = await main.post(`${SUBMIT}?lang=en`, { ...(await startBody('abc')) });
    expect(en.json().error.message).toBe('The mobile number is invalid or missing.');
    expect(await t.database.db.select().from(smsMessages)).toHaveLength(0);
  });
  const startBody = async (phone: string) => ({
    step: 'start',
    facilityPublicId: 'inf-almarai-foods',
    delegate: { nationalId: nextId(), firstName: 'A', lastName: 'B', birthDate: '1990-01-01', phone, preferredLanguage: 'en', email: 'x@example.com' },
    delegationType: 1,
  });

  it('1004 before the resend interval, then resends until 1003', async () => {
    const d = (await start('0550001001')).json();
    let res = await main.post(SUBMIT, { step: 'resendOtp', delegationId: d.id });
    expect(res.json().error.code).toBe('1004');
    expect(res.statusCode).toBe(429);
    for (let i = 0; i < 2; i++) {
      await age(d.id, 31);
      res = await main.post(SUBMIT, { step: 'resendOtp', delegationId: d.id });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().otp.resendsLeft).toBe(1 - i);
    }
    await age(d.id, 31);
    res = await main.post(`${SUBMIT}?lang=ar`, { step: 'resendOtp', delegationId: d.id });
    expect(res.json().error.code).toBe('1003');
    expect(res.json().error.message).toBe('تم تجاوز الحد الأقصى لعدد مرات إعادة إرسال رمز التحقق.');
    expect(await t.smsTo('+966550001001')).toHaveLength(3);
  });

  it('a wrong code says how many attempts are left, the old code dies on resend, and 1006 locks the code', async () => {
    const d = (await start('0550001002')).json();
    const first = await t.lastOtp('+966550001002');
    await age(d.id, 31);
    await main.post(SUBMIT, { step: 'resendOtp', delegationId: d.id });
    const second = await t.lastOtp('+966550001002');
    if (first !== second) {
      const old = await main.post(`${SUBMIT}?lang=en`, { step: 'verifyOtp', delegationId: d.id, code: first });
      expect(old.json().error.code).toBe('OtpInvalid');
      expect(old.json().error.message).toBe('The verification code is incorrect (2 attempts left).');
    } else {
      await main.post(SUBMIT, { step: 'verifyOtp', delegationId: d.id, code: String((Number(second) + 1) % 1_000_000).padStart(6, '0') });
    }
    const wrong = String((Number(second) + 1) % 1_000_000).padStart(6, '0');
    const res2 = await main.post(SUBMIT, { step: 'verifyOtp', delegationId: d.id, code: wrong });
    expect(res2.json().error.code).toBe('OtpInvalid');
    const res3 = await main.post(SUBMIT, { step: 'verifyOtp', delegationId: d.id, code: wrong });
    expect(res3.json().error.code).toBe('1006');
    // Even the right code is refused now, and the delegation did not move.
    const res4 = await main.post(SUBMIT, { step: 'verifyOtp', delegationId: d.id, code: second });
    expect(res4.json().error.code).toBe('1006');
    expect((await t.app.engine.get(d.id))?.stateValue).toBe('pending.awaitingOtp');
    expect((await t.app.engine.history(d.id)).map((h) => h.event)).toEqual(['START']);
  });

  it('1005 after the code expired; a resend gives a code that works', async () => {
    const d = (await start('0550001003')).json();
    const code = await t.lastOtp('+966550001003');
    await age(d.id, 121);
    const res = await main.post(SUBMIT, { step: 'verifyOtp', delegationId: d.id, code });
    expect(res.json().error.code).toBe('1005');
    expect((await main.post(SUBMIT, { step: 'resendOtp', delegationId: d.id })).statusCode).toBe(200);
    const ok = await main.post(SUBMIT, { step: 'verifyOtp', delegationId: d.id, code: await t.lastOtp('+966550001003') });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().status).toBe('pendingAcknowledgment');
  });

  it('1001 once the phone got SMS_DAILY_LIMIT_PER_PHONE messages in 24 hours; older messages do not count', async () => {
    const phone = '0550001004';
    for (let i = 0; i < 4; i++) expect((await start(phone)).statusCode).toBe(200);
    const res = await start(phone);
    expect(res.json().error.code).toBe('1001');
    expect(await t.smsTo('+966550001004')).toHaveLength(4);
    // A day later the phone may receive again.
    await t.database.db
      .update(smsMessages)
      .set({ sentAt: sql`${smsMessages.sentAt} - interval '25 hours'` })
      .where(eq(smsMessages.phone, '+966550001004'));
    expect((await start(phone)).statusCode).toBe(200);
  });
});

describe('duplicate message limit (1002)', () => {
  let t: FacilitiesTestApp;
  beforeAll(async () => {
    t = await createFacilitiesTestApp({ OTP_RESEND_INTERVAL_SECONDS: '0', OTP_MAX_RESENDS: '9', SMS_DUPLICATE_MAX: '3', SMS_DAILY_LIMIT_PER_PHONE: '50' });
  }, 120_000);
  afterAll(() => t?.close());

  it('refuses the same message to the same phone beyond SMS_DUPLICATE_MAX in 24 hours', async () => {
    const main = await t.login('internal.main');
    const SUBMIT = '/api/InternalFacilityDelegation/SubmitFacilityDelegationRequest';
    const nationalId = withLuhnDigit('155500000');
    const d = (
      await main.post(SUBMIT, {
        step: 'start',
        facilityPublicId: 'inf-almarai-foods',
        delegate: { nationalId, firstName: 'A', lastName: 'B', birthDate: '1990-01-01', phone: '0550002001', preferredLanguage: 'ar', email: 'dup@example.com' },
        delegationType: 1,
      })
    ).json();
    expect((await main.post(SUBMIT, { step: 'resendOtp', delegationId: d.id })).statusCode).toBe(200);
    expect((await main.post(SUBMIT, { step: 'resendOtp', delegationId: d.id })).statusCode).toBe(200);
    const res = await main.post(`${SUBMIT}?lang=en`, { step: 'resendOtp', delegationId: d.id });
    expect(res.json().error.code).toBe('1002');
    expect(res.json().error.message).toBe('The maximum number of duplicate messages has been exceeded. Please try again later.');
    expect(await t.smsTo('+966550002001')).toHaveLength(3);
  });
});
