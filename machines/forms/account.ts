import { z } from 'zod';
import { isNationalOrResidentId, normalizePhone } from './facilities/formats';

/**
 * Self-service accounts (issue 17 item 6): sign-up with an SMS code and the forgotten-password reset. The web's
 * forms and the server validate with these same schemas, so a value the form accepts is one the server accepts.
 * Messages are keys of locales/<lang>/validation.json.
 */

/** At least 8 characters with an upper-case and a lower-case letter, a digit and a symbol (as delegates' passwords). */
export const isStrongPassword = (p: string): boolean =>
  p.length >= 8 && p.length <= 128 && /[a-z]/.test(p) && /[A-Z]/.test(p) && /\d/.test(p) && /[^A-Za-z0-9]/.test(p);

/** A Saudi mobile (05XXXXXXXX, 5XXXXXXXX, 9665..., +9665..., 009665...) as E.164, or null. */
export function normalizeSaudiMobile(v: string): string | null {
  const e164 = normalizePhone(v);
  return e164 && e164.startsWith('+9665') ? e164 : null;
}

/**
 * The demo accounts' password, published in the README: no account may be given it, and a production server refuses it
 * at sign-in (an account seeded into its database by mistake opens nothing). db/seed.ts seeds it outside production only.
 */
export const PUBLISHED_PASSWORD = 'Demo@12345';
export const isPublishedPassword = (p: string): boolean => p === PUBLISHED_PASSWORD;

/** What is wrong with a password someone chooses (a validation message key), or null: every door that sets one asks this. */
export const passwordIssue = (p: string): 'strongPassword' | 'publishedPassword' | null =>
  !isStrongPassword(p) ? 'strongPassword' : isPublishedPassword(p) ? 'publishedPassword' : null;

/** A password someone chooses, as every door checks it (`weak`: the message key the door shows for a weak one). */
export const chosenPassword = (weak = 'strongPassword') =>
  z
    .string()
    .max(128, weak)
    .refine(isStrongPassword, weak)
    .refine((p) => !isPublishedPassword(p), 'publishedPassword');

const password = chosenPassword();
const code = z.string().trim().regex(/^\d{6}$/, 'otpCode');

/** What the applicant types on the sign-up page. */
export const ZRegistration = z.object({
  nationalId: z.string().trim().min(1, 'required').refine(isNationalOrResidentId, 'nationalOrResidentId'),
  name: z.string().trim().min(3, 'minLength').max(100, 'maxLength'),
  phone: z.string().trim().min(1, 'required').refine((v) => normalizeSaudiMobile(v) !== null, 'saudiMobile'),
  email: z.string().trim().toLowerCase().min(1, 'required').max(200, 'maxLength').pipe(z.email('email')),
  password,
});
export type TRegistration = z.infer<typeof ZRegistration>;

/** Step 1: check the form and send a code to the mobile. */
export const ZRegisterSendCode = ZRegistration.extend({ recaptchaToken: z.string().min(1, 'required').max(4000) });
/** Step 2: the same form with the code; creates the account. */
export const ZRegister = ZRegistration.extend({ challengeId: z.uuid('invalid'), code });

/** Forgotten password, step 1: the national/resident id or the e-mail of the account. */
export const ZForgotSendCode = z.object({
  identifier: z.string().trim().toLowerCase().min(1, 'required').max(200, 'maxLength'),
  recaptchaToken: z.string().min(1, 'required').max(4000),
});
/** Forgotten password, step 2: the code and the new password. */
export const ZResetPassword = z.object({ challengeId: z.uuid('invalid'), code, password });

export const ZResendCode = z.object({ challengeId: z.uuid('invalid'), recaptchaToken: z.string().min(1, 'required').max(4000) });

/** What the page shows about the code that went out. */
export const ZCodeSent = z.object({
  challengeId: z.string(),
  /** Sign-up only: the reset never says where (or whether) a code went. */
  maskedPhone: z.string().optional(),
  expiresAt: z.string(),
  resendAvailableAt: z.string(),
});
