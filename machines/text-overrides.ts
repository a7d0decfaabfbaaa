/**
 * Text overrides (issue 15 item 5): the rules an administrator's change to a UI string or an SMS template must keep,
 * shared by the server (which refuses) and the web (which previews and warns before sending).
 * The locale parity rule: a key may be overridden only when it exists in both languages (a plural variant such as
 * `key_few` counts as its base key, since Arabic has more plural forms than English) and the new text uses exactly
 * the interpolation variables ({{name}}) of the text it replaces.
 */

export const TEXT_LANGUAGES = ['ar', 'en'] as const;
export type TextLanguage = (typeof TEXT_LANGUAGES)[number];

/** The longest text an override may hold (the longest bundled text is well under this). */
export const MAX_TEXT_LENGTH = 4000;

const PLURAL = /_(zero|one|two|few|many|other)$/;
const VARIABLE = /\{\{\s*-?\s*([\w.]+)[^}]*\}\}/g;

/** A key's base: `items_few` -> `items`. */
export const baseKey = (key: string): string => key.replace(PLURAL, '');

/** Leaf path -> text, e.g. { 'menu.home': 'Home' } (non-string leaves are written as strings). */
export function flattenTexts(node: unknown, prefix = '', out: Record<string, string> = {}): Record<string, string> {
  if (node !== null && typeof node === 'object' && !Array.isArray(node)) {
    for (const [k, v] of Object.entries(node)) flattenTexts(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (prefix) {
    out[prefix] = String(node);
  }
  return out;
}

/** The names of the {{variables}} a text uses, sorted, each once. */
export function variablesOf(text: string): string[] {
  return [...new Set([...text.matchAll(VARIABLE)].map((m) => m[1]))].sort();
}

/**
 * The override with each {{variable}} written as the text it replaces writes it: the format goes with the variable
 * (`{{number}}` typed where the bundled text has `{{number, ltr}}` keeps the isolate that holds a Latin number whole
 * in Arabic; `{{day}}` keeps `{{day, date}}`). An administrator edits the words, not how a value is said. A variable
 * the bundled text writes in more than one way is kept as typed.
 */
export function withOriginalFormats(original: string, value: string): string {
  const forms = new Map<string, Set<string>>();
  for (const m of original.matchAll(VARIABLE)) forms.set(m[1], (forms.get(m[1]) ?? new Set()).add(m[0]));
  return value.replace(VARIABLE, (whole, name: string) => {
    const written = forms.get(name);
    return written?.size === 1 ? [...written][0] : whole;
  });
}

/** SMS and notification templates: texts the server sends (an `sms` segment in the key). */
export const isTemplateKey = (key: string): boolean => /(^|\.)(sms|notifications?)\./.test(key);

/** Namespace -> flattened texts, per language. */
export type TextCatalogue = Record<TextLanguage, Record<string, Record<string, string>>>;

export type OverrideProblem =
  | { reason: 'unknownKey' }
  | { reason: 'notInBothLanguages' }
  | { reason: 'empty' }
  | { reason: 'tooLong'; max: number }
  | { reason: 'variables'; expected: string[]; found: string[] };

/** Why `value` may not replace `namespace:key` in `lang`, or null when it may. */
export function overrideProblem(catalogue: TextCatalogue, lang: TextLanguage, namespace: string, key: string, value: string): OverrideProblem | null {
  const original = catalogue[lang]?.[namespace]?.[key];
  if (original === undefined) return { reason: 'unknownKey' };
  const base = baseKey(key);
  const other = TEXT_LANGUAGES.find((l) => l !== lang)!;
  const otherTexts = catalogue[other]?.[namespace] ?? {};
  const inOther = Object.keys(otherTexts).some((k) => baseKey(k) === base);
  if (!inOther) return { reason: 'notInBothLanguages' };
  if (!value.trim()) return { reason: 'empty' };
  if (value.length > MAX_TEXT_LENGTH) return { reason: 'tooLong', max: MAX_TEXT_LENGTH };
  const expected = variablesOf(original);
  const found = variablesOf(value);
  if (expected.join('\u0000') !== found.join('\u0000')) return { reason: 'variables', expected, found };
  return null;
}

/** Fills {{variables}} with sample values, for a preview. */
export function fillVariables(text: string, values: Record<string, string>): string {
  return text.replace(VARIABLE, (whole, name: string) => values[name] ?? whole);
}
