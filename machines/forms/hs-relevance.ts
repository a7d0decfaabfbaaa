/**
 * Which HS codes a Halal product may be registered under (spec 02 section 5: "only products under Halal-valid HS
 * codes can be added"). Pure, so the web wizard and the server apply the same rule.
 *
 * A rule list is a set of code prefixes; a prefix starting with '!' excludes, and the longest matching prefix
 * decides, so "02,!0203" admits beef (0201) and refuses pork (0203). This is the same syntax and meaning as the
 * server's HALAL_HS_PREFIXES setting (server/config.ts, used by the public HS-code list in
 * server/modules/public/halal-hs-rules.ts); the server passes its configured list to the form schemas so that the
 * list and the validation never disagree, and a test keeps DEFAULT_HALAL_HS_PREFIXES equal to the config default.
 */
export interface HsRule {
  prefix: string;
  include: boolean;
}

/** Rules (longest prefix first), a comma-separated string like "02,!0203", or a list of such entries. */
export type HsRulesSource = string | readonly string[] | readonly HsRule[];

/**
 * The default list: food chapters and food ingredients, minus pork and alcoholic beverages.
 * - 02 meat (not 0203 swine, 020630/020641/020649 swine offal, 020910 pig fat, 021011/12/19 swine cured meat);
 * - 03 fish, 04 dairy, eggs, honey; 0504 guts, bladders and stomachs (casings);
 * - 07-12 vegetables, fruit, coffee/tea/spices, cereals, milling products, oil seeds; 13 gums and extracts (gelatin
 *   sources, pectin);
 * - 15 fats and oils (not 150110/150120 lard and pig fat); 16 meat and fish preparations (not 160241/42/49 swine);
 * - 17 sugars, 18 cocoa, 19 cereal preparations, 20 vegetable and fruit preparations, 21 miscellaneous food
 *   preparations (2106 food preparations and additives blends included);
 * - 22 beverages, but not 2203-2208 (beer, wine, vermouth, other fermented drinks, ethyl alcohol, spirits);
 * - ingredients and additives: 2309 animal feed preparations, 2936 vitamins, 3203 colouring matter of vegetable or
 *   animal origin, 3302 flavouring mixtures, 3501-3505 casein, albumins, gelatin, peptones, starches, 3507 enzymes.
 */
export const DEFAULT_HALAL_HS_PREFIXES: readonly string[] = [
  '02', '!0203', '!020630', '!020641', '!020649', '!020910', '!021011', '!021012', '!021019',
  '03', '04', '0504', '07', '08', '09', '10', '11', '12', '13',
  '15', '!150110', '!150120', '16', '!160241', '!160242', '!160249',
  '17', '18', '19', '20', '21', '22', '!2203', '!2204', '!2205', '!2206', '!2207', '!2208',
  '2309', '2936', '3203', '3302', '3501', '3502', '3503', '3504', '3505', '3507',
];

/** Parses a rule source; throws on an entry that is not 2-12 digits (optionally after '!'). */
export function parseHsRules(source: HsRulesSource): HsRule[] {
  if (typeof source !== 'string' && source.length > 0 && typeof source[0] === 'object') {
    return [...(source as readonly HsRule[])].sort((a, b) => b.prefix.length - a.prefix.length);
  }
  const entries = (typeof source === 'string' ? source.split(',') : (source as readonly string[]))
    .map((s) => s.trim())
    .filter(Boolean);
  return entries
    .map((entry) => {
      const include = !entry.startsWith('!');
      const prefix = include ? entry : entry.slice(1).trim();
      if (!/^\d{2,12}$/.test(prefix)) throw new Error(`Invalid HS code prefix "${entry}"`);
      return { prefix, include };
    })
    .sort((a, b) => b.prefix.length - a.prefix.length);
}

const cache = new Map<string, HsRule[]>();
/** Rule lists by identity: a product schema checks every product against the same list (no join per product). */
const byList = new WeakMap<readonly unknown[], HsRule[]>();

function rulesOf(source: HsRulesSource): HsRule[] {
  if (typeof source !== 'string' && source.length > 0 && typeof source[0] === 'object') return parseHsRules(source);
  if (typeof source !== 'string') {
    let rules = byList.get(source);
    if (!rules) byList.set(source, (rules = rulesOfText((source as readonly string[]).join(','), source)));
    return rules;
  }
  return rulesOfText(source, source);
}

function rulesOfText(key: string, source: HsRulesSource): HsRule[] {
  let rules = cache.get(key);
  if (!rules) {
    rules = parseHsRules(source);
    cache.set(key, rules);
  }
  return rules;
}

/** True when a product under `code` (digits only) may carry a Halal certificate under the given rules. */
export function isHalalRelevantHs(code: string, source: HsRulesSource = DEFAULT_HALAL_HS_PREFIXES): boolean {
  if (!/^\d{2,12}$/.test(code)) return false;
  for (const rule of rulesOf(source)) if (code.startsWith(rule.prefix)) return rule.include;
  return false;
}
