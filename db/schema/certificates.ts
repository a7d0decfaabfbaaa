import type { CertificateProduct } from '../../machines/services/types';
import { pgTable, text, timestamp, uuid, integer, jsonb, numeric, index, boolean } from 'drizzle-orm/pg-core';

/** A product as a certificate lists it: the service contract's shape, stored as it is. */
export type CertificateProductRow = CertificateProduct;

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
    /** The request that issued it or last renewed it (a renewal takes the certificate over). */
    requestId: uuid('request_id'),
    /**
     * The request that issued it, kept through renewals: an issued external certificate request still changes the
     * certificate it issued (set A 107 / 131) once a renewal took it over. Null for certificates renewed before 0019.
     */
    issuedByRequestId: uuid('issued_by_request_id'),
    facilityPublicId: text('facility_public_id').notNull(),
    /** Issuing CB for external certificates. */
    cbPublicId: text('cb_public_id'),
    status: integer('status').notNull().default(1),
    /** 'Saudi' | 'Global' for marks; free text scope for certificates. */
    scope: text('scope'),
    categories: jsonb('categories').$type<string[]>().notNull().default([]),
    products: jsonb('products').$type<CertificateProductRow[]>().notNull().default([]),
    /** Random code printed in the QR; the public verification page looks it up. */
    verificationCode: text('verification_code').notNull().unique(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    validFrom: timestamp('valid_from', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
  },
  (t) => [
    index('certificates_facility_idx').on(t.facilityPublicId),
    // An effect finds a request's certificate by the request that names it or issued it (workflows/effects.ts).
    index('certificates_request_idx').on(t.requestId),
    index('certificates_issued_by_request_idx').on(t.issuedByRequestId),
  ],
);

/**
 * Bills (invoices) paid through the government payment portal. Status: 1 awaiting, 2 paid, 3 expired, 4 cancelled,
 * kept equal to the status of the bill's own lifecycle (its workflow has the bill's id). A bulk bill (spec 02 section 9:
 * "bulk invoices are issued at the end of each Gregorian month") has no single request: its lines name them.
 */
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
    /**
     * Halal-mark packages: the carried-over balance (SAR, excluding VAT) credited against this bill; `amount` is what is
     * left after it (never below zero). Null for every other bill.
     */
    credit: numeric('credit', { precision: 14, scale: 2 }),
    /**
     * Halal-mark packages: the end of the validity the package was priced for (one year, or the certificate's expiry
     * when sooner, as it was when billed); the marks are never issued beyond it. Null for every other bill.
     */
    validUntil: timestamp('valid_until', { withTimezone: true }),
    status: integer('status').notNull().default(1),
    paymentReference: text('payment_reference'),
    /** True for a month-end bulk invoice; `period` is its Gregorian month ('2026-11'). */
    bulk: boolean('bulk').notNull().default(false),
    period: text('period'),
    dueAt: timestamp('due_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('bills_request_idx').on(t.requestId), index('bills_facility_idx').on(t.facilityPublicId)],
);

/**
 * A charge waiting for the month-end bulk invoice (external set A 128 "waiting for the invoice"): not payable on its
 * own, so no payment can arrive that the request would not take. At the end of the month the facility's lines of that
 * month become one bulk bill (bill_id set) and their requests await its payment together.
 */
export const billLines = pgTable(
  'bill_lines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    requestId: uuid('request_id').notNull(),
    facilityPublicId: text('facility_public_id').notNull(),
    service: integer('service').notNull(),
    feeKind: text('fee_kind').notNull(),
    amount: numeric('amount', { precision: 14, scale: 2 }).notNull(),
    vat: numeric('vat', { precision: 14, scale: 2 }).notNull(),
    total: numeric('total', { precision: 14, scale: 2 }).notNull(),
    /** The Gregorian month the line was charged in ('2026-11'). */
    period: text('period').notNull(),
    /** 'pending' until invoiced, 'invoiced', or 'cancelled' when the request withdrew before the month ended. */
    status: text('status').notNull().default('pending'),
    billId: uuid('bill_id').references(() => bills.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('bill_lines_facility_period_idx').on(t.facilityPublicId, t.period, t.status), index('bill_lines_request_idx').on(t.requestId), index('bill_lines_bill_idx').on(t.billId)],
);

/**
 * Carry-over credit of Halal-mark packages (spec 02 section 9: "the balance carries over as credit"). A package's
 * unused tags (paid for, not issued as marks) are worth what the package paid per tag; each row records an amount of
 * that value consumed by a later package of the same certificate, so the same balance is never credited twice. The
 * source package's request row is locked while its balance is read and consumed (workflows/mark-credit.ts).
 */
export const markPackageCredits = pgTable(
  'mark_package_credits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The earlier package (its request) whose unused tags are credited. */
    sourceRequestId: uuid('source_request_id').notNull(),
    /** The package (its request) the credit was applied to, and its bill. */
    usedByRequestId: uuid('used_by_request_id').notNull(),
    billId: uuid('bill_id'),
    certificateId: uuid('certificate_id').notNull(),
    facilityPublicId: text('facility_public_id').notNull(),
    /** SAR excluding VAT. */
    amount: numeric('amount', { precision: 14, scale: 2 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mark_package_credits_source_idx').on(t.sourceRequestId), index('mark_package_credits_used_by_idx').on(t.usedByRequestId)],
);
