import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import i18next, { type TFunction } from 'i18next';
import { flattenTexts, type TextCatalogue } from '../machines/text-overrides';
import { addMessageFormats } from '../machines/message-formats';

export const LANGUAGES = ['ar', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'ar';

const LOCALES_DIR = fileURLToPath(new URL('../locales', import.meta.url));

/** Reads locales/<lang>/<namespace>.json, the same files the web bundles. */
export function loadResources(): Record<Language, Record<string, unknown>> {
  const out = {} as Record<Language, Record<string, unknown>>;
  for (const lang of LANGUAGES) {
    out[lang] = {};
    for (const file of readdirSync(join(LOCALES_DIR, lang)).filter((f) => f.endsWith('.json'))) {
      out[lang][file.replace(/\.json$/, '')] = JSON.parse(readFileSync(join(LOCALES_DIR, lang, file), 'utf8'));
    }
  }
  return out;
}

const instance = i18next.createInstance();
let ready: Promise<unknown> | undefined;

/** Initialises the server's i18next once, with the web's message formats ({{reference, ltr}}, {{date, date}}); safe to await many times. */
export function initI18n(): Promise<unknown> {
  ready ??= instance
    .init({
      resources: loadResources() as never,
      lng: DEFAULT_LANGUAGE,
      fallbackLng: DEFAULT_LANGUAGE,
      defaultNS: 'common',
      interpolation: { escapeValue: false },
    })
    .then(() => addMessageFormats(instance));
  return ready;
}

/** The bundled texts, flattened (namespace -> dotted key -> text), per language: what an override replaces. */
let catalogue: TextCatalogue | undefined;
export function bundledCatalogue(): TextCatalogue {
  if (!catalogue) {
    const resources = loadResources();
    catalogue = { ar: {}, en: {} };
    for (const lang of LANGUAGES) {
      for (const [ns, tree] of Object.entries(resources[lang])) catalogue[lang][ns] = flattenTexts(tree);
    }
  }
  return catalogue;
}

export interface TextOverride {
  lang: Language;
  namespace: string;
  key: string;
  value: string;
}

/** The overrides laid over the bundled texts now, by `lang:namespace:key`. */
let applied = new Map<string, TextOverride>();
const idOf = (o: { lang: string; namespace: string; key: string }) => `${o.lang}\u0000${o.namespace}\u0000${o.key}`;

/**
 * Makes `overrides` the complete set in force in the server's `t` (language-management): each replaces its bundled
 * text; a key overridden before but absent now gets its bundled text back. Unknown keys are skipped.
 */
export function applyTextOverrides(overrides: TextOverride[]): void {
  const bundled = bundledCatalogue();
  const next = new Map<string, TextOverride>();
  for (const o of overrides) if (bundled[o.lang]?.[o.namespace]?.[o.key] !== undefined) next.set(idOf(o), o);
  for (const [id, o] of applied) {
    if (!next.has(id)) instance.addResource(o.lang, o.namespace, o.key, bundled[o.lang][o.namespace][o.key], { silent: true });
  }
  for (const [id, o] of next) if (applied.get(id)?.value !== o.value) instance.addResource(o.lang, o.namespace, o.key, o.value, { silent: true });
  applied = next;
  // The texts changed: callers get a new `t`, so the labels remembered per `t` (requests/present.ts) are dropped.
  fixedTs.clear();
}

/*
 * One `t` per language, shared by the requests, until the texts change (applyTextOverrides, the only writer of the
 * server's i18next resources after initI18n). Labels memoised per `t` (requests/present.ts statusLabel) therefore
 * live across requests: on an event POST the status label's i18next lookup was ~3 % of the CPU (docs/performance-log.md,
 * HTTP fourth pass). Before, a new `t` per request kept that memo to one request.
 */
const fixedTs = new Map<Language, TFunction>();
export const tFor = (lang: Language): TFunction => fixedTs.get(lang) ?? fixedTs.set(lang, instance.getFixedT(lang)).get(lang)!;

const PLACEHOLDER = /\{\{\s*-?\s*([\w.]+)/g;
const PLURAL_SUFFIXES = ['_zero', '_one', '_two', '_few', '_many', '_other'];

/**
 * The parameters `nsKey` (`errors:OtpInvalid`, `validation:minLength`) shows in either language now: its placeholders,
 * and `count` when it has plural forms. An error body sends only these, so a client can say the message again in
 * another language without learning more than the message already told.
 */
export function shownParamsOf(nsKey: string): Set<string> {
  const at = nsKey.indexOf(':');
  const [ns, key] = at < 0 ? ['common', nsKey] : [nsKey.slice(0, at), nsKey.slice(at + 1)];
  const names = new Set<string>();
  for (const lang of LANGUAGES) {
    for (const suffix of ['', ...PLURAL_SUFFIXES]) {
      const text: unknown = instance.getResource(lang, ns, key + suffix);
      if (typeof text !== 'string') continue;
      if (suffix) names.add('count');
      for (const m of text.matchAll(PLACEHOLDER)) names.add(m[1]!);
    }
  }
  return names;
}

/** Picks the caller's language: ?lang=, then the `lang` cookie, then Accept-Language, then Arabic. */
export function pickLanguage(query: unknown, cookie: string | undefined, acceptLanguage: string | undefined): Language {
  const q = (query as { lang?: unknown } | undefined)?.lang;
  for (const candidate of [q, cookie]) if (candidate === 'ar' || candidate === 'en') return candidate;
  const accepted = (acceptLanguage ?? '').split(',').map((s) => s.trim().slice(0, 2).toLowerCase());
  return (accepted.find((l) => l === 'ar' || l === 'en') as Language | undefined) ?? DEFAULT_LANGUAGE;
}
