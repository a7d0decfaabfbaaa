import { and, asc, count, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { hsCodes, hsSections } from '../../../db/schema';
import { escapeLike, foldArabic } from './text';
import { hasHalalRelevantDescendant, isHalalRelevantHsCode, normalizeHsCode, type HalalHsRules } from './halal-hs-rules';

export interface HsCodeItem {
  code: string;
  level: number;
  sectionCode: string;
  parentCode: string | null;
  descriptionEn: string;
  descriptionAr: string | null;
  /** Halal products may be registered under this code. */
  halal: boolean;
}

export interface HsSearchQuery {
  q?: string;
  level?: 2 | 4 | 6;
  halalOnly?: boolean;
  pageNumber: number;
  pageSize: number;
}

const foldArabicSql = (column: typeof hsCodes.descriptionAr) => sql`translate(coalesce(${column}, ''), ${'أإآٱىة'}, ${'اااايه'})`;

/** The longest-prefix rule of halal-hs-rules.ts as one SQL expression, so lists can filter and count in the database. */
export function halalSql(rules: HalalHsRules): SQL<boolean> {
  if (rules.length === 0) return sql<boolean>`false`;
  const whens = rules.map((r) => sql`when ${hsCodes.code} like ${r.prefix + '%'} then ${r.include}`);
  return sql<boolean>`(case ${sql.join(whens, sql` `)} else false end)`;
}

/** Code words ("0201", "0201.10") search by prefix; other words must each appear in the English or Arabic text. */
function searchCondition(q: string | undefined): SQL | undefined {
  const text = (q ?? '').trim();
  if (!text) return undefined;
  const digits = normalizeHsCode(text);
  if (/^\d+$/.test(digits)) return sql`${hsCodes.code} like ${escapeLike(digits) + '%'}`;
  const words = foldArabic(text).split(/\s+/).filter(Boolean).slice(0, 8);
  return and(
    ...words.map((w) => {
      const pattern = `%${escapeLike(w)}%`;
      return sql`(${hsCodes.descriptionEn} ilike ${pattern} or ${foldArabicSql(hsCodes.descriptionAr)} ilike ${pattern})`;
    }),
  );
}

const itemColumns = {
  code: hsCodes.code,
  level: hsCodes.level,
  sectionCode: hsCodes.sectionCode,
  parentCode: hsCodes.parentCode,
  descriptionEn: hsCodes.descriptionEn,
  descriptionAr: hsCodes.descriptionAr,
};

function whereOf(rules: HalalHsRules, query: Pick<HsSearchQuery, 'q' | 'level' | 'halalOnly'>): SQL | undefined {
  return and(
    searchCondition(query.q),
    query.level ? eq(hsCodes.level, query.level) : undefined,
    query.halalOnly ? halalSql(rules) : undefined,
  );
}

/** Count of matches (all, and Halal-relevant among them) for the search box's live count. */
export async function countHsCodes(db: Db, rules: HalalHsRules, query: Pick<HsSearchQuery, 'q' | 'level' | 'halalOnly'>) {
  const [row] = await db
    .select({ count: count(), halalCount: sql<number>`count(*) filter (where ${halalSql(rules)})`.mapWith(Number) })
    .from(hsCodes)
    .where(whereOf(rules, query));
  return { count: row.count, halalCount: row.halalCount };
}

/** One page of matching codes in code order, with the total count of matches. */
export async function searchHsCodes(db: Db, rules: HalalHsRules, query: HsSearchQuery) {
  const where = whereOf(rules, query);
  const [items, counts] = await Promise.all([
    db
      .select(itemColumns)
      .from(hsCodes)
      .where(where)
      .orderBy(asc(hsCodes.code))
      .limit(query.pageSize)
      .offset((query.pageNumber - 1) * query.pageSize),
    countHsCodes(db, rules, query),
  ]);
  return {
    totalCount: counts.count,
    halalCount: counts.halalCount,
    items: items.map((i): HsCodeItem => ({ ...i, halal: isHalalRelevantHsCode(rules, i.code) })),
  };
}

export interface HsTreeNode {
  /** Roman numeral for sections, digits otherwise. */
  code: string;
  /** 0 section, 2 chapter, 4 heading, 6 sub-heading. */
  level: number;
  nameEn: string;
  nameAr: string | null;
  /** Halal products may be registered under the whole node. */
  halal: boolean;
  /** Some code below the node is Halal-relevant (drives the partial marker in the tree). */
  containsHalal: boolean;
  childCount: number;
}

/**
 * One level of the tree: sections when `parent` is absent, the chapters of a section (roman numeral), or the
 * headings / sub-headings under a code. Returns null when the parent does not exist.
 */
export async function hsTreeChildren(db: Db, rules: HalalHsRules, parent?: string): Promise<HsTreeNode[] | null> {
  if (!parent) {
    const rows = await db
      .select({
        code: hsSections.code,
        nameEn: hsSections.nameEn,
        nameAr: hsSections.nameAr,
        // Qualified by hand: drizzle leaves columns of a single-table select unqualified, which the subquery would
        // resolve against its own table.
        childCount: sql<number>`(select count(*) from hs_codes c where c.section_code = "hs_sections"."code" and c.level = 2)`.mapWith(Number),
      })
      .from(hsSections)
      .orderBy(asc(hsSections.position));
    const chapters = await db.select({ code: hsCodes.code, sectionCode: hsCodes.sectionCode }).from(hsCodes).where(eq(hsCodes.level, 2));
    return rows.map((s) => {
      const own = chapters.filter((c) => c.sectionCode === s.code);
      return {
        code: s.code,
        level: 0,
        nameEn: s.nameEn,
        nameAr: s.nameAr,
        halal: own.length > 0 && own.every((c) => isHalalRelevantHsCode(rules, c.code)),
        containsHalal: own.some((c) => hasHalalRelevantDescendant(rules, c.code)),
        childCount: s.childCount,
      };
    });
  }
  const isSection = /^[IVX]+$/.test(parent);
  if (isSection) {
    const [s] = await db.select({ code: hsSections.code }).from(hsSections).where(eq(hsSections.code, parent));
    if (!s) return null;
  } else {
    const [p] = await db.select({ code: hsCodes.code }).from(hsCodes).where(eq(hsCodes.code, parent));
    if (!p) return null;
  }
  const rows = await db
    .select({
      ...itemColumns,
      childCount: sql<number>`(select count(*) from hs_codes c where c.parent_code = "hs_codes"."code")`.mapWith(Number),
    })
    .from(hsCodes)
    .where(isSection ? and(eq(hsCodes.sectionCode, parent), isNull(hsCodes.parentCode)) : eq(hsCodes.parentCode, parent))
    .orderBy(asc(hsCodes.code));
  return rows.map((r) => ({
    code: r.code,
    level: r.level,
    nameEn: r.descriptionEn,
    nameAr: r.descriptionAr,
    halal: isHalalRelevantHsCode(rules, r.code),
    containsHalal: hasHalalRelevantDescendant(rules, r.code),
    childCount: r.childCount,
  }));
}

/** One code with the path above it (section, chapter, heading), or null when unknown. */
export async function getHsCode(db: Db, rules: HalalHsRules, rawCode: string) {
  const code = normalizeHsCode(rawCode);
  if (!/^\d{2,12}$/.test(code)) return null;
  const [row] = await db.select(itemColumns).from(hsCodes).where(eq(hsCodes.code, code));
  if (!row) return null;
  const [section] = await db
    .select({ code: hsSections.code, nameEn: hsSections.nameEn, nameAr: hsSections.nameAr })
    .from(hsSections)
    .where(eq(hsSections.code, row.sectionCode));
  const ancestors: HsCodeItem[] = [];
  let parentCode = row.parentCode;
  while (parentCode) {
    const [p] = await db.select(itemColumns).from(hsCodes).where(eq(hsCodes.code, parentCode));
    if (!p) break;
    ancestors.unshift({ ...p, halal: isHalalRelevantHsCode(rules, p.code) });
    parentCode = p.parentCode;
  }
  return { ...row, halal: isHalalRelevantHsCode(rules, row.code), section, ancestors };
}

export type ProductHsCheck =
  | { ok: true; code: string; baseCode: string }
  | { ok: false; code: string; reason: 'format' | 'unknown' | 'notHalal' };

/**
 * Product validation for the request forms (spec 02 section 5): the code is numeric, 6 to 12 digits, its first six
 * digits are an HS 2022 sub-heading, and Halal products may be registered under it. `rules` may be the configured
 * string itself (app.config.HALAL_HS_PREFIXES).
 */
export async function checkProductHsCode(db: Db, rules: HalalHsRules | string | readonly string[], rawCode: string): Promise<ProductHsCheck> {
  const code = normalizeHsCode(rawCode);
  if (!/^\d{6,12}$/.test(code)) return { ok: false, code, reason: 'format' };
  const baseCode = code.slice(0, 6);
  const [row] = await db.select({ code: hsCodes.code }).from(hsCodes).where(eq(hsCodes.code, baseCode));
  if (!row) return { ok: false, code, reason: 'unknown' };
  if (!isHalalRelevantHsCode(rules, code)) return { ok: false, code, reason: 'notHalal' };
  return { ok: true, code, baseCode };
}
