import { pgTable, text, timestamp, uuid, integer, jsonb, numeric, index } from 'drizzle-orm/pg-core';

/**
 * Issued certificates (Halal certificates of facilities, CB designation certificates) and Halal marks.
 * Status codes are the spec's catalogue (1 active, 2 expired, 3 expiring soon, 4 suspended); "expiring soon" is
 * also derived at read time from expires_at so it never goes stale.
 */
export const certificates = pgTable(
  'certificates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: text('number').notNull().unique(),
    /** Number in the old system, when migrated. */
    legacyNumber: text('legacy_number'),
    /** 'internalHalal' | 'externalHalal' | 'cbDesignation' | 'halalMark' */
    kind: text('kind').notNull(),
    requestId: uuid('request_id'),
    facilityPublicId: text('facility_public_id').notNull(),
    /** Issuing CB for external certificates. */
    cbPublicId: text('cb_public_id'),
    status: integer('status').notNull().default(1),
    /** 'Saudi' | 'Global' for marks; free text scope for certificates. */
    scope: text('scope'),
    categories: jsonb('categories').$type<string[]>().notNull().default([]),
    products: jsonb('products').$type<{ nameAr: string; nameEn: string; brandAr?: string; brandEn?: string; hsCode?: string }[]>().notNull().default([]),
    /** Random code printed in the QR; the public verification page looks it up. */
    verificationCode: text('verification_code').notNull().unique(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    validFrom: timestamp('valid_from', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
  },
  (t) => [index('certificates_facility_idx').on(t.facilityPublicId)],
);

/** Bills (invoices) paid through the government payment portal. Status: 1 awaiting, 2 paid, 3 expired, 4 cancelled. */
export const bills = pgTable(
  'bills',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: text('number').notNull().unique(),
    requestId: uuid('request_id'),
    facilityPublicId: text('facility_public_id').notNull(),
    /** Payment service 1-8 of spec 02 section 3. */
    service: integer('service').notNull(),
    /** What the bill is for: 'application' | 'audit' | 'certificate' | 'shipment' | 'mark' ... */
    feeKind: text('fee_kind').notNull(),
    amount: numeric('amount', { precision: 14, scale: 2 }).notNull(),
    vat: numeric('vat', { precision: 14, scale: 2 }).notNull(),
    total: numeric('total', { precision: 14, scale: 2 }).notNull(),
    status: integer('status').notNull().default(1),
    paymentReference: text('payment_reference'),
    dueAt: timestamp('due_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('bills_request_idx').on(t.requestId), index('bills_facility_idx').on(t.facilityPublicId)],
);
