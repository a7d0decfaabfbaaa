import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import type { Database } from '../../db/client';
import { bills, payments } from '../../db/schema';
import { startSimulators } from '../helpers/simulators';
import { launchBrowser, openPage, payOnPortalPage, registerPortalPayment, screenshot, signIn, startServerWithData, waitForIdle, type RunningServer } from './harness';

/**
 * The staff screen of payments needing attention in real Chromium, once in Arabic and once in English: a payment
 * started two days ago whose portal callback never arrived is listed "still pending at the portal", never asked
 * about; the payer then pays at the portal (its notification is lost: the portal simulator runs as its own server and
 * notifies its own address), the registration employee asks the portal now, the bill is paid and the payment leaves
 * the list. The sweep is off (PAYMENT_RECONCILE_MS=0), so only the staff's question settles it.
 */
type Lang = 'ar' | 'en';
const DAY = 86_400_000;
const SERVER_PORT = 3362;
const SIMULATORS_PORT = 3363;
const testId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
const texts = (lang: Lang) =>
  JSON.parse(readFileSync(join(__dirname, `../../locales/${lang}/payments.json`), 'utf8')).attention as {
    title: string;
    empty: string;
    neverAsked: string;
    reasons: Record<string, string>;
  };

const paidLabel = (lang: Lang) => (JSON.parse(readFileSync(join(__dirname, `../../locales/${lang}/payments.json`), 'utf8')) as { billStatus: Record<string, string> }).billStatus['2'];

const BILL = { ar: 'B-E2E-ATT-AR', en: 'B-E2E-ATT-EN' } as const;

/** Payments registered at the portal simulator (its page URL per language), then written as the portal's rows. */
const portalPages: Partial<Record<Lang, string>> = {};
let sims: { app: FastifyInstance; url: string };

async function registerAtPortal(lang: Lang) {
  const created = await registerPortalPayment(sims.url, BILL[lang], lang, `http://127.0.0.1:${SIMULATORS_PORT}/api/payments/callback`);
  portalPages[lang] = created.paymentUrl;
  return created.paymentId;
}

async function prepareData(database: Database) {
  for (const lang of ['ar', 'en'] as const) {
    const paymentId = await registerAtPortal(lang);
    const [bill] = await database.db
      .insert(bills)
      .values({ number: BILL[lang], facilityPublicId: 'inf-almarai-foods', service: 6, feeKind: 'certificate', amount: '1000.00', vat: '150.00', total: '1150.00', status: 1, dueAt: new Date(Date.now() + 3 * DAY) })
      .returning({ id: bills.id });
    // Started two days ago; its callback never came.
    await database.db.insert(payments).values({ billId: bill!.id, portalPaymentId: paymentId, amount: '1150.00', returnPath: '/invoices', createdAt: new Date(Date.now() - 2 * DAY) });
  }
}

/** The payer presses Pay on the portal's page; the portal's notification to the merchant is lost. */
async function payAtPortal(lang: Lang) {
  expect((await payOnPortalPage(portalPages[lang]!, lang)).status).toBe(303);
}

describe('payments needing attention: a stuck payment asked about and settled', () => {
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

  for (const lang of ['ar', 'en'] as const) {
    it(`${lang}: the registration employee sees the stuck payment, asks the portal, and it leaves the list`, async () => {
      const t = texts(lang);
      const { page, context, errors } = await openPage(browser, server.url, { locale: lang === 'ar' ? 'ar-SA' : 'en-US', viewport: { width: 1280, height: 860 } });
      try {
        await signIn(page, 'registration');
        await go(page, '/home', lang);
        // The staff menu links the screen.
        await expect.poll(() => page.locator('a[href^="/payments-attention"]').count()).toBeGreaterThan(0);
        await go(page, '/payments-attention', lang);
        expect(await page.getAttribute('html', 'dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr');
        await expect.poll(() => page.locator('h1').first().textContent()).toContain(t.title);

        const row = page.locator('[data-testid="data-table"] tr', { hasText: BILL[lang] });
        await row.waitFor();
        expect(await row.locator('[data-testid="attention-reason"]').textContent()).toBe(t.reasons.stillPending);
        expect(await row.locator('[data-testid="attention-answer"]').textContent()).toBe(t.neverAsked);
        expect((await row.locator('[data-testid="attention-amount"]').textContent())?.replace(/\D/g, '')).toBe('115000');
        await screenshot(page, `payments-attention-${lang}`);

        await payAtPortal(lang);
        await row.locator('[data-testid="attention-ask"]').click();
        await expect.poll(() => page.locator('[data-testid="data-table"] tr', { hasText: BILL[lang] }).count()).toBe(0);
        if (lang === 'en') {
          // The last one settled: the empty state.
          await expect.poll(async () => (await page.locator('main').textContent()) ?? '').toContain(t.empty);
        }
        // The bill is paid, with the portal's answer.
        await go(page, `/invoices?any=${BILL[lang]}`, lang);
        await expect.poll(() => testId(page, 'invoice-name').count()).toBe(1);
        expect(await page.locator('[data-testid="data-table"] tr', { hasText: BILL[lang] }).textContent()).toContain(paidLabel(lang));
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);
  }
});
