import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { payments } from '../../../db/schema';
import { SYSTEM_ACTOR } from '../../../machines/actor';
import type { WorkflowEngine } from '../../../workflows/engine';
import { AppError } from '../../errors';

/**
 * The machine event a payment state waits for (machines/fragments/payment.ts, machines/bill.ts). Its payload is
 * `{ paymentReference? }` (machines/events.ts, a strict schema): the machine closes the request's open bill itself.
 */
export const PAYMENT_CONFIRMED = 'PAYMENT_CONFIRMED';

/**
 * The engine, when this server runs one. It is looked up rather than imported so that the payments module works (and
 * records that the workflow still has to be told) in a server built without an engine.
 */
function engineOf(app: FastifyInstance): WorkflowEngine | undefined {
  return app.hasDecorator('engine') ? app.engine : undefined;
}

/** Refusals that will not change on a retry: the request moved on, or never took payments. */
const FINAL_REFUSALS = new Set(['TransitionNotAllowed', 'NotAuthorized', 'EntityNotFound', 'ValidationFailed']);

export type NotifyOutcome = 'accepted' | 'refused' | 'noWorkflow' | 'pending' | 'busy';

/**
 * Tells the request's workflow that its bill is paid: PAYMENT_CONFIRMED { paymentReference } from the system actor. The machine
 * decides what follows (issue the certificate, move to the next step). The payment row is claimed first
 * (workflow_notified_at set where it was null), so two callbacks arriving together send the event once ('busy' for
 * the loser); the outcome is recorded, and the claim is released when the try failed for a passing reason (or no
 * engine runs yet), so that a repeated callback tries again.
 */
export async function notifyPaymentConfirmed(
  app: FastifyInstance,
  payment: { id: string },
  bill: { id: string; requestId: string | null; paymentReference: string | null },
): Promise<NotifyOutcome> {
  const claimed = await app.db
    .update(payments)
    .set({ workflowNotifiedAt: new Date() })
    .where(and(eq(payments.id, payment.id), isNull(payments.workflowNotifiedAt)))
    .returning({ id: payments.id });
  if (!claimed.length) return 'busy';
  let outcome: NotifyOutcome;
  const engine = engineOf(app);
  if (!bill.requestId) outcome = 'noWorkflow';
  else if (!engine) outcome = 'pending';
  else {
    try {
      const event = { type: PAYMENT_CONFIRMED, ...(bill.paymentReference ? { paymentReference: bill.paymentReference } : {}) };
      await engine.send(bill.requestId, event, SYSTEM_ACTOR);
      outcome = 'accepted';
    } catch (err) {
      if (err instanceof AppError && FINAL_REFUSALS.has(String(err.code))) {
        // Paid, but the request no longer waits for it (e.g. it expired a moment before): staff must refund.
        app.log.warn({ billId: bill.id, requestId: bill.requestId, code: err.code }, 'payment confirmed but the workflow refused it');
        outcome = 'refused';
      } else {
        app.log.error({ err, billId: bill.id }, 'telling the workflow about a payment failed; the next callback retries');
        outcome = 'pending';
      }
    }
  }
  await app.db
    .update(payments)
    .set(outcome === 'pending' ? { workflowNotifiedAt: null } : { workflowOutcome: outcome })
    .where(eq(payments.id, payment.id));
  return outcome;
}
