import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Database } from '../../db/client';
import { certificates } from '../../db/schema';
import {
  addUndesignatedCb,
  day,
  fill,
  fillCbCertificates,
  launchBrowser,
  next,
  openPage,
  pdf,
  requestOf,
  saveScreenshot,
  screenshot,
  select,
  signInWithCookie,
  startServerWithData,
  startService,
  submitWizard as submit,
  testId,
  waitForIdle,
  type Lang,
  type RunningServer,
} from './harness';

/**
 * The generic service wizard (web/src/routes/services/ServiceWizard.tsx) end to end in real Chromium, once in Arabic
 * and once in English: a CB designated by none (new.applicant's; one holding a designation may not ask again) starts its
 * designation request from the CB profile, fills every generated step (a bad
 * value first: its message shows and "Next" stays), uploads its certificate file and submits; an external facility
 * starts a shipment request, adds a product line and submits; an external certificate request is filled (the factory
 * chosen among the user's facilities, an operation plan uploaded, the reused products and attachments steps) and
 * submitted. Screenshots (E2E_SCREENSHOTS=1): test-results/screenshots/services-<lang>-*.png.
 */

/**
 * The demo data, and the Halal certificate a shipment needs: the external factory's, issued by the demo CB (whose
 * designation covers its category), listing the product the shipment carries (the submission checks read both); and
 * one undesignated CB per language, of new.applicant, asking for its designation. Returns those CBs.
 */
async function prepareData(database: Database): Promise<Record<Lang, string>> {
  const issuedAt = new Date(Date.now() - 100 * 86_400_000);
  await database.db.insert(certificates).values({
    number: 'HC-E2E-EXT-000001',
    kind: 'externalHalal',
    facilityPublicId: 'exf-anatolia-meat',
    cbPublicId: 'cb-global-halal',
    verificationCode: 'E2EEXT000001',
    scope: 'Dairy products',
    categories: ['CI'],
    products: [{ nameAr: 'حليب طازج', nameEn: 'Fresh milk', brandAr: 'الأناضول', brandEn: 'Anatolia', hsCode: '040110', category: 'CI' }],
    issuedAt,
    validFrom: issuedAt,
    expiresAt: new Date(Date.now() + 600 * 86_400_000),
  });
  return { ar: await addUndesignatedCb(database, 'new.applicant', 1), en: await addUndesignatedCb(database, 'new.applicant', 2) };
}

describe('generic service wizard', () => {
  let server: RunningServer;
  let browser: Browser;
  let newCb: Record<Lang, string>;

  beforeAll(async () => {
    ({ server, data: newCb } = await startServerWithData(prepareData));
    browser = await launchBrowser();
  }, 150_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const opened = new Map<string, Page>();

  async function userPage(userName: string, lang: Lang): Promise<Page> {
    const { page, errors } = await openPage(browser, server.url, { locale: lang === 'ar' ? 'ar-SA' : 'en-US' });
    opened.set(`${lang}-${userName}-${opened.size}`, page);
    page.on('dialog', (d) => void d.dismiss());
    await signInWithCookie(page, server.url, userName);
    await page.goto(`/associated-facilities?lang=${lang}`);
    await waitForIdle(page);
    expect(errors).toEqual([]);
    return page;
  }

  /** From a facility (or CB) profile: the service's start button, the generic start screen, then the wizard. */
  async function startFromProfile(page: Page, profile: string, kind: string): Promise<string> {
    await page.goto(profile);
    await waitForIdle(page);
    return startService(page, kind);
  }

  async function cbDesignation(lang: Lang) {
    const page = await userPage('new.applicant', lang);
    const id = await startFromProfile(page, `/facility-profile/cb/${newCb[lang]}`, 'cbDesignation');
    const shot = `services-${lang}-cb-designation`;
    await testId(page, 'wizard-step-facilityInfo').waitFor();
    // A Latin name in the Arabic name is refused with its message, and "Next" stays on the step.
    await fill(page, 'facilityInfo.nameAr', 'Global Halal');
    await fill(page, 'facilityInfo.nameEn', 'Global Halal Certification Body');
    await select(page, 'facilityInfo.countryCode', 'MY');
    await fill(page, 'facilityInfo.city', 'Kuala Lumpur');
    await fill(page, 'facilityInfo.address', 'Jalan Ampang 12, Kuala Lumpur');
    await testId(page, 'wizard-next').click();
    const error = page.locator('[data-testid="field-error"]').first();
    await error.waitFor();
    expect((await error.innerText()).trim().length).toBeGreaterThan(3);
    expect(await error.innerText()).not.toMatch(/^[a-z]+[A-Z.]/); // a translated message, not a key
    await testId(page, 'wizard-step-facilityInfo').waitFor();
    await screenshot(page, `${shot}-error`);
    await fill(page, 'facilityInfo.nameAr', 'الهيئة العالمية للحلال');
    await next(page, 'certificatesAndSpecifications');
    await fillCbCertificates(page);
    await screenshot(page, `${shot}-certificates`);
    await next(page, 'categories');
    await testId(page, 'category-C').click();
    await next(page, 'operations');
    await testId(page, 'operations.items-processing').click();
    await testId(page, 'operations.items-packaging').click();
    await next(page, 'summary');
    await submit(page, id, shot);
    const data = await requestOf(page, id);
    expect((data.data.certificatesAndSpecifications as { certificates: { attachmentId: string }[] }).certificates[0]!.attachmentId).toMatch(/[0-9a-f-]{36}/);
    await page.context().close();
  }

  async function shipment(lang: Lang) {
    const page = await userPage('external', lang);
    const id = await startFromProfile(page, '/facility-profile/external/exf-anatolia-meat', 'shipment');
    const shot = `services-${lang}-shipment`;
    await testId(page, 'wizard-step-shipmentType').waitFor();
    await select(page, 'shipmentType.goods', 'other');
    await next(page, 'factory');
    const factory = page.locator('select[name="factory.facilityPublicId"]');
    await expect.poll(() => factory.locator('option').count()).toBeGreaterThan(1);
    await factory.selectOption('exf-anatolia-meat');
    await next(page, 'importer');
    // The check button fills the importer from the commercial registry (the server checks it again on submission).
    await fill(page, 'importer.unifiedNumber', '701 070 0001');
    await testId(page, 'importer-check-button').click();
    await expect.poll(() => testId(page, 'importer-check-result').getAttribute('data-verified')).toBe('true');
    expect(await page.locator('[name="importer.crNumber"]').inputValue()).toBe('1010700001');
    expect(await page.locator('[name="importer.name"]').inputValue()).not.toBe('');
    await next(page, 'exporter');
    await fill(page, 'exporter.name', 'Anatolia Meat Exports');
    await next(page, 'shipping');
    await select(page, 'shipping.countryCode', 'TR');
    await select(page, 'shipping.method', 'sea');
    await fill(page, 'shipping.port', 'Mersin');
    await fill(page, 'shipping.portOfEntry', 'Jeddah Islamic Port');
    await next(page, 'other');
    await select(page, 'other.arrivalCountryCode', 'SA');
    await fill(page, 'other.arrivalPort', 'Jeddah');
    await select(page, 'other.arrivalMethod', 'sea');
    await select(page, 'other.exportingCbPublicId', 'cb-global-halal');
    await next(page, 'products');
    await testId(page, 'products-add').click();
    await fill(page, 'products.0.saudiHsCode', '040110');
    await fill(page, 'products.0.globalHsCode', '040110');
    await fill(page, 'products.0.quantity', '100');
    await fill(page, 'products.0.netWeight', '1000');
    await fill(page, 'products.0.grossWeight', '1100');
    await fill(page, 'products.0.actualGrossWeight', '1090');
    await select(page, 'products.0.unit', '0');
    await fill(page, 'products.0.productionDate', day(-10));
    await fill(page, 'products.0.expiryDate', day(170));
    await screenshot(page, `${shot}-products`);
    await next(page, 'slaughters');
    await next(page, 'summary');
    // 1,000 kg net is one started 27 t: the shipment fee once, shown before submitting (excluding VAT).
    await expect.poll(() => testId(page, 'fee-amount').first().innerText()).toBe('1000.00');
    await submit(page, id, shot);
    await page.context().close();
  }

  async function externalCertificate(lang: Lang) {
    const page = await userPage('external', lang);
    const id = await startFromProfile(page, '/facility-profile/external/exf-anatolia-meat', 'externalCertificate');
    const shot = `services-${lang}-external-certificate`;
    await testId(page, 'wizard-step-factory').waitFor();
    const factory = page.locator('select[name="factory.facilityPublicId"]');
    await expect.poll(() => factory.locator('option').count()).toBeGreaterThan(1);
    await factory.selectOption('exf-anatolia-meat');
    await fill(page, 'factory.productionLines', '2');
    await fill(page, 'factory.criticalPoints', '4');
    await fill(page, 'factory.permanentHalalEmployees', '12');
    await fill(page, 'factory.shifts', '2');
    await fill(page, 'factory.productionArea', '1800');
    await next(page, 'paymentWay');
    await select(page, 'paymentWay.way', 'yearly');
    await fill(page, 'paymentWay.validityYears', '1');
    await next(page, 'operations');
    await testId(page, 'operations-add').click();
    await select(page, 'operations.0.operation', 'slaughtering');
    await testId(page, 'upload-operations.0.planAttachmentId').setInputFiles(pdf('slaughter-plan.pdf'));
    await testId(page, 'file-operations.0.planAttachmentId').locator('[data-testid="attachment-name"]').waitFor();
    await next(page, 'products');
    await testId(page, 'products-add').click();
    await fill(page, 'products.0.nameAr', 'لحم بقري مجمد');
    await fill(page, 'products.0.nameEn', 'Frozen Beef');
    await fill(page, 'products.0.brandAr', 'أناضول');
    await fill(page, 'products.0.brandEn', 'Anatolia');
    await fill(page, 'products.0.saudiHsCode', '020230');
    await fill(page, 'products.0.globalHsCode', '020230');
    await fill(page, 'products.0.productNumber', lang === 'ar' ? 'XYZ12345678901233' : 'XYZ12345678901234');
    await select(page, 'products.0.category', 'CI');
    await fill(page, 'products.0.netWeight', '1');
    await fill(page, 'products.0.grossWeight', '1.1');
    await select(page, 'products.0.unit', '0');
    await next(page, 'attachments');
    await testId(page, 'attachment-finalAcknowledgment').setInputFiles(pdf('acknowledgment.pdf'));
    await expect.poll(() => testId(page, 'attachment-item').count()).toBe(1);
    await next(page, 'summary');
    await submit(page, id, shot);
    await page.context().close();
  }

  /** A draft is deleted only after the confirmation, and is then gone. */
  async function deleteDraft(lang: Lang) {
    const page = await userPage('external', lang);
    const id = await startFromProfile(page, '/facility-profile/external/exf-anatolia-meat', 'shipment');
    await testId(page, 'delete-draft').click();
    const dialog = testId(page, 'delete-dialog');
    await dialog.waitFor();
    await screenshot(page, `services-${lang}-delete-confirm`);
    await dialog.locator('button').last().click();
    await page.waitForURL(/\/facility-requests\//);
    const status = await page.evaluate(async (rid) => (await fetch(`/api/requests/${rid}`)).status, id);
    const state = status === 200 ? (await requestOf(page, id)).state : 'gone';
    expect(['gone', 'deleted']).toContain(status === 404 ? 'gone' : state);
    await page.context().close();
  }

  async function run(lang: Lang) {
    try {
      // Separate users and requests, each in its own browser context: run side by side to keep the file short.
      await Promise.all([cbDesignation(lang), shipment(lang), externalCertificate(lang), ...(lang === 'en' ? [deleteDraft(lang)] : [])]);
    } catch (e) {
      for (const [name, page] of opened) if (!page.isClosed()) await saveScreenshot(page, `services-failure-${name}`).catch(() => undefined);
      console.error(server.output().slice(-4000));
      throw e;
    }
  }

  it('starts, fills and submits CB, shipment and external requests in Arabic', () => run('ar'), 240_000);

  it('starts, fills and submits CB, shipment and external requests in English', () => run('en'), 240_000);
});
