import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Database } from '../../db/client';
import { certificates } from '../../db/schema';
import { buildApp } from '../../server/app';
import { testConfig } from '../../server/config';
import { SYSTEM_ACTOR } from '../../machines/actor';
import { launchBrowser, openPage, screenshot, signInWithCookie, startServerWithData, waitForIdle, type RunningServer } from './harness';

/**
 * Issue 14 item 3 in real Chromium, in Arabic and in English: the holder opens the Halal-marks list from the menu,
 * finds a mark by its product, opens it (its certificate, product, history), downloads the mark package, cancels the
 * mark with a reason (the dialog refuses an empty one) and sees it cancelled on its page, in the list and on the public
 * verification page. The marks are issued before the server starts, with their own lifecycles, as the engine does.
 * Then the decision committee suspends and reinstates their certificate, which was written without the engine.
 */
type Lang = 'ar' | 'en';
const DAY = 86_400_000;
const testId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);

async function prepareData(database: Database, dir: string) {
  const app = await buildApp({ config: testConfig({ DATA_DIR: dir }), database });
  await app.ready();
  try {
    const issuedAt = new Date(Date.now() - 100 * DAY);
    const expiresAt = new Date(Date.now() + 300 * DAY);
    const marks = [
      { number: 'HM-E2E-000001', code: 'E2EMARK0001', product: { nameAr: 'حليب طازج', nameEn: 'Fresh milk' } },
      { number: 'HM-E2E-000002', code: 'E2EMARK0002', product: { nameAr: 'عصير برتقال', nameEn: 'Orange juice' } },
    ];
    // The certificate lists the products its marks name (a mark whose product is no longer on it reads withdrawn).
    const [cert] = await database.db
      .insert(certificates)
      .values({ number: 'HC-E2E-MARKS-01', kind: 'internalHalal', facilityPublicId: 'inf-almarai-foods', verificationCode: 'E2EMARKCERT', issuedAt, validFrom: issuedAt, expiresAt, products: marks.map((m) => m.product), categories: ['CI', 'CII'] })
      .returning({ id: certificates.id });
    for (const m of marks) {
      const view = await app.engine.start(
        'halalMark',
        { ownerUserId: 'seed', facilityId: 'inf-almarai-foods', data: { validFrom: issuedAt.toISOString(), expiresAt: expiresAt.toISOString(), certificateId: cert.id } },
        SYSTEM_ACTOR,
      );
      await database.db.insert(certificates).values({
        id: view.id,
        number: m.number,
        kind: 'halalMark',
        facilityPublicId: 'inf-almarai-foods',
        scope: 'Saudi',
        products: [m.product],
        verificationCode: m.code,
        issuedAt,
        validFrom: issuedAt,
        expiresAt,
        status: 4,
      });
      await app.engine.send(view.id, { type: 'VALIDITY_STARTED' }, SYSTEM_ACTOR);
    }
    return { certificateId: cert.id };
  } finally {
    await app.close();
  }
}

describe('issued Halal marks', () => {
  let server: RunningServer;
  let browser: Browser;
  let data: { certificateId: string };

  beforeAll(async () => {
    ({ server, data } = await startServerWithData(prepareData));
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

  // Arabic cancels the milk mark, English the juice mark: each language walks the whole way on a live mark.
  for (const [lang, mark, product] of [
    ['ar', 'HM-E2E-000001', 'حليب'],
    ['en', 'HM-E2E-000002', 'juice'],
  ] as const) {
    it(`${lang}: lists, opens, downloads and cancels a mark with a reason; the list and the public page show it cancelled`, async () => {
      const { page, context, errors } = await openPage(browser, server.url, { locale: lang === 'ar' ? 'ar-SA' : 'en-US', viewport: { width: 1280, height: 860 } });
      try {
        await signInWithCookie(page, server.url, 'internal.main');
        await go(page, '/home', lang);
        await page.locator('a[href^="/halal-marks"]').first().click();
        await page.waitForURL(/\/halal-marks/);
        await waitForIdle(page);
        await expect.poll(() => testId(page, 'certificate-row-link').count()).toBe(2);

        await testId(page, 'filter-product').fill(product);
        await testId(page, 'filter-submit').click();
        await waitForIdle(page);
        await expect.poll(() => testId(page, 'certificate-row-link').count()).toBe(1);
        expect(await testId(page, 'certificate-row-link').textContent()).toContain(mark);
        await screenshot(page, `marks-list-${lang}`);

        await testId(page, 'certificate-row-link').click();
        await page.waitForURL(/\/certificates\/[0-9a-f-]{36}/);
        await waitForIdle(page);
        await expect.poll(() => testId(page, 'mark-certificate').textContent()).toContain('HC-E2E-MARKS-01');
        expect(await testId(page, 'certificate-status').getAttribute('data-status')).toBe('active');
        await expect.poll(() => testId(page, 'certificate-lifecycle').count()).toBe(1);

        const [download] = await Promise.all([page.waitForEvent('download'), testId(page, 'mark-zip').click()]);
        expect(download.suggestedFilename()).toBe(`halal-mark-${mark}.zip`);

        await testId(page, 'action-CANCEL').click();
        const dialog = testId(page, 'event-dialog');
        await dialog.waitFor();
        await screenshot(page, `marks-cancel-${lang}`);
        // The reason is required: the confirm button (the dialog's last) stays disabled until one is written.
        const confirm = dialog.getByRole('button').last();
        expect(await confirm.isDisabled()).toBe(true);
        await dialog.locator('textarea').fill(lang === 'ar' ? 'سحب المنتج من السوق' : 'Product withdrawn from the market');
        await confirm.click();
        await expect.poll(() => testId(page, 'certificate-status').getAttribute('data-status')).toBe('cancelled');
        await expect.poll(() => testId(page, 'certificate-lifecycle').textContent()).toContain(lang === 'ar' ? 'سحب المنتج من السوق' : 'Product withdrawn from the market');
        await screenshot(page, `marks-cancelled-${lang}`);

        await go(page, '/halal-marks?status=cancelled', lang);
        await expect.poll(() => testId(page, 'certificate-row-link').allTextContents()).toContain(mark);

        await go(page, `/verify/E2EMARK000${lang === 'ar' ? 1 : 2}`, lang);
        await expect.poll(() => testId(page, 'verify-result').getAttribute('data-status')).toBe('cancelled');
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);
  }

  // The marks' certificate was written without the engine (as the demo seed's and a migration's are): the server gave it
  // its lifecycle when it started (workflows/adopt.ts), so the decision committee can suspend and reinstate it on its
  // page, with a reason each time; the holder and the public page see each change. Runs after the marks above.
  it('the committee suspends the certificate in Arabic and reinstates it in English; the holder and the public page follow', async () => {
    const reasons = { ar: 'مخالفة في التدقيق الميداني', en: 'Corrective actions verified' };
    const lifecycle = async (user: string, lang: Lang, act: { action: 'SUSPEND' | 'REINSTATE'; reason: string } | null, status: string) => {
      const { page, context, errors } = await openPage(browser, server.url, { locale: lang === 'ar' ? 'ar-SA' : 'en-US', viewport: { width: 1280, height: 860 } });
      try {
        await signInWithCookie(page, server.url, user);
        await go(page, `/certificates/${data.certificateId}`, lang);
        await expect.poll(() => testId(page, 'certificate-lifecycle').count()).toBe(1);
        await expect.poll(() => testId(page, 'history-item').count(), { message: 'the history reads the lifecycle' }).toBeGreaterThan(0);
        expect(await testId(page, 'history-item').last().textContent()).toContain(lang === 'ar' ? 'سُجِّلت في البوابة' : 'Recorded in the portal');
        // Its two categories as a list in the page's language: the Arabic comma only in Arabic.
        const categories = (await testId(page, 'certificate-categories').textContent()) ?? '';
        expect(categories.includes('، ')).toBe(lang === 'ar');
        expect(categories.includes(', ')).toBe(lang === 'en');
        if (act) {
          await testId(page, `action-${act.action}`).click();
          const dialog = testId(page, 'event-dialog');
          await dialog.waitFor();
          const confirm = dialog.getByRole('button').last();
          expect(await confirm.isDisabled()).toBe(true);
          await dialog.locator('textarea').fill(act.reason);
          await confirm.click();
          await expect.poll(() => testId(page, 'certificate-lifecycle').textContent()).toContain(act.reason);
          await screenshot(page, `certificate-${act.action.toLowerCase()}-${lang}`);
        } else {
          // The holder reads the history and the reason but has no action on its own certificate's status.
          await expect.poll(() => testId(page, 'certificate-lifecycle').textContent()).toContain(reasons.ar);
          expect(await page.locator('[data-testid^="action-"]:not([data-testid="action-bar"])').count()).toBe(0);
        }
        await expect.poll(() => testId(page, 'certificate-status').getAttribute('data-status')).toBe(status);
        await go(page, '/verify/E2EMARKCERT', lang);
        await expect.poll(() => testId(page, 'verify-result').getAttribute('data-status')).toBe(status);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    };
    await lifecycle('committee', 'ar', { action: 'SUSPEND', reason: reasons.ar }, 'suspended');
    await lifecycle('internal.main', 'en', null, 'suspended');
    await lifecycle('committee', 'en', { action: 'REINSTATE', reason: reasons.en }, 'active');
  }, 150_000);
});
