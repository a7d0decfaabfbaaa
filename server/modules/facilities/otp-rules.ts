/**
 * The OTP and SMS limits of spec 01 section 8 as pure decisions, so they can be checked exhaustively (property
 * tests) apart from the database. The numbers come from configuration (server/config.ts, OTP_* and SMS_*).
 *
 * 1001 SMS limit exceeded: a phone got SMS_DAILY_LIMIT_PER_PHONE messages in the last 24 hours.
 * 1002 duplicate maximum: the same message (purpose and subject) went SMS_DUPLICATE_MAX times to the phone in 24 h.
 * 1003 resend maximum: a code was resent OTP_MAX_RESENDS times.
 * 1004 resend interval: less than OTP_RESEND_INTERVAL_SECONDS since the code was last sent.
 * 1005 expired: more than OTP_TTL_SECONDS since the code was sent.
 * 1006 attempts exceeded: OTP_MAX_ATTEMPTS wrong codes were entered.
 */
export interface OtpLimits {
  ttlSeconds: number;
  resendIntervalSeconds: number;
  maxResends: number;
  maxAttempts: number;
  dailySmsLimit: number;
  duplicateMax: number;
}

export type OtpRefusal = '1001' | '1002' | '1003' | '1004' | '1005' | '1006';

export const DAY_MS = 24 * 60 * 60 * 1000;

/** May one more SMS go to this phone? `sentToPhone`/`sameMessage` count the last 24 hours. */
export function checkSms(counts: { sentToPhone: number; sameMessage: number }, limits: OtpLimits): OtpRefusal | null {
  if (counts.sentToPhone >= limits.dailySmsLimit) return '1001';
  if (counts.sameMessage >= limits.duplicateMax) return '1002';
  return null;
}

export interface ChallengeState {
  resendCount: number;
  attempts: number;
  lastSentAt: number;
  expiresAt: number;
  verified: boolean;
}

/** May the code be sent again now? The count is checked first: once used up, waiting does not help. */
export function checkResend(c: ChallengeState, now: number, limits: OtpLimits): OtpRefusal | null {
  if (c.resendCount >= limits.maxResends) return '1003';
  if (now - c.lastSentAt < limits.resendIntervalSeconds * 1000) return '1004';
  return null;
}

/** May a code be checked now? Used-up attempts are reported before expiry: a new code will not help either way. */
export function checkVerify(c: ChallengeState, now: number, limits: OtpLimits): OtpRefusal | null {
  if (c.attempts >= limits.maxAttempts) return '1006';
  if (now >= c.expiresAt) return '1005';
  return null;
}

/** When the next resend becomes possible (for the wizard's countdown). */
export const resendAvailableAt = (c: Pick<ChallengeState, 'lastSentAt'>, limits: OtpLimits): number =>
  c.lastSentAt + limits.resendIntervalSeconds * 1000;

export function limitsOf(config: {
  OTP_TTL_SECONDS: number;
  OTP_RESEND_INTERVAL_SECONDS: number;
  OTP_MAX_RESENDS: number;
  OTP_MAX_ATTEMPTS: number;
  SMS_DAILY_LIMIT_PER_PHONE: number;
  SMS_DUPLICATE_MAX: number;
}): OtpLimits {
  return {
    ttlSeconds: config.OTP_TTL_SECONDS,
    resendIntervalSeconds: config.OTP_RESEND_INTERVAL_SECONDS,
    maxResends: config.OTP_MAX_RESENDS,
    maxAttempts: config.OTP_MAX_ATTEMPTS,
    dailySmsLimit: config.SMS_DAILY_LIMIT_PER_PHONE,
    duplicateMax: config.SMS_DUPLICATE_MAX,
  };
}
