import { describe, expect, it } from 'vitest';
import ar from '../../locales/ar/public.json';
import en from '../../locales/en/public.json';
import { scopeText } from '../../web/src/lib/mark-scope';

/*
 * walk1 #11: the Arabic Halal mark details page read "النطاق: Saudi" (the scope's code). The certificate page names it
 * in the reader's language, as the public verification page does.
 */
const tFor = (texts: typeof ar) => (key: string, o?: { defaultValue?: string }) => {
  const [, path] = key.split(':');
  const [group, code] = path!.split('.');
  return (texts as unknown as Record<string, Record<string, string>>)[group!]?.[code!] ?? o?.defaultValue ?? key;
};

describe('scope of a certificate or mark', () => {
  it('a Halal mark’s scope reads in the reader’s language', () => {
    expect(scopeText(tFor(ar), 'halalMark', 'Saudi')).toBe('السوق السعودي');
    expect(scopeText(tFor(en), 'halalMark', 'Saudi')).toBe('Saudi market');
    expect(scopeText(tFor(ar), 'halalMark', 'Global')).toBe('عالمي');
  });

  it('a certificate’s scope is a sentence shown as it is; none is none', () => {
    expect(scopeText(tFor(ar), 'internalHalal', 'إنتاج الألبان')).toBe('إنتاج الألبان');
    expect(scopeText(tFor(ar), 'halalMark', null)).toBeNull();
  });
});
