import { createHash, randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq, isNull, or } from 'drizzle-orm';
import { z } from 'zod';
import { otpChallenges, sessions, users } from '../../../db/schema';
import { hashPassword } from '../../../lib/password';
import { isNationalOrResidentId, maskPhone } from '../../../machines/forms/facilities/formats';
import {
  ZCodeSent,
  ZForgotSendCode,
  ZRegister,
  ZRegisterSendCode,
  ZResendCode,
  ZResetPassword,
  normalizeSaudiMobile,
} from '../../../machines/forms/account';
import { AppError, registerErrorStatus } from '../../errors';
import { tFor, type Language } from '../../i18n';
import { ZErrorBody } from '../../schemas';
import { depsOf } from '../facilities/deps';
import { violatedUniqueIndex } from '../facilities/db-errors';
import { checkResend, limitsOf, resendAvailableAt } from '../facilities/otp-rules';
import { resendOtp, startOtp, verifyOtp, type ChallengeRow } from '../facilities/otp-service';

registerErrorStatus({
  AccountNationalIdTaken: 409,
  AccountEmailTaken: 409,
  AccountMobileTaken: 409,
  OtpMobileChanged: 400,
});

export const REGISTER_PURPOSE = 'account-register';
export const RESET_PURPOSE = 'password-reset';
/** The role every self-registered user gets (machines/roles.ts): they then add their facility. */
const APPLICANT_ROLE = 'applicant';

const errors = { 400: ZErrorBody, 409: ZErrorBody, 429: ZErrorBody, 502: ZErrorBody };

/**
 * Self-service accounts (issue 17 item 6). Sign-up: the form is checked, a code goes by SMS to the mobile
 * (`register/send-code`), and the same form with the code creates the account (`register`). Forgotten password:
 * the id or e-mail (`forgot-password/send-code`), then the code and a new password (`forgot-password/reset`).
 *
 * Enumeration: sign-up says an id, e-mail or mobile is taken only after the code sent to the mobile was confirmed,
 * so learning it costs an SMS to a phone one holds (limits 1001/1002 per phone and day, a rate limit per address,
 * reCAPTCHA). The reset answers an unknown id or e-mail exactly like a known one: a challenge is made either way
 * (for an unknown account one that no code can open, and no SMS goes out), and the SMS limits of a known account's
 * mobile are not reported either.
 */
const accounts: FastifyPluginAsyncZod = async (app) => {
  const deps = depsOf(app);
  const limits = () => limitsOf(app.config);
  const rateLimit = { max: app.config.LOGIN_RATE_LIMIT_PER_MINUTE, timeWindow: '1 minute' };

  const codeText = (lang: Language, key: 'register' | 'reset') => (code: string, minutes: number) => tFor(lang)(`shell:account.sms.${key}`, { code, minutes });

  const sent = (c: ChallengeRow, withPhone: boolean) => ({
    challengeId: c.id,
    ...(withPhone ? { maskedPhone: maskPhone(c.phone) } : {}),
    expiresAt: c.expiresAt.toISOString(),
    resendAvailableAt: new Date(resendAvailableAt({ lastSentAt: c.lastSentAt.getTime() }, limits())).toISOString(),
  });

  async function challengeOf(id: string, purpose: string): Promise<ChallengeRow | undefined> {
    const [c] = await app.db.select().from(otpChallenges).where(and(eq(otpChallenges.id, id), eq(otpChallenges.purpose, purpose)));
    return c;
  }

  // ---- sign-up ----

  app.post(
    '/api/account/register/send-code',
    {
      config: { policy: 'public', rateLimit },
      schema: { tags: ['account'], summary: 'Sign-up step 1: checks the form and sends a code by SMS to the mobile', body: ZRegisterSendCode, response: { 200: ZCodeSent, ...errors } },
    },
    async (request) => {
      await deps.recaptcha.verify(request.body.recaptchaToken, request.ip);
      const phone = normalizeSaudiMobile(request.body.phone)!;
      const c = await startOtp(deps, { purpose: REGISTER_PURPOSE, subjectId: phone, phone, text: codeText(request.lang, 'register') });
      return sent(c, true);
    },
  );

  app.post(
    '/api/account/register/resend-code',
    {
      config: { policy: 'public', rateLimit },
      schema: { tags: ['account'], body: ZResendCode, response: { 200: ZCodeSent, ...errors } },
    },
    async (request) => {
      await deps.recaptcha.verify(request.body.recaptchaToken, request.ip);
      const c = await challengeOf(request.body.challengeId, REGISTER_PURPOSE);
      if (!c) throw new AppError('OtpInvalid', { attemptsLeft: 0 });
      return sent(await resendOtp(deps, c.id, codeText(request.lang, 'register')), true);
    },
  );

  app.post(
    '/api/account/register',
    {
      config: { policy: 'public', rateLimit },
      schema: { tags: ['account'], summary: 'Sign-up step 2: the form and the code; creates the applicant account', body: ZRegister, response: { 200: z.object({ userName: z.string() }), ...errors } },
    },
    async (request) => {
      const b = request.body;
      const phone = normalizeSaudiMobile(b.phone)!;
      const c = await challengeOf(b.challengeId, REGISTER_PURPOSE);
      if (!c) throw new AppError('OtpInvalid', { attemptsLeft: 0 });
      if (c.phone !== phone) throw new AppError('OtpMobileChanged');
      // A code already used (the sign-up was refused after it) cannot be used again: a new one is needed.
      if (c.verifiedAt) throw new AppError('1005');
      await verifyOtp(deps, c.id, b.code);
      // The mobile is confirmed: now the person may learn which of their details already has an account.
      const [taken] = await app.db
        .select({ nationalId: users.nationalId, email: users.email, phone: users.phone, userName: users.userName })
        .from(users)
        .where(or(eq(users.nationalId, b.nationalId), eq(users.userName, b.nationalId), eq(users.email, b.email), eq(users.phone, phone)))
        .limit(1);
      if (taken) {
        if (taken.nationalId === b.nationalId || taken.userName === b.nationalId) throw new AppError('AccountNationalIdTaken');
        if (taken.email === b.email) throw new AppError('AccountEmailTaken');
        throw new AppError('AccountMobileTaken');
      }
      const passwordHash = await hashPassword(b.password);
      try {
        const [created] = await app.db
          .insert(users)
          .values({
            userName: b.nationalId,
            nationalId: b.nationalId,
            name: b.name,
            email: b.email,
            phone,
            passwordHash,
            roles: [APPLICANT_ROLE],
            preferredLanguage: request.lang,
          })
          .returning({ userName: users.userName });
        return { userName: created.userName };
      } catch (err) {
        // Two sign-ups with the same details at once: the unique indexes decide.
        const index = violatedUniqueIndex(err);
        if (!index) throw err;
        throw new AppError(index.includes('email') ? 'AccountEmailTaken' : 'AccountNationalIdTaken');
      }
    },
  );

  // ---- forgotten password ----

  /** An unknown account's stand-in subject: stable per identifier, never a user id. */
  const unknownSubject = (identifier: string) => `unknown:${createHash('sha256').update(identifier).digest('hex')}`;

  app.post(
    '/api/account/forgot-password/send-code',
    {
      config: { policy: 'public', rateLimit },
      schema: {
        tags: ['account'],
        summary: 'Reset step 1: sends a code to the mobile of the account with this id or e-mail; answers the same when there is none',
        body: ZForgotSendCode,
        response: { 200: ZCodeSent, ...errors },
      },
    },
    async (request) => {
      const { identifier, recaptchaToken } = request.body;
      await deps.recaptcha.verify(recaptchaToken, request.ip);
      const byId = isNationalOrResidentId(identifier);
      const [user] = await app.db
        .select()
        .from(users)
        .where(byId ? or(eq(users.nationalId, identifier), eq(users.userName, identifier)) : eq(users.email, identifier))
        .limit(1);
      const phone = user?.phone && !user.lockedAt ? user.phone : null;
      if (user && phone) {
        try {
          return sent(await startOtp(deps, { purpose: RESET_PURPOSE, subjectId: user.id, phone, text: codeText(user.preferredLanguage === 'en' ? 'en' : 'ar', 'reset') }), false);
        } catch (err) {
          // A limit of this mobile would tell that the account exists: the answer stays the same (no code goes).
          if (!(err instanceof AppError) || !['1001', '1002', 'PhoneInvalid'].includes(err.code)) throw err;
          request.log.warn({ code: err.code }, 'password reset code not sent');
        }
      }
      // No account (or no mobile to reach it): a challenge no code opens, and no SMS.
      const now = new Date();
      const [decoy] = await app.db
        .insert(otpChallenges)
        .values({
          purpose: RESET_PURPOSE,
          subjectId: user ? user.id : unknownSubject(identifier),
          phone: '',
          codeHash: randomBytes(32).toString('hex'),
          lastSentAt: now,
          expiresAt: new Date(now.getTime() + limits().ttlSeconds * 1000),
          createdAt: now,
        })
        .returning();
      return sent(decoy, false);
    },
  );

  app.post(
    '/api/account/forgot-password/resend-code',
    {
      config: { policy: 'public', rateLimit },
      schema: { tags: ['account'], body: ZResendCode, response: { 200: ZCodeSent, ...errors } },
    },
    async (request) => {
      await deps.recaptcha.verify(request.body.recaptchaToken, request.ip);
      const c = await challengeOf(request.body.challengeId, RESET_PURPOSE);
      if (!c || c.verifiedAt) throw new AppError('OtpInvalid', { attemptsLeft: 0 });
      const now = new Date();
      const state = { resendCount: c.resendCount, attempts: c.attempts, lastSentAt: c.lastSentAt.getTime(), expiresAt: c.expiresAt.getTime(), verified: false };
      const refusal = checkResend(state, now.getTime(), limits());
      if (refusal) throw new AppError(refusal, { seconds: Math.ceil((resendAvailableAt(state, limits()) - now.getTime()) / 1000) });
      if (c.phone) {
        const [user] = await app.db.select({ lang: users.preferredLanguage }).from(users).where(eq(users.id, c.subjectId));
        try {
          return sent(await resendOtp(deps, c.id, codeText(user?.lang === 'en' ? 'en' : 'ar', 'reset'), now), false);
        } catch (err) {
          if (!(err instanceof AppError) || !['1001', '1002', 'PhoneInvalid'].includes(err.code)) throw err;
          request.log.warn({ code: err.code }, 'password reset code not resent');
        }
      }
      const [saved] = await app.db
        .update(otpChallenges)
        .set({ resendCount: c.resendCount + 1, lastSentAt: now, expiresAt: new Date(now.getTime() + limits().ttlSeconds * 1000) })
        .where(eq(otpChallenges.id, c.id))
        .returning();
      return sent(saved, false);
    },
  );

  app.post(
    '/api/account/forgot-password/reset',
    {
      config: { policy: 'public', rateLimit },
      schema: { tags: ['account'], summary: 'Reset step 2: the code and the new password; ends every session of the account', body: ZResetPassword, response: { 200: z.object({ ok: z.literal(true) }), ...errors } },
    },
    async (request) => {
      const { challengeId, code, password } = request.body;
      const c = await challengeOf(challengeId, RESET_PURPOSE);
      if (!c) throw new AppError('OtpInvalid', { attemptsLeft: 0 });
      if (c.verifiedAt) throw new AppError('1005');
      // A stand-in challenge fails here like a wrong code (its hash matches no code), attempts counted alike.
      const verified = await verifyOtp(deps, c.id, code);
      const passwordHash = await hashPassword(password);
      await app.db.transaction(async (tx) => {
        const [user] = await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, verified.subjectId)).returning({ id: users.id });
        if (!user) throw new AppError('OtpInvalid', { attemptsLeft: 0 });
        // Whoever held the old password is signed out everywhere.
        await tx.update(sessions).set({ revokedAt: new Date(), revokedReason: 'password-reset' }).where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt)));
      });
      return { ok: true as const };
    },
  );
};
export default accounts;
