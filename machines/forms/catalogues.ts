/**
 * The fixed lists the internal request form chooses from. Labels live in locales/<lang>/forms.json under
 * `unit.<code>`, `category.<code>` and `operation.<code>`.
 */

/** Weight and volume units of spec 02 section 3: 0 kg, 1 g, 2 mg, 3 kilolitre, 4 litre, 5 ml. */
export const UNITS = [
  { code: 0, symbol: 'kg' },
  { code: 1, symbol: 'g' },
  { code: 2, symbol: 'mg' },
  { code: 3, symbol: 'kl' },
  { code: 4, symbol: 'l' },
  { code: 5, symbol: 'ml' },
] as const;
export type UnitCode = (typeof UNITS)[number]['code'];
export const UNIT_CODES: readonly UnitCode[] = UNITS.map((u) => u.code);

/**
 * Main categories and their sub-categories: the food chain categories of ISO/TS 22003-1:2022 that Halal schemes use
 * to scope certificates, with the same codes as the CB designation list (server/modules/public/cb-categories.ts),
 * so a facility's categories can be compared with its CB's. A main category with no sub-categories is selected as
 * itself; one with sub-categories is selected whole or by chosen sub-categories (spec 02 section 5).
 */
export const CATEGORY_TREE = {
  A: ['AI', 'AII'],
  B: ['BI', 'BII'],
  C: ['C0', 'CI', 'CII', 'CIII', 'CIV'],
  D: [],
  E: [],
  F: ['FI'],
  G: [],
  I: [],
  K: [],
} as const satisfies Record<string, readonly string[]>;
export type MainCategory = keyof typeof CATEGORY_TREE;
export const MAIN_CATEGORIES = Object.keys(CATEGORY_TREE) as MainCategory[];

/** Codes a product can be filed under: every sub-category, and every main category that has none. */
export const PRODUCT_CATEGORY_CODES: readonly string[] = MAIN_CATEGORIES.flatMap((m) =>
  CATEGORY_TREE[m].length ? [...CATEGORY_TREE[m]] : [m],
);

/** The production operations a facility declares (the wizard's "operations" step). */
export const OPERATIONS = [
  'slaughtering',
  'cutting',
  'processing',
  'cooking',
  'mixing',
  'fermentation',
  'freezing',
  'drying',
  'filling',
  'packaging',
  'labelling',
  'storage',
  'distribution',
] as const;
export type Operation = (typeof OPERATIONS)[number];
