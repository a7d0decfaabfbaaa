import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { certificates, payments } from '../../db/schema';
import { AppError } from '../../server/errors';
import { tFor } from '../../server/i18n';
import { actorOf } from '../../server/plugins/auth';
import { startPayment } from '../../server/modules/payments/start-payment';
import { accept, completeDraft } from '../helpers/requests';
import { certificatesOf, createWorld, walk, type CertificateJson, type World } from '../services/walk';

/*
 * The payment start reads its request once (engine.get) for both of its checks: the certificate a shipment's issue
 * rests on (certificateBehind, with the request's facility and context as the engine gives them) and the service's
 * preconditions; "in force" is one rule (workflows/certificate-behind.ts inForce) behind both. Its edges, at the
 * payment door of a shipment: the certificate's expiry instant is already out of force (refused, naming it, nothing
 * registered), one millisecond before it the payment starts; "expiring soon" (status 3) is in force.
 */
const FACTORY = 'exf-anatolia-meat';
const ORIGIN = 'http://127.0.0.1';
let w: World;
let factoryCert: CertificateJson;

beforeAll(async () => {
  w = await createWorld();
  const ext = await completeDraft(w.as.external, 'externalCertificate', FACTORY);
  expect((await walk(w, ext.id, { applicant: 'external', until: 105 })).request.status.code).toBe(105);
  [factoryCert] = await certificatesOf(w, w.as.external, ext.id);
}, 240_000);
afterAll(() => w?.t.close());

const actor = () => actorOf(w.t.app, w.userId('external'), ['applicant']);
const setCertificate = (set: { expiresAt?: Date; status?: number }) => w.t.database.db.update(certificates).set(set).where(eq(certificates.id, factoryCert.id));

/** A shipment of the factory submitted while its certificate is valid: its one bill, awaiting payment. */
async function shipmentBill(): Promise<{ id: string; number: string }> {
  const draft = await completeDraft(w.as.external, 'shipment', FACTORY);
  expect((await accept(w.as.external, draft.id, 'SUBMIT', { agreementAccepted: true })).status.code).toBe(1007);
  const items = (await w.as.external.get(`/api/bills?requestId=${draft.id}`)).json().items as { id: string; number: string; status: { code: number } }[];
  expect(items.map((b) => b.status.code)).toEqual([1]);
  return items[0]!;
}

const paymentsOf = (billId: string) => w.t.database.db.select({ id: payments.id }).from(payments).where(eq(payments.billId, billId));
const billStatus = async (billId: string) => ((await w.as.external.get(`/api/bills/${billId}`)).json() as { status: { code: number } }).status.code;

describe('the payment start of a shipment, one read of its request for both checks', () => {
  it('at the factory certificate’s expiry instant it is refused, naming the certificate (ar/en), nothing registered; a millisecond before, it starts', async () => {
    const bill = await shipmentBill();
    // Within the bill's payment window (its due date is days away).
    const expiresAt = new Date(Date.now() + 3_600_000);
    await setCertificate({ expiresAt });
    try {
      const refused = await startPayment(w.t.app, await actor(), bill.id, { origin: ORIGIN, lang: 'ar' }, expiresAt).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(AppError);
      expect((refused as AppError).code).toBe('BillCertificateNotInForce');
      expect((refused as AppError).params).toEqual({ number: factoryCert.number });
      for (const lang of ['ar', 'en'] as const) {
        expect(tFor(lang)('errors:BillCertificateNotInForce', (refused as AppError).params)).toContain(factoryCert.number);
      }
      expect(await paymentsOf(bill.id)).toEqual([]);
      expect(await billStatus(bill.id)).toBe(1);

      const started = await startPayment(w.t.app, await actor(), bill.id, { origin: ORIGIN, lang: 'en' }, new Date(expiresAt.getTime() - 1));
      expect(started.redirectUrl).toMatch(/^https?:\/\//);
      expect(await paymentsOf(bill.id)).toHaveLength(1);
    } finally {
      await setCertificate({ expiresAt: new Date(Date.now() + 400 * 86_400_000) });
    }
  });

  it('a factory certificate "expiring soon" (status 3) is in force: the payment starts', async () => {
    const bill = await shipmentBill();
    await setCertificate({ status: 3 });
    try {
      const started = await startPayment(w.t.app, await actor(), bill.id, { origin: ORIGIN, lang: 'ar' });
      expect(started.redirectUrl).toMatch(/^https?:\/\//);
      expect(await paymentsOf(bill.id)).toHaveLength(1);
    } finally {
      await setCertificate({ status: 1 });
    }
  });
});
