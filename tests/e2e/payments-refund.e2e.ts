import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Browser, Locator, Page } from 'playwright-core';
import type { Database } from '../../db/client';
import { bills, payments } from '../../db/schema';
import { riyadhDate } from '../../machines/working-days';
import { startSimulators } from '../helpers/simulators';
import { launchBrowser, openPage, payOnPortalPage, registerPortalPayment, screenshot, signIn, startServerWithData, waitForIdle, type RunningServer } from './harness';

/**
 * Recording a refund owed on the staff screen of payments needing attention, in real Chromium, once in Arabic and once
 * in English. A bill's payment was started three days ago, the bill's payment window then passed (expired, 3) while
 * the payer still had the portal's page open; the payer now pays there and comes back through the portal's signed
 * return, so the server takes the money for a bill no longer payable: the payment is 'rejected', a refund owed
 * (server/modules/payments/attention.ts billNotPayable). The registration employee opens the screen, sees it listed
 * "paid for a closed invoice", opens the refund dialog, submits it empty (the shared schema's messages, in the page's
 * language), then with tomorrow's day (the server's refusal, shown at the field), and nothing is recorded; then with a
 * reference and yesterday's day: the success toast, the payment leaves the list, and the bill (the API and the invoices
 * page) shows the refund with that reference and day.
 */
type Lang = 'ar' | 'en';
const DAY = 86_400_000;
const SERVER_PORT = 3372;
const SIMULATORS_PORT = 3373;
const BILL = { ar: 'B-E2E-REFUND-AR', en: 'B-E2E-REFUND-EN' } as const;
const REFERENCE = { ar: 'RF-2026/AR-001', en: 'RF-2026/EN-001' } as const;

const testId = (page: Page | Locator, id: string) => page.locator(`[data-testid="${id}"]`);
const json = (lang: Lang, ns: string) => JSON.parse(readFileSync(join(__dirname, `../../locales/${lang}/${ns}.json`), 'utf8'));
/** Text as read, without the bidi isolates ltr() puts around numbers and references. */
const plain = (s: string | null) => (s ?? '').replace(/[\u2066-\u2069]/g, '');
const texts = (lang: Lang) => {
  const attention = json(lang, 'payments').attention as { title: string; reasons: Record<string, string>; refund: { recorded: string; title: string } };
  const validation = json(lang, 'validation').refund as Record<string, string>;
  return { attention, validation, recorded: (bill: string) => attention.refund.recorded.replace('{{bill}}', bill) };
};

/** The portal simulator's pages of the payments registered there, per language. */
const portalPages: Partial<Record<Lang, string>> = {};
let sims: { app: FastifyInstance; url: string };

/** Registers the payment at the portal simulator as start-payment.ts does; the payer returns to this server's callback. */
async function registerAtPortal(lang: Lang) {
  const created = await registerPortalPayment(sims.url, BILL[lang], lang, `http://127.0.0.1:${SERVER_PORT}/api/payments/callback`);
  portalPages[lang] = created.paymentUrl;
  return created.paymentId;
}

async function prepareData(database: Database) {
  for (const lang of ['ar', 'en'] as const) {
    const paymentId = await registerAtPortal(lang);
    // Billed four days ago, due two days ago and expired then (status 3, as the bill's PAYMENT_EXPIRED writes it); the
    // payment was started three days ago, before the window ended, and is still pending.
    const [bill] = await database.db
      .insert(bills)
      .values({
        number: BILL[lang],
        facilityPublicId: 'inf-almarai-foods',
        service: 6,
        feeKind: 'certificate',
        amount: '1000.00',
        vat: '150.00',
        total: '1150.00',
        status: 3,
        dueAt: new Date(Date.now() - 2 * DAY),
        createdAt: new Date(Date.now() - 4 * DAY),
      })
      .returning({ id: bills.id });
    await database.db.insert(payments).values({ billId: bill!.id, portalPaymentId: paymentId, amount: '1150.00', returnPath: '/invoices', createdAt: new Date(Date.now() - 3 * DAY) });
  }
}

/**
 * The payer presses Pay on the portal's page and the browser follows the portal's signed return to this server (the
 * portal's server-to-server notification goes to the simulator's own address, not here): the money was taken for an
 * expired bill, so the server records the payment 'rejected'.
 */
async function payAtPortal(lang: Lang) {
  const res = await payOnPortalPage(portalPages[lang]!, lang);
  expect(res.status).toBe(303);
  const back = await fetch(res.headers.get('location')!, { redirect: 'manual' });
  expect(back.status).toBe(303);
  expect(back.headers.get('location')).toBe('/invoices?payment=rejected');
}

interface BillRefunds {
  items: { number: string; refunds: { reference: string; refundedOn: string; amount: string }[] }[];
}

describe('payments needing attention: a refund owed recorded as made', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    sims = await startSimulators(SIMULATORS_PORT);
    ({ server } = await startServerWithData(prepareData, {
      PORT: String(SERVER_PORT),
      PAYMENT_RECONCILE_MS: '0',
      PAYMENT_PORTAL_URL: `${sims.url}/simulators/payment-portal`,
    }));
    browser = await launchBrowser();
  }, 150_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await sims?.app.close();
  });

  async function go(page: Page, path: string, lang: Lang) {
    await page.goto(`${path}${path.includes('?') ? '&' : '?'}lang=${lang}`);
    await waitForIdle(page);
  }

  /** The bill as the API shows it to staff (the signed-in page's session). */
  async function billOf(page: Page, lang: Lang) {
    const res = await page.request.get(`/api/bills?any=${BILL[lang]}`);
    expect(res.status()).toBe(200);
    const bill = ((await res.json()) as BillRefunds).items.find((b) => b.number === BILL[lang]);
    expect(bill).toBeDefined();
    return bill!;
  }

  for (const lang of ['ar', 'en'] as const) {
    it(`${lang}: the registration employee records the refund owed; wrong input is refused first, nothing recorded`, async () => {
      const t = texts(lang);
      await payAtPortal(lang);
      const { page, context, errors } = await openPage(browser, server.url, { locale: lang === 'ar' ? 'ar-SA' : 'en-US', viewport: { width: 1280, height: 860 } });
      try {
        await signIn(page, 'registration');
        await go(page, '/payments-attention', lang);
        expect(await page.getAttribute('html', 'dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr');
        await expect.poll(() => page.locator('h1').first().textContent()).toContain(t.attention.title);

        const rowOf = () => page.locator('[data-testid="data-table"] tr', { hasText: BILL[lang] });
        const row = rowOf();
        await row.waitFor();
        expect(await row.locator('[data-testid="attention-reason"]').textContent()).toBe(t.attention.reasons.billNotPayable);
        expect((await row.locator('[data-testid="attention-amount"]').textContent())?.replace(/\D/g, '')).toBe('115000');
        expect((await billOf(page, lang)).refunds).toEqual([]);

        await row.locator('[data-testid="attention-record-refund"]').click();
        const dialog = testId(page, 'refund-dialog');
        await dialog.waitFor();
        expect(plain(await dialog.locator('h2, [role="heading"]').first().textContent())).toBe(t.attention.refund.title.replace('{{bill}}', BILL[lang]));
        const fieldErrors = () => dialog.locator('[data-testid="field-error"]').allTextContents();

        // Empty: the shared schema's messages at both fields, in the page's language; nothing sent.
        await testId(dialog, 'dialog-submit').click();
        await expect.poll(fieldErrors).toEqual([t.validation.referenceRequired, t.validation.dateRequired]);

        // Tomorrow (Riyadh): the server refuses the day, its message shown at the field; the dialog stays open.
        await testId(dialog, 'refund-reference').fill(REFERENCE[lang]);
        await testId(dialog, 'refund-date').fill(riyadhDate(Date.now() + DAY));
        await testId(dialog, 'dialog-submit').click();
        await expect.poll(fieldErrors).toEqual([t.validation.dateInFuture]);
        expect(await dialog.isVisible()).toBe(true);
        expect((await billOf(page, lang)).refunds).toEqual([]);
        await screenshot(page, `payments-refund-invalid-${lang}`);

        // Yesterday (Riyadh), after the payment's day: recorded.
        const refundedOn = riyadhDate(Date.now() - DAY);
        await testId(dialog, 'refund-date').fill(refundedOn);
        await testId(dialog, 'dialog-submit').click();
        await expect.poll(async () => (await testId(page, 'toast').allTextContents()).map(plain)).toContainEqual(expect.stringContaining(t.recorded(BILL[lang])));
        await dialog.waitFor({ state: 'detached' });
        await expect.poll(() => rowOf().count()).toBe(0);

        // Stored: the bill shows the refund with the reference and day given, for the whole amount taken.
        expect((await billOf(page, lang)).refunds).toEqual([{ reference: REFERENCE[lang], refundedOn, amount: '1150.00' }]);
        // And the invoices page shows it.
        await go(page, `/invoices?any=${BILL[lang]}`, lang);
        await expect.poll(async () => plain(await testId(page, 'invoice-refund').first().textContent())).toContain(REFERENCE[lang]);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);
  }
});
