import { PAYMENT_CALLBACK_PATH } from '../../adapters/payment-portal';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { bills, payments } from '../../../db/schema';
import type { RequestContext } from '../../../machines/types';
import type { RequestView } from '../../../workflows/engine';
import { certificateBehind } from '../../../workflows/certificate-behind';
import type { Actor } from '../../../machines/actor';
import { AppError } from '../../errors';
import { tFor, type Language } from '../../i18n';
import { paymentPortalOf } from '../../adapters/payment-portal';
import { assertMayPayBill, billServiceName, loadBill, mayPayBill } from './bill-view';
import { toHalalas } from '../../../machines/services/fees';
import { assertStillUsable } from '../requests/still-usable';
import './errors';

export interface StartedPayment {
  paymentId: string;
  paymentReference: string;
  /** The payment portal's page; the web sends the browser there. */
  redirectUrl: string;
}

/** Where callbacks come back to: PUBLIC_URL, else the origin the person is using right now. */
export const CALLBACK_PATH = PAYMENT_CALLBACK_PATH;

/** The web page a person lands on after paying, when the caller names none. */
export const defaultReturnPath = (billId: string) => `/bills/${billId}`;

/** What the payment portal shows the payer, in both languages: the service the bill is for (billServiceName), the fee, the bill number. */
export function paymentDescription(bill: Pick<typeof bills.$inferSelect, 'service' | 'feeKind' | 'number'>): Record<Language, string> {
  const text = (lang: Language) => {
    const t = tFor(lang);
    return `${billServiceName(bill, t)} — ${t(`payments:feeKind.${bill.feeKind}`, { defaultValue: bill.feeKind })} (${bill.number})`;
  };
  return { ar: text('ar'), en: text('en') };
}

/**
 * A shipment or mark bill is not paid while the Halal certificate it rests on is suspended or expired (spec 02
 * sections 4 and 8: services are blocked then): nothing could be issued for the money. The bill stays awaiting payment
 * and is paid once the certificate is in force again (or expires meanwhile, as any unpaid bill).
 */
async function assertCertificateInForce(app: FastifyInstance, request: RequestView, now: Date): Promise<void> {
  const behind = await certificateBehind(app.db, { kind: request.kind, facilityPublicId: request.facilityId, context: request.context as unknown as RequestContext }, now, app.services);
  if (behind && !behind.inForce) throw new AppError('BillCertificateNotInForce', { number: behind.number });
}

/**
 * Starts paying a bill: registers the payment at the government payment portal and records the attempt. The bill
 * must be awaiting payment and within its payment window; only users of the bill's facility who may work its requests pay it.
 */
export async function startPayment(
  app: FastifyInstance,
  actor: Actor,
  billId: string,
  opts: { origin: string; lang: Language; returnPath?: string },
  now = new Date(),
): Promise<StartedPayment> {
  const bill = await loadBill(app.db, actor, billId, mayPayBill);
  await assertMayPayBill(app.db, actor, bill);
  if (bill.status !== 1 || toHalalas(bill.total) <= 0) throw new AppError('BillNotPayable');
  if (bill.dueAt && bill.dueAt.getTime() <= now.getTime()) throw new AppError('BillExpired');
  // The certificate a shipment or mark bill's issue rests on first (its refusal names it and says when to pay), then
  // the service's own preconditions: paying uses the certificate the request is about, refused while it is expired or
  // suspended, or the factory taken.
  // One read of the request serves both.
  const request = bill.requestId ? await app.engine.get(bill.requestId) : null;
  if (request) {
    await assertCertificateInForce(app, request, now);
    await assertStillUsable(app, request, now);
  }

  const callbackUrl = `${opts.origin}${CALLBACK_PATH}`;
  const created = await paymentPortalOf(app).createPayment({
    merchantReference: bill.number,
    amount: bill.amount,
    vat: bill.vat,
    total: bill.total,
    currency: 'SAR',
    description: paymentDescription(bill),
    language: opts.lang,
    returnUrl: callbackUrl,
    callbackUrl,
  });

  await app.db.transaction(async (tx) => {
    await tx.insert(payments).values({
      billId: bill.id,
      portalPaymentId: created.paymentId,
      amount: bill.total,
      returnPath: opts.returnPath ?? defaultReturnPath(bill.id),
      startedBy: actor.userId,
      createdAt: now,
    });
    // The first registration at the portal issues the bill there; later attempts keep its reference.
    await tx
      .update(bills)
      .set({ paymentReference: created.paymentReference })
      .where(and(eq(bills.id, bill.id), isNull(bills.paymentReference)));
  });
  return { paymentId: created.paymentId, paymentReference: created.paymentReference, redirectUrl: created.paymentUrl };
}
