import { z } from 'zod';
import { FormMessage as M } from './messages';
import { isHalalRelevantHs, type HsRulesSource } from './hs-relevance';

/**
 * Field schemas of the certification forms, one per kind of field, each with the rules of spec 01 section 5 and
 * spec 02 sections 5 and 9 and a `validation` key as its message. Strings are trimmed before they are checked.
 */

/** Spec 02 section 9: "Product name at most 100 characters", "Name-type field minimum 3 characters". */
export const NAME_MIN = 3;
export const NAME_MAX = 100;
/** Spec 02 sections 5 and 9: "weight 0.1 to 9999999". */
export const WEIGHT_MIN = 0.1;
export const WEIGHT_MAX = 9_999_999;
/** Spec 02 section 5: revenue at most 20 digits and 2 decimals; production area at most 6 digits and 2 decimals. */
export const REVENUE_DIGITS = 20;
export const AREA_DIGITS = 6;
export const DECIMALS = 2;

/** A missing value (absent, null) is "required"; a value of the wrong kind is "invalid". */
export const requiredOrInvalid = (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null ? M.required : M.invalid;

// Arabic letters (basic and extended, with tatweel) and the combining vowel marks and superscript alef. In a
// character class the marks always come first: a mark right after a letter reads as one combined character.
const AR_LETTER = '\\u0621-\\u063A\\u0640-\\u064A\\u0671-\\u06D3';
const AR_MARK = '\\u064B-\\u0652\\u0670';
const AR_DIGIT = '\\u0660-\\u0669';
const EN_LETTER = 'A-Za-z';

/** Letters of one language and single spaces between words: "Arabic brand Arabic letters only" (spec 02 section 5). */
const arabicLetters = new RegExp(`^[${AR_MARK}${AR_LETTER}]+( [${AR_MARK}${AR_LETTER}]+)*$`);
const englishLetters = new RegExp(`^[${EN_LETTER}]+( [${EN_LETTER}]+)*$`);
/**
 * "Arabic or English letters, numbers and the symbols - and \, at least 3 characters" (spec 01 section 5), per
 * language for the fields that have an Arabic and an English version; at least one letter.
 */
const arabicNameLike = new RegExp(`^(?=.*[${AR_LETTER}])[${AR_MARK}${AR_LETTER}${AR_DIGIT}0-9 \\-\\\\]+$`);
const englishNameLike = new RegExp(`^(?=.*[${EN_LETTER}])[${EN_LETTER}0-9 \\-\\\\]+$`);
const anyNameLike = new RegExp(`^(?=.*[${AR_LETTER}${EN_LETTER}])[${AR_MARK}${AR_LETTER}${AR_DIGIT}${EN_LETTER}0-9 \\-\\\\]+$`);
/** Street and branch addresses: the name-like set plus the punctuation addresses carry ("King Fahd Rd., 12/3"). */
const addressLike = new RegExp(`^(?=.*[${AR_LETTER}${EN_LETTER}])[${AR_MARK}${AR_LETTER}${AR_DIGIT}${EN_LETTER}0-9 \\-\\\\/.,#()'،]+$`);

/** Collapses runs of whitespace so that "Al  Marai" and "Al Marai" are the same name. */
const squeeze = (s: string) => s.replace(/\s+/g, ' ').trim();

/** A required string, trimmed and squeezed, with a length window and a pattern. */
function text(pattern: RegExp, patternMessage: string, min = NAME_MIN, max = NAME_MAX) {
  return z
    .string({ error: requiredOrInvalid })
    .transform(squeeze)
    .pipe(
      z
        .string()
        .min(1, { error: M.required, abort: true })
        .min(min, M.nameTooShort)
        .max(max, max === NAME_MAX ? M.nameTooLong : M.textTooLong)
        .regex(pattern, patternMessage),
    );
}

export const arabicLettersField = () => text(arabicLetters, M.arabicLettersOnly);
export const englishLettersField = () => text(englishLetters, M.englishLettersOnly);
export const arabicNameField = () => text(arabicNameLike, M.arabicNameLike);
export const englishNameField = () => text(englishNameLike, M.englishNameLike);
export const nameLikeField = () => text(anyNameLike, M.nameLike);
export const addressField = () => text(addressLike, M.addressText, NAME_MIN, 200);

/** Free text (technical specifications, activity name): 1 to `max` characters, no control characters. */
export const freeTextField = (max: number) =>
  z
    .string({ error: requiredOrInvalid })
    .transform(squeeze)
    .pipe(z.string().min(1, { error: M.required, abort: true }).max(max, M.textTooLong).regex(/^[^\p{Cc}<>]*$/u, M.invalid));

/** A string of exact digits (CR number, zip code): `pattern` decides the length. */
export const digitsField = (pattern: RegExp, message: string) =>
  z
    .string({ error: requiredOrInvalid })
    .trim()
    .pipe(z.string().min(1, { error: M.required, abort: true }).regex(pattern, message));

/**
 * Numbers typed into a form arrive as strings, JSON bodies carry numbers, spreadsheets either: a numeric string
 * becomes a number, an empty one is "missing", anything else stays and fails as invalid.
 */
export function toNumber(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const s = v.trim();
  if (s === '') return undefined;
  return /^[-+]?(\d+\.?\d*|\.\d+)$/.test(s) ? Number(s) : v;
}

/** Spec 02 sections 5 and 9: weight 0.1 to 9999999 (net and gross, in the product's unit). */
export const weightField = () =>
  z.preprocess(toNumber, z.number({ error: requiredOrInvalid }).min(WEIGHT_MIN, M.weightRange).max(WEIGHT_MAX, M.weightRange));

/** A whole number in [min, max]: "Numbers only, no fractions" (spec 01 section 5). */
export const countField = (min: number, max: number, rangeMessage: string) =>
  z.preprocess(
    toNumber,
    z.number({ error: requiredOrInvalid }).int(M.integerOnly).min(min, rangeMessage).max(max, rangeMessage),
  );

/** The decimal text of a number as a person wrote it; JS numbers print without exponent up to 1e21. */
function decimalText(v: unknown): unknown {
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'NaN';
  if (typeof v === 'string') return v.trim() === '' ? undefined : v.trim();
  return v;
}

/**
 * Total annual revenue: at most 20 digits before the point and at most 2 after (spec 02 section 5). Kept as a
 * decimal string because 20 digits do not fit a JS number exactly.
 */
export const revenueField = () =>
  z.preprocess(
    decimalText,
    z
      .string({ error: requiredOrInvalid })
      .regex(new RegExp(`^\\d{1,${REVENUE_DIGITS}}(\\.\\d{1,${DECIMALS}})?$`), M.revenueFormat),
  );

/** Production area in square metres: at most 6 digits before the point and 2 after, above zero. */
export const areaField = () =>
  z.preprocess(
    decimalText,
    z
      .string({ error: requiredOrInvalid })
      .regex(new RegExp(`^\\d{1,${AREA_DIGITS}}(\\.\\d{1,${DECIMALS}})?$`), M.areaFormat)
      .transform(Number)
      .pipe(z.number().positive(M.areaPositive)),
  );

/** HS codes are written with digits only, 6 to 12 of them (spec 02 section 5). */
export const HS_CODE_PATTERN = /^\d{6,12}$/;

/** An HS code: numeric, 6 to 12 digits, and Halal-relevant under `rules`. */
export const hsCodeField = (rules?: HsRulesSource) =>
  z
    .string({ error: requiredOrInvalid })
    .trim()
    .pipe(
      z
        .string()
        .min(1, { error: M.required, abort: true })
        .regex(HS_CODE_PATTERN, { error: M.hsCodeFormat, abort: true })
        .refine((code) => isHalalRelevantHs(code, rules), M.hsCodeNotHalal),
    );

/**
 * The product's number in the national food authority's system. Spec 02 section 5 says "one field exactly 17
 * characters; one alphanumeric" without naming the fields; we read both as this number: exactly 17 characters,
 * letters A-Z and digits only (stored upper case).
 */
export const PRODUCT_NUMBER_PATTERN = /^[A-Z0-9]{17}$/;
export const productNumberField = () =>
  z
    .string({ error: requiredOrInvalid })
    .trim()
    .toUpperCase()
    .pipe(z.string().min(1, { error: M.required, abort: true }).regex(PRODUCT_NUMBER_PATTERN, M.productNumberFormat));

/** Folded form of a name for duplicate checks: case, spacing and Arabic letter variants do not make a new name. */
export function foldName(s: string): string {
  return squeeze(s)
    .toLowerCase()
    .replace(/[\u064B-\u0652\u0670\u0640]/g, '')
    .replace(/[أإآٱ]/g, 'ا')
    .replace(/ى/g, 'ي')
    .replace(/ة/g, 'ه');
}
