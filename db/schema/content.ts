import { pgTable, text, timestamp, uuid, integer, customType, index } from 'drizzle-orm/pg-core';
import { users } from './identity';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  // PGlite hands back a Uint8Array, postgres.js a Buffer; callers always see a Buffer.
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Editable public pages (home, about-center, contact-us, privacy, our-customers, media-center, user-manual, faq,
 * hs-code, accredited-cb). `body*` is plain text with a small markup the web renders without HTML: a blank line
 * separates paragraphs, `## ` starts a heading, `- ` a list item. `summary*` doubles as the meta description.
 */
export const contentPages = pgTable('content_pages', {
  key: text('key').primaryKey(),
  titleAr: text('title_ar').notNull(),
  titleEn: text('title_en').notNull(),
  summaryAr: text('summary_ar').notNull(),
  summaryEn: text('summary_en').notNull(),
  bodyAr: text('body_ar').notNull(),
  bodyEn: text('body_en').notNull(),
  /** Optimistic concurrency: an edit must name the version it started from. */
  version: integer('version').notNull().default(1),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Media-center news items; the image is kept in the row so a backup of the database is a backup of the site. */
export const newsItems = pgTable(
  'news_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    titleAr: text('title_ar').notNull(),
    titleEn: text('title_en').notNull(),
    summaryAr: text('summary_ar').notNull(),
    summaryEn: text('summary_en').notNull(),
    bodyAr: text('body_ar').notNull(),
    bodyEn: text('body_en').notNull(),
    imageAltAr: text('image_alt_ar').notNull().default(''),
    imageAltEn: text('image_alt_en').notNull().default(''),
    image: bytea('image'),
    /** image/png | image/jpeg | image/webp (checked against the bytes on upload). */
    imageType: text('image_type'),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('news_items_published_idx').on(t.publishedAt)],
);

/** Frequently asked questions; also the knowledge the chat assistant answers from. */
export const faqItems = pgTable('faq_items', {
  id: uuid('id').primaryKey().defaultRandom(),
  questionAr: text('question_ar').notNull(),
  questionEn: text('question_en').notNull(),
  answerAr: text('answer_ar').notNull(),
  answerEn: text('answer_en').notNull(),
  /** Extra words people use for this question (space separated), matched by the assistant. */
  keywordsAr: text('keywords_ar').notNull().default(''),
  keywordsEn: text('keywords_en').notNull().default(''),
  sortOrder: integer('sort_order').notNull().default(0),
  version: integer('version').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
