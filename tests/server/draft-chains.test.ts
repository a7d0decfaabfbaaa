import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { workflowTimers } from '../../db/schema';
import { formatAmount, toHalalas, withVat } from '../../machines/services/fees';
import { accept, completeDraft, send, uploadTo, type RequestJson } from '../helpers/requests';
import type { Client } from '../helpers/app';
import { billsOf, certificatesOf, createWorld, fireTimer, money, payBill, portalPayment, setExpiry, walk, type BillJson, type DemoUser, type World } from '../services/walk';

/**
 * The lifecycle of drafts and of requests before and around payment, over HTTP (spec 02 section 4, workflow items 6
 * and 8 and "Other rules on states"): cancelling while a bill awaits payment, a payment racing that cancellation,
 * automatic deletion (and the files that go with a deleted draft), requests made free (at submission, and at the
 * certificate fee after choosing to pay yearly), two delegates on one draft, and the doors closed after payment. Each
 * scenario asserts what a person reads (status and label in both languages, the invoices list) and that a refusal
 * moved nothing. Amounts come from the settings in force.
 */
let w: World;
beforeAll(async () => {
  w = await createWorld();
}, 60_000);
afterAll(() => w?.t.close());

const FACILITY = 'inf-almarai-foods';
const locale = (lang: 'ar' | 'en', ns: string) => JSON.parse(readFileSync(join(__dirname, `../../locales/${lang}/${ns}.json`), 'utf8'));
const STATUS = { ar: locale('ar', 'status'), en: locale('en', 'status') } as Record<'ar' | 'en', Record<string, Record<string, string>>>;
const ERRORS = { ar: locale('ar', 'errors'), en: locale('en', 'errors') } as Record<'ar' | 'en', Record<string, string>>;
const PAYMENTS = { ar: locale('ar', 'payments'), en: locale('en', 'payments') } as Record<'ar' | 'en', { billStatus: Record<string, string> }>;

const settings = () => w.t.app.settings.current();
/** The bill amounts a fee of `halalas` gives at the VAT rate in force. */
const billed = (halalas: number) => {
  const c = withVat(halalas, settings().vatRate);
  return { amount: formatAmount(c.amount), vat: formatAmount(c.vat), total: formatAmount(c.total) };
};
const applicationFee = () => billed(toHalalas(settings().fees.application));

const requestIn = async (user: DemoUser, id: string, lang: 'ar' | 'en') => (await w.as[user].get(`/api/requests/${id}?lang=${lang}`)).json() as RequestJson;
/** Status code and label in both languages, as the request page shows them. */
async function statusOf(user: DemoUser, id: string) {
  const [ar, en] = [await requestIn(user, id, 'ar'), await requestIn(user, id, 'en')];
  return { code: en.status.code, ar: ar.status.label, en: en.status.label };
}
/** What the catalogue says status `code` of `kind` reads. */
const reads = (kind: string, code: number) => ({ code, ar: STATUS.ar[kind][String(code)], en: STATUS.en[kind][String(code)] });
/** The invoices list of a request in both languages: number, amounts, status code and label. */
async function invoicesOf(c: Client, id: string) {
  const list = async (lang: string) => ((await c.get(`/api/bills?requestId=${id}&pageSize=100&lang=${lang}`)).json().items as (BillJson & { status: { label: string } })[]).reverse();
  const [ar, en] = [await list('ar'), await list('en')];
  return en.map((b, i) => ({ number: b.number, ...money(b), status: b.status.code, label: { ar: ar[i].status.label, en: b.status.label } }));
}
const billReads = (status: number) => ({ ar: PAYMENTS.ar.billStatus[String(status)], en: PAYMENTS.en.billStatus[String(status)] });
const versionOf = async (id: string) => (await requestIn('internal.main', id, 'en')).version;
const historyOf = async (id: string) => (await w.as['internal.main'].get(`/api/requests/${id}/history`)).json().items as { event: string; payload: Record<string, unknown> }[];
/** The request's files as the wizard reads them: locked (frozen by a submission) or open. */
const lockedFlags = async (id: string) =>
  ((await w.as['internal.main'].get(`/api/attachments?facilityPublicId=${FACILITY}&requestId=${id}`)).json() as { locked: boolean }[]).map((f) => f.locked);
type SettingsValue = ReturnType<typeof settings>;
/** Changes the settings in force as the administrator does (/setting-management). */
async function changeSettings(change: (v: SettingsValue) => SettingsValue) {
  const now = (await w.as.admin.get('/api/admin/settings')).json() as { value: SettingsValue; version: number };
  const res = await w.as.admin.put('/api/admin/settings', { value: change(now.value), expectedVersion: now.version });
  expect(res.statusCode, res.body).toBe(200);
}
/** The previous-requests tabs that list the request (spec 02: draft, active, completed). */
async function tabsHolding(id: string) {
  const tabs: string[] = [];
  for (const tab of ['draft', 'active', 'completed']) {
    const items = (await w.as['internal.main'].get(`/api/queues/all?tab=${tab}&pageSize=100`)).json().items as { id: string }[];
    if (items.some((r) => r.id === id)) tabs.push(tab);
  }
  return tabs;
}
const attention = async () => (await w.as.registration.get('/api/payments/attention')).json().items as { billId: string; reason: string; amount: string }[];

describe('cancelling a request awaiting its application fee, twice, then paying (spec 02 section 4 "Other rules on states")', () => {
  it('each cancellation returns it to draft and cancels its bill for good; each submission bills anew; the paid bill moves it on', async () => {
    const kind = 'internalCertificate';
    const draft = await completeDraft(w.as['internal.main'], kind, FACILITY);
    const id = draft.id;
    const expected: ReturnType<typeof billReads>[] = [];
    const numbers: string[] = [];
    const amounts: ReturnType<typeof applicationFee>[] = [];
    for (let round = 1; round <= 2; round++) {
      // Between the two submissions the authority raises the application fee: each bill is made at the fee in force.
      if (round === 2) await changeSettings((v) => ({ ...v, fees: { ...v.fees, application: v.fees.application + 250 } }));
      const submitted = await accept(w.as['internal.main'], id, 'SUBMIT', { agreementAccepted: true });
      expect(submitted.status.code).toBe(2);
      expect(await statusOf('internal.main', id)).toEqual(reads(kind, 2));
      expect(await tabsHolding(id)).toEqual(['active']);
      const open = (await billsOf(w.as['internal.main'], id)).at(-1)!;
      expect([open.status.code, open.service.code, open.feeKind.code, money(open)]).toEqual([1, 6, 'application', applicationFee()]);
      expect(numbers).not.toContain(open.number);
      numbers.push(open.number);
      amounts.push(money(open));

      await accept(w.as['internal.main'], id, 'CANCEL', {});
      expect(await statusOf('internal.main', id)).toEqual(reads(kind, 0));
      expected.push(billReads(4));
      // The cancelled bill cannot be paid: the portal is not reached, and a payment it reports late is refused.
      const pay = await w.as['internal.main'].post(`/api/bills/${open.id}/pay?lang=ar`, {});
      expect([pay.statusCode, pay.json().error.message]).toEqual([409, ERRORS.ar.BillNotPayable]);
      const version = await versionOf(id);
      const before = await invoicesOf(w.as['internal.main'], id);
      expect((await payBill(w.t, open.id, open)).outcome).toBe('rejected');
      expect(await statusOf('internal.main', id)).toEqual(reads(kind, 0));
      expect(await versionOf(id)).toBe(version);
      expect(await invoicesOf(w.as['internal.main'], id)).toEqual(before);
      expect((await historyOf(id)).filter((h) => h.event === 'PAYMENT_REFUSED').at(-1)?.payload).toMatchObject({ billNumber: open.number, refusal: 'BillNotPayable' });
      expect((await attention()).filter((a) => a.billId === open.id)).toEqual([expect.objectContaining({ reason: 'billNotPayable' })]);

      // The draft is the applicant's again, its files too (the wizard replaces an open file, and only drops a locked one):
      // edited, then submitted anew.
      expect(await lockedFlags(id)).toEqual([false, false]);
      expect(await tabsHolding(id)).toEqual(['draft']);
      const edited = await accept(w.as['internal.main'], id, 'EDIT', { data: { production: { ...(submitted.data.production as object), shifts: round } } });
      expect((edited.data.production as { shifts: number }).shifts).toBe(round);
    }
    await accept(w.as['internal.main'], id, 'SUBMIT', { agreementAccepted: true });
    expect(await lockedFlags(id)).toEqual([true, true]);
    const last = (await billsOf(w.as['internal.main'], id)).at(-1)!;
    expect(numbers).not.toContain(last.number);
    expect((await payBill(w.t, last.id, last)).outcome).toBe('paid');
    expect(await statusOf('internal.main', id)).toEqual(reads(kind, 1));
    // The invoices page: the two cancelled bills and the paid one, each with its own number and the fee in force.
    expect(await invoicesOf(w.as['internal.main'], id)).toEqual(
      [...numbers, last.number].map((number, i) => ({ number, ...(amounts[i] ?? applicationFee()), status: i < 2 ? 4 : 2, label: billReads(i < 2 ? 4 : 2) })),
    );
    expect(amounts[1]).not.toEqual(amounts[0]);
    await changeSettings((v) => ({ ...v, fees: { ...v.fees, application: v.fees.application - 250 } }));
  }, 120_000);
});

describe('a cancellation racing the payment of the same bill', () => {
  it('paid first (the request not yet told): the cancellation is refused in the user’s language, and the payment moves the request on', async () => {
    const kind = 'internalCertificate';
    const draft = await completeDraft(w.as['internal.main'], kind, FACILITY);
    await accept(w.as['internal.main'], draft.id, 'SUBMIT', { agreementAccepted: true });
    const [bill] = await billsOf(w.as['internal.main'], draft.id);
    const payment = await portalPayment(w.t, bill.id, bill);
    // The portal's callback commits the bill paid, then telling the request fails for a passing reason (it is
    // told on the portal's next callback): the window a cancellation can fall into.
    const engineSend = vi.spyOn(w.t.app.engine, 'send').mockImplementationOnce(async () => {
      throw new Error('database connection lost');
    });
    try {
      expect((await payment.post()).outcome).toBe('paid');
    } finally {
      engineSend.mockRestore();
    }
    expect(await statusOf('internal.main', draft.id)).toEqual(reads(kind, 2));
    const version = await versionOf(draft.id);
    for (const lang of ['ar', 'en'] as const) {
      const cancel = await send(w.as['internal.main'], draft.id, 'CANCEL', version, {}, lang);
      expect(cancel.statusCode, cancel.body).toBe(409);
      expect([cancel.statusCode, cancel.json().error.code, cancel.json().error.message]).toEqual([409, 'BillAlreadyPaid', ERRORS[lang].BillAlreadyPaid]);
    }
    // Nor can staff waive it.
    const waive = await send(w.as.registration, draft.id, 'GRANT_DISCOUNT', version, { percent: 100, reason: 'Charity kitchen' }, 'en');
    expect([waive.statusCode, waive.json().error.message]).toEqual([409, ERRORS.en.BillAlreadyPaid]);
    expect(await versionOf(draft.id)).toBe(version);
    expect((await invoicesOf(w.as['internal.main'], draft.id)).map((b) => b.status)).toEqual([2]);
    // The portal's next callback tells the request: it moves on, and no money waits for a refund.
    await payment.post();
    expect(await statusOf('internal.main', draft.id)).toEqual(reads(kind, 1));
    expect((await attention()).filter((a) => a.billId === bill.id)).toEqual([]);
    expect(await invoicesOf(w.as['internal.main'], draft.id)).toEqual([{ number: bill.number, ...applicationFee(), status: 2, label: billReads(2) }]);
  }, 60_000);

  it('cancelled first, even deleted, then the payment started before arrives: refused, flagged for refund, the bill stays cancelled', async () => {
    const draft = await completeDraft(w.as['internal.main'], 'internalCertificate', FACILITY);
    await accept(w.as['internal.main'], draft.id, 'SUBMIT', { agreementAccepted: true });
    const [bill] = await billsOf(w.as['internal.main'], draft.id);
    const payment = await portalPayment(w.t, bill.id, bill);
    await accept(w.as['internal.main'], draft.id, 'CANCEL', {});
    await accept(w.as['internal.main'], draft.id, 'DELETE', { confirmed: true });
    expect(await payment.post()).toEqual({ billId: bill.id, outcome: 'rejected', changed: true });
    expect((await attention()).filter((a) => a.billId === bill.id)).toEqual([expect.objectContaining({ reason: 'billNotPayable', amount: bill.total })]);
    const kept = (await w.as['internal.main'].get(`/api/bills/${bill.id}?lang=en`)).json() as BillJson & { status: { label: string }; paidAt: string | null };
    expect([kept.status.code, kept.status.label, kept.paidAt]).toEqual([4, PAYMENTS.en.billStatus['4'], null]);
    expect((await w.as['internal.main'].get(`/api/requests/${draft.id}`)).statusCode).toBe(404);
  }, 60_000);

  it('paid first (the request not yet told), then the payment window ends: the bill stays paid and the payment moves the request on', async () => {
    const kind = 'internalCertificate';
    const draft = await completeDraft(w.as['internal.main'], kind, FACILITY);
    await accept(w.as['internal.main'], draft.id, 'SUBMIT', { agreementAccepted: true });
    const [bill] = await billsOf(w.as['internal.main'], draft.id);
    const payment = await portalPayment(w.t, bill.id, bill);
    const engineSend = vi.spyOn(w.t.app.engine, 'send').mockImplementationOnce(async () => {
      throw new Error('database connection lost');
    });
    try {
      expect((await payment.post()).outcome).toBe('paid');
    } finally {
      engineSend.mockRestore();
    }
    const version = await versionOf(draft.id);
    await fireTimer(w.t, draft.id, 'PAYMENT_EXPIRED');
    expect(await statusOf('internal.main', draft.id)).toEqual(reads(kind, 2));
    expect(await versionOf(draft.id)).toBe(version);
    expect((await invoicesOf(w.as['internal.main'], draft.id)).map((b) => b.status)).toEqual([2]);
    await payment.post();
    expect(await statusOf('internal.main', draft.id)).toEqual(reads(kind, 1));
    expect((await attention()).filter((a) => a.billId === bill.id)).toEqual([]);
    expect(await invoicesOf(w.as['internal.main'], draft.id)).toEqual([{ number: bill.number, ...applicationFee(), status: 2, label: billReads(2) }]);
  }, 60_000);
});

describe('automatic deletion of stopped requests and drafts (spec 02 section 4 item 6)', () => {
  const kind = 'internalCertificate';
  const retention = () => settings().draftRetentionDays;
  const reminder = async (id: string) => (await w.as['internal.main'].get(`/api/requests/${id}/deletion`)).json() as { daysLeft: number | null };
  /** The draft's files as its facility's attachments list names them. */
  const filesOf = (data: Record<string, unknown>) => (data.attachments as { id: string }[]).map((a) => a.id);
  const download = (user: DemoUser, fileId: string) => w.as[user].get(`/api/attachments/${fileId}/download?lang=en`);
  /** Brings the request's pending DRAFT_EXPIRED timer to `days` from now (time passing). */
  const dueIn = async (id: string, days: number) => {
    const moved = await w.t.database.db
      .update(workflowTimers)
      .set({ dueAt: new Date(Date.now() + days * 86_400_000 - 60_000) })
      .where(and(eq(workflowTimers.requestId, id), eq(workflowTimers.event, 'DRAFT_EXPIRED'), isNull(workflowTimers.firedAt), isNull(workflowTimers.cancelledAt)))
      .returning({ id: workflowTimers.id });
    expect(moved).toHaveLength(1);
  };

  it('a stopped request tells its days left, then is deleted on its day: gone for the applicant and staff, its bill kept expired', async () => {
    const draft = await completeDraft(w.as['internal.main'], kind, FACILITY);
    await accept(w.as['internal.main'], draft.id, 'SUBMIT', { agreementAccepted: true });
    await fireTimer(w.t, draft.id, 'PAYMENT_EXPIRED');
    expect(await statusOf('internal.main', draft.id)).toEqual(reads(kind, 3));
    expect((await reminder(draft.id)).daysLeft).toBe(retention());
    await dueIn(draft.id, 1);
    expect((await reminder(draft.id)).daysLeft).toBe(1);
    const [bill] = await billsOf(w.as['internal.main'], draft.id);
    await fireTimer(w.t, draft.id, 'DRAFT_EXPIRED');
    for (const user of ['internal.main', 'registration'] as const) expect((await w.as[user].get(`/api/requests/${draft.id}`)).statusCode).toBe(404);
    const tab = (await w.as['internal.main'].get('/api/queues/all?tab=active&pageSize=100')).json().items as { id: string }[];
    expect(tab.map((r) => r.id)).not.toContain(draft.id);
    // The invoice stays on record, expired.
    const kept = (await w.as['internal.main'].get(`/api/bills/${bill.id}?lang=en`)).json() as BillJson & { status: { label: string } };
    expect([kept.number, kept.status.code, kept.status.label]).toEqual([bill.number, 3, PAYMENTS.en.billStatus['3']]);
  }, 60_000);

  it('a draft deleted on its day takes its files with it; another request’s files stay downloadable', async () => {
    const kept = await completeDraft(w.as['internal.main'], kind, FACILITY);
    const doomed = await completeDraft(w.as['internal.main'], kind, FACILITY);
    for (const file of filesOf(doomed.data)) expect((await download('internal.main', file)).statusCode).toBe(200);
    await fireTimer(w.t, doomed.id, 'DRAFT_EXPIRED');
    expect((await w.as['internal.main'].get(`/api/requests/${doomed.id}`)).statusCode).toBe(404);
    for (const file of filesOf(doomed.data)) {
      for (const user of ['internal.main', 'internal.sub', 'registration', 'admin'] as const) {
        const res = await download(user, file);
        expect([user, res.statusCode]).toEqual([user, 404]);
      }
    }
    const listed = (await w.as['internal.main'].get(`/api/attachments?facilityPublicId=${FACILITY}`)).json() as { id: string }[];
    expect(listed.map((f) => f.id)).not.toEqual(expect.arrayContaining([filesOf(doomed.data)[0]]));
    for (const file of filesOf(kept.data)) expect((await download('internal.main', file)).statusCode).toBe(200);
  }, 60_000);

  it('a renewal draft deleted takes only its own files: the certified request’s files it named stay', async () => {
    const certified = await completeDraft(w.as['internal.main'], kind, FACILITY);
    const { request, steps } = await walk(w, certified.id, { applicant: 'internal.main', until: 25, option: 'full' });
    expect(request.status.code, JSON.stringify(steps)).toBe(25);
    const [cert] = await certificatesOf(w, w.as['internal.main'], certified.id);
    await setExpiry(w, cert.id, 30);
    const started = await w.as['internal.main'].post('/api/requests', { kind: 'internalRenewal', facilityId: FACILITY, certificateId: cert.id });
    expect(started.statusCode, started.body).toBe(201);
    const renewal = started.json() as RequestJson;
    // It starts with the certified request's files, and adds one of its own.
    expect(filesOf(renewal.data)).toEqual(filesOf(certified.data));
    const own = await uploadTo(w.as['internal.main'], FACILITY, renewal.id, 'requestNote');
    expect((await send(w.as['internal.main'], renewal.id, 'DELETE', renewal.version, { confirmed: true })).statusCode).toBe(200);
    expect((await download('internal.main', own)).statusCode).toBe(404);
    for (const file of filesOf(certified.data)) for (const user of ['internal.main', 'registration'] as const) expect((await download(user, file)).statusCode).toBe(200);
  }, 120_000);

  it('editing a draft the day before its deletion does not restart its clock (the reminder keeps counting), and it is deleted on its day', async () => {
    const draft = await completeDraft(w.as['internal.main'], kind, FACILITY);
    expect((await reminder(draft.id)).daysLeft).toBe(retention());
    await dueIn(draft.id, 1);
    await accept(w.as['internal.main'], draft.id, 'EDIT', { data: { production: { ...(draft.data.production as object), shifts: 2 } } });
    expect((await reminder(draft.id)).daysLeft).toBe(1);
    await fireTimer(w.t, draft.id, 'DRAFT_EXPIRED');
    expect((await w.as['internal.main'].get(`/api/requests/${draft.id}`)).statusCode).toBe(404);
  }, 60_000);

  it('a request cancelled back to draft starts a new retention period, as any draft', async () => {
    const draft = await completeDraft(w.as['internal.main'], kind, FACILITY);
    await dueIn(draft.id, 2);
    await accept(w.as['internal.main'], draft.id, 'SUBMIT', { agreementAccepted: true });
    expect((await reminder(draft.id)).daysLeft).toBeNull();
    await accept(w.as['internal.main'], draft.id, 'CANCEL', {});
    expect((await reminder(draft.id)).daysLeft).toBe(retention());
  }, 60_000);
});

describe('a free request (spec 02 section 4: "a request can be free of charge (100% discount submission)")', () => {
  it('the application fee waived at submission: no bill to pay from then on, through to the certificate', async () => {
    const kind = 'internalCertificate';
    const draft = await completeDraft(w.as['internal.main'], kind, FACILITY);
    await accept(w.as['internal.main'], draft.id, 'SUBMIT', { agreementAccepted: true });
    const [bill] = await billsOf(w.as['internal.main'], draft.id);
    await accept(w.as.registration, draft.id, 'GRANT_DISCOUNT', { percent: 100, reason: 'Charity kitchen: free of charge' });
    expect(await statusOf('internal.main', draft.id)).toEqual(reads(kind, 1));
    // The waived bill can no longer be paid.
    const pay = await w.as['internal.main'].post(`/api/bills/${bill.id}/pay?lang=en`, {});
    expect([pay.statusCode, pay.json().error.message]).toEqual([409, ERRORS.en.BillNotPayable]);
    // The fee preview says there is nothing to pay.
    const fees = (await w.as['internal.main'].get(`/api/requests/${draft.id}/fees`)).json() as { items: { charge: { total: string } | null }[] };
    expect(fees.items.length).toBeGreaterThan(0);
    expect(fees.items.filter((i) => i.charge && toHalalas(Number(i.charge.total)) !== 0)).toEqual([]);

    const { request, steps } = await walk(w, draft.id, { applicant: 'internal.main', until: 25, payBills: false });
    expect(request.status.code, JSON.stringify(steps)).toBe(25);
    expect(steps.map((s) => s.event)).not.toContain('CHOOSE_PAYMENT_OPTION');
    expect(await statusOf('internal.main', draft.id)).toEqual(reads(kind, 25));
    // The invoices page lists only the waived application bill, cancelled; nothing awaits payment.
    expect(await invoicesOf(w.as['internal.main'], draft.id)).toEqual([{ number: bill.number, ...applicationFee(), status: 4, label: billReads(4) }]);
    const open = (await w.as['internal.main'].get(`/api/bills?facilityId=${FACILITY}&status=1&pageSize=100`)).json().items as BillJson[];
    expect(open.filter((b) => b.requestId === draft.id)).toEqual([]);
  }, 180_000);
});

describe('a request made free at its certificate fee, paid yearly', () => {
  it('the waived certificate fee leaves no yearly instalment to pay later', async () => {
    const kind = 'internalCertificate';
    const draft = await completeDraft(w.as['internal.main'], kind, FACILITY);
    const walked = await walk(w, draft.id, { applicant: 'internal.main', until: 16, option: 'yearly' });
    expect(walked.request.status.code, JSON.stringify(walked.steps)).toBe(16);
    const waived = (await billsOf(w.as['internal.main'], draft.id)).at(-1)!;
    expect(waived.feeKind.code).toBe('certificate');
    await accept(w.as.registration, draft.id, 'GRANT_DISCOUNT', { percent: 100, reason: 'Charity kitchen: free of charge' });
    const { request, steps } = await walk(w, draft.id, { applicant: 'internal.main', until: 25, payBills: false });
    expect(request.status.code, JSON.stringify(steps)).toBe(25);
    expect((await billsOf(w.as['internal.main'], draft.id)).find((b) => b.id === waived.id)?.status.code).toBe(4);
    const [cert] = await certificatesOf(w, w.as['internal.main'], draft.id);
    // No anniversary bills a free certificate: none is armed, and nothing is ever billed on the certificate.
    const armed = await w.t.database.db
      .select()
      .from(workflowTimers)
      .where(and(eq(workflowTimers.requestId, cert.id), eq(workflowTimers.event, 'INSTALLMENT_DUE'), isNull(workflowTimers.firedAt), isNull(workflowTimers.cancelledAt)));
    expect(armed).toEqual([]);
    expect(await billsOf(w.as['internal.main'], cert.id)).toEqual([]);
    // The request's own invoices: the bills paid before the waiver, and the waived one cancelled; none awaits payment.
    expect((await billsOf(w.as['internal.main'], draft.id)).filter((b) => b.status.code === 1)).toEqual([]);
  }, 180_000);
});

describe('the main user and a delegate on the same draft at once', () => {
  const kind = 'internalCertificate';
  const production = (r: RequestJson) => r.data.production as Record<string, unknown>;

  it('two edits from the same version: the second is refused 409 in its sender’s language, nothing lost, and goes through on the new version', async () => {
    const draft = await completeDraft(w.as['internal.main'], kind, FACILITY);
    const [main, sub] = [w.as['internal.main'], w.as['internal.sub']];
    const first = await send(main, draft.id, 'EDIT', draft.version, { data: { production: { ...production(draft), shifts: 1 } } }, 'en');
    expect(first.statusCode, first.body).toBe(200);
    for (const lang of ['ar', 'en'] as const) {
      const second = await send(sub, draft.id, 'EDIT', draft.version, { data: { branches: { hasBranches: false, items: [] } } }, lang);
      expect([second.statusCode, second.json().error.code, second.json().error.message]).toEqual([409, 'ConcurrencyConflict', ERRORS[lang].ConcurrencyConflict]);
    }
    const now = await requestIn('internal.sub', draft.id, 'en');
    expect([now.version, production(now).shifts, now.data.branches]).toEqual([first.json().version, 1, draft.data.branches]);
    // Reloaded, the delegate's change goes in beside the main user's.
    const retried = await send(sub, draft.id, 'EDIT', now.version, { data: { branches: { hasBranches: false, items: [] } } });
    expect(retried.statusCode, retried.body).toBe(200);
    const both = await requestIn('internal.main', draft.id, 'en');
    expect([production(both).shifts, both.data.branches]).toEqual([1, { hasBranches: false, items: [] }]);
  }, 60_000);

  it('one deletes the draft while the other edits it: whichever comes second is refused, in its sender’s language, and nothing comes back', async () => {
    const draft = await completeDraft(w.as['internal.main'], kind, FACILITY);
    const [main, sub] = [w.as['internal.main'], w.as['internal.sub']];
    // Deleting needs confirmation (spec 02 section 5).
    const unconfirmed = await send(main, draft.id, 'DELETE', draft.version, {}, 'ar');
    expect(unconfirmed.statusCode).toBe(400);
    const deleted = await send(main, draft.id, 'DELETE', draft.version, { confirmed: true });
    expect(deleted.statusCode, deleted.body).toBe(200);
    for (const lang of ['ar', 'en'] as const) {
      const late = await send(sub, draft.id, 'EDIT', draft.version, { data: { production: { ...production(draft), shifts: 2 } } }, lang);
      expect(late.statusCode, late.body).toBe(404);
      expect(late.json().error.message).toBe(ERRORS[lang].EntityNotFound);
    }
    for (const user of ['internal.main', 'internal.sub'] as const) expect((await w.as[user].get(`/api/requests/${draft.id}`)).statusCode).toBe(404);

    // The other order: an edit lands first, and a delete sent from the version before it is refused.
    const other = await completeDraft(w.as['internal.main'], kind, FACILITY);
    expect((await send(sub, other.id, 'EDIT', other.version, { data: { production: { ...production(other), shifts: 2 } } })).statusCode).toBe(200);
    const stale = await send(main, other.id, 'DELETE', other.version, { confirmed: true }, 'ar');
    expect([stale.statusCode, stale.json().error.message]).toEqual([409, ERRORS.ar.ConcurrencyConflict]);
    expect(production(await requestIn('internal.main', other.id, 'en')).shifts).toBe(2);
  }, 60_000);
});

describe('after payment and after completion nothing edits or cancels the request (spec 02 section 4 item 8)', () => {
  const kind = 'internalCertificate';

  /** Every door that edits, cancels or deletes, tried by the main user and the delegate: each refused, nothing moved. */
  async function everyDoorRefused(id: string) {
    const before = await requestIn('internal.main', id, 'en');
    const bills = await invoicesOf(w.as['internal.main'], id);
    const files = (before.data.attachments as { id: string }[]).map((a) => a.id);
    for (const user of ['internal.main', 'internal.sub'] as const) {
      const c = w.as[user];
      for (const [type, payload] of [
        ['EDIT', { data: { production: { ...(before.data.production as object), shifts: 1 } } }],
        ['CANCEL', {}],
        ['DELETE', { confirmed: true }],
        ['SUBMIT', { agreementAccepted: true }],
        ['RESUBMIT', {}],
      ] as const) {
        for (const lang of ['ar', 'en'] as const) {
          const res = await send(c, id, type, before.version, payload, lang);
          expect([user, type, res.statusCode, res.json().error?.message]).toEqual([user, type, 409, ERRORS[lang].TransitionNotAllowed]);
        }
      }
      const removed = await c.request({ method: 'DELETE', url: `/api/attachments/${files[0]}?lang=en` });
      expect([user, removed.statusCode, removed.json().error.message]).toEqual([user, 409, ERRORS.en.AttachmentLocked]);
      const added = await uploadTo(c, FACILITY, id, 'industrialLicense').catch((e: Error) => e.message);
      expect(added).toMatch(/^upload industrialLicense refused: 409 /);
      expect(added).toContain(ERRORS.ar.AttachmentLocked);
    }
    expect(await requestIn('internal.main', id, 'en')).toEqual(before);
    expect(await invoicesOf(w.as['internal.main'], id)).toEqual(bills);
    for (const file of files) expect((await w.as['internal.main'].get(`/api/attachments/${file}/download`)).statusCode).toBe(200);
  }

  it('once the application fee is paid, and once the certificate is issued', async () => {
    const draft = await completeDraft(w.as['internal.main'], kind, FACILITY);
    await accept(w.as['internal.main'], draft.id, 'SUBMIT', { agreementAccepted: true });
    const [bill] = await billsOf(w.as['internal.main'], draft.id);
    await payBill(w.t, bill.id, bill);
    expect(await statusOf('internal.main', draft.id)).toEqual(reads(kind, 1));
    await everyDoorRefused(draft.id);

    const { request, steps } = await walk(w, draft.id, { applicant: 'internal.main', until: 25, option: 'full' });
    expect(request.status.code, JSON.stringify(steps)).toBe(25);
    expect(await statusOf('internal.main', draft.id)).toEqual(reads(kind, 25));
    await everyDoorRefused(draft.id);
    // Its bills are all paid: none can be cancelled either.
    expect((await invoicesOf(w.as['internal.main'], draft.id)).map((b) => b.status)).toEqual((await billsOf(w.as['internal.main'], draft.id)).map(() => 2));
  }, 180_000);
});
