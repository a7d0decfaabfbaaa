import { and, count, desc, eq, gte, ilike, isNull, lt, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../../db/client';
import { bills, facilities, payments, requests } from '../../../db/schema';
import { RECONCILE_ASK_UNTIL_MS } from './reconcile-payments';

/** The state a paid mark package ends in when its certificate expired before its marks were issued (mark requests v2). */
const ENDED_UNISSUED = 'certificateEnded';

/** A payment the portal still answers 'pending' (or has not answered) this long after it started is listed for staff. */
export const STUCK_PENDING_AFTER_MS = 24 * 3_600_000;
/** Inquiries in a row that failed (portal unreachable, or an answer that did not match) before staff are shown it. */
export const FAILING_INQUIRIES = 3;
/** A paid bill whose request still has not recorded the outcome this long after payment (the sweep retries every minute). */
export const UNTOLD_AFTER_MS = 30 * 60_000;

/** Why a payment needs a person; the order is the priority when several would apply (each payment has one reason). */
export const ATTENTION_REASONS = [
  'billNotPayable',
  'refusedByRequest',
  'certificateEnded',
  'requestNotTold',
  'inquiryFailing',
  'inquiryWindowOver',
  'stillPending',
] as const;
export type AttentionReason = (typeof ATTENTION_REASONS)[number];
/** The reasons that mean money must go back to the payer: staff record the refund made (POST /api/payments/:id/refund). */
export const REFUND_OWED: readonly AttentionReason[] = ['billNotPayable', 'refusedByRequest', 'certificateEnded'];

/**
 * The condition of each reason, mutually exclusive (so a filter by reason and the reason shown always agree):
 * - billNotPayable: money taken for a bill that had expired or been cancelled when the payment arrived ('rejected');
 * - refusedByRequest: paid, but the request no longer waited for it (its workflow refused PAYMENT_CONFIRMED);
 * - certificateEnded: a paid Halal-mark package ended unissued because its certificate expired while it waited;
 *   these three are refunds owed (each is also in its request's history: PAYMENT_REFUSED, CERTIFICATE_EXPIRED);
 * - requestNotTold: the bill is paid but its request has still not heard UNTOLD_AFTER_MS after payment, despite the sweep;
 * - inquiryFailing: pending, and the last FAILING_INQUIRIES inquiries in a row failed;
 * - inquiryWindowOver: pending and older than the sweep's inquiry window (7 days): no sweep asks about it any more;
 * - stillPending: pending for more than a day within the window, the portal answering 'pending' (or 'unknown', or not asked).
 * A pending payment the portal last answered 'expired' is not listed: the portal's page expired, no money was taken.
 * A refund owed that staff recorded as made (payments.refund_recorded_at) is no longer listed.
 */
function conditions(now: Date): Record<AttentionReason, SQL> {
  const pending = eq(payments.status, 'pending');
  const paid = eq(payments.status, 'paid');
  const notRefused = or(isNull(payments.workflowOutcome), ne(payments.workflowOutcome, 'refused'))!;
  const notEnded = or(isNull(requests.stateValue), ne(requests.stateValue, ENDED_UNISSUED))!;
  const notExpired = or(isNull(payments.inquiryAnswer), ne(payments.inquiryAnswer, 'expired'))!;
  const windowStart = new Date(now.getTime() - RECONCILE_ASK_UNTIL_MS);
  return {
    billNotPayable: eq(payments.status, 'rejected'),
    refusedByRequest: and(paid, eq(payments.workflowOutcome, 'refused'))!,
    certificateEnded: and(paid, notRefused, eq(requests.stateValue, ENDED_UNISSUED))!,
    requestNotTold: and(paid, isNull(payments.workflowOutcome), notEnded, lte(payments.completedAt, new Date(now.getTime() - UNTOLD_AFTER_MS)))!,
    inquiryFailing: and(pending, gte(payments.createdAt, windowStart), gte(payments.inquiryFailures, FAILING_INQUIRIES))!,
    inquiryWindowOver: and(pending, lt(payments.createdAt, windowStart), notExpired)!,
    stillPending: and(
      pending,
      gte(payments.createdAt, windowStart),
      lte(payments.createdAt, new Date(now.getTime() - STUCK_PENDING_AFTER_MS)),
      lt(payments.inquiryFailures, FAILING_INQUIRIES),
      notExpired,
    )!,
  };
}

export interface AttentionQuery {
  reason?: AttentionReason;
  facilityId?: string;
  /** Bill number, request number or payment reference (any part). */
  any?: string;
  pageNumber: number;
  pageSize: number;
}

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
const like = (text: string) => `%${text.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const DAY_MS = 24 * 3_600_000;

const reasonCase = (conds: Record<AttentionReason, SQL>) =>
  sql<AttentionReason | null>`case ${sql.join(
    ATTENTION_REASONS.map((r) => sql`when ${conds[r]} then ${r}`),
    sql` `,
  )} end`;

/**
 * Why one payment needs a person now (null: it does not), whether or not a refund was recorded for it: the rule the
 * list and the staff actions on one row share. Reads through the caller's transaction when given one.
 */
export async function attentionReasonOf(db: Db | Tx, paymentId: string, now = new Date()): Promise<AttentionReason | null> {
  const [row] = await db
    .select({ reason: reasonCase(conditions(now)) })
    .from(payments)
    .innerJoin(bills, eq(bills.id, payments.billId))
    .leftJoin(requests, eq(requests.id, bills.requestId))
    .where(eq(payments.id, paymentId));
  return row?.reason ?? null;
}

/** The payments needing a person, newest first, filtered and paged as the other staff lists. */
export async function paymentsNeedingAttention(db: Db, q: AttentionQuery, now = new Date()) {
  const conds = conditions(now);
  const reasonOf = sql<AttentionReason>`${reasonCase(conds)}`;
  const where: SQL[] = [q.reason ? conds[q.reason] : or(...ATTENTION_REASONS.map((r) => conds[r]))!, isNull(payments.refundRecordedAt)];
  if (q.facilityId) where.push(eq(bills.facilityPublicId, q.facilityId));
  if (q.any?.trim()) {
    const p = like(q.any);
    where.push(or(ilike(bills.number, p), ilike(bills.paymentReference, p), ilike(requests.number, p), ilike(payments.portalPaymentId, p))!);
  }
  const cond = and(...where);
  const [{ n }] = await db
    .select({ n: count() })
    .from(payments)
    .innerJoin(bills, eq(bills.id, payments.billId))
    .leftJoin(requests, eq(requests.id, bills.requestId))
    .where(cond);
  const rows = await db
    .select({ payment: payments, bill: bills, requestNumber: requests.number, facility: facilities, reason: reasonOf })
    .from(payments)
    .innerJoin(bills, eq(bills.id, payments.billId))
    .leftJoin(requests, eq(requests.id, bills.requestId))
    .leftJoin(facilities, eq(facilities.publicId, bills.facilityPublicId))
    .where(cond)
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(q.pageSize)
    .offset((q.pageNumber - 1) * q.pageSize);
  const items = rows.map(({ payment, bill, requestNumber, facility, reason }) => ({
    paymentId: payment.id,
    paymentReference: payment.portalPaymentId,
    billId: bill.id,
    billNumber: bill.number,
    /** What the portal was asked to collect (with VAT), and the bill's amount without VAT and its VAT. */
    amount: payment.amount,
    billAmount: bill.amount,
    vat: bill.vat,
    reason,
    paymentStatus: payment.status,
    facility: { publicId: bill.facilityPublicId, nameAr: facility?.nameAr ?? '—', nameEn: facility?.nameEn ?? '—' },
    requestId: bill.requestId,
    requestNumber,
    startedAt: payment.createdAt.toISOString(),
    /** Whole days since the payment started. */
    ageDays: Math.max(0, Math.floor((now.getTime() - payment.createdAt.getTime()) / DAY_MS)),
    completedAt: payment.completedAt?.toISOString() ?? null,
    inquiredAt: payment.inquiredAt?.toISOString() ?? null,
    inquiryAnswer: payment.inquiryAnswer,
    inquiryFailures: payment.inquiryFailures,
    /** Staff may ask the portal about it now (POST /api/payments/:id/inquire): only a payment no answer settled yet. */
    canInquire: payment.status === 'pending',
    /** Staff may record the refund made (POST /api/payments/:id/refund): a refund owed, none recorded yet (listed rows). */
    canRecordRefund: REFUND_OWED.includes(reason),
    /** Staff may tell the request again now (POST /api/payments/:id/tell-request). */
    canTellRequest: reason === 'requestNotTold',
  }));
  return { items, totalCount: Number(n), pageNumber: q.pageNumber, pageSize: q.pageSize };
}
