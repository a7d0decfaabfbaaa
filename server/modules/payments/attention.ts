import { desc, eq, or } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { bills, payments } from '../../../db/schema';

/**
 * Payments that took money the portal cannot keep: the bill had expired or been cancelled when the payment arrived
 * ('rejected'), or the request no longer waited for it ('refused'). Each is also in its request's history
 * (PAYMENT_REFUSED); staff refund them.
 */
export async function paymentsNeedingAttention(db: Db) {
  const rows = await db
    .select({ payment: payments, bill: bills })
    .from(payments)
    .innerJoin(bills, eq(bills.id, payments.billId))
    .where(or(eq(payments.status, 'rejected'), eq(payments.workflowOutcome, 'refused')))
    .orderBy(desc(payments.completedAt))
    .limit(500);
  return rows.map(({ payment, bill }) => ({
    paymentId: payment.id,
    billId: bill.id,
    billNumber: bill.number,
    amount: payment.amount,
    reason: payment.status === 'rejected' ? ('billNotPayable' as const) : ('refusedByRequest' as const),
    completedAt: payment.completedAt?.toISOString() ?? null,
  }));
}
