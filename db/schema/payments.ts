import { pgTable, text, timestamp, uuid, numeric, index, integer, date } from 'drizzle-orm/pg-core';
import { bills } from './certificates';
import { users } from './identity';

/**
 * One attempt to pay a bill through the government payment portal. A bill may have several (a person cancels on the
 * portal's page and tries again); at most one ends 'paid'. The row is what makes the portal's callback idempotent:
 * the first valid callback moves it from 'pending', later ones find it settled and change nothing.
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    billId: uuid('bill_id')
      .notNull()
      .references(() => bills.id, { onDelete: 'cascade' }),
    /** The payment portal's id of this attempt (its callback names it). */
    portalPaymentId: text('portal_payment_id').notNull().unique(),
    /** 'pending' | 'paid' | 'cancelled' | 'rejected' (paid on the portal but the bill was no longer payable). */
    status: text('status').notNull().default('pending'),
    /** Total with VAT the portal was asked to collect, SAR. */
    amount: numeric('amount', { precision: 14, scale: 2 }).notNull(),
    /** Portal page the person lands on after the callback (a path of this site, never another host). */
    returnPath: text('return_path').notNull(),
    startedBy: uuid('started_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** When the request's workflow accepted (or refused) PAYMENT_CONFIRMED; null while it still has to be told. */
    workflowNotifiedAt: timestamp('workflow_notified_at', { withTimezone: true }),
    /** 'accepted' | 'refused' | 'noWorkflow' (no engine or no request behind the bill). */
    workflowOutcome: text('workflow_outcome'),
    /** When the portal was last asked about this payment (the reconciliation sweep, or staff asking now); null: never. */
    inquiredAt: timestamp('inquired_at', { withTimezone: true }),
    /**
     * The portal's last answer: 'pending' | 'paid' | 'cancelled' | 'expired' | 'unknown' (the portal knows no such
     * payment) | 'unreachable' (it did not answer) | 'notApplied' (its answer did not match the payment: never applied).
     */
    inquiryAnswer: text('inquiry_answer'),
    /** Inquiries in a row that failed ('unreachable' or 'notApplied'); 0 after any answer that could be read. */
    inquiryFailures: integer('inquiry_failures').notNull().default(0),
    /**
     * A refund owed (rejected, refused by its request, or a mark package ended unissued) that staff recorded as made:
     * the bank's or portal's reference of the refund, the day it was made, when and by whom it was recorded. Null
     * while none is recorded; a payment is refunded once.
     */
    refundReference: text('refund_reference'),
    refundedOn: date('refunded_on'),
    refundRecordedAt: timestamp('refund_recorded_at', { withTimezone: true }),
    refundRecordedBy: uuid('refund_recorded_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('payments_bill_idx').on(t.billId)],
);
