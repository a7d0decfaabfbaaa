import { formatDate, type DateStyle } from './dates';

/**
 * The formats a message's parameters are said with, the same in the server's i18next (the errors it answers with) and
 * the web's (the same messages said again after a language switch, from the error's `params`):
 * - `{{reference, ltr}}`: a Latin identifier (a reference, a certificate or registration number, a key) inside the
 *   Unicode isolates LRI ... PDI in Arabic, so that "RF-2026/001" keeps its order and does not pull the digits and
 *   punctuation around it out of place (as web/src/components/Bidi.tsx `ltr()` does in the screens' strings);
 * - `{{date, date}}`, `{{after, date(style: dateTime)}}` (a style of dates.ts, `date` unless named): a date-only
 *   "2026-11-29" or an ISO instant in the message's language, as the screens show dates (formatDate). Never in an LTR
 *   isolate: the Arabic text carries its own marks (dates.ts).
 * A value the format cannot read (no date) is said as sent. The server sends the raw values as the error's `params`.
 */
const DATE_STYLES: readonly string[] = ['date', 'dateTime', 'stamp', 'time', 'long', 'full'] satisfies DateStyle[];
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * `value` inside LRI ... PDI in right-to-left text (Arabic), once (a value already isolated is left as it is); in
 * English a Latin identifier needs none and is said as sent.
 */
export function isolateLtr(value: unknown, lang: string | undefined): string {
  const text = String(value ?? '');
  if (!text || lang !== 'ar' || (text.startsWith('\u2066') && text.endsWith('\u2069'))) return text;
  return `\u2066${text}\u2069`;
}

/** `value` (a date-only string or an ISO instant) in `lang` with `style`, or the value as sent when it is no date. */
export function messageDate(value: unknown, lang: string | undefined, style: DateStyle): string {
  if (typeof value !== 'string' || !ISO_DATE.test(value) || Number.isNaN(Date.parse(value.length === 10 ? `${value}T12:00:00Z` : value))) return String(value ?? '');
  return formatDate(value, lang ?? 'ar', style);
}

/** What of an i18next instance the formats need (its formatter, there once it is initialised). */
interface WithFormatter {
  services: { formatter?: { add(name: string, format: (value: unknown, lng: string | undefined, options: unknown) => string): void } };
}

/** Adds the message formats to an initialised i18next instance (server/i18n.ts, web/src/i18n.ts). */
export function addMessageFormats(i18n: WithFormatter): void {
  const formatter = i18n.services.formatter;
  if (!formatter) return;
  formatter.add('ltr', (value, lng) => isolateLtr(value, lng));
  formatter.add('date', (value, lng, options) => {
    const style = (options as { style?: unknown } | undefined)?.style;
    return messageDate(value, lng, typeof style === 'string' && DATE_STYLES.includes(style) ? (style as DateStyle) : 'date');
  });
}
