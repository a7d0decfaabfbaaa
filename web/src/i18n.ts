import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { flattenTexts } from '../../machines/text-overrides';

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

// The bundled texts, flattened before i18next owns (and an override changes) the resource objects: what a removed
// override falls back to.
const bundled: Record<string, Record<string, Record<string, string>>> = {};
for (const [lang, namespaces] of Object.entries(resources)) {
  bundled[lang] = {};
  for (const [ns, tree] of Object.entries(namespaces)) bundled[lang][ns] = flattenTexts(tree);
}

type Overrides = Record<string, Record<string, Record<string, string>>>;
let applied: { lang: string; ns: string; key: string }[] = [];

/** Lays the administrator's overrides (language-management) over the bundled texts; a dropped one is restored. */
function applyOverrides(overrides: Overrides): void {
  for (const { lang, ns, key } of applied) {
    const original = bundled[lang]?.[ns]?.[key];
    if (original !== undefined) i18next.addResource(lang, ns, key, original, { silent: true });
  }
  applied = [];
  for (const [lang, namespaces] of Object.entries(overrides)) {
    for (const [ns, texts] of Object.entries(namespaces ?? {})) {
      for (const [key, value] of Object.entries(texts ?? {})) {
        if (bundled[lang]?.[ns]?.[key] === undefined || typeof value !== 'string') continue;
        i18next.addResource(lang, ns, key, value, { silent: true });
        applied.push({ lang, ns, key });
      }
    }
  }
}

/**
 * Fetches the text overrides in force (GET /api/texts/overrides) and applies them; the screens on show re-render.
 * Without an answer (offline, server down) the bundled texts stay.
 */
export async function loadTextOverrides(rerender = true): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 4000);
  try {
    const res = await fetch('/api/texts/overrides', { credentials: 'same-origin', headers: { accept: 'application/json' }, signal: controller.signal });
    if (!res.ok) return;
    applyOverrides((await res.json()) as Overrides);
    if (rerender && i18next.isInitialized) await i18next.changeLanguage(i18next.language);
  } catch {
    // The bundled texts stay in force.
  } finally {
    clearTimeout(timer);
  }
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
  await loadTextOverrides(false);
  await setLanguage(lang);
}

export default i18next;
