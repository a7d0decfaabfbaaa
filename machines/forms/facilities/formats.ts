/**
 * Number formats of the facilities area (spec 02 sections 3 and 5). Pure functions with no server dependency: the
 * web's forms use the same ones, so a value the form accepts is a value the server accepts.
 */

/** CB acceptance (assignment) number, pattern `#-####H-CB`: a digit, a dash, four digits, then `H-CB`. */
export const ACCEPTANCE_NUMBER_RE = /^\d-\d{4}H-CB$/;
/** CB notification number, format `H-CB####-#`. */
export const NOTIFICATION_NUMBER_RE = /^H-CB\d{4}-\d$/;
/** Saudi commercial registration number: ten digits; the first is the issuing office's region (1 to 7). */
export const CR_NUMBER_RE = /^[1-7]\d{9}$/;
/** Establishment unified number `70X XXX XXXX` (ten digits starting with 70), spaces optional. */
export const UNIFIED_NUMBER_RE = /^70\d{8}$/;

export const isAcceptanceNumber = (v: string): boolean => ACCEPTANCE_NUMBER_RE.test(v.trim().toUpperCase());
export const isNotificationNumber = (v: string): boolean => NOTIFICATION_NUMBER_RE.test(v.trim().toUpperCase());
export const normalizeAcceptanceNumber = (v: string): string => v.trim().toUpperCase();
export const normalizeNotificationNumber = (v: string): string => v.trim().toUpperCase();
export const isCrNumber = (v: string): boolean => CR_NUMBER_RE.test(v.trim());

/** Removes the spaces people type (`700 123 4567`); returns null when the result is not a unified number. */
export function normalizeUnifiedNumber(v: string): string | null {
  const compact = v.replace(/\s+/g, '');
  return UNIFIED_NUMBER_RE.test(compact) ? compact : null;
}
/** `7001234567` -> `700 123 4567`. */
export const formatUnifiedNumber = (v: string): string => `${v.slice(0, 3)} ${v.slice(3, 6)} ${v.slice(6)}`;

/** Luhn check over all digits (Saudi national and resident ids use it). */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** National id (starts with 1) or resident id (iqama, starts with 2): ten digits with a Luhn check digit. */
export const isNationalOrResidentId = (v: string): boolean => /^[12]\d{9}$/.test(v) && luhnValid(v);

/** The Luhn check digit that completes `nineDigits` (used by the seed and the simulators to make valid ids). */
export function withLuhnDigit(nineDigits: string): string {
  for (let d = 0; d <= 9; d++) if (luhnValid(nineDigits + d)) return nineDigits + d;
  throw new Error('unreachable');
}

/** ISO 13616 mod-97 over the rearranged IBAN (letters as 10..35); 1 means the check digits are right. */
export function ibanMod97(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const ch of rearranged) {
    const code = ch.charCodeAt(0);
    const value = code >= 65 ? String(code - 55) : ch;
    for (const digit of value) rest = (rest * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return rest;
}

/** Saudi IBAN: `SA`, two check digits, a two-digit bank code and 18 account characters (24 in all), mod 97 = 1. */
export function normalizeIban(v: string): string | null {
  const compact = v.replace(/\s+/g, '').toUpperCase();
  if (!/^SA\d{4}[0-9A-Z]{18}$/.test(compact)) return null;
  return ibanMod97(compact) === 1 ? compact : null;
}

/** Builds a valid Saudi IBAN from a bank code and an account (check digits computed): tests and seeds use it. */
export function makeSaudiIban(bankCode: string, account: string): string {
  const bban = bankCode + account;
  const check = 98 - ibanMod97(`SA00${bban}`);
  return `SA${String(check).padStart(2, '0')}${bban}`;
}

/** `SA0380000000608010167519` -> `SA03 8000 0000 6080 1016 7519`. */
export const formatIban = (v: string): string => v.replace(/(.{4})/g, '$1 ').trim();

/**
 * A mobile number that can receive the OTP, as E.164: Saudi mobiles in any usual spelling (05XXXXXXXX, 5XXXXXXXX,
 * 9665XXXXXXXX, +9665XXXXXXXX, 009665XXXXXXXX) or an international number `+` and 8 to 15 digits (delegates of
 * foreign factories and CBs). Saudi numbers that are not mobiles (landlines) are refused: they cannot get an SMS.
 */
export function normalizePhone(v: string): string | null {
  const compact = v.replace(/[\s\-()]/g, '');
  const saudi = /^(?:\+966|00966|966|0)?(5\d{8})$/.exec(compact);
  if (saudi) return `+966${saudi[1]}`;
  const intl = /^(?:\+|00)([1-9]\d{7,14})$/.exec(compact);
  if (!intl) return null;
  if (intl[1].startsWith('966')) return null;
  return `+${intl[1]}`;
}

/** `+966551234567` -> `+966 55 ***4567`: enough for the delegate to recognise it, not enough to harvest it. */
export function maskPhone(e164: string): string {
  return `${e164.slice(0, -7)}***${e164.slice(-4)}`;
}

/** Arabic letters, spaces and the usual name punctuation. */
export const ARABIC_NAME_RE = /^[\u0600-\u06FF\s.'-]+$/;
/** Latin letters, spaces and the usual name punctuation. */
export const ENGLISH_NAME_RE = /^[A-Za-z\s.'-]+$/;
