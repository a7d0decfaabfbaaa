import { and, asc, eq, gt, gte, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { bills, payments } from '../../../db/schema';
import { TimerRunner } from '../../../workflows/embedded/timer-runner';
import { paymentPortalOf } from '../../adapters/payment-portal';
import { AppError } from '../../errors';
import { STALE_CLAIM_MS, notifyPaymentConfirmed, releaseStaleClaim } from './notify-workflow';
import { applyPaymentCallback } from './payment-callback';

/** A payment started this long ago without a callback is asked about at the portal (the payer may still be on its page before). */
export const RECONCILE_ASK_AFTER_MS = 5 * 60_000;
/** Payments started longer ago than this are no longer asked about (the portal's page and the bill's window are long over). */
export const RECONCILE_ASK_UNTIL_MS = 7 * 24 * 3_600_000;
/** A paid payment whose request was not told this long after the bill was marked paid is told again. */
export const RENOTIFY_AFTER_MS = 2 * 60_000;
/** Payments one sweep handles of each kind, oldest first; the rest wait for the next sweep. */
const BATCH = 100;

/**
 * Where the asking stopped, per server: the creation time of the last pending payment asked about. The next sweep asks
 * the ones after it and starts again from the oldest once it reaches the end, so payments the portal keeps answering
 * "pending" (a payer who opened its page and left) never hold the batch against younger ones. Not stored: a restart
 * starts again from the oldest.
 */
const askedUpTo = new WeakMap<FastifyInstance, Date>();

/** What one inquiry at the portal found (recorded on the payment: inquired_at, inquiry_answer, inquiry_failures). */
export const INQUIRY_ANSWERS = ['pending', 'paid', 'cancelled', 'expired', 'unknown', 'unreachable', 'notApplied'] as const;
export type InquiryAnswer = (typeof INQUIRY_ANSWERS)[number];
export interface Inquiry {
  answer: InquiryAnswer;
  /** True when the portal's final answer settled the payment here (bill marked paid, or the attempt cancelled). */
  changed: boolean;
}

/**
 * Asks the portal about one payment (the status inquiry) and records its answer on the payment; a final answer (paid,
 * cancelled) is signed as a callback is and goes through applyPaymentCallback, the callback's own path, so nothing is
 * ever marked paid without the portal's word. Used by the sweep and by staff asking about one payment now
 * (POST /api/payments/:id/inquire). A portal that does not answer is recorded ('unreachable') and thrown
 * (ExternalServiceUnavailable); an answer not applied for a signature or data mismatch is recorded ('notApplied'),
 * logged for staff, and answered; anything else thrown is tried again next time.
 */
export async function inquirePayment(app: FastifyInstance, payment: { id: string; portalPaymentId: string }, now = new Date()): Promise<Inquiry> {
  const record = (answer: InquiryAnswer) =>
    app.db
      .update(payments)
      .set({
        inquiredAt: now,
        inquiryAnswer: answer,
        // Only a failure of this payment counts: the portal answered for it and the answer did not match. A portal that
        // does not answer (down for everyone) says nothing about the payment: the count is left as it was.
        inquiryFailures: answer === 'notApplied' ? sql`${payments.inquiryFailures} + 1` : answer === 'unreachable' ? payments.inquiryFailures : 0,
      })
      .where(eq(payments.id, payment.id));
  let answer;
  try {
    answer = await paymentPortalOf(app).paymentStatus(payment.portalPaymentId);
  } catch (err) {
    app.log.warn({ err, paymentId: payment.portalPaymentId }, 'payment inquiry: the portal did not answer; asked again later');
    await record('unreachable');
    throw err instanceof AppError ? err : new AppError('ExternalServiceUnavailable', { service: 'payment' });
  }
  if (!answer) {
    await record('unknown');
    return { answer: 'unknown', changed: false };
  }
  if (answer.status !== 'paid' && answer.status !== 'cancelled') {
    await record(answer.status);
    return { answer: answer.status, changed: false };
  }
  try {
    const applied = await applyPaymentCallback(app, { ...answer, status: answer.status });
    app.log.info({ paymentId: payment.portalPaymentId, outcome: applied.outcome, changed: applied.changed }, 'payment reconciled with the portal');
    await record(answer.status);
    return { answer: answer.status, changed: applied.changed };
  } catch (err) {
    // A signature or data mismatch is never applied (logged for staff); anything else is tried again next time.
    const level = err instanceof AppError ? 'error' : 'warn';
    app.log[level]({ err, paymentId: payment.portalPaymentId }, 'payment reconciliation: the portal’s answer was not applied');
    if (err instanceof AppError) {
      await record('notApplied');
      return { answer: 'notApplied', changed: false };
    }
    throw err;
  }
}

export interface ReconcileResult {
  /** Pending payments the portal was asked about. */
  asked: number;
  /** Of those, payments the portal's answer settled (paid, or cancelled), exactly as their callback would have. */
  settled: number;
  /** Paid payments whose request was told again. */
  renotified: number;
}

/**
 * One reconciliation sweep: nothing the portal acknowledged is lost.
 * 1. A payment started at least RECONCILE_ASK_AFTER_MS ago (and within RECONCILE_ASK_UNTIL_MS) that no callback settled
 *    is asked about at the portal (the status inquiry); a final answer (paid, cancelled) is signed as a callback is and
 *    goes through applyPaymentCallback, the callback's own path: the bill marked paid once, the request told
 *    PAYMENT_CONFIRMED by the system as the callback tells it. A real callback arriving later, or a second sweep,
 *    finds the payment settled and changes nothing. 'pending', 'expired' and a portal that knows no such payment
 *    change nothing (asked again next sweep while the payment is young enough).
 * 2. A payment marked paid whose request never recorded the outcome (telling it failed for a passing reason, or the
 *    process died between the two) is told again through notifyPaymentConfirmed, whose claim keeps a callback arriving
 *    at the same moment from telling it twice.
 * Each payment is handled on its own: one that fails is logged and tried again next sweep.
 */
export async function reconcilePayments(app: FastifyInstance, now = new Date(), batch = BATCH): Promise<ReconcileResult> {
  const result: ReconcileResult = { asked: 0, settled: 0, renotified: 0 };
  const after = askedUpTo.get(app);

  const unheard = await app.db
    .select({ id: payments.id, portalPaymentId: payments.portalPaymentId, createdAt: payments.createdAt })
    .from(payments)
    .where(
      and(
        eq(payments.status, 'pending'),
        lte(payments.createdAt, new Date(now.getTime() - RECONCILE_ASK_AFTER_MS)),
        gte(payments.createdAt, new Date(now.getTime() - RECONCILE_ASK_UNTIL_MS)),
        after ? gt(payments.createdAt, after) : undefined,
      ),
    )
    .orderBy(asc(payments.createdAt))
    .limit(batch);
  // A short batch reached the end: the next sweep starts from the oldest again.
  if (unheard.length < batch) askedUpTo.delete(app);
  for (const payment of unheard) {
    let inquiry: Inquiry | null = null;
    try {
      inquiry = await inquirePayment(app, payment, now);
    } catch (err) {
      // The portal cannot be reached (ExternalServiceUnavailable): asking the others now would fail the same way. A
      // passing failure applying its answer is tried again next sweep.
      if (err instanceof AppError) break;
    }
    result.asked++;
    if (unheard.length === batch) askedUpTo.set(app, payment.createdAt);
    if (inquiry?.changed) result.settled++;
  }

  const untold = await app.db
    .select({ payment: payments, bill: bills })
    .from(payments)
    .innerJoin(bills, eq(bills.id, payments.billId))
    .where(
      and(
        eq(payments.status, 'paid'),
        isNull(payments.workflowOutcome),
        or(
          and(isNull(payments.workflowNotifiedAt), lte(payments.completedAt, new Date(now.getTime() - RENOTIFY_AFTER_MS))),
          and(isNotNull(payments.workflowNotifiedAt), lte(payments.workflowNotifiedAt, new Date(now.getTime() - STALE_CLAIM_MS))),
        ),
      ),
    )
    .orderBy(asc(payments.completedAt))
    .limit(batch);
  for (const { payment, bill } of untold) {
    try {
      // A claim left here is older than STALE_CLAIM_MS (selected so): its process died, release it.
      await releaseStaleClaim(app, payment, now);
      const outcome = await notifyPaymentConfirmed(app, payment, bill);
      if (outcome !== 'pending' && outcome !== 'busy') result.renotified++;
      app.log.info({ paymentId: payment.portalPaymentId, outcome }, 'payment reconciliation: the request was told of its paid bill');
    } catch (err) {
      app.log.error({ err, paymentId: payment.portalPaymentId }, 'payment reconciliation: telling the request failed; tried again next sweep');
    }
  }
  return result;
}

/**
 * Runs reconcilePayments every PAYMENT_RECONCILE_MS while the server is up (0: never; tests run it by hand), one sweep
 * at a time. Registered after the requests module, so it is stopped before the engine it tells closes.
 */
export default fp(
  async (app) => {
    const runner = new TimerRunner(
      async () => {
        const r = await reconcilePayments(app);
        return r.asked + r.renotified;
      },
      app.config.PAYMENT_RECONCILE_MS,
      (err) => app.log.error({ err }, 'payment reconciliation sweep failed'),
    );
    app.addHook('onReady', async () => runner.start());
    app.addHook('onClose', async () => runner.stop());
  },
  { name: 'payment-reconciliation' },
);
