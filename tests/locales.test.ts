import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CertificateTableKind } from '../machines/services';

/**
 * The two languages must say the same things: every namespace file exists in both, every key (full dotted path)
 * exists in both, and a message uses the same {{placeholders}} in both. Plural variants (key_one, key_few...)
 * count as their key, since Arabic needs more plural forms than English.
 */
const LOCALES = fileURLToPath(new URL('../locales', import.meta.url));
const LANGS = ['ar', 'en'] as const;
const PLURAL = /_(zero|one|two|few|many|other)$/;

const namespaces = (lang: string) =>
  readdirSync(join(LOCALES, lang))
    .filter((f) => f.endsWith('.json'))
    .sort();

/** Leaf path -> value, e.g. { 'errorScreen.404.title': 'Page not found' }. */
function flatten(node: unknown, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  if (node !== null && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else {
    out[prefix] = node;
  }
  return out;
}

/** Base key -> placeholders used by any of its (plural) variants. */
function messages(lang: string, file: string): Map<string, Set<string>> {
  const flat = flatten(JSON.parse(readFileSync(join(LOCALES, lang, file), 'utf8')));
  const out = new Map<string, Set<string>>();
  for (const [path, value] of Object.entries(flat)) {
    const base = path.replace(PLURAL, '');
    const set = out.get(base) ?? new Set<string>();
    for (const m of String(value).matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)) set.add(m[1]);
    out.set(base, set);
  }
  return out;
}

describe('locales', () => {
  it('has the same namespace files in Arabic and English', () => {
    expect(namespaces('ar')).toEqual(namespaces('en'));
  });

  const files = [...new Set(LANGS.flatMap(namespaces))];
  it.each(files)('%s has every key in both languages', (file) => {
    const [ar, en] = LANGS.map((l) => (namespaces(l).includes(file) ? messages(l, file) : new Map<string, Set<string>>()));
    const onlyIn = (a: Map<string, unknown>, b: Map<string, unknown>) => [...a.keys()].filter((k) => !b.has(k)).sort();
    expect({ missingInEnglish: onlyIn(ar, en), missingInArabic: onlyIn(en, ar) }).toEqual({ missingInEnglish: [], missingInArabic: [] });
  });

  it.each(files)('%s uses the same placeholders in both languages', (file) => {
    if (!LANGS.every((l) => namespaces(l).includes(file))) return; // reported by the tests above
    const [ar, en] = LANGS.map((l) => messages(l, file));
    const differing = [...ar.keys()]
      .filter((k) => en.has(k))
      .filter((k) => [...ar.get(k)!].sort().join() !== [...en.get(k)!].sort().join())
      .map((k) => `${k}: ar {${[...ar.get(k)!].join(', ')}} en {${[...en.get(k)!].join(', ')}}`);
    expect(differing).toEqual([]);
  });

  // Every kind of certificate the portal issues has its name where the certificate page (payments:certificate.kind,
  // the server's kindLabel) and the public verification page (public:kind) show it; a shipment certificate showed "shipment".
  const KINDS = ['internalHalal', 'externalHalal', 'cbDesignation', 'shipment', 'halalMark'] as const satisfies readonly CertificateTableKind[];
  const everyKind: Exclude<CertificateTableKind, (typeof KINDS)[number]> extends never ? true : false = true;
  it.each(LANGS)('%s names every certificate kind on the certificate and verification pages', (lang) => {
    expect(everyKind).toBe(true);
    const read = (file: string) => flatten(JSON.parse(readFileSync(join(LOCALES, lang, file), 'utf8')));
    const payments = read('payments.json');
    const pub = read('public.json');
    const missing = KINDS.flatMap((k) => [
      ...(typeof payments[`certificate.kind.${k}`] === 'string' ? [] : [`payments:certificate.kind.${k}`]),
      ...(typeof pub[`kind.${k}`] === 'string' ? [] : [`public:kind.${k}`]),
    ]);
    expect(missing).toEqual([]);
  });
});
