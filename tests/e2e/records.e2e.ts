import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Database } from '../../db/client';
import { eq } from 'drizzle-orm';
import { bills, certificates, requests, users } from '../../db/schema';
import { formatDate } from '../../web/src/lib/dates';
import { horizontalOverflow, launchBrowser, numberDrawn, openPage, screenshot, signIn, startServer, startServerWithData, waitForIdle, type RunningServer } from './harness';

/**
 * Issue 14 items 4-5 in real Chromium, once in Arabic and once in English: the applicant finds a certificate by
 * searching for a product and opens it (old-system number, scope, products), and finds an invoice by its number with
 * the amounts as stored; another facility's invoice is never found. The data directory is prepared before the
 * server starts (a certificate and bills of the demo facilities), then the real server serves it.
 */
type Lang = 'ar' | 'en';
const DAY = 86_400_000;
const testId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
const digits = (s: string | null) => (s ?? '').replace(/\D/g, '');

const REQUEST_NUMBER = '2026-000903';
const BILL_NUMBER = 'B-2026-900003';
const ISSUED_AT = new Date(Date.now() - 200 * DAY);

async function prepareData(database: Database) {
  const issuedAt = ISSUED_AT;
  await database.db.insert(certificates).values([
    {
      number: 'HC-E2E-000001',
      legacyNumber: 'OLD-5521',
      kind: 'internalHalal',
      facilityPublicId: 'inf-almarai-foods',
      verificationCode: 'E2ECODE0001',
      scope: 'إنتاج وتعبئة حليب الإبل',
      issuedAt,
      validFrom: issuedAt,
      expiresAt: new Date(Date.now() + 300 * DAY),
      products: [{ nameAr: 'حليب إبل طازج', nameEn: 'Fresh camel milk', brandAr: 'المراعي', brandEn: 'Almarai', hsCode: '040120' }],
    },
    {
      number: 'HC-E2E-000002',
      kind: 'internalHalal',
      facilityPublicId: 'inf-almarai-foods',
      verificationCode: 'E2ECODE0002',
      issuedAt,
      validFrom: issuedAt,
      expiresAt: new Date(Date.now() + 300 * DAY),
      products: [{ nameAr: 'خبز أبيض', nameEn: 'White bread', brandAr: 'لوزين', brandEn: 'Lusine', hsCode: '190590' }],
    },
    {
      number: 'HM-E2E-000001',
      kind: 'halalMark',
      facilityPublicId: 'inf-almarai-foods',
      verificationCode: 'E2ECODE0003',
      scope: 'Saudi',
      issuedAt,
      validFrom: issuedAt,
      expiresAt: new Date(Date.now() + 300 * DAY),
      products: [{ nameAr: 'حليب إبل طازج', nameEn: 'Fresh camel milk', brandAr: 'المراعي', brandEn: 'Almarai', hsCode: '040120' }],
    },
  ]);
  // A request of the external factory and its bill, numbered as the portal numbers them (the invoices list shows both).
  const [owner] = await database.db.select({ id: users.id }).from(users).where(eq(users.userName, 'external'));
  const [request] = await database.db
    .insert(requests)
    .values({ number: REQUEST_NUMBER, kind: 'shipment', machineVersion: 1, input: {}, snapshot: {}, status: 1, stateValue: 'payment', version: 1, facilityPublicId: 'exf-anatolia-meat', ownerUserId: owner!.id })
    .returning({ id: requests.id });
  await database.db.insert(bills).values([
    { number: 'B-E2E-0001', facilityPublicId: 'inf-almarai-foods', service: 6, feeKind: 'certificate', amount: '1000.00', vat: '150.00', total: '1150.00', paymentReference: 'PR-E2E-1', status: 2, paidAt: new Date() },
    { number: 'B-E2E-0002', facilityPublicId: 'inf-almarai-foods', service: 6, feeKind: 'bulkInvoice', bulk: true, period: '2026-10', amount: '2000.10', vat: '300.02', total: '2300.12', status: 1 },
    { number: 'B-E2E-0003', facilityPublicId: 'exf-anatolia-meat', service: 6, feeKind: 'certificate', amount: '500.00', vat: '75.00', total: '575.00', status: 1 },
    { number: BILL_NUMBER, requestId: request!.id, facilityPublicId: 'exf-anatolia-meat', service: 2, feeKind: 'shipment', amount: '2000.00', vat: '300.00', total: '2300.00', status: 1 },
  ]);
}

describe('records an applicant keeps: certificates and invoices', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    ({ server } = await startServerWithData(prepareData));
    browser = await launchBrowser();
  }, 150_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function go(page: Page, path: string, lang: Lang) {
    await page.goto(`${path}${path.includes('?') ? '&' : '?'}lang=${lang}`);
    await waitForIdle(page);
  }

  for (const lang of ['ar', 'en'] as const) {
    it(`${lang}: finds a certificate by product and opens it; finds an invoice by number, never another facility's`, async () => {
      const { page, context, errors } = await openPage(browser, server.url, { locale: lang === 'ar' ? 'ar-SA' : 'en-US', viewport: { width: 1280, height: 860 } });
      try {
        await signIn(page, 'internal.main');
        await go(page, '/certificates', lang);
        expect(await page.getAttribute('html', 'dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr');
        // The menu links the new screens.
        await expect.poll(() => page.locator('a[href^="/certificates"]').count()).toBeGreaterThan(0);
        await expect.poll(() => testId(page, 'certificate-row-link').count()).toBe(2);

        await testId(page, 'filter-product').fill(lang === 'ar' ? 'حليب إبل' : 'camel');
        await testId(page, 'filter-submit').click();
        await waitForIdle(page);
        await expect.poll(() => testId(page, 'certificate-row-link').count()).toBe(1);
        expect(await testId(page, 'certificate-row-link').textContent()).toContain('HC-E2E-000001');
        expect(new URL(page.url()).searchParams.get('product')).toBe(lang === 'ar' ? 'حليب إبل' : 'camel');
        await screenshot(page, `records-certificates-${lang}`);

        await testId(page, 'certificate-row-link').click();
        await page.waitForURL(/\/certificates\/[0-9a-f-]{36}/);
        await waitForIdle(page);
        await expect.poll(() => testId(page, 'certificate-legacy').textContent()).toContain('OLD-5521');
        expect(await testId(page, 'certificate-scope').textContent()).toContain('حليب الإبل');
        expect(await testId(page, 'certificate-products').textContent()).toContain(lang === 'ar' ? 'حليب إبل طازج' : 'Fresh camel milk');
        expect(await testId(page, 'certificate-pdf').getAttribute('href')).toMatch(/\/api\/certificates\/.+\/pdf$/);
        await screenshot(page, `records-certificate-${lang}`);

        await go(page, '/invoices', lang);
        await expect.poll(() => testId(page, 'invoice-name').count()).toBe(2);
        await testId(page, 'filter-any').fill('B-E2E-0002');
        await testId(page, 'filter-submit').click();
        await waitForIdle(page);
        await expect.poll(() => testId(page, 'invoice-name').count()).toBe(1);
        expect(await testId(page, 'invoice-name').textContent()).toBe(lang === 'ar' ? 'الفاتورة الشهرية 2026-10' : 'Monthly invoice 2026-10');
        expect(digits(await testId(page, 'invoice-amount').textContent())).toBe('200010');
        expect(digits(await testId(page, 'invoice-vat').textContent())).toBe('30002');
        expect(digits(await testId(page, 'invoice-total').textContent())).toBe('230012');
        expect(await testId(page, 'invoice-file').getAttribute('href')).toMatch(/\/api\/bills\/.+\/file$/);
        await screenshot(page, `records-invoices-${lang}`);

        // Only issued bills: the paid one.
        await testId(page, 'filter-any').fill('');
        await testId(page, 'filter-submit').click();
        await testId(page, 'filter-issued').selectOption('true');
        await waitForIdle(page);
        await expect.poll(() => testId(page, 'invoice-name').count()).toBe(1);
        expect(digits(await testId(page, 'invoice-total').textContent())).toBe('115000');

        // Another facility's invoice is not found.
        await go(page, '/invoices?any=B-E2E-0003', lang);
        await expect.poll(async () => (await page.locator('table').textContent()) ?? '').toContain(lang === 'ar' ? 'لا توجد فواتير' : 'No invoices match');
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 90_000);
  }

  for (const lang of ['ar', 'en'] as const) {
    it(`${lang}: each list names its number column by what it holds, and a certificate shows its issue date`, async () => {
      const { page, context, errors } = await openPage(browser, server.url, { locale: lang === 'ar' ? 'ar-SA' : 'en-US', viewport: { width: 1280, height: 860 } });
      const texts = (ns: string) => JSON.parse(readFileSync(join(__dirname, `../../locales/${lang}/${ns}.json`), 'utf8')) as Record<string, Record<string, Record<string, string>>>;
      const requests = texts('requests').list;
      const headers = () => page.locator('table thead th').allInnerTexts();
      try {
        await signIn(page, 'internal.main');
        // walk3 D6 / walk1 #10: the facility's certificates held "Request number" and the row's creation date.
        await go(page, '/facility-requests/inf-almarai-foods?tab=certificates', lang);
        const row = page.locator('tr', { hasText: 'HC-E2E-000001' });
        await row.waitFor();
        expect(await headers()).toContain(requests.certificateNumber);
        expect(await headers()).not.toContain(requests.number);
        expect(await row.innerText()).toContain(formatDate(ISSUED_AT.toISOString(), lang));
        await go(page, '/facility-requests/inf-almarai-foods?tab=marks', lang);
        await page.locator('tr', { hasText: 'HM-E2E-000001' }).waitFor();
        expect(await headers()).toContain(requests.markNumber);
        await go(page, '/facility-requests/inf-almarai-foods?tab=bills', lang);
        await page.locator('tr', { hasText: 'B-E2E-0001' }).waitFor();
        expect(await headers()).toContain(requests.invoiceNumber);
        expect(await headers()).not.toContain(requests.number);
        // The Halal marks list: the mark's number, not "certificate number or old-system number".
        await go(page, '/halal-marks', lang);
        await page.locator('tr', { hasText: 'HM-E2E-000001' }).waitFor();
        expect(await headers()).toContain(texts('records').marks.number);
        expect(await headers()).not.toContain(texts('records').certificates.number);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 90_000);
  }

  it('ar at 390 px: an invoice card draws each label beside its value, and the bill and request numbers whole, in order', async () => {
    const { page, context, errors } = await openPage(browser, server.url, { locale: 'ar-SA', viewport: { width: 390, height: 844 } });
    try {
      await signIn(page, 'external');
      await go(page, '/invoices', 'ar');
      const row = page.locator('[data-testid="data-table"] tr', { hasText: BILL_NUMBER });
      await row.waitFor();
      // The card, marked so the checks in the page find it.
      await row.evaluate((tr) => tr.setAttribute('data-e2e', 'card'));
      const card = 'tr[data-e2e="card"]';
      await screenshot(page, 'records-invoices-ar-390');
      // walk1 #4: "بدون ضريبة القيمة المضافة" was drawn over the amount; no label may touch its value.
      const touching = await page.evaluate((card) => {
        const found: string[] = [];
        for (const td of document.querySelector(card)!.querySelectorAll('td')) {
          const label = td.querySelector('[data-testid="cell-label"]');
          const value = label?.nextElementSibling;
          if (!label || !value || !(label as HTMLElement).offsetParent) continue;
          const rects = (el: Element) => {
            const r = document.createRange();
            r.selectNodeContents(el);
            return [...r.getClientRects()].filter((x) => x.width > 0);
          };
          const hit = rects(label).some((a) => rects(value).some((b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom));
          if (hit) found.push(label.textContent ?? '');
        }
        return found;
      }, card);
      expect(touching).toEqual([]);
      // "B-2026-900003 · 2026-000903": each number on one line, left to right, and the bill's number read first (rightmost).
      for (const number of [BILL_NUMBER, REQUEST_NUMBER]) expect(await numberDrawn(page, card, number)).toEqual({ leftToRight: true, lines: 1 });
      const firstChar = (text: string) =>
        page.evaluate(
          ({ card, text }) => {
            const walker = document.createTreeWalker(document.querySelector(card)!, NodeFilter.SHOW_TEXT);
            for (let n = walker.nextNode(); n; n = walker.nextNode()) {
              const i = n.textContent!.indexOf(text);
              if (i < 0) continue;
              const r = document.createRange();
              r.setStart(n, i);
              r.setEnd(n, i + text.length);
              const box = r.getBoundingClientRect();
              return { top: Math.round(box.top), right: box.right };
            }
            throw new Error(`no ${text}`);
          },
          { card, text },
        );
      const [bill, request] = [await firstChar(BILL_NUMBER), await firstChar(REQUEST_NUMBER)];
      expect(bill.top < request.top || (bill.top === request.top && bill.right > request.right), JSON.stringify({ bill, request })).toBe(true);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);
});

describe('profiles: my profile, editing a CB and an external factory', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  }, 150_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

  async function openEdit(userName: string, lang: Lang, publicId: string) {
    const opened = await openPage(browser, server.url, { locale: lang === 'ar' ? 'ar-SA' : 'en-US', viewport: { width: 1280, height: 860 } });
    const { page } = opened;
    await signIn(page, userName);
    await page.goto(`/facility?lang=${lang}`);
    await waitForIdle(page);
    await testId(page, `profile-facility-${publicId}`).waitFor();
    await screenshot(page, `records-my-profile-${lang}`);
    await testId(page, `edit-${publicId}`).click();
    await waitForIdle(page);
    await testId(page, 'edit-facility-form').waitFor();
    expect(await page.locator('input[name="city"]').inputValue()).not.toBe('');
    return opened;
  }

  it('en: the external factory edits its city (re-attaching its required documents) and my profile shows it saved', async () => {
    const { page, context, errors } = await openEdit('external', 'en', 'exf-anatolia-meat');
    try {
      expect(await testId(page, 'profile-facility-exf-anatolia-meat').count()).toBe(0);
      await page.locator('input[name="city"]').fill('Konya');
      for (const category of ['commercialRegistration', 'accreditationCertificate']) {
        const box = testId(page, `attachment-${category}`);
        await box.locator('input[type="file"]').setInputFiles({ name: `${category}.pdf`, mimeType: 'application/pdf', buffer: PDF });
        await expect.poll(() => box.textContent()).toContain(`${category}.pdf`);
      }
      await screenshot(page, 'records-edit-external-en');
      await testId(page, 'save-facility').click();
      await expect.poll(() => new URL(page.url()).pathname).toBe('/facility-profile/external/exf-anatolia-meat');
      // Saved on the server: my profile, loaded afresh, shows the new city.
      await page.goto('/facility?lang=en');
      await waitForIdle(page);
      await expect.poll(() => testId(page, 'profile-facility-exf-anatolia-meat').textContent()).toContain('Konya');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('ar: the CB edit screen shows the server refusal while a valid designation certificate holds its data', async () => {
    const { page, context } = await openEdit('cb.main', 'ar', 'cb-global-halal');
    try {
      expect(await page.getAttribute('html', 'dir')).toBe('rtl');
      await page.locator('input[name="city"]').fill('بوتراجايا');
      await testId(page, 'save-facility').click();
      await expect.poll(async () => (await testId(page, 'form-error').textContent().catch(() => '')) ?? '').toContain('لا يمكنك تعديل');
      expect(new URL(page.url()).pathname).toBe('/facility-profile/cb/cb-global-halal/edit');
      await screenshot(page, 'records-edit-cb-ar');
    } finally {
      await context.close();
    }
  }, 90_000);
});
