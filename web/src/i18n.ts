import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { flattenTexts } from '../../machines/text-overrides';
import { addMessageFormats } from '../../machines/message-formats';

export const LANGUAGES = ['ar', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
/** Spec 01 section 9: default language ar, cultures en and ar. */
export const DEFAULT_LANGUAGE: Language = 'ar';

const STORAGE_KEY = 'halal.lang';
/** Read by the server (server/i18n.ts pickLanguage) so its messages follow the UI language. */
const COOKIE = 'lang';

export const isLanguage = (v: unknown): v is Language => v === 'ar' || v === 'en';
export const directionOf = (lang: string): 'rtl' | 'ltr' => (lang === 'ar' ? 'rtl' : 'ltr');

// Every namespace file of locales/ is bundled (the same files the server reads, so keys never drift apart), one
// chunk per language (locale-bundles/): a page loads only its language's texts; the other comes on a switch.
const bundles = import.meta.glob<Record<string, Record<string, unknown>>>('./locale-bundles/*.ts', { import: 'default' });
const NAMESPACE = /\/([\w-]+)\.json$/;

// The bundled texts per loaded language, flattened before i18next owns (and an override changes) the resource
// objects: what a removed override falls back to.
const bundled: Record<string, Record<string, Record<string, string>>> = {};
const loading = new Map<Language, Promise<Record<string, Record<string, unknown>>>>();

/** The language's namespaces, fetched once. */
function loadBundles(lang: Language): Promise<Record<string, Record<string, unknown>>> {
  let pending = loading.get(lang);
  if (!pending) {
    pending = bundles[`./locale-bundles/${lang}.ts`]!().then((files) => {
      const namespaces = Object.fromEntries(Object.entries(files).map(([path, tree]) => [NAMESPACE.exec(path)![1]!, tree]));
      bundled[lang] = {};
      for (const [ns, tree] of Object.entries(namespaces)) bundled[lang][ns] = flattenTexts(tree);
      return namespaces;
    });
    loading.set(lang, pending);
    pending.catch(() => loading.delete(lang));
  }
  return pending;
}

/** Makes sure i18next holds the language's texts (with the overrides in force) before anything renders in it. */
async function ensureLanguage(lang: Language): Promise<void> {
  if (i18next.hasResourceBundle(lang, 'common')) return;
  const namespaces = await loadBundles(lang);
  for (const [ns, tree] of Object.entries(namespaces)) i18next.addResourceBundle(lang, ns, structuredClone(tree), true, true);
  applyOverrides(lastOverrides);
}

type Overrides = Record<string, Record<string, Record<string, string>>>;
let applied: { lang: string; ns: string; key: string }[] = [];
let lastOverrides: Overrides = {};

/** Lays the administrator's overrides (language-management) over the bundled texts; a dropped one is restored. */
function applyOverrides(overrides: Overrides): void {
  lastOverrides = overrides;
  if (!i18next.isInitialized) return; // laid over the texts right after init
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

/**
 * ?lang= first (spec: the query parameter switches), then what the user chose before, then Arabic. Each source is
 * read only when the previous one had no answer: reading document.cookie is a synchronous call to the browser's
 * network process, which took 20 to 60 ms of the boot on a phone-speed CPU while the page's files were loading.
 */
export function initialLanguage(): Language {
  const sources = [() => new URLSearchParams(window.location.search).get('lang'), () => localStorage.getItem(STORAGE_KEY), cookieLanguage];
  for (const source of sources) {
    const candidate = source();
    if (isLanguage(candidate)) return candidate;
  }
  return DEFAULT_LANGUAGE;
}

/** Remembers the choice: localStorage for the web, a cookie for the server. */
function remember(lang: Language): void {
  localStorage.setItem(STORAGE_KEY, lang);
  // Secure over HTTPS, as the server's own copy of it is in production (server/config.ts secureCookies).
  document.cookie = `${COOKIE}=${lang}; path=/; max-age=${365 * 24 * 3600}; samesite=lax${location.protocol === 'https:' ? '; secure' : ''}`;
}

/** Remembers the choice and switches the UI once the language's texts are there. */
export async function setLanguage(lang: Language): Promise<void> {
  remember(lang);
  await ensureLanguage(lang);
  if (i18next.language !== lang) await i18next.changeLanguage(lang);
}

export const currentLanguage = (): Language => (isLanguage(i18next.language) ? i18next.language : DEFAULT_LANGUAGE);

/** The separator of a run-in list in the UI language (the Arabic comma in Arabic). */
export const listSeparator = (lang: string = currentLanguage()): string => (lang === 'ar' ? '، ' : ', ');

/** `lang`: the language the server painted the page in (prerender), so the app takes over in the same one. */
export async function initI18n(lang: Language = initialLanguage()): Promise<void> {
  // Remembered at once, before the texts arrive: a page left before they do (a quick next navigation) keeps the choice.
  remember(lang);
  const [namespaces] = await Promise.all([loadBundles(lang), loadTextOverrides(false)]);
  await i18next.use(initReactI18next).init({
    // The first language's texts come with the start; both files hold the same keys (tests/web), so no fallback
    // language has to be downloaded as well.
    resources: { [lang]: structuredClone(namespaces) },
    lng: lang,
    fallbackLng: false,
    supportedLngs: [...LANGUAGES],
    ns: Object.keys(namespaces),
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  // The server's message formats ({{reference, ltr}}, {{date, date}}), so an error said again here reads as it did there.
  addMessageFormats(i18next);
  applyOverrides(lastOverrides);
  await setLanguage(lang);
}

/**
 * The server's prerender (prerender/render.tsx): both languages' texts once, then per page the overrides in force
 * (what GET /api/texts/overrides answers) and the visitor's language. Pages are rendered one at a time.
 */
export async function initServerI18n(lang: Language, overrides: Overrides): Promise<void> {
  if (!i18next.isInitialized) {
    const all = await Promise.all(LANGUAGES.map(async (l) => [l, await loadBundles(l)] as const));
    await i18next.use(initReactI18next).init({
      resources: Object.fromEntries(all.map(([l, namespaces]) => [l, structuredClone(namespaces)])),
      lng: lang,
      fallbackLng: false,
      supportedLngs: [...LANGUAGES],
      ns: Object.keys(all[0][1]),
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      returnNull: false,
    });
    addMessageFormats(i18next);
  }
  applyOverrides(overrides);
  if (i18next.language !== lang) await i18next.changeLanguage(lang);
}

export default i18next;
