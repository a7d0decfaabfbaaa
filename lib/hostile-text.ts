/**
 * Text that came from someone else, made harmless where it goes next. Neutral: imports nothing of the project.
 * - Spreadsheet formulas: a cell whose text starts with =, +, -, @ (or a tab / carriage return before one) is run as
 *   a formula by Excel, LibreOffice and Google Sheets ("CSV/formula injection"); every export puts its text through
 *   `neutraliseFormula`, which prefixes such text with an apostrophe so it is shown, not run.
 * - File names: bidi controls (U+202E RIGHT-TO-LEFT OVERRIDE makes "cv\u202Efdp.exe" display as "cvexe.pdf") and
 *   other control characters are removed by `safeFileName`.
 * - Unusable text: NUL and unpaired UTF-16 surrogates (which no database column or JSON encoder handles alike) are
 *   found by `hasUnusableText`; the server refuses them with a 400.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

/** The text of an exported cell, never run as a formula: a leading = + - @ (or tab / CR) gets an apostrophe before it. */
export function neutraliseFormula<T>(value: T): T | string {
  if (typeof value !== 'string' || !FORMULA_START.test(value)) return value;
  return `'${value}`;
}

/** Bidirectional formatting characters: embeddings, overrides, isolates and marks. */
export const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/g;

/** A file name without bidi controls and control characters (what a person reads is what the name is). */
export function safeFileName(name: string): string {
  return name.replace(BIDI_CONTROLS, '').replace(CONTROL, '').trim();
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when the text holds NUL or an unpaired surrogate. */
export function hasUnusableText(s: string): boolean {
  return s.includes('\u0000') || LONE_SURROGATE.test(s);
}

/** One CSV field (RFC 4180 quoting) of exported text, with formulas neutralised. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(neutraliseFormula(value instanceof Date ? value.toISOString() : String(value)));
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows as CSV text (CRLF line ends, a BOM so spreadsheet programs read UTF-8), every field through csvField. */
export function toCsv(rows: readonly (readonly unknown[])[]): string {
  return `\uFEFF${rows.map((r) => r.map(csvField).join(',')).join('\r\n')}\r\n`;
}
