import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../server/app';
import { testConfig } from '../../server/config';
import { DEMO_PASSWORD } from '../../db/seed';
import type { Database } from '../../db/client';
import { bills, payments } from '../../db/schema';
import { createTestDatabase } from '../helpers/db';
import { readPdf } from '../helpers/pdf';
import { PAYMENT_PORTAL_SIMULATOR_PATH, paymentPortalSimulatorFor } from '../../server/simulators/payment-portal/plugin';
import { signCallback, type PaymentCallback } from '../../server/adapters/payment-portal';
import { chargeColumns, toHalalas, withVat } from '../../machines/services/fees';
import type { Actor } from '../../machines/actor';
import type { RequestView, WorkflowEngine } from '../../workflows/engine';
import { validateEvent } from '../../machines/validate-event';
import { AppError } from '../../server/errors';

/*
 * Paying bills through the government payment portal simulator, over real HTTP: the server listens on a free port,
 * the adapter registers payments with the simulator mounted in the same server, the test plays the person's browser
 * on the portal's page, and the portal calls back (server to server, then through the browser redirect).
 */

const PREFIX = PAYMENT_PORTAL_SIMULATOR_PATH;
const SECRET = 'test-payment-callback-secret-0123456789';

interface Client {
  request(opts: InjectOptions): Promise<LightMyRequestResponse>;
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
}

/** Workflow events the server sent (the engine's send is replaced by a recorder). */
const sent: { id: string; event: Record<string, unknown>; actor: Actor }[] = [];

let app: FastifyInstance;
let sendSpy: MockInstance<WorkflowEngine['send']>;
let database: Database;
let origin: string;

const cookiesOf = (res: LightMyRequestResponse) => [res.headers['set-cookie'] ?? []].flat().map((c) => String(c).split(';')[0]);

const clients = new Map<string, Client>();

/** Signs a seeded user in once (sign-in is rate limited) and reuses the session. */
async function login(userName: string): Promise<Client> {
  const known = clients.get(userName);
  if (known) return known;
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { userName, password: DEMO_PASSWORD } });
  expect(res.statusCode, res.body).toBe(200);
  const session = cookiesOf(res).join('; ');
  const s = await app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie: session } });
  const cookie = [session, ...cookiesOf(s)].join('; ');
  const csrf = s.json().csrfToken as string;
  // The host header makes the server see the address the person uses, as behind a real browser.
  const request = (opts: InjectOptions) =>
    app.inject({ ...opts, headers: { host: new URL(origin).host, cookie, 'x-csrf-token': csrf, ...(opts.headers ?? {}) } });
  const client: Client = {
    request,
    get: (url) => request({ method: 'GET', url }),
    post: (url, payload) => request({ method: 'POST', url, payload: (payload ?? {}) as never }),
  };
  clients.set(userName, client);
  return client;
}

let billSeq = 0;
async function insertBill(values: Partial<typeof bills.$inferInsert> & { amountSar?: number } = {}) {
  const { amountSar = 1000, ...rest } = values;
  billSeq++;
  const [row] = await database.db
    .insert(bills)
    .values({
      number: `B-TEST-${Date.now().toString(36)}-${billSeq}`,
      facilityPublicId: 'inf-almarai-foods',
      service: 6,
      feeKind: 'certificate',
      ...chargeColumns(withVat(toHalalas(amountSar), 0.15)),
      status: 1,
      dueAt: new Date(Date.now() + 72 * 3_600_000),
      ...rest,
    })
    .returning();
  return row;
}

const billRow = async (id: string) => (await database.db.select().from(bills).where(eq(bills.id, id)))[0];
const paymentRows = (billId: string) => database.db.select().from(payments).where(eq(payments.billId, billId));

/** The person's browser on the portal: opens the page, presses a button, and returns where the portal redirects. */
async function pressOnPortal(redirectUrl: string, action: 'pay' | 'cancel'): Promise<URL> {
  const page = await fetch(redirectUrl);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain(`value="${action}"`);
  const res = await fetch(redirectUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ action, lang: 'en' }).toString(),
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
  return new URL(res.headers.get('location')!);
}

function callbackOf(url: URL): PaymentCallback {
  return Object.fromEntries(url.searchParams.entries()) as unknown as PaymentCallback;
}

beforeAll(async () => {
  database = await createTestDatabase();
  const config = testConfig({ PAYMENT_CALLBACK_SECRET: SECRET });
  app = await buildApp({
    config,
    database,
    extra: [
      async (a) => {
        // Mounted here as server/simulators/index.ts mounts it when SIMULATORS is on (tests run with it off).
        if (!a.hasRoute({ method: 'GET', url: `${PREFIX}/pay` })) await a.register(paymentPortalSimulatorFor(config), { prefix: PREFIX });
        // Without the requests module there is no engine; stand one in so the callback has someone to tell.
        if (!a.hasDecorator('engine')) a.decorate('engine', { send: async () => ({}) as RequestView } as unknown as WorkflowEngine);
      },
    ],
  });
  // Record what the payment module tells the workflows, whichever engine runs (the requests have no machine here).
  sendSpy = vi.spyOn(app.engine, 'send').mockImplementation(async (id, event, actor) => {
    sent.push({ id, event, actor });
    return {} as RequestView;
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}, 60_000);

afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('bills: who sees what', () => {
  it("lists the user's facility bills, with the invoice fields, and not another facility's", async () => {
    const mine = await insertBill({ amountSar: 1000 });
    const theirs = await insertBill({ facilityPublicId: 'exf-anatolia-meat', service: 7 });
    const c = await login('internal.main');
    const list = (await c.get('/api/bills?lang=en&pageSize=100')).json();
    const ids = list.items.map((b: { id: string }) => b.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);

    const bill = (await c.get(`/api/bills/${mine.id}?lang=en`)).json();
    expect(bill).toMatchObject({
      number: mine.number,
      paymentReference: null,
      issued: false,
      service: { code: 6, name: 'Internal facility Halal certificate' },
      facility: { publicId: 'inf-almarai-foods', nameEn: 'Al Marai Foods Factory', nameAr: 'مصنع المراعي للأغذية' },
      amount: '1000.00',
      vat: '150.00',
      total: '1150.00',
      status: { code: 1, label: 'Awaiting payment' },
    });
    const ar = (await c.get(`/api/bills/${mine.id}?lang=ar`)).json();
    expect(ar.status.label).toBe('بانتظار السداد');
    expect(ar.service.name).toBe('شهادة حلال لمنشأة داخلية');
  });

  it("another facility's user can neither see nor pay the bill, and the bill is left as it was", async () => {
    const bill = await insertBill();
    const other = await login('external');
    expect((await other.get(`/api/bills/${bill.id}`)).statusCode).toBe(404);
    expect((await other.get(`/api/bills/${bill.id}/file`)).statusCode).toBe(404);
    const pay = await other.post(`/api/bills/${bill.id}/pay`);
    expect(pay.statusCode).toBe(404);
    expect(await paymentRows(bill.id)).toHaveLength(0);
    expect((await billRow(bill.id)).paymentReference).toBeNull();
  });

  it('staff see every facility\'s bills but do not pay them', async () => {
    const bill = await insertBill({ facilityPublicId: 'exf-anatolia-meat', service: 7 });
    const staff = await login('registration');
    expect((await staff.get(`/api/bills/${bill.id}`)).statusCode).toBe(200);
    const list = (await staff.get('/api/bills?facilityId=exf-anatolia-meat&pageSize=100')).json();
    expect(list.items.map((b: { id: string }) => b.id)).toContain(bill.id);
    expect((await staff.post(`/api/bills/${bill.id}/pay`)).statusCode).toBe(403);
  });

  it('pages and filters issued / not issued bills', async () => {
    const c = await login('internal.sub');
    const before = (await c.get('/api/bills?issued=false&pageSize=1')).json();
    const a = await insertBill();
    await insertBill({ paymentReference: '000000000001' });
    const notIssued = (await c.get('/api/bills?issued=false&pageSize=1')).json();
    expect(notIssued.totalCount).toBe(before.totalCount + 1);
    expect(notIssued.items).toHaveLength(1);
    expect(notIssued.items[0].id).toBe(a.id);
    const issued = (await c.get('/api/bills?issued=true&pageSize=100')).json();
    expect(issued.items.every((b: { issued: boolean }) => b.issued)).toBe(true);
    const page1 = (await c.get('/api/bills?pageSize=1&pageNumber=1')).json();
    const page2 = (await c.get('/api/bills?pageSize=1&pageNumber=2')).json();
    expect(page1.totalCount).toBeGreaterThanOrEqual(2);
    expect(page2.items).toHaveLength(1);
    expect(page2.items[0].id).not.toBe(page1.items[0].id);
  });
});

describe('paying through the government payment portal simulator', () => {
  it('pays a bill: portal page, Pay, signed callback, bill paid once, workflow told once', async () => {
    const bill = await insertBill({ amountSar: 2500, requestId: '11111111-2222-4333-8444-555555555555' });
    const c = await login('internal.main');
    const res = await c.post(`/api/bills/${bill.id}/pay?lang=en`, { returnPath: '/internal-halal-request/x?tab=payments' });
    expect(res.statusCode, res.body).toBe(200);
    const started = res.json();
    expect(started.redirectUrl.startsWith(`${origin}${PREFIX}/pay?`)).toBe(true);
    expect(started.paymentReference).toMatch(/^\d{12}$/);
    // The bill is now issued at the portal: it carries the payment reference.
    expect((await c.get(`/api/bills/${bill.id}`)).json()).toMatchObject({ issued: true, paymentReference: started.paymentReference });

    const page = await (await fetch(started.redirectUrl)).text();
    expect(page).toContain(bill.number);
    expect(page).toContain('2,875.00'); // total with VAT
    expect(page).toContain('375.00'); // VAT

    const back = await pressOnPortal(started.redirectUrl, 'pay');
    expect(`${back.origin}${back.pathname}`).toBe(`${origin}/api/payments/callback`);
    // The portal's server-to-server notification has already settled the bill; the browser's return repeats it.
    const afterNotify = await billRow(bill.id);
    expect(afterNotify.status).toBe(2);
    const landing = await fetch(back, { redirect: 'manual' });
    expect(landing.status).toBe(303);
    expect(landing.headers.get('location')).toBe('/internal-halal-request/x?tab=payments&payment=paid');

    const paid = await billRow(bill.id);
    expect(paid.status).toBe(2);
    expect(paid.paidAt).not.toBeNull();
    expect(paid.paidAt!.getTime()).toBe(afterNotify.paidAt!.getTime());
    const rows = await paymentRows(bill.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'paid', amount: '2875.00' });
    const view = (await c.get(`/api/bills/${bill.id}?lang=en`)).json();
    expect(view.status).toEqual({ code: 2, label: 'Paid' });

    // The request's workflow was told once, by the system, with a payload its machines accept.
    const events = sent.filter((s) => s.id === bill.requestId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ event: { type: 'PAYMENT_CONFIRMED', paymentReference: started.paymentReference }, actor: { system: true } });
    for (const kind of ['internalCertificate', 'bill'] as const) expect(validateEvent(kind, events[0].event as { type: string })).toEqual([]);
    expect(rows[0].workflowOutcome).toBe('accepted');

    // Paying again is refused: the bill is settled.
    const again = await c.post(`/api/bills/${bill.id}/pay`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('BillNotPayable');
  });

  it('a repeated callback changes nothing', async () => {
    const bill = await insertBill({ requestId: '21111111-2222-4333-8444-555555555555' });
    const c = await login('internal.main');
    const started = (await c.post(`/api/bills/${bill.id}/pay`)).json();
    const back = await pressOnPortal(started.redirectUrl, 'pay');
    const first = await billRow(bill.id);
    const cb = callbackOf(back);
    for (let i = 0; i < 3; i++) {
      const post = await app.inject({ method: 'POST', url: '/api/payments/callback', payload: cb });
      expect(post.statusCode).toBe(200);
      expect(post.json()).toEqual({ billId: bill.id, outcome: 'paid', changed: false });
      expect((await fetch(back, { redirect: 'manual' })).status).toBe(303);
    }
    const after = await billRow(bill.id);
    expect(after).toEqual(first);
    expect((await paymentRows(bill.id)).map((p) => p.status)).toEqual(['paid']);
    expect(sent.filter((s) => s.id === bill.requestId)).toHaveLength(1);
  });

  it('tells the workflow again on the next callback when it could not be told, and not when it refused', async () => {
    const c = await login('internal.main');
    const flaky = await insertBill({ requestId: '41111111-2222-4333-8444-555555555555' });
    sendSpy.mockImplementationOnce(async () => {
      throw new Error('database connection lost');
    });
    const back = await pressOnPortal((await c.post(`/api/bills/${flaky.id}/pay`)).json().redirectUrl, 'pay');
    expect((await billRow(flaky.id)).status).toBe(2);
    expect((await paymentRows(flaky.id))[0]).toMatchObject({ workflowNotifiedAt: null, workflowOutcome: null });
    // The browser's return (the same signed callback) gets it through.
    await fetch(back, { redirect: 'manual' });
    expect((await paymentRows(flaky.id))[0].workflowOutcome).toBe('accepted');
    expect(sent.filter((s) => s.id === flaky.requestId)).toHaveLength(1);

    const moved = await insertBill({ requestId: '51111111-2222-4333-8444-555555555555' });
    sendSpy.mockImplementationOnce(async () => {
      throw new AppError('TransitionNotAllowed');
    });
    const back2 = await pressOnPortal((await c.post(`/api/bills/${moved.id}/pay`)).json().redirectUrl, 'pay');
    await fetch(back2, { redirect: 'manual' });
    expect((await paymentRows(moved.id))[0].workflowOutcome).toBe('refused');
    expect(sendSpy.mock.calls.filter(([id]) => id === moved.requestId)).toHaveLength(1);
  });

  it('a forged callback is refused and changes nothing', async () => {
    const bill = await insertBill({ requestId: '31111111-2222-4333-8444-555555555555' });
    const c = await login('internal.main');
    const started = (await c.post(`/api/bills/${bill.id}/pay`)).json();
    const fields = {
      paymentId: started.paymentId as string,
      merchantReference: bill.number,
      paymentReference: started.paymentReference as string,
      amount: bill.total,
      timestamp: new Date().toISOString(),
    };
    const cancelled = { ...fields, status: 'cancelled' as const };
    const paid = { ...fields, status: 'paid' as const };
    const forgeries: PaymentCallback[] = [
      // Someone turns a genuine cancellation into a payment, keeping its signature.
      { ...paid, signature: signCallback(cancelled, SECRET) },
      // ... or signs a payment with a secret of their own.
      { ...paid, signature: signCallback(paid, 'not-the-shared-secret-at-all') },
    ];
    for (const forged of forgeries) {
      const post = await app.inject({ method: 'POST', url: '/api/payments/callback', payload: forged });
      expect(post.statusCode).toBe(400);
      expect(post.json().error.code).toBe('PaymentSignatureInvalid');
      const get = await app.inject({ method: 'GET', url: `/api/payments/callback?${new URLSearchParams({ ...forged })}` });
      expect(get.statusCode).toBe(400);
      expect(get.json().error.code).toBe('PaymentSignatureInvalid');
    }
    // A correctly signed callback naming another amount than the payment started is refused as well.
    const cheaper = { ...paid, amount: '1.00' };
    const mismatch = await app.inject({ method: 'POST', url: '/api/payments/callback', payload: { ...cheaper, signature: signCallback(cheaper, SECRET) } });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error.code).toBe('PaymentDataMismatch');

    const row = await billRow(bill.id);
    expect(row.status).toBe(1);
    expect(row.paidAt).toBeNull();
    expect((await paymentRows(bill.id)).map((p) => p.status)).toEqual(['pending']);
    expect(sent.filter((s) => s.id === bill.requestId)).toHaveLength(0);

    // The genuine payment still goes through afterwards.
    await pressOnPortal(started.redirectUrl, 'pay');
    expect((await billRow(bill.id)).status).toBe(2);
  });

  it('cancelling on the portal leaves the bill awaiting payment, and paying later works', async () => {
    const bill = await insertBill();
    const c = await login('internal.sub');
    const first = (await c.post(`/api/bills/${bill.id}/pay`)).json();
    const back = await pressOnPortal(first.redirectUrl, 'cancel');
    const landing = await fetch(back, { redirect: 'manual' });
    expect(landing.headers.get('location')).toBe(`/bills/${bill.id}?payment=cancelled`);
    expect((await billRow(bill.id)).status).toBe(1);

    const second = (await c.post(`/api/bills/${bill.id}/pay`)).json();
    expect(second.paymentReference).toBe(first.paymentReference);
    await pressOnPortal(second.redirectUrl, 'pay');
    expect((await billRow(bill.id)).status).toBe(2);
    expect((await paymentRows(bill.id)).map((p) => p.status).sort()).toEqual(['cancelled', 'paid']);
  });

  it('money taken for a bill that expired meanwhile is recorded for refund and the bill stays expired', async () => {
    const bill = await insertBill();
    const c = await login('internal.main');
    const started = (await c.post(`/api/bills/${bill.id}/pay`)).json();
    await database.db.update(bills).set({ status: 3 }).where(eq(bills.id, bill.id));
    await pressOnPortal(started.redirectUrl, 'pay');
    expect((await billRow(bill.id)).status).toBe(3);
    expect((await paymentRows(bill.id)).map((p) => p.status)).toEqual(['rejected']);
  });

  it('refuses to start paying an expired, settled or free bill, and an off-site return path', async () => {
    const c = await login('internal.main');
    const late = await insertBill({ dueAt: new Date(Date.now() - 1000) });
    expect((await c.post(`/api/bills/${late.id}/pay`)).json().error.code).toBe('BillExpired');
    const cancelled = await insertBill({ status: 4 });
    expect((await c.post(`/api/bills/${cancelled.id}/pay`)).statusCode).toBe(409);
    const free = await insertBill({ amountSar: 0 });
    expect((await c.post(`/api/bills/${free.id}/pay`)).json().error.code).toBe('BillNotPayable');
    const ok = await insertBill();
    for (const returnPath of ['//evil.example/x', '/\\evil.example', 'https://evil.example/']) {
      expect((await c.post(`/api/bills/${ok.id}/pay`, { returnPath })).statusCode).toBe(400);
    }
    expect(await paymentRows(ok.id)).toHaveLength(0);
  });

  it('the portal refuses to register a payment without its API key, and shows an invalid link as such', async () => {
    const res = await fetch(`${origin}${PREFIX}/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        merchantReference: 'X',
        amount: '1.00',
        vat: '0.15',
        total: '1.15',
        currency: 'SAR',
        description: { ar: 'x', en: 'x' },
        language: 'ar',
        returnUrl: `${origin}/api/payments/callback`,
        callbackUrl: `${origin}/api/payments/callback`,
      }),
    });
    expect(res.status).toBe(401);
    const page = await fetch(`${origin}${PREFIX}/pay?token=not-a-token&lang=ar`);
    expect(page.status).toBe(404);
    const html = await page.text();
    expect(html).toContain('dir="rtl"');
    expect(html).toContain('رابط الدفع غير صالح أو منتهي الصلاحية.');
  });

  it('the portal page speaks Arabic (right to left) and English', async () => {
    const bill = await insertBill();
    const c = await login('internal.main');
    const started = (await c.post(`/api/bills/${bill.id}/pay?lang=ar`)).json();
    const ar = await (await fetch(started.redirectUrl)).text();
    expect(ar).toContain('<html lang="ar" dir="rtl">');
    expect(ar).toContain('بوابة المدفوعات الحكومية');
    expect(ar).toContain('ادفع 1,150.00 ريال');
    const en = await (await fetch(started.redirectUrl.replace('lang=ar', 'lang=en'))).text();
    expect(en).toContain('<html lang="en" dir="ltr">');
    expect(en).toContain('Pay 1,150.00 SAR');
    // No external assets: no script, stylesheet or image is loaded from anywhere.
    expect(ar).not.toMatch(/<(script|link|img)\b/);
  });
});

describe('the bill file', () => {
  it('is a bilingual PDF with the invoice fields and amounts', async () => {
    const bill = await insertBill({ amountSar: 1234.5, paymentReference: '123456789012' });
    const c = await login('internal.main');
    const res = await c.get(`/api/bills/${bill.id}/file`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain(`bill-${bill.number}.pdf`);
    const { text } = await readPdf(res.rawPayload);
    for (const s of [bill.number, '123456789012', '1,234.50', '185.18', '1,419.68', 'Invoice', 'فاتورة', 'مصنع المراعي للأغذية', 'Awaiting payment', 'بانتظار السداد']) {
      expect(text).toContain(s);
    }
  });
});
