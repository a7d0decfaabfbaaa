import { pgTable, text, integer, index } from 'drizzle-orm/pg-core';

/**
 * The Harmonized System nomenclature (HS 2022, WCO; data from db/data/harmonized-system, PDDL licence):
 * sections (roman numerals), chapters (2 digits), headings (4) and sub-headings (6).
 * Arabic names exist for sections and chapters only (our translation); deeper levels carry the English text.
 * Whether a code is Halal-relevant is not stored: it follows the configured prefixes (HALAL_HS_PREFIXES).
 */
export const hsSections = pgTable('hs_sections', {
  /** Roman numeral, 'I' to 'XXI'. */
  code: text('code').primaryKey(),
  /** 1..21, for ordering. */
  position: integer('position').notNull(),
  nameEn: text('name_en').notNull(),
  nameAr: text('name_ar').notNull(),
});

export const hsCodes = pgTable(
  'hs_codes',
  {
    /** Digits only: '02', '0201', '020110'. */
    code: text('code').primaryKey(),
    /** 2 chapter, 4 heading, 6 sub-heading. */
    level: integer('level').notNull(),
    sectionCode: text('section_code')
      .notNull()
      .references(() => hsSections.code),
    /** Code of the enclosing chapter or heading; null for chapters (their parent is the section). */
    parentCode: text('parent_code'),
    descriptionEn: text('description_en').notNull(),
    descriptionAr: text('description_ar'),
  },
  (t) => [index('hs_codes_parent_idx').on(t.parentCode), index('hs_codes_section_idx').on(t.sectionCode, t.level)],
);
