import { and, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db, Tx } from '../../../db/client';
import { billLines, payments, requestHistory, requests } from '../../../db/schema';
import { REQUEST_KINDS } from '../../../machines/services';
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

/** A claim to tell the request (payments.workflow_notified_at) older than this without an outcome belongs to a process that died. */
export const STALE_CLAIM_MS = 10 * 60_000;

/**
 * Releases a claim to tell the request that a process which died left behind (only if it is still that claim and no
 * outcome was recorded), so that notifyPaymentConfirmed may claim the payment again. True when the payment is free to claim.
 */
export async function releaseStaleClaim(app: FastifyInstance, payment: { id: string; workflowNotifiedAt: Date | null }, now = new Date()): Promise<boolean> {
  if (!payment.workflowNotifiedAt) return true;
  if (now.getTime() - payment.workflowNotifiedAt.getTime() < STALE_CLAIM_MS) return false;
  await app.db
    .update(payments)
    .set({ workflowNotifiedAt: null })
    .where(and(eq(payments.id, payment.id), eq(payments.workflowNotifiedAt, payment.workflowNotifiedAt), isNull(payments.workflowOutcome)));
  return true;
}

/** Refusals that will not change on a retry: the request moved on, or never took payments. */
const FINAL_REFUSALS = new Set(['TransitionNotAllowed', 'NotAuthorized', 'EntityNotFound', 'ValidationFailed']);

export type NotifyOutcome = 'accepted' | 'refused' | 'noWorkflow' | 'pending' | 'busy';

/**
 * The requests a bill pays: its own request, or every request whose invoice line the month-end bulk bill holds. A
 * yearly instalment belongs to a certificate, not a request: only its own lifecycle hears the payment.
 */
export async function requestsPaidBy(app: FastifyInstance, bill: { id: string; requestId: string | null }, db: Db | Tx = app.db): Promise<string[]> {
  const ids = bill.requestId
    ? [bill.requestId]
    : (await db.select({ requestId: billLines.requestId }).from(billLines).where(eq(billLines.billId, bill.id))).map((l) => l.requestId);
  if (!ids.length) return [];
  const unique = [...new Set(ids)];
  const entities = await db
    .select({ id: requests.id })
    .from(requests)
    .where(and(inArray(requests.id, unique), notInArray(requests.kind, [...REQUEST_KINDS])));
  const skip = new Set(entities.map((r) => r.id));
  return unique.filter((id) => !skip.has(id));
}

/** Whether a request already took this payment (a retried callback must not record a refusal for it). */
async function alreadyConfirmed(app: FastifyInstance, requestId: string, paymentReference: string | null): Promise<boolean> {
  if (!paymentReference) return false;
  const [row] = await app.db
    .select({ seq: requestHistory.seq })
    .from(requestHistory)
    .where(
      and(
        eq(requestHistory.requestId, requestId),
        eq(requestHistory.event, PAYMENT_CONFIRMED),
        sql`${requestHistory.payload}->>'paymentReference' = ${paymentReference}`,
      ),
    )
    .limit(1);
  return !!row;
}

/**
 * Tells each request a bill pays that it is paid: PAYMENT_CONFIRMED { paymentReference } from the system actor. The
 * machine decides what follows. The payment row is claimed first (workflow_notified_at set where it was null), so two
 * callbacks arriving together send the events once ('busy' for the loser); the outcome is recorded, and the claim is
 * released when a try failed for a passing reason (or no engine runs yet), so that a repeated callback tries again.
 * A request that refuses the payment (it moved on, e.g. expired a moment before) gets the refusal in its history
 * (PAYMENT_REFUSED) and the payment is flagged 'refused' for staff, who must refund it: a payment is never lost.
 */
export async function notifyPaymentConfirmed(
  app: FastifyInstance,
  payment: { id: string },
  bill: { id: string; number: string; requestId: string | null; paymentReference: string | null },
): Promise<NotifyOutcome> {
  const claimed = await app.db
    .update(payments)
    .set({ workflowNotifiedAt: new Date() })
    .where(and(eq(payments.id, payment.id), isNull(payments.workflowNotifiedAt)))
    .returning({ id: payments.id });
  if (!claimed.length) return 'busy';
  const engine = engineOf(app);
  const targets = await requestsPaidBy(app, bill);
  let outcome: NotifyOutcome = targets.length ? 'accepted' : 'noWorkflow';
  if (!engine) outcome = 'pending';
  for (const requestId of engine ? targets : []) {
    if (await alreadyConfirmed(app, requestId, bill.paymentReference)) continue;
    try {
      const event = { type: PAYMENT_CONFIRMED, ...(bill.paymentReference ? { paymentReference: bill.paymentReference } : {}) };
      await engine!.send(requestId, event, SYSTEM_ACTOR);
    } catch (err) {
      if (err instanceof AppError && FINAL_REFUSALS.has(String(err.code))) {
        app.log.warn({ billId: bill.id, requestId, code: err.code }, 'payment confirmed but the workflow refused it: refund due');
        await engine!.annotate(
          requestId,
          { event: 'PAYMENT_REFUSED', payload: { billNumber: bill.number, paymentReference: bill.paymentReference, refusal: String(err.code) }, note: null },
          SYSTEM_ACTOR,
        );
        outcome = 'refused';
      } else {
        // A passing failure: the next callback retries every request of the bill (the accepted ones refuse it again,
        // harmlessly, since their payment state is gone).
        app.log.error({ err, billId: bill.id }, 'telling the workflow about a payment failed; the next callback retries');
        outcome = 'pending';
        break;
      }
    }
  }
  // The bill's own lifecycle hears it too (an instalment or bulk bill may have no single request waiting; a request's
  // own effect may have told it already, and then it refuses, harmlessly).
  if (engine && outcome !== 'pending') await engine.send(bill.id, { type: PAYMENT_CONFIRMED }, SYSTEM_ACTOR).catch(() => undefined);
  await app.db
    .update(payments)
    .set(outcome === 'pending' ? { workflowNotifiedAt: null } : { workflowOutcome: outcome })
    .where(eq(payments.id, payment.id));
  return outcome;
}
