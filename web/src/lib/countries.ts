import countries from 'i18n-iso-countries';
import arCountries from 'i18n-iso-countries/langs/ar.json';
import enCountries from 'i18n-iso-countries/langs/en.json';

/** Country names in the portal's two languages (ISO 3166-1 alpha-2 codes), bundled: nothing loads at run time. */
countries.registerLocale(arCountries);
countries.registerLocale(enCountries);

const langOf = (language: string) => (language === 'ar' ? 'ar' : 'en');

/** Fields that hold a country code ('countryCode', 'arrivalCountryCode'). */
export const isCountryField = (name: string) => name === 'countryCode' || /CountryCode$/.test(name);

/** Every country as [code, name], sorted by name in the language. */
export function countryChoices(language: string): [string, string][] {
  const lang = langOf(language);
  return Object.entries(countries.getNames(lang, { select: 'official' })).sort((a, b) => a[1].localeCompare(b[1], lang));
}

/** The country's name in the language, or the code when it names no country. */
export const countryName = (code: string, language: string): string => countries.getName(code, langOf(language), { select: 'official' }) ?? code;
