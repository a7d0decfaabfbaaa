import countries from 'i18n-iso-countries';

/** Country names in both languages from ISO 3166 alpha-2 codes (the Node entry of the package registers all locales). */
export function countryNames(code: string): { countryNameAr: string; countryNameEn: string } {
  const upper = code.toUpperCase();
  return {
    countryNameAr: countries.getName(upper, 'ar') ?? upper,
    countryNameEn: countries.getName(upper, 'en') ?? upper,
  };
}

const ORDER = new Map<string, string[]>();

/** Every country code sorted by its name in `lang`: a list sorted "by country" follows the names its reader sees. */
export function countryOrder(lang: 'ar' | 'en'): string[] {
  let order = ORDER.get(lang);
  if (!order) {
    const collator = new Intl.Collator(lang);
    const names = countries.getNames(lang, { select: 'official' });
    order = Object.keys(names).sort((a, b) => collator.compare(names[a]!, names[b]!));
    ORDER.set(lang, order);
  }
  return order;
}

/**
 * countryOrder as one PostgreSQL array literal (one parameter, for `array_position`), so a query sorts by the names
 * (Germany/ألمانيا, Turkey/تركيا), not by the codes.
 */
export const countryOrderLiteral = (lang: 'ar' | 'en'): string => `{${countryOrder(lang).join(',')}}`;
