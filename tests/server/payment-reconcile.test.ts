import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { bills, payments } from '../../db/schema';
import { reconcilePayments, RECONCILE_ASK_AFTER_MS, RENOTIFY_AFTER_MS } from '../../server/modules/payments/reconcile-payments';
import { accept, completeDraft, send } from '../helpers/requests';
import { goodProduct } from '../forms/fixtures';
import type { RequestJson } from '../helpers/requests';
import { billsOf, certificatesOf, createWorld, fireTimer, walk, type BillJson, type DemoUser, type World } from '../services/walk';

/**
 * Reconciling payments with their requests ("nothing that was acknowledged is ever lost"), over HTTP with the payment
 * portal simulator. The simulators run as their own server (port 3321): the simulator's server-to-server notification
 * goes to its own address, where no portal listens, so it is lost, exactly as a callback that never arrives; the
 * person's browser return (the same signed fields) is delivered by hand when a test says the real callback comes late.
 * The sweep is run by hand (PAYMENT_RECONCILE_MS is 0 in tests) at a chosen time, as the server runs it every minute.
 */
const SIMULATORS_PORT = 3321;
const INTERNAL = 'inf-almarai-foods';
const FACTORY = 'exf-anatolia-meat';

let w: World;
beforeAll(async () => {
  w = await createWorld({ simulatorsPort: SIMULATORS_PORT });
}, 180_000);
afterAll(() => w?.t.close());

const STATUS = JSON.parse(readFileSync(join(__dirname, '../../locales/en/status.json'), 'utf8')) as Record<string, Record<string, string>>;
const STATUS_AR = JSON.parse(readFileSync(join(__dirname, '../../locales/ar/status.json'), 'utf8')) as Record<string, Record<string, string>>;
const ERRORS = {
  ar: JSON.parse(readFileSync(join(__dirname, '../../locales/ar/errors.json'), 'utf8')),
  en: JSON.parse(readFileSync(join(__dirname, '../../locales/en/errors.json'), 'utf8')),
} as Record<'ar' | 'en', Record<string, string>>;
const BILL_STATUS = (JSON.parse(readFileSync(join(__dirname, '../../locales/en/payments.json'), 'utf8')) as { billStatus: Record<string, string> }).billStatus;

const requestOf = async (user: DemoUser, id: string, lang: 'ar' | 'en' = 'en') => (await w.as[user].get(`/api/requests/${id}?lang=${lang}`)).json() as RequestJson;
/** Status code and label in both languages, as the request page shows them. */
async function statusOf(user: DemoUser, id: string) {
  const [ar, en] = [await requestOf(user, id, 'ar'), await requestOf(user, id, 'en')];
  return { code: en.status.code, ar: ar.status.label, en: en.status.label };
}
const reads = (kind: string, code: number) => ({ code, ar: STATUS_AR[kind][String(code)], en: STATUS[kind][String(code)] });
const historyOf = async (user: DemoUser, id: string) =>
  (await w.as[user].get(`/api/requests/${id}/history`)).json().items as { event: string; payload: Record<string, unknown>; actor?: unknown; from?: unknown; to?: unknown }[];
const confirmations = async (user: DemoUser, id: string) => (await historyOf(user, id)).filter((h) => h.event === 'PAYMENT_CONFIRMED');
const billView = async (user: DemoUser, id: string) => (await w.as[user].get(`/api/bills/${id}?lang=en`)).json() as BillJson & { status: { code: number; label: string }; paidAt: string | null; paymentReference: string | null };
const paymentRows = (billId: string) => w.t.database.db.select().from(payments).where(eq(payments.billId, billId));
const billRow = async (id: string) => (await w.t.database.db.select().from(bills).where(eq(bills.id, id)))[0];

/** The sweep as the server runs it, `ms` after now. */
const sweepIn = (ms: number) => reconcilePayments(w.t.app, new Date(Date.now() + ms));
const LATER = RECONCILE_ASK_AFTER_MS + 60_000;

/**
 * The person pays (or only opens the page and leaves) at the portal: POST /api/bills/:id/pay, the portal's page, the
 * button. The portal's notification is lost (see the file header); returns the browser's return URL's query (the
 * signed outcome), which `deliver` brings to the portal (GET /api/payments/callback) as the late real callback.
 */
async function payAtPortal(user: DemoUser, billId: string, action: 'pay' | 'cancel' | 'leave') {
  const started = await w.as[user].post(`/api/bills/${billId}/pay?lang=en`, {}, { headers: { host: `127.0.0.1:${SIMULATORS_PORT}` } });
  expect(started.statusCode, started.body).toBe(200);
  const { redirectUrl, paymentReference } = started.json() as { redirectUrl: string; paymentReference: string };
  expect(redirectUrl.startsWith(`http://127.0.0.1:${SIMULATORS_PORT}/simulators/payment-portal/pay?`)).toBe(true);
  expect((await fetch(redirectUrl)).status).toBe(200);
  if (action === 'leave') return { paymentReference, deliver: async () => undefined };
  const res = await fetch(redirectUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ action, lang: 'en' }).toString(),
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
  const back = new URL(res.headers.get('location')!);
  return {
    paymentReference,
    async deliver() {
      const landing = await w.t.app.inject({ method: 'GET', url: `/api/payments/callback${back.search}` });
      expect(landing.statusCode, landing.body).toBe(303);
      return landing.headers.location as string;
    },
  };
}

/** A new internal certificate request submitted: it awaits its application fee (2). */
async function awaitingApplicationFee() {
  const draft = await completeDraft(w.as['internal.main'], 'internalCertificate', INTERNAL);
  await accept(w.as['internal.main'], draft.id, 'SUBMIT', { agreementAccepted: true });
  const [bill] = await billsOf(w.as['internal.main'], draft.id);
  expect([bill.status.code, await statusOf('internal.main', draft.id)]).toEqual([1, reads('internalCertificate', 2)]);
  return { id: draft.id, bill };
}

const NOTHING = { asked: 0, settled: 0, renotified: 0 };

// Each test counts what its own sweeps did: whatever an earlier (failed) test left for the sweep is settled first.
beforeEach(async () => {
  await sweepIn(LATER);
});

describe('a bill paid at the portal whose callback never arrives', () => {
  it('the sweep asks the portal, marks the bill paid once and moves the request on; a second sweep and the late real callback change nothing', async () => {
    const { id, bill } = await awaitingApplicationFee();
    const paid = await payAtPortal('internal.main', bill.id, 'pay');
    // The money is taken, the portal never told us: the request still waits, the bill still awaits payment.
    expect(await statusOf('internal.main', id)).toEqual(reads('internalCertificate', 2));
    expect((await billView('internal.main', bill.id)).status).toEqual({ code: 1, label: BILL_STATUS['1'] });

    // The person may still be on the portal's page: a young payment is not asked about.
    expect(await sweepIn(60_000)).toEqual(NOTHING);
    expect(await statusOf('internal.main', id)).toEqual(reads('internalCertificate', 2));

    expect(await sweepIn(LATER)).toEqual({ asked: 1, settled: 1, renotified: 0 });
    expect(await statusOf('internal.main', id)).toEqual(reads('internalCertificate', 1));
    const view = await billView('internal.main', bill.id);
    expect([view.status, view.paymentReference]).toEqual([{ code: 2, label: BILL_STATUS['2'] }, paid.paymentReference]);
    expect((await paymentRows(bill.id)).map((p) => [p.status, p.workflowOutcome])).toEqual([['paid', 'accepted']]);
    // Recorded in the request's history as the callback's is: PAYMENT_CONFIRMED from the system, with the reference.
    const heard = await confirmations('internal.main', id);
    expect(heard).toHaveLength(1);
    expect(heard[0].payload).toEqual({ paymentReference: paid.paymentReference });

    const settled = await billRow(bill.id);
    const version = (await requestOf('internal.main', id)).version;
    const history = await historyOf('internal.main', id);
    expect(await sweepIn(LATER)).toEqual(NOTHING);
    // The portal's real callback arrives after all (the browser's return): the person lands on the bill, paid, and
    // nothing changes.
    expect(await paid.deliver()).toBe(`/bills/${bill.id}?payment=paid`);
    expect(await billRow(bill.id)).toEqual(settled);
    expect((await requestOf('internal.main', id)).version).toBe(version);
    expect(await historyOf('internal.main', id)).toEqual(history);
    expect(await paymentRows(bill.id)).toHaveLength(1);
  }, 120_000);

  it('a payment cancelled at the portal is recorded cancelled by the sweep; the bill still awaits payment and the request waits', async () => {
    const { id, bill } = await awaitingApplicationFee();
    await payAtPortal('internal.main', bill.id, 'cancel');
    const version = (await requestOf('internal.main', id)).version;
    expect(await sweepIn(LATER)).toEqual({ asked: 1, settled: 1, renotified: 0 });
    expect((await paymentRows(bill.id)).map((p) => p.status)).toEqual(['cancelled']);
    expect((await billView('internal.main', bill.id)).status.code).toBe(1);
    expect(await statusOf('internal.main', id)).toEqual(reads('internalCertificate', 2));
    expect((await requestOf('internal.main', id)).version).toBe(version);
    expect(await sweepIn(LATER)).toEqual(NOTHING);
  }, 120_000);
});

describe('a bill marked paid whose request was never told', () => {
  it('telling the request failed once: the sweep tells it; a repeated callback and a second sweep change nothing', async () => {
    const { id, bill } = await awaitingApplicationFee();
    const paid = await payAtPortal('internal.main', bill.id, 'pay');
    // The portal's callback arrives, the bill is marked paid, then telling the request fails for a passing reason.
    const engineSend = vi.spyOn(w.t.app.engine, 'send').mockImplementationOnce(async () => {
      throw new Error('database connection lost');
    });
    try {
      expect(await paid.deliver()).toBe(`/bills/${bill.id}?payment=paid`);
    } finally {
      engineSend.mockRestore();
    }
    expect((await billView('internal.main', bill.id)).status.code).toBe(2);
    expect(await statusOf('internal.main', id)).toEqual(reads('internalCertificate', 2));
    expect((await paymentRows(bill.id)).map((p) => [p.status, p.workflowOutcome])).toEqual([['paid', null]]);

    // Right after the payment the callback's own retry may still be under way: not yet.
    expect(await sweepIn(RENOTIFY_AFTER_MS / 2)).toEqual(NOTHING);
    expect(await sweepIn(RENOTIFY_AFTER_MS + 60_000)).toEqual({ asked: 0, settled: 0, renotified: 1 });
    expect(await statusOf('internal.main', id)).toEqual(reads('internalCertificate', 1));
    expect(await confirmations('internal.main', id)).toEqual([expect.objectContaining({ payload: { paymentReference: paid.paymentReference } })]);
    expect((await paymentRows(bill.id)).map((p) => p.workflowOutcome)).toEqual(['accepted']);

    const version = (await requestOf('internal.main', id)).version;
    const history = await historyOf('internal.main', id);
    await paid.deliver();
    expect(await sweepIn(LATER)).toEqual(NOTHING);
    expect((await requestOf('internal.main', id)).version).toBe(version);
    expect(await historyOf('internal.main', id)).toEqual(history);
  }, 120_000);
});

describe('another facility', () => {
  it('its payment the portal holds unpaid is left as it is, while this facility’s lost payment is reconciled in the same sweep', async () => {
    // The factory's certificate request awaiting its certificate fee; its user opened the portal's page and left.
    const external = await completeDraft(w.as.external, 'externalCertificate', FACTORY);
    const walked = await walk(w, external.id, { applicant: 'external', until: 102, payBills: false });
    expect(walked.request.status.code, JSON.stringify(walked.steps)).toBe(102);
    const [theirs] = (await billsOf(w.as.external, external.id)).filter((b) => b.status.code === 1);
    await payAtPortal('external', theirs.id, 'leave');
    const theirBill = await billRow(theirs.id);
    const theirPayments = await paymentRows(theirs.id);
    const theirVersion = (await requestOf('external', external.id)).version;
    const theirHistory = await historyOf('external', external.id);

    const { id, bill } = await awaitingApplicationFee();
    await payAtPortal('internal.main', bill.id, 'pay');

    expect(await sweepIn(LATER)).toEqual({ asked: 2, settled: 1, renotified: 0 });
    expect(await statusOf('internal.main', id)).toEqual(reads('internalCertificate', 1));
    // Theirs: the bill still awaits payment, the payment is still pending, the request did not move.
    expect(await billRow(theirs.id)).toEqual(theirBill);
    // Only the portal's answer is recorded on it (staff see it among the payments needing attention once it is days old).
    expect(await paymentRows(theirs.id)).toEqual(theirPayments.map((p) => ({ ...p, inquiredAt: expect.any(Date), inquiryAnswer: 'pending', inquiryFailures: 0 })));
    expect(await statusOf('external', external.id)).toEqual(reads('externalCertificate', 102));
    expect((await requestOf('external', external.id)).version).toBe(theirVersion);
    expect(await historyOf('external', external.id)).toEqual(theirHistory);
  }, 180_000);
});

describe('a month-end bulk bill paid at the portal, its request not yet told (spec 02: after payment a request cannot be cancelled)', () => {
  it('cancelling is refused, the payment window’s end waits, and the sweep moves the request on with the product added', async () => {
    const certified = await completeDraft(w.as.external, 'externalCertificate', FACTORY);
    const issued = await walk(w, certified.id, { applicant: 'external', until: 105 });
    expect(issued.request.status.code, JSON.stringify(issued.steps)).toBe(105);
    const veal = goodProduct({ nameAr: 'لحم عجل مجمد', nameEn: 'Frozen Veal', brandAr: 'اناضول', brandEn: 'Anatolia', saudiHsCode: '020430000000', globalHsCode: '020430', productNumber: 'TRX00000000000003', category: 'C0', unit: 0, netWeight: 20, grossWeight: 21 });
    await accept(w.as.external, certified.id, 'ADD_PRODUCTS', { products: [veal] });
    expect((await walk(w, certified.id, { applicant: 'external', until: 128 })).request.status.code).toBe(128);
    await fireTimer(w.t, certified.id, 'INVOICE_ISSUED');
    expect(await statusOf('external', certified.id)).toEqual(reads('externalCertificate', 129));
    const bulk = ((await w.as.external.get(`/api/bills?facilityId=${FACTORY}&bulk=true&status=1&pageSize=100`)).json().items as BillJson[])[0];
    expect(bulk.feeKind.code).toBe('bulkInvoice');

    // Paid at the portal; its callback marks the bulk bill paid, then telling the request fails for a passing reason.
    const paid = await payAtPortal('external', bulk.id, 'pay');
    const engineSend = vi.spyOn(w.t.app.engine, 'send').mockImplementationOnce(async () => {
      throw new Error('database connection lost');
    });
    try {
      await paid.deliver();
    } finally {
      engineSend.mockRestore();
    }
    expect((await billView('external', bulk.id)).status).toEqual({ code: 2, label: BILL_STATUS['2'] });
    expect(await statusOf('external', certified.id)).toEqual(reads('externalCertificate', 129));

    // The request cannot be withdrawn from its bulk invoice (it pays for other requests too), nor its fee waived: not
    // offered, and refused in the user's language if sent; nothing changed.
    const before = await requestOf('external', certified.id);
    const billBefore = await billRow(bulk.id);
    const offered = (await w.as.external.get(`/api/requests/${certified.id}/actions`)).json() as { actions: { type: string }[] };
    expect(offered.actions.map((a) => a.type)).not.toContain('CANCEL');
    for (const lang of ['ar', 'en'] as const) {
      const cancel = await send(w.as.external, certified.id, 'CANCEL', before.version, {}, lang);
      expect([cancel.statusCode, cancel.json().error.code, cancel.json().error.message]).toEqual([409, 'TransitionNotAllowed', ERRORS[lang].TransitionNotAllowed]);
    }
    const waive = await send(w.as.registration, certified.id, 'GRANT_DISCOUNT', before.version, { percent: 100, reason: 'Charity kitchen' }, 'en');
    expect([waive.statusCode, waive.json().error.message]).toEqual([409, ERRORS.en.TransitionNotAllowed]);
    expect((await requestOf('external', certified.id)).version).toBe(before.version);
    expect(await billRow(bulk.id)).toEqual(billBefore);

    // The payment window ends before the request hears of the payment: the payment wins, the request waits in 129 and
    // the bulk bill stays paid.
    await fireTimer(w.t, certified.id, 'PAYMENT_EXPIRED');
    expect(await statusOf('external', certified.id)).toEqual(reads('externalCertificate', 129));
    expect((await billView('external', bulk.id)).status).toEqual({ code: 2, label: BILL_STATUS['2'] });

    expect(await sweepIn(RENOTIFY_AFTER_MS + 60_000)).toEqual({ asked: 0, settled: 0, renotified: 1 });
    expect(await statusOf('external', certified.id)).toEqual(reads('externalCertificate', 108));
    expect((await billView('external', bulk.id)).status.code).toBe(2);
    expect(await confirmations('external', certified.id)).toEqual(
      expect.arrayContaining([expect.objectContaining({ payload: { paymentReference: paid.paymentReference } })]),
    );
    const [certificate] = await certificatesOf(w, w.as.external, certified.id);
    expect(certificate.products.map((p) => p.nameEn)).toContain('Frozen Veal');
  }, 300_000);
});

describe('payments the portal keeps answering "pending" (payers who opened its page and left)', () => {
  it('do not hold the sweep: a younger payment paid at the portal is reached within one round of sweeps', async () => {
    // Two payers leave the portal's page (never paid, the portal answers "pending" for days); then one pays.
    for (let i = 0; i < 2; i++) {
      const left = await awaitingApplicationFee();
      await payAtPortal('internal.main', left.bill.id, 'leave');
    }
    const { id, bill } = await awaitingApplicationFee();
    await payAtPortal('internal.main', bill.id, 'pay');
    const now = Date.now() + LATER;
    const pending = (await w.t.database.db.select().from(payments).where(eq(payments.status, 'pending'))).filter(
      (p) => p.createdAt.getTime() <= now - RECONCILE_ASK_AFTER_MS,
    ).length;
    expect(pending).toBeGreaterThanOrEqual(3);

    // One payment per sweep: each sweep asks the next one, so the paid one is reached before the round is over.
    let settled = 0;
    for (let sweep = 0; sweep < pending && settled === 0; sweep++) {
      settled += (await reconcilePayments(w.t.app, new Date(now), 1)).settled;
    }
    expect(settled).toBe(1);
    expect(await statusOf('internal.main', id)).toEqual(reads('internalCertificate', 1));
    expect((await billView('internal.main', bill.id)).status.label).toBe(BILL_STATUS['2']);
  }, 240_000);
});
