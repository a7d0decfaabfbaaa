import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { bills, payments } from '../../../db/schema';
import { AppError, AppErrorCode } from '../../errors';
import { verifyCallback, type PaymentCallback } from '../../adapters/payment-portal';
import { toHalalas } from '../../../machines/services/fees';
import { notifyPaymentConfirmed, requestsPaidBy } from './notify-workflow';
import { SYSTEM_ACTOR } from '../../../machines/actor';
import './errors';

export type CallbackOutcome = 'paid' | 'cancelled' | 'rejected';

export interface CallbackResult {
  billId: string;
  outcome: CallbackOutcome;
  /** False when this callback repeated one already applied: nothing was changed. */
  changed: boolean;
  /** The page of this site to send the person back to. */
  returnPath: string;
}

const outcomeOf = (status: string): CallbackOutcome => (status === 'paid' ? 'paid' : status === 'cancelled' ? 'cancelled' : 'rejected');

/**
 * Applies a callback of the payment portal, exactly once. The signature is checked first: a forged callback changes
 * nothing. Then, in one transaction with the payment row locked, a pending payment is settled: 'cancelled' leaves the
 * bill awaiting payment; 'paid' marks the bill paid (status 2) if it still awaits payment, or records the payment as
 * 'rejected' when the bill has meanwhile expired or been cancelled (the money must be refunded by staff). A callback
 * for a payment already settled changes nothing. After the commit the request's workflow is told (see
 * notifyPaymentConfirmed); a repeated callback retries that if it did not get through.
 */
export async function applyPaymentCallback(app: FastifyInstance, cb: PaymentCallback, now = new Date()): Promise<CallbackResult> {
  if (!verifyCallback(cb, app.config.PAYMENT_CALLBACK_SECRET)) throw new AppError('PaymentSignatureInvalid');

  const result = await app.db.transaction(async (tx) => {
    const [payment] = await tx.select().from(payments).where(eq(payments.portalPaymentId, cb.paymentId)).for('update');
    if (!payment) throw new AppError(AppErrorCode.EntityNotFound);
    const [bill] = await tx.select().from(bills).where(eq(bills.id, payment.billId)).for('update');
    if (bill.number !== cb.merchantReference || toHalalas(payment.amount) !== toHalalas(cb.amount)) {
      throw new AppError('PaymentDataMismatch');
    }
    if (payment.status !== 'pending') {
      return { payment, bill, outcome: outcomeOf(payment.status), changed: false };
    }
    if (cb.status === 'cancelled') {
      await tx.update(payments).set({ status: 'cancelled', completedAt: now }).where(eq(payments.id, payment.id));
      return { payment, bill, outcome: 'cancelled' as const, changed: true };
    }
    const paid = await tx
      .update(bills)
      .set({ status: 2, paidAt: now, paymentReference: cb.paymentReference })
      .where(and(eq(bills.id, bill.id), eq(bills.status, 1)))
      .returning({ id: bills.id });
    const status = paid.length ? 'paid' : 'rejected';
    await tx.update(payments).set({ status, completedAt: now }).where(eq(payments.id, payment.id));
    if (!paid.length) app.log.warn({ billId: bill.id, paymentId: cb.paymentId, billStatus: bill.status }, 'paid a bill that was no longer payable: refund due');
    return { payment: { ...payment, status }, bill, outcome: outcomeOf(status), changed: true };
  });

  // Tell the workflow after the commit (the engine runs its own transaction); retried by any later callback until it
  // has an answer.
  if (result.outcome === 'paid' && !result.payment.workflowNotifiedAt) {
    await notifyPaymentConfirmed(app, result.payment, { ...result.bill, paymentReference: cb.paymentReference });
  }
  // Money taken for a bill that had expired or been cancelled: the request's history says so, staff see it flagged.
  if (result.outcome === 'rejected' && result.changed && app.hasDecorator('engine')) {
    for (const requestId of await requestsPaidBy(app, result.bill)) {
      await app.engine.annotate(
        requestId,
        { event: 'PAYMENT_REFUSED', payload: { billNumber: result.bill.number, paymentReference: cb.paymentReference, refusal: 'BillNotPayable' }, note: null },
        SYSTEM_ACTOR,
      );
    }
  }
  return { billId: result.bill.id, outcome: result.outcome, changed: result.changed, returnPath: result.payment.returnPath };
}
