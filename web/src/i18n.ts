import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';

export const LANGUAGES = ['ar', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
/** Spec 01 section 9: default language ar, cultures en and ar. */
export const DEFAULT_LANGUAGE: Language = 'ar';

const STORAGE_KEY = 'halal.lang';
/** Read by the server (server/i18n.ts pickLanguage) so its messages follow the UI language. */
const COOKIE = 'lang';

export const isLanguage = (v: unknown): v is Language => v === 'ar' || v === 'en';
export const directionOf = (lang: string): 'rtl' | 'ltr' => (lang === 'ar' ? 'rtl' : 'ltr');

// Every namespace file of locales/ is bundled: the same files the server reads, so keys never drift apart.
const files = import.meta.glob<Record<string, unknown>>('../../locales/*/*.json', { eager: true, import: 'default' });
const resources: Record<string, Record<string, Record<string, unknown>>> = {};
for (const [path, content] of Object.entries(files)) {
  const match = /locales\/(\w+)\/([\w-]+)\.json$/.exec(path);
  if (!match) continue;
  const [, lang, ns] = match;
  (resources[lang] ??= {})[ns] = content;
}

function cookieLanguage(): string | undefined {
  return /(?:^|;\s*)lang=(\w+)/.exec(document.cookie)?.[1];
}

/** ?lang= first (spec: the query parameter switches), then what the user chose before, then Arabic. */
export function initialLanguage(): Language {
  const fromQuery = new URLSearchParams(window.location.search).get('lang');
  for (const candidate of [fromQuery, localStorage.getItem(STORAGE_KEY), cookieLanguage()]) {
    if (isLanguage(candidate)) return candidate;
  }
  return DEFAULT_LANGUAGE;
}

/** Remembers the choice (localStorage for the web, a cookie for the server) and switches the UI. */
export async function setLanguage(lang: Language): Promise<void> {
  localStorage.setItem(STORAGE_KEY, lang);
  document.cookie = `${COOKIE}=${lang}; path=/; max-age=${365 * 24 * 3600}; samesite=lax`;
  if (i18next.language !== lang) await i18next.changeLanguage(lang);
}

export const currentLanguage = (): Language => (isLanguage(i18next.language) ? i18next.language : DEFAULT_LANGUAGE);

export async function initI18n(): Promise<void> {
  const lang = initialLanguage();
  await i18next.use(initReactI18next).init({
    resources,
    lng: lang,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    ns: Object.keys(resources[DEFAULT_LANGUAGE] ?? {}),
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  await setLanguage(lang);
}

export default i18next;
