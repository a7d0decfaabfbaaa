/**
 * Dates and times as the portal shows them (the screens, through web/src/lib/dates.ts, and the messages the server and
 * the web say, through the `date` formats of message-formats.ts): the Gregorian calendar with Western digits in both languages (the `ar-SA`
 * locale alone defaults to the Umm al-Qura calendar in some engines, so the calendar is named), on the authority's
 * clock (Asia/Riyadh) whatever the reader's device is set to. So a deadline reads the same day for a Saudi factory and a
 * foreign one, and the page the server paints (its clock is UTC) is the page the app renders.
 *
 * The Arabic text carries right-to-left marks that keep its parts in Arabic order (day, month, year read from the
 * right): put it into the sentence as it is, never inside an LTR isolate (`ltr()`, `<Ltr>`), which reorders it
 * ("292026/11/"). A date-only value ("2026-11-29") is a calendar day, not an instant, and is shown as that day.
 */
export type DateStyle = 'date' | 'dateTime' | 'stamp' | 'time' | 'long' | 'full';

export const PORTAL_TIME_ZONE = 'Asia/Riyadh';

const STYLES: Record<DateStyle, Intl.DateTimeFormatOptions> = {
  /** 29 Nov 2026 / 29‏/11‏/2026 */
  date: { dateStyle: 'medium' },
  /** 29 Nov 2026, 10:01 / 29‏/11‏/2026، 10:01 ص */
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  /** with seconds, for logs */
  stamp: { dateStyle: 'medium', timeStyle: 'medium' },
  /** 10:01, 24-hour */
  time: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  /** 29 November 2026 / 29 نوفمبر 2026 */
  long: { day: 'numeric', month: 'long', year: 'numeric' },
  /** Sunday, 29 November 2026 / الأحد، 29 نوفمبر 2026 */
  full: { dateStyle: 'full' },
};

// Building an Intl.DateTimeFormat costs a few milliseconds on a slow phone: one per language and style.
const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(lang: string, style: DateStyle): Intl.DateTimeFormat {
  const key = `${lang === 'ar' ? 'ar' : 'en'}:${style}`;
  let format = formats.get(key);
  if (!format) {
    const locale = lang === 'ar' ? 'ar-SA-u-ca-gregory-nu-latn' : 'en-GB-u-ca-gregory';
    format = new Intl.DateTimeFormat(locale, { ...STYLES[style], timeZone: PORTAL_TIME_ZONE });
    formats.set(key, format);
  }
  return format;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** `value` in the UI language `lang`; an ISO instant, a date-only string or a Date. */
export function formatDate(value: string | Date, lang: string, style: DateStyle = 'date'): string {
  // Noon UTC of a calendar day is the same day in Riyadh (UTC+3).
  const date = typeof value === 'string' ? new Date(DATE_ONLY.test(value) ? `${value}T12:00:00Z` : value) : value;
  return formatFor(lang, style).format(date);
}
