import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { bills, payments } from '../../../db/schema';
import { AppError, AppErrorCode } from '../../errors';
import { attentionReasonOf, type AttentionReason } from './attention';
import { notifyPaymentConfirmed, releaseStaleClaim, type NotifyOutcome } from './notify-workflow';
import './errors';

export interface ToldAgain {
  /** What the request answered now ('busy': another process is telling it this moment), or its earlier answer. */
  outcome: NotifyOutcome;
  /** False when the request had already answered (nothing was sent) or could not be told now. */
  changed: boolean;
  /** Why the payment still needs a person afterwards (null: it left the list; 'refusedByRequest': a refund is owed). */
  reason: AttentionReason | null;
}

/**
 * Staff telling the request of a paid bill again now (the payments needing attention, `requestNotTold`): the same
 * PAYMENT_CONFIRMED the portal's callback and the sweep deliver, through notifyPaymentConfirmed, whose claim keeps a
 * callback or a sweep arriving at the same moment from telling it twice. Idempotent: once the request answered, asking
 * again sends nothing and answers that outcome. A request that refuses moves the payment to the refunds owed.
 */
export async function tellRequestAgain(app: FastifyInstance, paymentId: string, now = new Date()): Promise<ToldAgain> {
  const [row] = await app.db.select({ payment: payments, bill: bills }).from(payments).innerJoin(bills, eq(bills.id, payments.billId)).where(eq(payments.id, paymentId));
  if (!row) throw new AppError(AppErrorCode.EntityNotFound);
  const { payment, bill } = row;
  if (payment.status !== 'paid') throw new AppError('PaymentNotPaid');
  let outcome: NotifyOutcome;
  let changed = false;
  if (payment.workflowOutcome) outcome = payment.workflowOutcome as NotifyOutcome;
  else if (!(await releaseStaleClaim(app, payment, now))) outcome = 'busy';
  else {
    outcome = await notifyPaymentConfirmed(app, payment, bill);
    changed = outcome !== 'pending' && outcome !== 'busy';
  }
  app.log.info({ paymentId: payment.portalPaymentId, outcome, changed }, 'staff told the request of its paid bill again');
  return { outcome, changed, reason: await attentionReasonOf(app.db, payment.id, now) };
}
