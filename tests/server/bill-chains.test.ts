import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowTimers } from '../../db/schema';
import { certificateFee, formatAmount, toHalalas, withVat } from '../../machines/services/fees';
import { accept, completeDraft, send, type RequestJson } from '../helpers/requests';
import type { Client } from '../helpers/app';
import { VALID_DATA, renewalSection } from '../services/fixtures';
import { goodProduct } from '../forms/fixtures';
import { billsOf, certificatesOf, createWorld, fireDue, fireTimer, money, monthsBetween, payBill, setExpiry, walk, type BillJson, type CertificateJson, type DemoUser, type World } from '../services/walk';

/**
 * Money across chains of lifecycles over the HTTP API: what the applicant and staff read on the bills (amount, VAT,
 * total, service, status, due date, number) and on the certificate, as yearly instalments fall due and a renewal
 * lands, as a bill expires unpaid (and a payment arrives after it), and as set A additions go on month-end bulk
 * invoices. Expected amounts come from the settings in force.
 */
let w: World;
beforeAll(async () => {
  w = await createWorld();
}, 60_000);
afterAll(() => w?.t.close());

const settings = () => w.t.app.settings.current();
const fees = () => settings().fees;
/** The bill amounts a fee of `halalas` gives at the VAT rate in force. */
const billed = (halalas: number) => {
  const c = withVat(halalas, settings().vatRate);
  return { amount: formatAmount(c.amount), vat: formatAmount(c.vat), total: formatAmount(c.total) };
};
/** A bill is due the payment window after it was issued. */
const windowHours = (b: BillJson) => (new Date(b.dueAt!).getTime() - new Date(b.date).getTime()) / 3_600_000;
const NUMBER = /^B-\d{4}-\d{6,}$/;
const statusOf = async (user: DemoUser, id: string) => ((await w.as[user].get(`/api/requests/${id}?lang=en`)).json() as RequestJson).status;
const certificateOf = async (user: DemoUser, id: string) => (await w.as[user].get(`/api/certificates/${id}`)).json() as CertificateJson;
const pendingTimers = (workflowId: string, event: string) =>
  w.t.database.db
    .select()
    .from(workflowTimers)
    .where(and(eq(workflowTimers.requestId, workflowId), eq(workflowTimers.event, event), isNull(workflowTimers.firedAt), isNull(workflowTimers.cancelledAt)));
const addMonths = (d: Date | string, months: number) => {
  const out = new Date(d);
  out.setUTCMonth(out.getUTCMonth() + months);
  return out;
};
/** The fee name a person reads on a bill in English (the bill list's `name` and fee column). */
const feeNameEn = async (billId: string) => {
  const b = (await w.as.registration.get(`/api/bills/${billId}?lang=en`)).json() as { name: string; feeKind: { code: string; name: string } };
  return { name: b.name, fee: b.feeKind.name };
};
const EN = JSON.parse(readFileSync(join(__dirname, '../../locales/en/payments.json'), 'utf8')) as { feeKind: Record<string, string>; billName: { bulk: string } };
const historyOf = async (c: Client, id: string) => (await c.get(`/api/requests/${id}/history`)).json().items as { event: string; payload: Record<string, unknown> }[];

describe('internal certificate paid yearly, then renewed yearly while the last instalment of the old validity is unpaid', () => {
  const FACILITY = 'inf-almarai-foods';
  const years = (VALID_DATA.internalCertificate().validity as { years: number }).years;
  let cert: CertificateJson;
  let certifiedId: string;
  const year = () => billed(certificateFee(fees().internalCertificateYear, 1, 'yearly'));

  beforeAll(async () => {
    const draft = await completeDraft(w.as['internal.main'], 'internalCertificate', FACILITY);
    certifiedId = draft.id;
    const { request, steps } = await walk(w, draft.id, { applicant: 'internal.main', until: 25, option: 'yearly' });
    expect(request.status.code, JSON.stringify(steps)).toBe(25);
    [cert] = await certificatesOf(w, w.as['internal.main'], draft.id);
  }, 180_000);

  it('bills the first year at issue and each following year on its anniversary, each on its own bill', async () => {
    expect(years).toBeGreaterThan(1);
    const certificateBill = (await billsOf(w.as['internal.main'], certifiedId)).find((b) => b.feeKind.code === 'certificate')!;
    expect([certificateBill.service.code, certificateBill.status.code, money(certificateBill)]).toEqual([6, 2, year()]);
    expect(monthsBetween(cert.validFrom.iso, cert.expiresAt.iso)).toBe(years * 12);

    // Each anniversary: one bill of one year at the fee in force, on the certificate (service 6), due in the window.
    for (let n = 1; n < years; n++) {
      const [timer] = await pendingTimers(cert.id, 'INSTALLMENT_DUE');
      expect([n, monthsBetween(cert.validFrom.iso, timer.dueAt.toISOString())]).toEqual([n, 12 * n]);
      await fireTimer(w.t, cert.id, 'INSTALLMENT_DUE');
      const instalments = await billsOf(w.as['internal.main'], cert.id);
      expect(instalments).toHaveLength(n);
      const bill = instalments[n - 1];
      expect([bill.service.code, bill.feeKind.code, bill.status.code, money(bill), windowHours(bill)]).toEqual([6, 'certificateInstallment', 1, year(), settings().paymentWindowHours]);
      expect(bill.number).toMatch(NUMBER);
      // Named for what it is on the invoices page, not by its code.
      expect(await feeNameEn(bill.id)).toEqual({ name: EN.feeKind.certificateInstallment, fee: EN.feeKind.certificateInstallment });
      // Paid, except the last of the old validity: it is still open when the renewal lands.
      if (n < years - 1) await payBill(w.t, bill.id, bill);
    }
    // None is left of the old validity.
    expect(await pendingTimers(cert.id, 'INSTALLMENT_DUE')).toEqual([]);
    expect(new Set((await billsOf(w.as['internal.main'], cert.id)).map((b) => b.number)).size).toBe(years - 1);
  });

  it('a yearly renewal bills the first renewed year once, arms the next years from the old expiry, and leaves the open instalment payable', async () => {
    const from = await setExpiry(w, cert.id, 30);
    const started = await w.as['internal.main'].post('/api/requests?lang=en', { kind: 'internalRenewal', facilityId: FACILITY, certificateId: cert.id });
    expect(started.statusCode, started.body).toBe(201);
    const draft = started.json() as RequestJson;
    expect((await send(w.as['internal.main'], draft.id, 'EDIT', draft.version, { data: { renewal: renewalSection() } })).statusCode).toBe(200);
    const openBefore = (await billsOf(w.as['internal.main'], cert.id)).filter((b) => b.status.code === 1);
    expect(openBefore).toHaveLength(1);
    const { request, steps } = await walk(w, draft.id, { applicant: 'internal.main', until: 25, option: 'yearly', payBills: true });
    expect(request.status.code, JSON.stringify(steps)).toBe(25);

    const renewed = await certificateOf('internal.main', cert.id);
    expect(renewed.expiresAt.iso).toBe(addMonths(from, years * 12).toISOString());
    // The renewal billed the first renewed year (from the old expiry), once.
    const renewalBills = await billsOf(w.as['internal.main'], draft.id);
    expect(renewalBills.filter((b) => b.feeKind.code === 'renewal').map((b) => [b.service.code, b.status.code, money(b)])).toEqual([[6, 2, year()]]);
    // The old validity's open instalment is still the applicant's to pay: neither dropped nor billed again.
    const instalments = await billsOf(w.as['internal.main'], cert.id);
    expect(instalments.map((b) => [b.number, b.status.code])).toEqual((await billsOf(w.as['internal.main'], cert.id)).map((b) => [b.number, b.status.code]));
    expect(instalments.filter((b) => b.status.code === 1).map((b) => b.number)).toEqual(openBefore.map((b) => b.number));
    expect(instalments).toHaveLength(years - 1);
    // The next instalment: one year after the old expiry (the renewal's first year is paid), not an old anniversary.
    const [next] = await pendingTimers(cert.id, 'INSTALLMENT_DUE');
    expect(next?.dueAt.toISOString()).toBe(addMonths(from, 12).toISOString());
    for (let n = 1; n < years; n++) await fireTimer(w.t, cert.id, 'INSTALLMENT_DUE');
    expect(await pendingTimers(cert.id, 'INSTALLMENT_DUE')).toEqual([]);
    const all = await billsOf(w.as['internal.main'], cert.id);
    expect(all.map((b) => money(b))).toEqual(Array.from({ length: 2 * (years - 1) }, year));
    expect(new Set(all.map((b) => b.number)).size).toBe(all.length);
  }, 300_000);
});

describe('a certificate-fee bill that expires unpaid, then paid on the portal after it expired', () => {
  const FACILITY = 'inf-almarai-foods';
  let id: string;
  let bill: BillJson;

  beforeAll(async () => {
    const draft = await completeDraft(w.as['internal.main'], 'internalCertificate', FACILITY);
    id = draft.id;
    // Application and audit fees paid; the certificate fee (one year, paid yearly) left unpaid.
    const { request, steps } = await walk(w, id, { applicant: 'internal.main', until: 16, option: 'yearly' });
    expect(request.status.code, JSON.stringify(steps)).toBe(16);
    bill = (await billsOf(w.as['internal.main'], id)).find((b) => b.feeKind.code === 'certificate')!;
  }, 180_000);

  it('the window passes: the bill is expired, the request stopped; the applicant may only delete it', async () => {
    expect([bill.service.code, bill.status.code, money(bill), windowHours(bill)]).toEqual([6, 1, billed(certificateFee(fees().internalCertificateYear, 1, 'yearly')), settings().paymentWindowHours]);
    expect(bill.number).toMatch(NUMBER);
    await fireTimer(w.t, id, 'PAYMENT_EXPIRED');
    expect(await statusOf('internal.main', id)).toEqual({ code: 3, label: 'Payment Expired' });
    const after = (await billsOf(w.as['internal.main'], id)).find((b) => b.id === bill.id)!;
    expect([after.status.code, after.number, money(after), after.dueAt]).toEqual([3, bill.number, money(bill), bill.dueAt]);
    // Spec 02 section 4 ("unpaid requests expire ... stopped requests are deleted"): no way back to payment.
    const actions = (await w.as['internal.main'].get(`/api/requests/${id}/actions`)).json() as { actions: { type: string }[] };
    expect(actions.actions.map((a) => a.type)).toEqual(['DELETE']);
    // Paying the expired bill is refused before the portal is reached.
    const started = await w.as['internal.main'].post(`/api/bills/${bill.id}/pay`, {});
    expect(started.statusCode, started.body).not.toBe(200);
  });

  it('a payment the portal confirms after the expiry is refused: the request does not move, its history says so, staff must refund', async () => {
    const billsBefore = await billsOf(w.as['internal.main'], id);
    const version = ((await w.as['internal.main'].get(`/api/requests/${id}`)).json() as RequestJson).version;
    expect((await payBill(w.t, bill.id, bill)).outcome).toBe('rejected');
    expect(await statusOf('internal.main', id)).toEqual({ code: 3, label: 'Payment Expired' });
    expect(((await w.as['internal.main'].get(`/api/requests/${id}`)).json() as RequestJson).version).toBe(version);
    const refused = (await historyOf(w.as['internal.main'], id)).filter((h) => h.event === 'PAYMENT_REFUSED');
    expect(refused.map((h) => h.payload)).toEqual([expect.objectContaining({ billNumber: bill.number, refusal: 'BillNotPayable' })]);
    // No certificate, no other bill; the bill stays expired.
    expect(await certificatesOf(w, w.as['internal.main'], id)).toEqual([]);
    expect(await billsOf(w.as['internal.main'], id)).toEqual(billsBefore);
    expect((await w.as.registration.get('/api/payments/attention')).json().items).toContainEqual(
      expect.objectContaining({ billId: bill.id, billNumber: bill.number, amount: bill.total }),
    );
    // Nothing the timers owe moves it either.
    await fireDue(w.t);
    expect((await statusOf('internal.main', id)).code).toBe(3);
  });

  it('the applicant starts again: a new request, billed the application fee in force on its own new bill', async () => {
    const again = await completeDraft(w.as['internal.main'], 'internalCertificate', FACILITY);
    const submitted = await accept(w.as['internal.main'], again.id, 'SUBMIT', { agreementAccepted: true });
    expect(submitted.status.code).toBe(2);
    const [fresh] = await billsOf(w.as['internal.main'], again.id);
    expect([fresh.service.code, fresh.feeKind.code, fresh.status.code, money(fresh), windowHours(fresh)]).toEqual([6, 'application', 1, billed(toHalalas(fees().application)), settings().paymentWindowHours]);
    expect(fresh.number).not.toBe(bill.number);
    // The stopped request is untouched by it.
    expect((await statusOf('internal.main', id)).code).toBe(3);
  });
});

describe('set A additions on month-end bulk invoices (spec 02 section 9: "issued at the end of each Gregorian month")', () => {
  const FACTORY = 'exf-anatolia-meat';
  /** Products the factory's certificates do not list yet (category C0), by the product's own schema fixture. */
  /** Products as the food authority's system registers them (set A's added products are checked there like the wizard's). */
  const REGISTERED: Record<string, { nameAr: string; productNumber: string }> = {
    'Frozen Lamb': { nameAr: 'لحم ضأن مجمد', productNumber: 'TRX00000000000002' },
    'Frozen Mutton': { nameAr: 'لحم خروف مجمد', productNumber: 'TRX00000000000004' },
    'Frozen Veal': { nameAr: 'لحم عجل مجمد', productNumber: 'TRX00000000000003' },
  };
  const product = (nameEn: string) =>
    goodProduct({ ...REGISTERED[nameEn], nameEn, brandAr: 'اناضول', brandEn: 'Anatolia', saudiHsCode: '020430000000', globalHsCode: '020430', category: 'C0', unit: 0, netWeight: 20, grossWeight: 21 });
  let first: string;
  let second: string;
  type BulkJson = BillJson & { bulk: boolean; period: string | null };
  const bulkBills = async () =>
    ((await w.as.external.get(`/api/bills?facilityId=${FACTORY}&pageSize=100`)).json().items as BulkJson[]).filter((b) => b.feeKind.code === 'bulkInvoice').reverse();
  /**
   * The engine's clock (the one its transitions, bill periods and timers read) moves to `iso`; the month-end timers due
   * by then fire as its timer runner would fire them. Sign-in sessions keep the real clock.
   */
  const engine = () => w.t.app.engine as unknown as { now: () => Date; fireDueTimers(now: Date): Promise<number> };
  let clock: Date | undefined;
  const at = async (iso: string) => {
    clock = new Date(iso);
    await engine().fireDueTimers(clock);
  };
  /** A month's bill: the sum of its lines, each priced and taxed on its own (one line per addition). */
  const linesOf = (count: number) => {
    const one = billed(toHalalas(fees().application));
    const sum = (k: 'amount' | 'vat' | 'total') => formatAmount(toHalalas(Number(one[k])) * count);
    return { amount: sum('amount'), vat: sum('vat'), total: sum('total') };
  };
  const addProducts = async (id: string, products: unknown[]) => {
    await accept(w.as.external, id, 'ADD_PRODUCTS', { products });
    const { request, steps } = await walk(w, id, { applicant: 'external', until: 128 });
    expect(request.status.code, JSON.stringify(steps)).toBe(128);
  };
  const now = new Date();
  const month = (offset: number, day: number, time = '10:00:00') =>
    `${new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, day)).toISOString().slice(0, 10)}T${time}.000Z`;
  const periodOf = (iso: string) => iso.slice(0, 7);

  beforeAll(async () => {
    // Two certificates of the same factory (two certificate requests), each open for set A changes at 105.
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const draft = await completeDraft(w.as.external, 'externalCertificate', FACTORY);
      const { request, steps } = await walk(w, draft.id, { applicant: 'external', until: 105 });
      expect(request.status.code, JSON.stringify(steps)).toBe(105);
      ids.push(draft.id);
    }
    [first, second] = ids;
    const real = engine().now;
    engine().now = () => clock ?? real();
    return () => {
      engine().now = real;
    };
  }, 300_000);

  it('two additions in one month: one bulk bill at the month end with both lines and their total; both requests paid by it', async () => {
    await at(month(1, 3));
    expect(await bulkBills()).toEqual([]);
    await addProducts(first, [product('Frozen Lamb')]);
    await at(month(1, 20));
    await addProducts(second, [product('Frozen Mutton')]);
    // Nothing is payable before the month ends.
    await at(month(1, 28));
    expect(await bulkBills()).toEqual([]);
    expect([(await statusOf('external', first)).code, (await statusOf('external', second)).code]).toEqual([128, 128]);

    await at(month(2, 1, '00:00:05'));
    const bills = await bulkBills();
    expect(bills.map((b) => [b.bulk, b.period, b.service.code, b.status.code, money(b), windowHours(b)])).toEqual([[true, periodOf(month(1, 3)), 7, 1, linesOf(2), settings().paymentWindowHours]]);
    expect(bills[0].number).toMatch(NUMBER);
    expect(await feeNameEn(bills[0].id)).toEqual({ name: EN.billName.bulk.replace('{{period}}', periodOf(month(1, 3))), fee: EN.feeKind.bulkInvoice });
    expect([(await statusOf('external', first)).code, (await statusOf('external', second)).code]).toEqual([129, 129]);
    // Each request shows the one bill it is on.
    expect((await billsOf(w.as.external, first)).filter((b) => b.feeKind.code === 'bulkInvoice').map((b) => b.id)).toEqual([bills[0].id]);
    expect((await billsOf(w.as.external, second)).filter((b) => b.feeKind.code === 'bulkInvoice').map((b) => b.id)).toEqual([bills[0].id]);

    await payBill(w.t, bills[0].id, bills[0]);
    expect([(await statusOf('external', first)).code, (await statusOf('external', second)).code]).toEqual([108, 108]);
    expect((await bulkBills()).map((b) => b.status.code)).toEqual([2]);
  }, 180_000);

  it('an addition in the next month goes on that month’s bill, alone', async () => {
    await at(month(2, 10));
    await addProducts(first, [product('Frozen Veal')]);
    await at(month(3, 1, '00:00:05'));
    const bills = await bulkBills();
    expect(bills.map((b) => [b.period, b.status.code, money(b)])).toEqual([
      [periodOf(month(1, 3)), 2, linesOf(2)],
      [periodOf(month(2, 10)), 1, linesOf(1)],
    ]);
    expect(bills[1].number).not.toBe(bills[0].number);
    expect([(await statusOf('external', first)).code, (await statusOf('external', second)).code]).toEqual([129, 108]);
    await payBill(w.t, bills[1].id, bills[1]);
    expect((await statusOf('external', first)).code).toBe(108);
  }, 180_000);
});
