import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';

/**
 * Message keys written as literals in the contract's server code (server checks, preconditions, notices) exist in
 * both languages: a missing key would show its name to the user instead of a sentence.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const locale = (lang: string, ns: string) => JSON.parse(readFileSync(join(ROOT, 'locales', lang, `${ns}.json`), 'utf8')) as Record<string, unknown>;
const lookup = (tree: Record<string, unknown>, path: string): unknown =>
  path.split('.').reduce<unknown>((node, k) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[k] : undefined), tree);

describe('message keys of the request service', () => {
  const dir = join(ROOT, 'server/modules/requests');
  const sources = readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => readFileSync(join(dir, f), 'utf8'));
  const formKeys = [...new Set(sources.flatMap((s) => [...s.matchAll(/'(form\.[A-Za-z]+)'/g)].map((m) => m[1])))];
  const namespaced = [...new Set(sources.flatMap((s) => [...s.matchAll(/'(requests:[A-Za-z.]+)'/g)].map((m) => m[1])))];

  it('finds the keys it checks', () => {
    expect(formKeys.length).toBeGreaterThan(5);
    expect(namespaced).toContain('requests:notices.productsExcluded');
  });

  it.each(['ar', 'en'])('every key has a %s text', (lang) => {
    const validation = locale(lang, 'validation');
    for (const key of formKeys) expect(typeof lookup(validation, key), `${lang} validation:${key}`).toBe('string');
    for (const key of namespaced) {
      const [ns, path] = key.split(':');
      expect(typeof lookup(locale(lang, ns), path), `${lang} ${key}`).toBe('string');
    }
  });
});
