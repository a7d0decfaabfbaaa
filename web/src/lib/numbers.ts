/**
 * The portal's numbers: Western digits in both languages (the Arabic screens use `ar-SA` with Latin numerals, as the
 * dates do). One format per language and kind: building an Intl.NumberFormat costs a few milliseconds on a slow phone.
 */
const formats = new Map<string, Intl.NumberFormat>();

function formatFor(lang: string, kind: 'money' | 'count'): Intl.NumberFormat {
  const key = `${lang === 'ar' ? 'ar' : 'en'}:${kind}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(lang === 'ar' ? 'ar-SA-u-nu-latn' : 'en-US', kind === 'money' ? { minimumFractionDigits: 2, maximumFractionDigits: 2 } : {});
    formats.set(key, format);
  }
  return format;
}

/** An amount of money with its two decimals (the currency is said beside it by the screen). */
export const moneyFormat = (lang: string): Intl.NumberFormat => formatFor(lang, 'money');

/** A count. */
export const countFormat = (lang: string): Intl.NumberFormat => formatFor(lang, 'count');
