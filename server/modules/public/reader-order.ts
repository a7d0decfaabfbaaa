import type { Language } from '../../i18n';

/**
 * Compares two named things in the order of the names a reader of `lang` sees (the other language's name where one
 * is missing), as the facility lists sort by name: an Arabic reader's list is not in the order of the English names.
 */
export function byReaderName(lang: Language): (a: { nameAr: string; nameEn: string }, b: { nameAr: string; nameEn: string }) => number {
  const collator = new Intl.Collator(lang);
  const nameOf = (c: { nameAr: string; nameEn: string }) => (lang === 'ar' ? c.nameAr || c.nameEn : c.nameEn || c.nameAr);
  return (a, b) => collator.compare(nameOf(a), nameOf(b));
}
