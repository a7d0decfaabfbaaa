import countries from 'i18n-iso-countries';

/** Country names in both languages from ISO 3166 alpha-2 codes (the Node entry of the package registers all locales). */
export function countryNames(code: string): { countryNameAr: string; countryNameEn: string } {
  const upper = code.toUpperCase();
  return {
    countryNameAr: countries.getName(upper, 'ar') ?? upper,
    countryNameEn: countries.getName(upper, 'en') ?? upper,
  };
}
