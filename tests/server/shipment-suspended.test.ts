import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAmount, shipmentFee, toGrams, withVat } from '../../machines/services/fees';
import { tFor } from '../../server/i18n';
import { accept, completeDraft, type RequestJson } from '../helpers/requests';
import { markData, shipmentData } from '../services/fixtures';
import {
  certificatesOf,
  committeeSends,
  createWorld,
  fireDue,
  fireWaiting,
  money,
  portalPaid,
  setExpiry,
  walk,
  type CertificateJson,
  type DemoUser,
  type World,
} from '../services/walk';

/*
 * Spec 02 sections 4 and 8: a suspended or expired certificate cannot be used; services are blocked meanwhile. A shipment
 * submitted against a valid factory certificate that is then suspended (or expires) before its bill is paid must not
 * be certified against it: its payment cannot be started (the bill waits, payable once the certificate is valid
 * again), and a payment already under way at the portal is kept, the shipment waiting, paid, until it is. The same
 * refusal stands for a Halal-mark package's bill. Each step reads what the applicant reads, over HTTP, in both languages.
 */
const FACTORY = 'exf-anatolia-meat';
const FACILITY = 'inf-almarai-foods';
let w: World;
let factoryCert: CertificateJson;
let internalCert: CertificateJson;

beforeAll(async () => {
  w = await createWorld();
  const ext = await completeDraft(w.as.external, 'externalCertificate', FACTORY);
  expect((await walk(w, ext.id, { applicant: 'external', until: 105 })).request.status.code).toBe(105);
  [factoryCert] = await certificatesOf(w, w.as.external, ext.id);
  const int = await completeDraft(w.as['internal.main'], 'internalCertificate', FACILITY);
  expect((await walk(w, int.id, { applicant: 'internal.main', until: 25, option: 'full' })).request.status.code).toBe(25);
  [internalCert] = await certificatesOf(w, w.as['internal.main'], int.id);
}, 240_000);
afterAll(() => w?.t.close());

const billed = (halalas: number) => {
  const c = withVat(halalas, w.t.app.settings.current().vatRate);
  return { amount: formatAmount(c.amount), vat: formatAmount(c.vat), total: formatAmount(c.total) };
};
/** The fee of shipmentData(): its product and slaughter lines' net weight, at the settings in force. */
const shipmentCharge = () => {
  const lines = [...(shipmentData().products as { netWeight: number; unit: number }[]), ...(shipmentData().slaughters as { netWeight: number; unit: number }[])];
  return billed(shipmentFee(w.t.app.settings.current().fees, lines.reduce((g, l) => g + toGrams(l.netWeight, l.unit), 0)));
};
const statusOf = async (user: DemoUser, id: string) => {
  const read = async (lang: 'ar' | 'en') => ((await w.as[user].get(`/api/requests/${id}?lang=${lang}`)).json() as RequestJson).status;
  return { en: await read('en'), ar: await read('ar') };
};
type LabelledBill = { id: string; number: string; total: string; amount: string; vat: string; status: { code: number; label: string } };
const billOf = async (user: DemoUser, id: string, lang: 'ar' | 'en' = 'en') => {
  const items = (await w.as[user].get(`/api/bills?requestId=${id}&lang=${lang}`)).json().items as LabelledBill[];
  expect(items).toHaveLength(1);
  return items[0];
};
const startPayment = (user: DemoUser, billId: string, lang: 'ar' | 'en') => w.as[user].post(`/api/bills/${billId}/pay?lang=${lang}`, {});
/** The bill awaits payment, as the applicant reads it in both languages. */
const awaitsPayment = async (user: DemoUser, id: string) => {
  for (const lang of ['ar', 'en'] as const) {
    expect((await billOf(user, id, lang)).status).toEqual({ code: 1, label: tFor(lang)('payments:billStatus.1') });
  }
};
/** Starting the payment is refused in the reader's language, naming the certificate; no payment is registered. */
const refusedToStart = async (user: DemoUser, billId: string, certificateNumber: string) => {
  for (const lang of ['ar', 'en'] as const) {
    const res = await startPayment(user, billId, lang);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error).toMatchObject({
      code: 'BillCertificateNotInForce',
      message: tFor(lang)('errors:BillCertificateNotInForce', { number: certificateNumber }),
    });
  }
};
/** A shipment of the factory, submitted while its certificate is valid: in progress, its bill awaiting payment. */
const submittedShipment = async () => {
  const draft = await completeDraft(w.as.external, 'shipment', FACTORY);
  expect((await accept(w.as.external, draft.id, 'SUBMIT', { agreementAccepted: true })).status.code).toBe(1007);
  return { id: draft.id, bill: await billOf('external', draft.id) };
};
const inProgress = () => ({
  en: { code: 1007, label: 'In Progress' },
  ar: { code: 1007, label: tFor('ar')('status:shipment.1007') },
});
/** Paid and certified once: completed in both languages, one shipment certificate, the bill paid for the fee in force. */
const completedAndCertified = async (id: string) => {
  expect(await statusOf('external', id)).toEqual({ en: { code: 1008, label: 'Completed' }, ar: { code: 1008, label: tFor('ar')('status:shipment.1008') } });
  const bill = await billOf('external', id);
  expect([bill.status.code, money(bill)]).toEqual([2, shipmentCharge()]);
  const certs = await certificatesOf(w, w.as.external, id);
  expect(certs.map((c) => [c.kind, c.holder.publicId])).toEqual([['shipment', FACTORY]]);
};

/** The two ways the factory's certificate stops being valid between submission and payment, and how it comes back. */
const LAPSES = [
  ['suspended', () => committeeSends(w, factoryCert.id, 'SUSPEND', 'Audit found a breach'), () => committeeSends(w, factoryCert.id, 'REINSTATE', 'Breach corrected')],
  ['expired', () => setExpiry(w, factoryCert.id, -1), () => setExpiry(w, factoryCert.id, 400)],
] as const;

describe('a shipment whose factory certificate is suspended or expires after submission, before payment', () => {
  it.each(LAPSES)('%s: its payment cannot be started (ar/en), the bill still awaits payment, nothing is certified; valid again, it is paid and completes', async (_, lapse, restore) => {
    const { id, bill } = await submittedShipment();
    await lapse();
    try {
      await refusedToStart('external', bill.id, factoryCert.number);
      expect(await statusOf('external', id)).toEqual(inProgress());
      await awaitsPayment('external', id);
      expect(await certificatesOf(w, w.as.external, id)).toEqual([]);
    } finally {
      await restore();
    }
    // Valid again: the same bill is paid at the portal and the shipment certificate issued.
    const started = await startPayment('external', bill.id, 'en');
    expect(started.statusCode, started.body).toBe(200);
    expect((await portalPaid(w.t, started.json(), bill).post()).outcome).toBe('paid');
    await fireDue(w.t);
    await completedAndCertified(id);
  });

  it.each(LAPSES)('%s while a payment was under way at the portal: the money is taken, the shipment waits in progress with no certificate; valid again, it is certified once', async (_, lapse, restore) => {
    const { id, bill } = await submittedShipment();
    const started = await startPayment('external', bill.id, 'en');
    expect(started.statusCode, started.body).toBe(200);
    await lapse();
    try {
      expect((await portalPaid(w.t, started.json(), bill).post()).outcome).toBe('paid');
      await fireDue(w.t);
      expect(await statusOf('external', id)).toEqual(inProgress());
      for (const lang of ['ar', 'en'] as const) {
        expect((await billOf('external', id, lang)).status).toEqual({ code: 2, label: tFor(lang)('payments:billStatus.2') });
      }
      expect(await certificatesOf(w, w.as.external, id)).toEqual([]);
      // Paid: the applicant can no longer cancel or edit it (spec 02 section 4), nor pay twice.
      expect((await w.as.external.get(`/api/requests/${id}/actions`)).json().actions).toEqual([]);
    } finally {
      await restore();
    }
    // The waiting issue is tried again a minute on, not at every sweep: right away it still waits.
    await fireDue(w.t);
    expect(await statusOf('external', id)).toEqual(inProgress());
    await fireWaiting(w.t);
    await completedAndCertified(id);
    await fireWaiting(w.t);
    expect(await certificatesOf(w, w.as.external, id)).toHaveLength(1);
  });

  it('with the factory certificate valid the payment starts as before', async () => {
    const { bill } = await submittedShipment();
    const started = await startPayment('external', bill.id, 'ar');
    expect(started.statusCode, started.body).toBe(200);
  });
});

describe('a Halal-mark package whose certificate is suspended or expires before payment', () => {
  const MARK_LAPSES = [
    ['suspended', () => committeeSends(w, internalCert.id, 'SUSPEND', 'Audit found a breach'), () => committeeSends(w, internalCert.id, 'REINSTATE', 'Breach corrected')],
    ['expired', () => setExpiry(w, internalCert.id, -1), () => setExpiry(w, internalCert.id, 400)],
  ] as const;

  it.each(MARK_LAPSES)('%s: its payment cannot be started either (ar/en); valid again, it is paid and the marks issued', async (_, lapse, restore) => {
    await setExpiry(w, internalCert.id, 400);
    const mark = await completeDraft(w.as['internal.main'], 'internalHalalMark', FACILITY, { certificateId: internalCert.id });
    await accept(w.as['internal.main'], mark.id, 'SUBMIT', { agreementAccepted: true });
    const bill = await billOf('internal.main', mark.id);
    await lapse();
    try {
      await refusedToStart('internal.main', bill.id, internalCert.number);
      expect(await statusOf('internal.main', mark.id)).toEqual({
        en: { code: 1002, label: 'Pending Payment of Certificate Fees' },
        ar: { code: 1002, label: tFor('ar')('status:internalHalalMark.1002') },
      });
      await awaitsPayment('internal.main', mark.id);
    } finally {
      await restore();
    }
    const started = await startPayment('internal.main', bill.id, 'en');
    expect(started.statusCode, started.body).toBe(200);
    await portalPaid(w.t, started.json(), bill).post();
    await fireDue(w.t);
    expect((await statusOf('internal.main', mark.id)).en.code).toBe(1005);
    // Paid for what it was billed (an earlier package's unused tags may be credited on it: workflows/mark-credit.ts).
    const paid = await billOf('internal.main', mark.id);
    expect([paid.status.code, money(paid)]).toEqual([2, money(bill)]);
    expect(await certificatesOf(w, w.as['internal.main'], mark.id)).toHaveLength((markData().products as unknown[]).length);
  });
});
