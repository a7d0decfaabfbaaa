import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { and, count, desc, eq, gte, isNull, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../../db/client';
import { otpChallenges, smsMessages } from '../../../db/schema';
import { AppError } from '../../errors';
import type { FacilitiesDeps } from './deps';
import { maskPhone } from '../../../machines/forms/facilities/formats';
import { DAY_MS, checkResend, checkSms, checkVerify, limitsOf, resendAvailableAt, type ChallengeState } from './otp-rules';
import './errors';

export type ChallengeRow = typeof otpChallenges.$inferSelect;

/**
 * Sends one SMS through the provider and logs it, unless limit 1001 (messages to the phone in 24 h) or 1002 (the
 * same message, i.e. purpose and subject, to the phone in 24 h) refuses it.
 */
export async function sendSms(
  deps: FacilitiesDeps,
  db: Db | Tx,
  msg: { phone: string; purpose: string; subjectId: string | null; text: string },
  now = new Date(),
): Promise<void> {
  const since = new Date(now.getTime() - DAY_MS);
  const [{ sentToPhone }] = await db
    .select({ sentToPhone: count() })
    .from(smsMessages)
    .where(and(eq(smsMessages.phone, msg.phone), gte(smsMessages.sentAt, since)));
  const [{ sameMessage }] = await db
    .select({ sameMessage: count() })
    .from(smsMessages)
    .where(
      and(
        eq(smsMessages.phone, msg.phone),
        eq(smsMessages.purpose, msg.purpose),
        msg.subjectId ? eq(smsMessages.subjectId, msg.subjectId) : isNull(smsMessages.subjectId),
        gte(smsMessages.sentAt, since),
      ),
    );
  const refusal = checkSms({ sentToPhone, sameMessage }, limitsOf(deps.config));
  if (refusal) throw new AppError(refusal);
  const { providerMessageId } = await deps.sms.send(msg.phone, msg.text);
  await db.insert(smsMessages).values({ phone: msg.phone, purpose: msg.purpose, subjectId: msg.subjectId, providerMessageId, sentAt: now });
}

const newCode = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');
/** Keyed hash: a leaked table does not give the codes away (the key is the server's secret). */
const hashCode = (secret: string, challengeId: string, code: string) =>
  createHmac('sha256', secret).update(`${challengeId}:${code}`).digest('hex');

const stateOf = (c: ChallengeRow): ChallengeState => ({
  resendCount: c.resendCount,
  attempts: c.attempts,
  lastSentAt: c.lastSentAt.getTime(),
  expiresAt: c.expiresAt.getTime(),
  verified: !!c.verifiedAt,
});

/** What the wizard shows about the current code: where it went, until when, what is left. */
export function otpStateOf(deps: FacilitiesDeps, c: ChallengeRow) {
  const limits = limitsOf(deps.config);
  return {
    maskedPhone: maskPhone(c.phone),
    expiresAt: c.expiresAt.toISOString(),
    resendAvailableAt: new Date(resendAvailableAt(stateOf(c), limits)).toISOString(),
    resendsLeft: Math.max(0, limits.maxResends - c.resendCount),
    attemptsLeft: Math.max(0, limits.maxAttempts - c.attempts),
  };
}

export async function latestChallenge(db: Db | Tx, purpose: string, subjectId: string): Promise<ChallengeRow | undefined> {
  const [c] = await db
    .select()
    .from(otpChallenges)
    .where(and(eq(otpChallenges.purpose, purpose), eq(otpChallenges.subjectId, subjectId)))
    .orderBy(desc(otpChallenges.createdAt))
    .limit(1);
  return c;
}

export interface OtpMessage {
  purpose: string;
  subjectId: string;
  phone: string;
  /** The SMS text for a code, in the recipient's language. */
  text(code: string, minutes: number): string;
}

/** Sends a new code for the subject; an earlier code of the same subject stops working. */
export async function startOtp(deps: FacilitiesDeps, msg: OtpMessage, now = new Date()): Promise<ChallengeRow> {
  const limits = limitsOf(deps.config);
  return deps.db.transaction(async (tx) => {
    await tx
      .update(otpChallenges)
      .set({ expiresAt: now })
      .where(and(eq(otpChallenges.purpose, msg.purpose), eq(otpChallenges.subjectId, msg.subjectId), isNull(otpChallenges.verifiedAt)));
    const code = newCode();
    const [row] = await tx
      .insert(otpChallenges)
      .values({
        purpose: msg.purpose,
        subjectId: msg.subjectId,
        phone: msg.phone,
        codeHash: 'pending',
        lastSentAt: now,
        expiresAt: new Date(now.getTime() + limits.ttlSeconds * 1000),
        createdAt: now,
      })
      .returning();
    const [saved] = await tx
      .update(otpChallenges)
      .set({ codeHash: hashCode(deps.config.JWT_SECRET, row.id, code) })
      .where(eq(otpChallenges.id, row.id))
      .returning();
    // Sent inside the transaction: if the provider refuses, no challenge is left behind.
    await sendSms(deps, tx, { phone: msg.phone, purpose: msg.purpose, subjectId: msg.subjectId, text: msg.text(code, Math.round(limits.ttlSeconds / 60)) }, now);
    return saved;
  });
}

/** Sends a fresh code for the same challenge (1003 count, 1004 interval, then the SMS limits). */
export async function resendOtp(deps: FacilitiesDeps, challengeId: string, text: OtpMessage['text'], now = new Date()): Promise<ChallengeRow> {
  const limits = limitsOf(deps.config);
  return deps.db.transaction(async (tx) => {
    const [c] = await tx.select().from(otpChallenges).where(eq(otpChallenges.id, challengeId)).for('update');
    if (!c || c.verifiedAt) throw new AppError('TransitionNotAllowed');
    const refusal = checkResend(stateOf(c), now.getTime(), limits);
    if (refusal) throw new AppError(refusal, { seconds: Math.ceil((resendAvailableAt(stateOf(c), limits) - now.getTime()) / 1000) });
    const code = newCode();
    const [saved] = await tx
      .update(otpChallenges)
      .set({
        codeHash: hashCode(deps.config.JWT_SECRET, c.id, code),
        resendCount: c.resendCount + 1,
        lastSentAt: now,
        expiresAt: new Date(now.getTime() + limits.ttlSeconds * 1000),
      })
      .where(eq(otpChallenges.id, c.id))
      .returning();
    await sendSms(deps, tx, { phone: c.phone, purpose: c.purpose, subjectId: c.subjectId, text: text(code, Math.round(limits.ttlSeconds / 60)) }, now);
    return saved;
  });
}

/**
 * Checks a code. The attempt is counted in its own statement before the comparison, so a wrong code is counted
 * even though the call then fails, and parallel guesses cannot exceed the limit.
 */
export async function verifyOtp(deps: FacilitiesDeps, challengeId: string, code: string, now = new Date()): Promise<ChallengeRow> {
  const limits = limitsOf(deps.config);
  const [c] = await deps.db.select().from(otpChallenges).where(eq(otpChallenges.id, challengeId));
  if (!c || c.verifiedAt) throw new AppError('TransitionNotAllowed');
  const refusal = checkVerify(stateOf(c), now.getTime(), limits);
  if (refusal) throw new AppError(refusal);
  const [counted] = await deps.db
    .update(otpChallenges)
    .set({ attempts: sql`${otpChallenges.attempts} + 1` })
    .where(and(eq(otpChallenges.id, c.id), lt(otpChallenges.attempts, limits.maxAttempts), isNull(otpChallenges.verifiedAt)))
    .returning();
  if (!counted) throw new AppError('1006');
  const expected = Buffer.from(counted.codeHash, 'hex');
  const given = Buffer.from(hashCode(deps.config.JWT_SECRET, c.id, code.trim()), 'hex');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    const attemptsLeft = limits.maxAttempts - counted.attempts;
    if (attemptsLeft <= 0) throw new AppError('1006');
    throw new AppError('OtpInvalid', { attemptsLeft });
  }
  const [verified] = await deps.db.update(otpChallenges).set({ verifiedAt: now }).where(eq(otpChallenges.id, c.id)).returning();
  return verified;
}
