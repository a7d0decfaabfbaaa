import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { bills, payments } from '../../../db/schema';
import type { Actor } from '../../../machines/actor';
import type { TRefundRecord } from '../../../machines/forms/refund';
import { riyadhDate } from '../../../machines/working-days';
import { appendAnnotation } from '../../../workflows/store';
import { AppError, AppErrorCode } from '../../errors';
import { REFUND_OWED, attentionReasonOf } from './attention';
import { requestsPaidBy } from './notify-workflow';
import './errors';

export interface RecordedRefund {
  paymentId: string;
  billId: string;
  reference: string;
  refundedOn: string;
  recordedAt: string;
}

/**
 * Records that a refund owed (attention.ts REFUND_OWED) was made: its reference and day on the payment, and
 * REFUND_RECORDED with the person as actor in the history of the bill and of each request the bill paid (the payer
 * reads it there and on the bill). One transaction with the payment row locked, so two staff recording at once record
 * it once: the second is refused (RefundAlreadyRecorded), as is a payment that is owed no refund (RefundNotOwed); a
 * refusal changes nothing. The day is a Riyadh date, not after today and not before the payment started.
 */
export async function recordRefund(app: FastifyInstance, actor: Actor, paymentId: string, input: TRefundRecord, now = new Date()): Promise<RecordedRefund> {
  return app.db.transaction(async (tx) => {
    const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
    if (!payment) throw new AppError(AppErrorCode.EntityNotFound);
    if (payment.refundRecordedAt) throw new AppError('RefundAlreadyRecorded', { reference: payment.refundReference, date: payment.refundedOn });
    const reason = await attentionReasonOf(tx, payment.id, now);
    if (!reason || !REFUND_OWED.includes(reason)) throw new AppError('RefundNotOwed');
    if (input.refundedOn > riyadhDate(now.getTime())) {
      throw new AppError(AppErrorCode.ValidationFailed, {}, [{ field: 'refundedOn', message: 'refund.dateInFuture' }]);
    }
    if (input.refundedOn < riyadhDate(payment.createdAt.getTime())) {
      throw new AppError(AppErrorCode.ValidationFailed, {}, [{ field: 'refundedOn', message: 'refund.dateBeforePayment' }]);
    }
    await tx
      .update(payments)
      .set({ refundReference: input.reference, refundedOn: input.refundedOn, refundRecordedAt: now, refundRecordedBy: actor.userId })
      .where(eq(payments.id, payment.id));
    const [bill] = await tx.select().from(bills).where(eq(bills.id, payment.billId));
    const annotation = {
      event: 'REFUND_RECORDED' as const,
      payload: { billNumber: bill.number, paymentReference: payment.portalPaymentId, amount: payment.amount, refundReference: input.reference, refundedOn: input.refundedOn, reason },
      note: null,
    };
    // The bill's own history (bills run as workflows) and its requests' (a bill inserted without one has none: skipped).
    for (const id of [bill.id, ...(await requestsPaidBy(app, bill, tx))]) await appendAnnotation(tx, id, annotation, actor, now);
    return { paymentId: payment.id, billId: bill.id, reference: input.reference, refundedOn: input.refundedOn, recordedAt: now.toISOString() };
  });
}
