import { isHalalRelevantHs, parseHsRules, type HsRule, type HsRulesSource } from '../../../machines/forms/hs-relevance';

/**
 * Which HS codes Halal products may be registered under. The rule list comes from configuration
 * (HALAL_HS_PREFIXES, see server/config.ts and docs/hs-codes.md): code prefixes, '!' marks an exclusion, and the
 * longest matching prefix wins, so "02,!0203" admits beef (0201) and refuses pork (0203). The rule itself lives in
 * machines/forms/hs-relevance.ts, shared with the request forms (web and server), so the public list and the
 * product validation cannot disagree; this module adds what the public site needs around it.
 */
export type HalalHsRule = HsRule;
/** Rules sorted longest prefix first, so the first match is the most specific one. */
export type HalalHsRules = readonly HsRule[];

/** Parses "02,!0203,16" (or a list of such entries) into rules; throws on an entry that is not 2-12 digits. */
export const parseHalalHsRules = (source: string | readonly string[]): HalalHsRules => parseHsRules(source);

/** Digits of a code as people type it: "0201.10" and "0201 10" are "020110". */
export const normalizeHsCode = (code: string): string => code.replace(/[\s.\-/]/g, '');

/**
 * True when products under `code` may carry a Halal certificate. `source` is the parsed rules, the configured
 * string (app.config.HALAL_HS_PREFIXES) or a list of entries. A code that is not 2-12 digits is never relevant.
 * Chapters and headings follow the same rule: with "22,!2203" chapter 22 is relevant (its own rule admits it)
 * while heading 2203 and everything under it is not.
 */
export function isHalalRelevantHsCode(source: HsRulesSource, code: string): boolean {
  return isHalalRelevantHs(normalizeHsCode(code), source);
}

/**
 * True when some code below `code` is admitted (used to mark chapters such as 15 or 35 in the tree, where only
 * some headings qualify). Equal to isHalalRelevantHsCode for codes a rule covers entirely.
 */
export function hasHalalRelevantDescendant(source: HsRulesSource, code: string): boolean {
  const digits = normalizeHsCode(code);
  if (isHalalRelevantHsCode(source, digits)) return true;
  const rules = typeof source !== 'string' && source.length > 0 && typeof source[0] === 'object' ? (source as HalalHsRules) : parseHsRules(source);
  return rules.some((r) => r.include && r.prefix.startsWith(digits));
}
