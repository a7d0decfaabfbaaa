import { describe, expect, it } from 'vitest';
import { DEFAULT_HALAL_HS_PREFIXES, isHalalRelevantHs, parseHsRules } from '../../machines/forms';
import { testConfig } from '../../server/config';

describe('Halal-relevant HS codes', () => {
  it('admits food chapters and refuses pork, alcohol and non-food', () => {
    for (const code of ['020130', '030211', '040120', '190590', '210690', '220210', '350300']) expect(isHalalRelevantHs(code), code).toBe(true);
    for (const code of ['020311', '160241', '220300', '220421', '220830', '150110', '330300', '870321']) expect(isHalalRelevantHs(code), code).toBe(false);
  });

  it('the longest matching prefix decides, exclusions included', () => {
    expect(isHalalRelevantHs('220210', '22,!2203')).toBe(true);
    expect(isHalalRelevantHs('220300', '22,!2203')).toBe(false);
    expect(isHalalRelevantHs('220390', ['22', '!2203', '220390'])).toBe(true);
  });

  it('refuses what is not a code of digits', () => {
    expect(isHalalRelevantHs('0201.30')).toBe(false);
    expect(isHalalRelevantHs('')).toBe(false);
  });

  it('refuses a malformed rule list instead of guessing', () => {
    expect(() => parseHsRules('02,x3')).toThrow(/Invalid HS code prefix/);
  });

  it('defaults to the same list as the server setting HALAL_HS_PREFIXES, so web and server agree', () => {
    expect(parseHsRules(DEFAULT_HALAL_HS_PREFIXES)).toEqual(parseHsRules(testConfig().HALAL_HS_PREFIXES));
  });
});
