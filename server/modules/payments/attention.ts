import { and, desc, eq, or } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { bills, payments, requests } from '../../../db/schema';

/** The state a paid mark package ends in when its certificate expired before its marks were issued (mark requests v2). */
const ENDED_UNISSUED = 'certificateEnded';

/**
 * Payments that took money the portal cannot keep: the bill had expired or been cancelled when the payment arrived
 * ('rejected'), the request no longer waited for it ('refused'), or a paid Halal-mark package ended unissued because
 * its certificate expired while it waited ('certificateEnded'). Each is also in its request's history
 * (PAYMENT_REFUSED, CERTIFICATE_EXPIRED); staff refund them.
 */
export async function paymentsNeedingAttention(db: Db) {
  const rows = await db
    .select({ payment: payments, bill: bills, state: requests.stateValue })
    .from(payments)
    .innerJoin(bills, eq(bills.id, payments.billId))
    .leftJoin(requests, eq(requests.id, bills.requestId))
    .where(or(eq(payments.status, 'rejected'), eq(payments.workflowOutcome, 'refused'), and(eq(payments.status, 'paid'), eq(requests.stateValue, ENDED_UNISSUED))))
    .orderBy(desc(payments.completedAt))
    .limit(500);
  return rows.map(({ payment, bill, state }) => ({
    paymentId: payment.id,
    billId: bill.id,
    billNumber: bill.number,
    amount: payment.amount,
    reason:
      payment.status === 'rejected'
        ? ('billNotPayable' as const)
        : payment.workflowOutcome === 'refused'
          ? ('refusedByRequest' as const)
          : state === ENDED_UNISSUED
            ? ('certificateEnded' as const)
            : ('refusedByRequest' as const),
    completedAt: payment.completedAt?.toISOString() ?? null,
  }));
}
