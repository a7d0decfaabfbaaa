import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../lib/app-error';
import { paymentPortalOf } from '../../server/adapters/payment-portal';
import { reconcilePayments } from '../../server/modules/payments/reconcile-payments';
import { bills, payments } from '../../db/schema';
import { accept, completeDraft } from '../helpers/requests';
import type { Client } from '../helpers/app';
import { billsOf, createWorld, type DemoUser, type World } from '../services/walk';

/**
 * Staff acting on the payments needing attention beyond asking the portal: recording a refund owed as made
 * (POST /api/payments/:id/refund). Over HTTP with the payment portal simulator on its own server (port 3351), whose
 * server-to-server notification is lost, so each callback below arrives when the test says.
 */
const SIMULATORS_PORT = 3351;
const INTERNAL = 'inf-almarai-foods';
const DAY = 24 * 3_600_000;

let w: World;
let readonlyAuditor: Client;
beforeAll(async () => {
  w = await createWorld({ simulatorsPort: SIMULATORS_PORT });
  readonlyAuditor = await w.t.login('readonly.auditor');
}, 180_000);
afterAll(() => w?.t.close());

const locale = (lang: 'ar' | 'en', ns: string) => JSON.parse(readFileSync(join(__dirname, `../../locales/${lang}/${ns}.json`), 'utf8'));
const ERRORS = { ar: locale('ar', 'errors'), en: locale('en', 'errors') } as Record<'ar' | 'en', Record<string, string>>;
const VALIDATION = { ar: locale('ar', 'validation').refund, en: locale('en', 'validation').refund } as Record<'ar' | 'en', Record<string, string>>;

interface Item {
  paymentId: string;
  billId: string;
  reason: string;
  paymentStatus: string;
  canInquire: boolean;
  canRecordRefund: boolean;
}
interface HistoryItem {
  event: string;
  actor: { userId: string | null };
  payload: Record<string, unknown>;
}

async function listed(billNumber: string, c: Client = w.as.registration) {
  const res = await c.get(`/api/payments/attention?any=${encodeURIComponent(billNumber)}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items as Item[];
}
const paymentRows = (billId: string) => w.t.database.db.select().from(payments).where(eq(payments.billId, billId));
const billRow = async (id: string) => (await w.t.database.db.select().from(bills).where(eq(bills.id, id)))[0];
const historyOf = async (id: string, c: Client = w.as.registration) => {
  const res = await c.get(`/api/requests/${id}/history`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items as HistoryItem[];
};
/** Everything a refused action must leave as it was: the payments, the bill, the request's history. */
const stateOf = async (billId: string, requestId: string) => ({
  payments: await paymentRows(billId),
  bill: await billRow(billId),
  history: (await historyOf(requestId)).length,
  billHistory: (await historyOf(billId)).length,
});
const today = () => new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);
/** RefundAlreadyRecorded as a reader sees it: 29‏/11‏/2026 (with its right-to-left marks) in Arabic, 29 Nov 2026 in English. */
const refusedAgain = (lang: 'ar' | 'en', reference: string, day: string) => {
  const [y, m, d] = day.split('-');
  return lang === 'ar'
    ? `سُجّل استرداد هذه الدفعة من قبل (المرجع \u2066${reference}\u2069، بتاريخ ${d}\u200f/${m}\u200f/${y})، ولا تُسترد الدفعة إلا مرة واحدة.`
    : `A refund has already been recorded for this payment (reference ${reference}, ${Number(d)} ${new Date(`${day}T12:00:00Z`).toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' })} ${y}): a payment is refunded once.`;
};
const refund = (paymentId: string, body: unknown, c: Client = w.as.registration, lang = 'en') => c.post(`/api/payments/${paymentId}/refund?lang=${lang}`, body as Record<string, unknown>);

/** Opens the portal's page for the bill (the payment starts) and, later, pays there; the notification is lost. */
async function openAtPortal(billId: string) {
  const started = await w.as['internal.main'].post(`/api/bills/${billId}/pay?lang=en`, {}, { headers: { host: `127.0.0.1:${SIMULATORS_PORT}` } });
  expect(started.statusCode, started.body).toBe(200);
  const { redirectUrl } = started.json() as { redirectUrl: string };
  expect((await fetch(redirectUrl)).status).toBe(200);
  return {
    async pay() {
      const res = await fetch(redirectUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ action: 'pay', lang: 'en' }).toString(),
        redirect: 'manual',
      });
      expect(res.status).toBe(303);
      return new URL(res.headers.get('location')!).search;
    },
  };
}

/** A new internal certificate request submitted: it awaits its application fee. */
async function awaitingApplicationFee() {
  const draft = await completeDraft(w.as['internal.main'], 'internalCertificate', INTERNAL);
  await accept(w.as['internal.main'], draft.id, 'SUBMIT', { agreementAccepted: true });
  const [bill] = await billsOf(w.as['internal.main'], draft.id);
  return { id: draft.id, bill };
}

/** Money taken for a bill no longer payable: the request was cancelled back to draft while the payer paid. */
async function refundOwed() {
  const { id, bill } = await awaitingApplicationFee();
  const back = await (await openAtPortal(bill.id)).pay();
  await accept(w.as['internal.main'], id, 'CANCEL', {});
  expect((await w.t.app.inject({ method: 'GET', url: `/api/payments/callback${back}` })).statusCode).toBe(303);
  const [item] = await listed(bill.number);
  expect(item).toMatchObject({ reason: 'billNotPayable', paymentStatus: 'rejected', canRecordRefund: true });
  return { id, bill, item };
}

describe('recording a refund owed as made', () => {
  it('registration records the reference and day: the row leaves the list, the bill shows the refund to the applicant, the histories name the person', async () => {
    const { id, bill, item } = await refundOwed();
    const day = today();
    const res = await refund(item.paymentId, { reference: '  RF-2026/001  ', refundedOn: day });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ paymentId: item.paymentId, billId: bill.id, reference: 'RF-2026/001', refundedOn: day });

    expect(await listed(bill.number)).toEqual([]);
    // The applicant reads it on the bill, alone and in the request's bills.
    const own = (await w.as['internal.main'].get(`/api/bills/${bill.id}?lang=en`)).json();
    expect(own.refunds).toEqual([{ reference: 'RF-2026/001', refundedOn: day, amount: bill.total }]);
    const listedBill = (await w.as['internal.main'].get(`/api/bills?requestId=${id}`)).json().items.find((b: { id: string }) => b.id === bill.id);
    expect(listedBill.refunds).toEqual(own.refunds);
    // Recorded with the person as actor, in the request's history (the applicant's view) and the bill's.
    for (const [entity, reader] of [[id, w.as['internal.main']], [bill.id, w.as.registration]] as const) {
      const recorded = (await historyOf(entity, reader)).filter((h) => h.event === 'REFUND_RECORDED');
      expect(recorded).toEqual([
        expect.objectContaining({
          actor: expect.objectContaining({ userId: w.userId('registration') }),
          payload: expect.objectContaining({ refundReference: 'RF-2026/001', refundedOn: day, billNumber: bill.number, amount: bill.total }),
        }),
      ]);
    }

    // A second record (another person, another reference) is refused in both languages and changes nothing.
    const before = await stateOf(bill.id, id);
    for (const lang of ['ar', 'en'] as const) {
      const again = await refund(item.paymentId, { reference: 'RF-OTHER', refundedOn: day }, w.as.admin, lang);
      expect([again.statusCode, again.json().error.code]).toEqual([409, 'RefundAlreadyRecorded']);
      // The day as the screens show it, in the reader's language; in Arabic the Latin reference inside LTR isolates
      // (LRI ... PDI) so it keeps its order beside the Arabic words. The raw values go as params, to be said again.
      expect(again.json().error.message).toBe(refusedAgain(lang, 'RF-2026/001', day));
      expect(again.json().error.params).toEqual({ reference: 'RF-2026/001', date: day });
    }
    expect(await stateOf(bill.id, id)).toEqual(before);
  }, 180_000);

  it('refuses an invalid reference or day with the field’s message in both languages, and other roles, changing nothing', async () => {
    const { id, bill, item } = await refundOwed();
    const before = await stateOf(bill.id, id);
    const future = new Date(Date.now() + 3 * 3_600_000 + 2 * DAY).toISOString().slice(0, 10);
    const cases: [unknown, string, string][] = [
      [{ reference: '   ', refundedOn: today() }, 'reference', 'referenceRequired'],
      [{ refundedOn: today() }, 'reference', 'referenceRequired'],
      [{ reference: 'x'.repeat(65), refundedOn: today() }, 'reference', 'referenceTooLong'],
      [{ reference: '<script>', refundedOn: today() }, 'reference', 'referenceFormat'],
      [{ reference: 'RF-1' }, 'refundedOn', 'dateRequired'],
      [{ reference: 'RF-1', refundedOn: '2026-02-30' }, 'refundedOn', 'dateInvalid'],
      [{ reference: 'RF-1', refundedOn: '01/02/2026' }, 'refundedOn', 'dateInvalid'],
      [{ reference: 'RF-1', refundedOn: future }, 'refundedOn', 'dateInFuture'],
      [{ reference: 'RF-1', refundedOn: '2020-01-01' }, 'refundedOn', 'dateBeforePayment'],
    ];
    for (const [body, field, key] of cases) {
      for (const lang of ['ar', 'en'] as const) {
        const res = await refund(item.paymentId, body, w.as.registration, lang);
        expect([JSON.stringify(body), res.statusCode]).toEqual([JSON.stringify(body), 400]);
        const [first] = res.json().error.validationErrors as { message: string; members: string[] }[];
        expect([JSON.stringify(body), first.members, first.message]).toEqual([JSON.stringify(body), [field], VALIDATION[lang][key].replace('{{max}}', '64')]);
      }
    }

    // The read-only auditor reads the list but may not record; neither may other staff or the applicant.
    expect(await listed(bill.number, readonlyAuditor)).toEqual([expect.objectContaining({ paymentId: item.paymentId, canRecordRefund: true })]);
    const others: [string, Client][] = [
      ['readonly.auditor', readonlyAuditor],
      ...(['audit', 'committee', 'auditor', 'internal.main', 'external'] as DemoUser[]).map((u) => [u, w.as[u]] as [string, Client]),
    ];
    for (const [name, c] of others) {
      const res = await refund(item.paymentId, { reference: 'RF-1', refundedOn: today() }, c, 'ar');
      expect([name, res.statusCode, res.json().error.message]).toEqual([name, 403, ERRORS.ar.NotAuthorized]);
    }
    expect(await stateOf(bill.id, id)).toEqual(before);
    expect(await listed(bill.number)).toHaveLength(1);
    // The administrator may.
    expect((await refund(item.paymentId, { reference: 'RF-ADMIN', refundedOn: today() }, w.as.admin)).statusCode).toBe(200);
    expect(await listed(bill.number)).toEqual([]);
  }, 180_000);

  it('refuses a payment owed no refund: one still pending at the portal, and one paid and taken by its request', async () => {
    const { id, bill } = await awaitingApplicationFee();
    const portal = await openAtPortal(bill.id);
    await w.t.database.db.update(payments).set({ createdAt: new Date(Date.now() - 2 * DAY) }).where(eq(payments.billId, bill.id));
    const [pending] = await listed(bill.number);
    expect(pending).toMatchObject({ reason: 'stillPending', canRecordRefund: false });
    const before = await stateOf(bill.id, id);
    for (const lang of ['ar', 'en'] as const) {
      const res = await refund(pending.paymentId, { reference: 'RF-1', refundedOn: today() }, w.as.registration, lang);
      expect([res.statusCode, res.json().error.message]).toEqual([409, ERRORS[lang].RefundNotOwed]);
    }
    expect(await stateOf(bill.id, id)).toEqual(before);

    const back = await portal.pay();
    expect((await w.t.app.inject({ method: 'GET', url: `/api/payments/callback${back}` })).statusCode).toBe(303);
    expect((await billRow(bill.id)).status).toBe(2);
    const paid = await stateOf(bill.id, id);
    const res = await refund(pending.paymentId, { reference: 'RF-1', refundedOn: today() });
    expect([res.statusCode, res.json().error.code]).toEqual([409, 'RefundNotOwed']);
    expect(await stateOf(bill.id, id)).toEqual(paid);
    expect((await w.as['internal.main'].get(`/api/bills/${bill.id}`)).json().refunds).toEqual([]);
  }, 180_000);
});

/** A paid bill whose request was never told: telling it failed for a passing reason and half an hour went by. */
async function requestNotTold() {
  const { id, bill } = await awaitingApplicationFee();
  const back = await (await openAtPortal(bill.id)).pay();
  const lost = vi.spyOn(w.t.app.engine, 'send').mockImplementationOnce(async () => {
    throw new Error('database connection lost');
  });
  try {
    expect((await w.t.app.inject({ method: 'GET', url: `/api/payments/callback${back}` })).statusCode).toBe(303);
  } finally {
    lost.mockRestore();
  }
  await w.t.database.db.update(payments).set({ completedAt: new Date(Date.now() - 3_600_000) }).where(eq(payments.billId, bill.id));
  const [item] = await listed(bill.number);
  expect(item).toMatchObject({ reason: 'requestNotTold', canTellRequest: true, canRecordRefund: false });
  return { id, bill, item };
}
const tell = (paymentId: string, c: Client = w.as.registration, lang = 'en') => c.post(`/api/payments/${paymentId}/tell-request?lang=${lang}`, {});
const statusOf = async (id: string) => (await w.as['internal.main'].get(`/api/requests/${id}`)).json().status.code as number;

describe('telling the request of a paid bill again', () => {
  it('registration tells it: the request moves on once, the row leaves the list; asking again sends nothing; other roles are refused', async () => {
    const { id, bill, item } = await requestNotTold();
    const before = await stateOf(bill.id, id);
    for (const [name, c] of [['readonly.auditor', readonlyAuditor], ['internal.main', w.as['internal.main']], ['audit', w.as.audit]] as [string, Client][]) {
      const res = await tell(item.paymentId, c, 'ar');
      expect([name, res.statusCode, res.json().error.message]).toEqual([name, 403, ERRORS.ar.NotAuthorized]);
    }
    expect(await stateOf(bill.id, id)).toEqual(before);

    const told = await tell(item.paymentId);
    expect([told.statusCode, told.json()]).toEqual([200, { outcome: 'accepted', changed: true, reason: null }]);
    expect(await statusOf(id)).toBe(1);
    expect(await listed(bill.number)).toEqual([]);
    const after = await stateOf(bill.id, id);
    const again = await tell(item.paymentId, w.as.admin);
    expect([again.statusCode, again.json()]).toEqual([200, { outcome: 'accepted', changed: false, reason: null }]);
    expect(await stateOf(bill.id, id)).toEqual(after);
    expect((await historyOf(id)).filter((h) => h.event === 'PAYMENT_CONFIRMED')).toHaveLength(1);
  }, 180_000);

  it('a request that refuses it moves the payment to the refunds owed; a payment not paid is refused in both languages', async () => {
    const { id, bill, item } = await requestNotTold();
    const refuses = vi.spyOn(w.t.app.engine, 'send').mockImplementationOnce(async () => {
      throw new AppError('TransitionNotAllowed');
    });
    try {
      const told = await tell(item.paymentId);
      expect([told.statusCode, told.json()]).toEqual([200, { outcome: 'refused', changed: true, reason: 'refusedByRequest' }]);
    } finally {
      refuses.mockRestore();
    }
    expect(await listed(bill.number)).toEqual([expect.objectContaining({ reason: 'refusedByRequest', canRecordRefund: true, canTellRequest: false })]);
    expect((await historyOf(id)).filter((h) => h.event === 'PAYMENT_REFUSED')).toHaveLength(1);

    const pending = await awaitingApplicationFee();
    await openAtPortal(pending.bill.id);
    const [row] = await paymentRows(pending.bill.id);
    const before = await stateOf(pending.bill.id, pending.id);
    for (const lang of ['ar', 'en'] as const) {
      const res = await tell(row.id, w.as.registration, lang);
      expect([res.statusCode, res.json().error.message]).toEqual([409, ERRORS[lang].PaymentNotPaid]);
    }
    expect(await stateOf(pending.bill.id, pending.id)).toEqual(before);
  }, 180_000);
});

describe('a portal that is down', () => {
  it('counts no inquiry failure against the payments: three sweeps during one outage mark none "inquiry failing"', async () => {
    const { bill } = await awaitingApplicationFee();
    await openAtPortal(bill.id);
    await w.t.database.db.update(payments).set({ createdAt: new Date(Date.now() - 3_600_000) }).where(eq(payments.billId, bill.id));
    const down = vi.spyOn(paymentPortalOf(w.t.app), 'paymentStatus').mockRejectedValue(new AppError('ExternalServiceUnavailable', { service: 'payment' }));
    try {
      for (let i = 0; i < 4; i++) await reconcilePayments(w.t.app);
    } finally {
      down.mockRestore();
    }
    expect((await paymentRows(bill.id)).map((p) => p.inquiryFailures)).toEqual([0]);
    expect(await listed(bill.number)).toEqual([]);
  }, 180_000);
});
