/**
 * Which HS codes Halal products may be registered under. The rule list comes from configuration
 * (HALAL_HS_PREFIXES, see server/config.ts and docs/hs-codes.md): code prefixes, '!' marks an exclusion, and the
 * longest matching prefix decides, so "02,!0203" admits beef (0201) and refuses pork (0203).
 */
export interface HalalHsRule {
  prefix: string;
  include: boolean;
}

/** Rules sorted longest prefix first, so the first match is the most specific one. */
export type HalalHsRules = readonly HalalHsRule[];

/** Parses "02,!0203,16" (or a list of such entries) into rules; throws on an entry that is not 2-12 digits. */
export function parseHalalHsRules(source: string | readonly string[]): HalalHsRules {
  const entries = (typeof source === 'string' ? source.split(',') : source).map((s) => s.trim()).filter(Boolean);
  const rules = entries.map((entry) => {
    const include = !entry.startsWith('!');
    const prefix = include ? entry : entry.slice(1).trim();
    if (!/^\d{2,12}$/.test(prefix)) throw new Error(`Invalid HS code prefix "${entry}"`);
    return { prefix, include };
  });
  return rules.sort((a, b) => b.prefix.length - a.prefix.length);
}

/** Digits of a code as people type it: "0201.10" and "0201 10" are "020110". */
export const normalizeHsCode = (code: string): string => code.replace(/[\s.\-/]/g, '');

const cache = new Map<string, HalalHsRules>();

function rulesOf(source: HalalHsRules | string | readonly string[]): HalalHsRules {
  if (typeof source !== 'string' && source.length > 0 && typeof source[0] === 'object') return source as HalalHsRules;
  if (typeof source !== 'string' && source.length === 0) return [];
  const key = typeof source === 'string' ? source : (source as readonly string[]).join(',');
  let rules = cache.get(key);
  if (!rules) {
    rules = parseHalalHsRules(source as string | readonly string[]);
    cache.set(key, rules);
  }
  return rules;
}

/**
 * True when products under `code` may carry a Halal certificate. `source` is the parsed rules, the configured
 * string (app.config.HALAL_HS_PREFIXES) or a list of entries. A code that is not 2-12 digits is never relevant.
 * Chapters and headings follow the same rule: with "22,!2203" chapter 22 is relevant (its own rule admits it)
 * while heading 2203 and everything under it is not.
 */
export function isHalalRelevantHsCode(source: HalalHsRules | string | readonly string[], code: string): boolean {
  const digits = normalizeHsCode(code);
  if (!/^\d{2,12}$/.test(digits)) return false;
  for (const rule of rulesOf(source)) {
    if (digits.startsWith(rule.prefix)) return rule.include;
  }
  return false;
}

/**
 * True when some code below `code` is admitted (used to mark chapters such as 15 or 33 in the tree, where only
 * some headings qualify). Equal to isHalalRelevantHsCode for codes a rule covers entirely.
 */
export function hasHalalRelevantDescendant(source: HalalHsRules | string | readonly string[], code: string): boolean {
  const digits = normalizeHsCode(code);
  if (isHalalRelevantHsCode(source, digits)) return true;
  return rulesOf(source).some((r) => r.include && r.prefix.startsWith(digits));
}
