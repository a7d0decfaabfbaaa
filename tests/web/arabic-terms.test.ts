import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The Arabic texts name a conformity body (CB) one way, "جهة تقويم المطابقة", as the facility screens, the public
 * list and the certificates do. The service titles and the machines' kinds said "جهة مانحة" (a donor) and
 * "جهة المطابقة", so one request read as three different things on one screen.
 */
const dir = new URL('../../locales/ar/', import.meta.url);
const texts = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .flatMap((file) => {
    const out: { where: string; text: string }[] = [];
    const walk = (node: unknown, path: string) => {
      if (typeof node === 'string') out.push({ where: `${file} ${path}`, text: node });
      else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(v, path ? `${path}.${k}` : k);
    };
    walk(JSON.parse(readFileSync(new URL(file, dir), 'utf8')), '');
    return out;
  });

describe('Arabic terms', () => {
  it('a conformity body is "جهة تقويم المطابقة" in every text', () => {
    expect(texts.length).toBeGreaterThan(500);
    const other = texts.filter(({ text }) => /جهة مانحة|جهات مانحة|جهة المطابقة|جهات المطابقة/.test(text)).map(({ where, text }) => `${where}: ${text}`);
    expect(other).toEqual([]);
  });
});

describe('category names', () => {
  it("a category has one name in each language: the public list of conformity bodies names it as the forms and certificates do", () => {
    for (const lang of ['ar', 'en']) {
      const read = (ns: string) => JSON.parse(readFileSync(new URL(`../../locales/${lang}/${ns}.json`, import.meta.url), 'utf8'));
      const forms = read('forms').category as Record<string, string>;
      const publicList = read('public').cbCategory as Record<string, string>;
      expect(Object.keys(publicList).length, lang).toBeGreaterThan(10);
      for (const [code, name] of Object.entries(publicList)) expect(name, `${lang} ${code}`).toBe(`${code} – ${forms[code]}`);
    }
  });
});
