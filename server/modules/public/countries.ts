import countries from 'i18n-iso-countries';

/** Country names in both languages from ISO 3166 alpha-2 codes (the Node entry of the package registers all locales). */
export function countryNames(code: string): { countryNameAr: string; countryNameEn: string } {
  const upper = code.toUpperCase();
  return {
    countryNameAr: countries.getName(upper, 'ar') ?? upper,
    countryNameEn: countries.getName(upper, 'en') ?? upper,
  };
}

const ORDER = new Map<string, string>();

/**
 * Every country code sorted by its name in `lang`, as one PostgreSQL array literal: a list sorted "by country" is in
 * the order of the names its reader sees (Germany/ألمانيا, Turkey/تركيا), not of the codes.
 */
export function countryOrderLiteral(lang: 'ar' | 'en'): string {
  let literal = ORDER.get(lang);
  if (!literal) {
    const collator = new Intl.Collator(lang);
    const names = countries.getNames(lang, { select: 'official' });
    literal = `{${Object.keys(names).sort((a, b) => collator.compare(names[a]!, names[b]!)).join(',')}}`;
    ORDER.set(lang, literal);
  }
  return literal;
}
