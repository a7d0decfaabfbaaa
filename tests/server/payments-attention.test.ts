import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bills, payments } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { paymentPortalOf } from '../../server/adapters/payment-portal';
import { reconcilePayments } from '../../server/modules/payments/reconcile-payments';
import { accept, completeDraft } from '../helpers/requests';
import type { Client } from '../helpers/app';
import { billsOf, createWorld, type DemoUser, type World } from '../services/walk';

/**
 * The payments needing a person (GET /api/payments/attention) and staff asking the portal about one now
 * (POST /api/payments/:id/inquire), over HTTP with the payment portal simulator on its own server (port 3361), whose
 * server-to-server notification is lost (see tests/server/payment-reconcile.test.ts): each payment below is one whose
 * callback never arrived. Time passing is written on the payment (its start, its completion), as days would.
 */
const SIMULATORS_PORT = 3361;
const INTERNAL = 'inf-almarai-foods';
const DAY = 24 * 3_600_000;

let w: World;
let readonlyAuditor: Client;
beforeAll(async () => {
  w = await createWorld({ simulatorsPort: SIMULATORS_PORT });
  readonlyAuditor = await w.t.login('readonly.auditor');
}, 180_000);
afterAll(() => w?.t.close());

const ERRORS = {
  ar: JSON.parse(readFileSync(join(__dirname, '../../locales/ar/errors.json'), 'utf8')),
  en: JSON.parse(readFileSync(join(__dirname, '../../locales/en/errors.json'), 'utf8')),
} as Record<'ar' | 'en', Record<string, string>>;

interface Item {
  paymentId: string;
  billId: string;
  billNumber: string;
  amount: string;
  billAmount: string;
  vat: string;
  reason: string;
  paymentStatus: string;
  requestNumber: string | null;
  facility: { publicId: string; nameAr: string; nameEn: string };
  ageDays: number;
  inquiredAt: string | null;
  inquiryAnswer: string | null;
  inquiryFailures: number;
  canInquire: boolean;
}

/** The list as staff read it, searched by the bill's number. */
async function listed(billNumber: string, c: Client = w.as.registration, extra = '') {
  const res = await c.get(`/api/payments/attention?any=${encodeURIComponent(billNumber)}${extra}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items as Item[];
}
const paymentRows = (billId: string) => w.t.database.db.select().from(payments).where(eq(payments.billId, billId));
const billRow = async (id: string) => (await w.t.database.db.select().from(bills).where(eq(bills.id, id)))[0];
const requestOf = async (id: string) => (await w.as['internal.main'].get(`/api/requests/${id}?lang=en`)).json() as { version: number; status: { code: number } };
const backdate = (billId: string, set: { createdAt?: Date; completedAt?: Date }) => w.t.database.db.update(payments).set(set).where(eq(payments.billId, billId));

/** Opens the portal's page for the bill (the payment starts) and, later, pays or cancels there; the notification is lost. */
async function openAtPortal(billId: string) {
  const started = await w.as['internal.main'].post(`/api/bills/${billId}/pay?lang=en`, {}, { headers: { host: `127.0.0.1:${SIMULATORS_PORT}` } });
  expect(started.statusCode, started.body).toBe(200);
  const { redirectUrl } = started.json() as { redirectUrl: string };
  expect((await fetch(redirectUrl)).status).toBe(200);
  return {
    async act(action: 'pay' | 'cancel') {
      const res = await fetch(redirectUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ action, lang: 'en' }).toString(),
        redirect: 'manual',
      });
      expect(res.status).toBe(303);
      return new URL(res.headers.get('location')!).search;
    },
  };
}

/** A new internal certificate request submitted: it awaits its application fee (request 2, bill 1). */
async function awaitingApplicationFee() {
  const draft = await completeDraft(w.as['internal.main'], 'internalCertificate', INTERNAL);
  await accept(w.as['internal.main'], draft.id, 'SUBMIT', { agreementAccepted: true });
  const [bill] = await billsOf(w.as['internal.main'], draft.id);
  expect([bill.status.code, (await requestOf(draft.id)).status.code]).toEqual([1, 2]);
  return { id: draft.id, bill };
}

const inquire = (paymentId: string, c: Client = w.as.registration, lang = 'en') => c.post(`/api/payments/${paymentId}/inquire?lang=${lang}`, {});

describe('a payment the portal keeps answering "pending" for days', () => {
  it('is listed with the portal’s last answer; staff asking again records only the answer; once paid at the portal, asking settles it and it leaves the list', async () => {
    const { id, bill } = await awaitingApplicationFee();
    const portal = await openAtPortal(bill.id);
    // A young payment is no one's concern yet: the payer may still be on the portal's page.
    expect(await listed(bill.number)).toEqual([]);

    await backdate(bill.id, { createdAt: new Date(Date.now() - 2 * DAY) });
    await reconcilePayments(w.t.app);
    const [item] = await listed(bill.number);
    expect(item).toMatchObject({
      reason: 'stillPending',
      billId: bill.id,
      amount: bill.total,
      billAmount: bill.amount,
      vat: bill.vat,
      paymentStatus: 'pending',
      ageDays: 2,
      inquiryAnswer: 'pending',
      inquiryFailures: 0,
      canInquire: true,
      facility: expect.objectContaining({ publicId: INTERNAL }),
    });
    expect(item.requestNumber).toBeTruthy();
    expect(item.inquiredAt).not.toBeNull();
    // Filtered by reason as the screen filters it.
    expect(await listed(bill.number, w.as.registration, '&reason=stillPending')).toHaveLength(1);
    expect(await listed(bill.number, w.as.registration, '&reason=inquiryWindowOver')).toEqual([]);

    // Asking now while the portal still answers pending changes only the inquiry's record: not the payment, the bill or the request.
    const billBefore = await billRow(bill.id);
    const version = (await requestOf(id)).version;
    const asked = await inquire(item.paymentId);
    expect([asked.statusCode, asked.json()]).toEqual([200, { answer: 'pending', changed: false, paymentStatus: 'pending' }]);
    expect(await billRow(bill.id)).toEqual(billBefore);
    expect((await requestOf(id)).version).toBe(version);
    expect((await paymentRows(bill.id)).map((p) => p.status)).toEqual(['pending']);

    // The payer comes back and pays (the notification is lost again); staff ask the portal: the bill is paid once, the
    // request moves on, and the payment leaves the list.
    await portal.act('pay');
    const settled = await inquire(item.paymentId);
    expect([settled.statusCode, settled.json()]).toEqual([200, { answer: 'paid', changed: true, paymentStatus: 'paid' }]);
    expect((await billRow(bill.id)).status).toBe(2);
    expect((await requestOf(id)).status.code).toBe(1);
    expect(await listed(bill.number)).toEqual([]);

    // Asking again is refused in both languages and changes nothing.
    const paidBill = await billRow(bill.id);
    const paidRows = await paymentRows(bill.id);
    const paidVersion = (await requestOf(id)).version;
    for (const lang of ['ar', 'en'] as const) {
      const again = await inquire(item.paymentId, w.as.registration, lang);
      expect([again.statusCode, again.json().error.message]).toEqual([409, ERRORS[lang].PaymentAlreadySettled]);
    }
    expect(await billRow(bill.id)).toEqual(paidBill);
    expect(await paymentRows(bill.id)).toEqual(paidRows);
    expect((await requestOf(id)).version).toBe(paidVersion);
  }, 180_000);
});

describe('a payment older than the 7-day inquiry window', () => {
  it('is listed (the sweep no longer asks); cancelled at the portal, asking records it cancelled and it leaves; the bill still awaits payment', async () => {
    const { id, bill } = await awaitingApplicationFee();
    const portal = await openAtPortal(bill.id);
    await backdate(bill.id, { createdAt: new Date(Date.now() - 8 * DAY) });
    await reconcilePayments(w.t.app);
    const [item] = await listed(bill.number);
    expect(item).toMatchObject({ reason: 'inquiryWindowOver', ageDays: 8, inquiredAt: null, inquiryAnswer: null, canInquire: true });

    await portal.act('cancel');
    const version = (await requestOf(id)).version;
    const asked = await inquire(item.paymentId);
    expect([asked.statusCode, asked.json()]).toEqual([200, { answer: 'cancelled', changed: true, paymentStatus: 'cancelled' }]);
    expect((await billRow(bill.id)).status).toBe(1);
    expect((await requestOf(id)).version).toBe(version);
    expect(await listed(bill.number)).toEqual([]);
  }, 180_000);
});

describe('a payment whose inquiries keep failing', () => {
  it('a portal that does not answer counts nothing against it (a 502 to staff, nothing else changed); three answers that cannot be applied list it; an answer that applies clears it', async () => {
    const { id, bill } = await awaitingApplicationFee();
    const portal = await openAtPortal(bill.id);
    await backdate(bill.id, { createdAt: new Date(Date.now() - 3_600_000) });
    const adapter = paymentPortalOf(w.t.app);
    const billBefore = await billRow(bill.id);
    const version = (await requestOf(id)).version;
    const [row] = await paymentRows(bill.id);

    // Down for everyone: recorded as unreachable, counted against no payment, so three sweeps list nothing.
    const down = vi.spyOn(adapter, 'paymentStatus').mockRejectedValue(new AppError('ExternalServiceUnavailable', { service: 'payment' }));
    try {
      for (let i = 0; i < 3; i++) await reconcilePayments(w.t.app);
      const failed = await inquire(row.id, w.as.registration, 'ar');
      expect([failed.statusCode, failed.json().error.message]).toEqual([502, ERRORS.ar.ExternalServiceUnavailable]);
      expect((await paymentRows(bill.id)).map((p) => [p.status, p.inquiryAnswer, p.inquiryFailures])).toEqual([['pending', 'unreachable', 0]]);
      expect(await listed(bill.number)).toEqual([]);
    } finally {
      down.mockRestore();
    }

    // The portal answers for this payment, but its answer does not verify (a "paid" under the pending record's
    // signature): never applied, and three in a row list the payment as failing.
    const real = adapter.paymentStatus.bind(adapter);
    const forged = vi.spyOn(adapter, 'paymentStatus').mockImplementation(async (paymentId) => {
      const answer = await real(paymentId);
      return answer && { ...answer, status: 'paid' };
    });
    try {
      for (let i = 0; i < 3; i++) await reconcilePayments(w.t.app);
      expect(await billRow(bill.id)).toEqual(billBefore);
      expect((await requestOf(id)).version).toBe(version);
      expect((await paymentRows(bill.id)).map((p) => [p.status, p.inquiryAnswer, p.inquiryFailures])).toEqual([['pending', 'notApplied', 3]]);
      expect(await listed(bill.number)).toEqual([expect.objectContaining({ reason: 'inquiryFailing', inquiryAnswer: 'notApplied', inquiryFailures: 3 })]);
    } finally {
      forged.mockRestore();
    }
    await portal.act('pay');
    expect((await inquire(row.id)).json()).toEqual({ answer: 'paid', changed: true, paymentStatus: 'paid' });
    expect((await requestOf(id)).status.code).toBe(1);
    expect(await listed(bill.number)).toEqual([]);
  }, 180_000);
});

describe('a paid bill whose request has not heard', () => {
  it('is listed half an hour after payment while telling the request keeps failing, and leaves once the sweep tells it', async () => {
    const { id, bill } = await awaitingApplicationFee();
    const portal = await openAtPortal(bill.id);
    const back = await portal.act('pay');
    const engineSend = vi.spyOn(w.t.app.engine, 'send').mockImplementationOnce(async () => {
      throw new Error('database connection lost');
    });
    try {
      expect((await w.t.app.inject({ method: 'GET', url: `/api/payments/callback${back}` })).statusCode).toBe(303);
    } finally {
      engineSend.mockRestore();
    }
    expect((await paymentRows(bill.id)).map((p) => [p.status, p.workflowOutcome])).toEqual([['paid', null]]);
    // Right after the payment the sweep is still trying: not yet listed.
    expect(await listed(bill.number)).toEqual([]);
    await backdate(bill.id, { completedAt: new Date(Date.now() - 3_600_000) });
    const [item] = await listed(bill.number);
    expect(item).toMatchObject({ reason: 'requestNotTold', paymentStatus: 'paid', canInquire: false });
    // Asking the portal about a settled payment is refused and changes nothing.
    const rows = await paymentRows(bill.id);
    expect((await inquire(item.paymentId)).statusCode).toBe(409);
    expect(await paymentRows(bill.id)).toEqual(rows);

    await reconcilePayments(w.t.app);
    expect((await requestOf(id)).status.code).toBe(1);
    expect(await listed(bill.number)).toEqual([]);
  }, 180_000);
});

describe('money taken for a bill no longer payable (a refund owed)', () => {
  it('the request cancelled back to draft while the payer paid: the late callback is refused and the payment is listed with its amount', async () => {
    const { id, bill } = await awaitingApplicationFee();
    const portal = await openAtPortal(bill.id);
    const back = await portal.act('pay');
    await accept(w.as['internal.main'], id, 'CANCEL', {});
    expect((await w.t.app.inject({ method: 'GET', url: `/api/payments/callback${back}` })).statusCode).toBe(303);
    expect(await listed(bill.number)).toEqual([expect.objectContaining({ reason: 'billNotPayable', amount: bill.total, paymentStatus: 'rejected', canInquire: false })]);
  }, 180_000);
});

describe('who reads the list and who asks the portal', () => {
  it('registration and the administrator read and ask; the read-only auditor reads only; other staff, applicants and delegates are refused, and nothing changes', async () => {
    const { id, bill } = await awaitingApplicationFee();
    await openAtPortal(bill.id);
    await backdate(bill.id, { createdAt: new Date(Date.now() - 2 * DAY) });
    const [item] = await listed(bill.number);
    expect(item.reason).toBe('stillPending');
    expect(await listed(bill.number, w.as.admin)).toEqual([item]);
    expect(await listed(bill.number, readonlyAuditor)).toEqual([item]);

    const rows = await paymentRows(bill.id);
    const billBefore = await billRow(bill.id);
    const version = (await requestOf(id)).version;
    const refused: [string, Client][] = [
      ...(['audit', 'committee', 'teamleader', 'auditor', 'internal.main', 'internal.sub', 'external', 'cb.main'] as DemoUser[]).map(
        (u) => [u, w.as[u]] as [string, Client],
      ),
    ];
    for (const [name, c] of refused) {
      const read = await c.get('/api/payments/attention?lang=ar');
      expect([name, read.statusCode, read.json().error.message]).toEqual([name, 403, ERRORS.ar.NotAuthorized]);
      expect([name, (await inquire(item.paymentId, c)).statusCode]).toEqual([name, 403]);
    }
    expect((await inquire(item.paymentId, readonlyAuditor)).statusCode).toBe(403);
    expect(await paymentRows(bill.id)).toEqual(rows);
    expect(await billRow(bill.id)).toEqual(billBefore);
    expect((await requestOf(id)).version).toBe(version);

    // Paged as the other staff lists.
    const page = (await w.as.registration.get('/api/payments/attention?pageSize=1&pageNumber=1')).json();
    expect(page).toMatchObject({ pageNumber: 1, pageSize: 1 });
    expect(page.items).toHaveLength(1);
    expect(page.totalCount).toBeGreaterThanOrEqual(1);
  }, 180_000);
});
