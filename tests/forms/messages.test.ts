import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FORM_MESSAGE_KEYS } from '../../machines/forms';

const load = (lang: string) => JSON.parse(readFileSync(new URL(`../../locales/${lang}/validation.json`, import.meta.url), 'utf8'));
const lookup = (tree: Record<string, unknown>, key: string): unknown =>
  key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);

describe('form messages', () => {
  it.each(['ar', 'en'])('every message key of the form schemas has a %s text', (lang) => {
    const tree = load(lang);
    const missing = FORM_MESSAGE_KEYS.filter((k) => typeof lookup(tree, k) !== 'string');
    expect(missing).toEqual([]);
  });

  it('the Arabic texts are Arabic and differ from the English ones', () => {
    const ar = load('ar');
    const en = load('en');
    for (const key of FORM_MESSAGE_KEYS) {
      expect(String(lookup(ar, key)), key).toMatch(/[\u0600-\u06FF]/);
      expect(lookup(ar, key), key).not.toEqual(lookup(en, key));
    }
  });
});
