import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Database } from '../../db/client';
import { businessDefaults } from '../../server/business-defaults';
import { testConfig } from '../../server/config';
import {
  act,
  day,
  expectBill,
  expectState,
  expectStatus,
  fill,
  fillProducts,
  issueCertificate,
  monthsBetween,
  launchBrowser,
  next,
  numberDrawn,
  openPage,
  openRequest,
  payBill,
  pdf,
  requestOf,
  saveScreenshot,
  screenshot,
  select,
  signInWithCookie,
  startServerWithData,
  startService,
  submitWizard,
  testId,
  waitForIdle,
  type Lang,
  type ProductRow,
  type RunningServer,
} from './harness';

/**
 * Issue 13, the foreign factory's services end to end in real Chromium, once in Arabic and once in English. The
 * factory's own user (`external`, member of exf-anatolia-meat; the services' start permission is the external-request
 * permission every facility member holds) walks:
 * 1. external facility certificate (type 10, set A) through the generic wizard, payment way "full" for 2 years:
 *    submitted (101) -> registration takes (204) and accepts -> the bill of the whole validity (2 years at once) paid
 *    -> issued by the system at once (105); the certificate page lists the products entered and its dates;
 * 2. add products (set B 0 -> 7 -> 2 -> 8) from that certificate's row: a product under a category the certificate
 *    does not list is refused at submission with spec 02's "sub-category not in facility certificate" in the page's
 *    language; under the certificate's category registration takes and accepts, the study fee is paid, the
 *    certificate page lists the added product beside the first ones;
 * 3. external renewal (set B) of a seeded certificate inside its renewal window (a certificate just issued is not):
 *    submitted, the confirmation shows the request number and the next steps;
 * 4. shipment certificate (type 100, 1007 -> 1008): importer checked against the commercial-registry simulator,
 *    exporter, shipping, other data with an invoice, one product and one slaughter; a product whose net weight is
 *    above its gross is refused on the page, in its language, and nothing is saved; the fee preview and the bill are
 *    1,000 SAR per started 27 t of total net weight (plus VAT); paid -> completed; the certificate PDF downloads and
 *    the public verification page (the certificate's QR link) shows it valid.
 * Both walks use the same factory: the suspension rule of spec 02 section 4 refuses a request only when *another*
 * account holds a certificate for that facility; here the same account asks again, so it does not apply.
 * Screenshots (E2E_SCREENSHOTS=1): test-results/screenshots/external-<lang>-*.png.
 */
const FACTORY = 'exf-anatolia-meat';
const CB = 'cb-global-halal';
const DAY = 86_400_000;
/** The renewal's subject: an issued external certificate of the factory, 30 days before its expiry (the window is 60). */
const RENEWAL_CERT = { ar: 'EXT-E2E-REN-AR', en: 'EXT-E2E-REN-EN' } as const;
const { fees: FEES, vatRate: VAT } = businessDefaults(testConfig());
const locale = (lang: Lang, ns: string) => JSON.parse(readFileSync(join(__dirname, `../../locales/${lang}/${ns}.json`), 'utf8')) as Record<string, unknown>;

/** The products of each walk's certificate; meat under the slaughtering sub-category (the CB designation covers C0). */
const PRODUCTS: Record<Lang, ProductRow[]> = {
  ar: [
    { nameAr: 'لحم بقري طازج منزوع العظم', nameEn: 'Fresh Boneless Beef', brandAr: 'الأناضول', brandEn: 'Anatolia', saudiHsCode: '020130000000', globalHsCode: '020130', productNumber: 'TRA00000000000001', category: 'C0', netWeight: '1', grossWeight: '1.1', unit: '0' },
    { nameAr: 'ذبائح ضأن مجمدة', nameEn: 'Frozen Lamb Carcasses', brandAr: 'الأناضول', brandEn: 'Anatolia', saudiHsCode: '020430000000', globalHsCode: '020430', productNumber: 'TRA00000000000002', category: 'C0', netWeight: '20', grossWeight: '21', unit: '0' },
  ],
  en: [
    { nameAr: 'لحم بقري مجمد منزوع العظم', nameEn: 'Frozen Boneless Beef', brandAr: 'الأناضول', brandEn: 'Anatolia', saudiHsCode: '020230000000', globalHsCode: '020230', productNumber: 'TRA00000000000003', category: 'C0', netWeight: '1', grossWeight: '1.1', unit: '0' },
    { nameAr: 'قطع دجاج مجمدة', nameEn: 'Frozen Chicken Cuts', brandAr: 'الأناضول', brandEn: 'Anatolia', saudiHsCode: '020714000000', globalHsCode: '020714', productNumber: 'TRA00000000000004', category: 'C0', netWeight: '1', grossWeight: '1.1', unit: '0' },
  ],
};
/**
 * Added products: registered at the food-authority simulator (server/simulators/food-authority.ts), names and HS code as
 * there; under C0, the certificate's category (a product under another category is refused at submission).
 */
const ADDED: Record<Lang, ProductRow> = {
  ar: { nameAr: 'لحم عجل مجمد', nameEn: 'Frozen Veal', brandAr: 'الأناضول', brandEn: 'Anatolia', saudiHsCode: '020430000000', globalHsCode: '020430', productNumber: 'TRX00000000000003', category: 'C0', netWeight: '20', grossWeight: '21', unit: '0' },
  en: { nameAr: 'لحم خروف مجمد', nameEn: 'Frozen Mutton', brandAr: 'الأناضول', brandEn: 'Anatolia', saudiHsCode: '020430000000', globalHsCode: '020430', productNumber: 'TRX00000000000004', category: 'C0', netWeight: '20', grossWeight: '21', unit: '0' },
};
/** Shipment weights (kg): the product line and the slaughter line; the fee is 1,000 SAR per started 27 t of their sum. */
const SHIPMENT: Record<Lang, { productKg: number; slaughterKg: number }> = {
  // 28 t: one ton into the second block.
  ar: { productKg: 25_000, slaughterKg: 3_000 },
  // 26.5 t: inside the first block.
  en: { productKg: 24_000, slaughterKg: 2_500 },
};
/** Commercial-registry simulator: CR 1010700001 (active) has the unified number 7010700001. */
const IMPORTER = { unifiedNumber: '701 070 0001', crNumber: '1010700001' };

async function prepareData(database: Database): Promise<void> {
  for (const lang of ['ar', 'en'] as const) {
    const number = RENEWAL_CERT[lang];
    const expiresAt = new Date(Date.now() + 30 * DAY);
    const issuedAt = new Date(expiresAt.getTime() - 365 * DAY);
    const p = PRODUCTS[lang][0]!;
    await issueCertificate(database, 'external', {
      number,
      kind: 'externalHalal',
      facilityPublicId: FACTORY,
      cbPublicId: CB,
      categories: ['C0'],
      products: [{ nameAr: p.nameAr, nameEn: p.nameEn, hsCode: p.saudiHsCode, globalHsCode: p.globalHsCode, category: 'C0' }],
      verificationCode: number.replace(/-/g, ''),
      scope: 'Meat',
      issuedAt,
      validFrom: issuedAt,
      expiresAt,
    });
  }
}

interface CertificateJson {
  id: string;
  number: string;
  kind: string;
  products: { nameAr: string; nameEn: string; hsCode?: string }[];
  status: { public: string };
  issuedAt: { iso: string; gregorian: string };
  validFrom: { iso: string };
  expiresAt: { iso: string; gregorian: string };
  verificationCode: string;
}

let t0 = Date.now();
const step = (name: string) => {
  if (process.env.E2E_STEPS) console.log(`${((Date.now() - t0) / 1000).toFixed(1)}s ${name}`);
};

describe('foreign factory services end to end', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    ({ server } = await startServerWithData(prepareData));
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const opened = new Map<string, { page: Page; errors: string[] }>();

  async function userPage(userName: string, lang: Lang): Promise<Page> {
    const o = await openPage(browser, server.url, { locale: lang === 'ar' ? 'ar-SA' : 'en-US' });
    opened.set(`${lang}-${userName}`, o);
    o.page.on('dialog', (d) => void d.dismiss());
    await signInWithCookie(o.page, server.url, userName);
    await o.page.goto(`/halal-profile?lang=${lang}`);
    await waitForIdle(o.page);
    return o.page;
  }

  const L = (lang: Lang, ar: string, en: string) => (lang === 'ar' ? ar : en);
  const nameOf = (lang: Lang, p: { nameAr: string; nameEn: string }) => (lang === 'ar' ? p.nameAr : p.nameEn);

  async function openFacilityRequests(page: Page, tab?: 'certificates') {
    await page.goto(`/facility-requests/${FACTORY}${tab ? `?tab=${tab}` : ''}`);
    await waitForIdle(page);
  }

  /** From the factory's certificates list: the certificate's row and one of its service buttons. */
  async function fromCertificate(page: Page, number: string, kind: string): Promise<string> {
    await openFacilityRequests(page, 'certificates');
    const row = page.locator('tr', { hasText: number });
    await row.waitFor();
    return startService(page, kind, row);
  }

  async function certificateJson(page: Page, id: string): Promise<CertificateJson> {
    return page.evaluate(async (cid) => (await (await fetch(`/api/certificates/${cid}`)).json()) as CertificateJson, id);
  }

  /** The certificate the request issued (or changed), opened from its request page. */
  async function openCertificate(page: Page, requestId: string, shot: string): Promise<CertificateJson> {
    await openRequest(page, requestId);
    await testId(page, 'certificate-link').waitFor();
    await testId(page, 'certificate-link').locator('a').click();
    await page.waitForURL(/\/certificates\/[0-9a-f-]{36}$/);
    await waitForIdle(page);
    await testId(page, 'certificate-status').waitFor();
    await screenshot(page, shot);
    return certificateJson(page, page.url().split('/').pop()!);
  }

  /** The sections of an external certificate request (factory to attachments), as the first request and the renewal have them. */
  async function fillExternalRequest(page: Page, lang: Lang, products: ProductRow[], shot: string) {
    await testId(page, 'wizard-step-factory').waitFor();
    // A step left empty is refused on "Next", each missing field marked.
    await testId(page, 'wizard-next').click();
    await testId(page, 'field-error').first().waitFor();
    await select(page, 'factory.facilityPublicId', FACTORY);
    await fill(page, 'factory.productionLines', '4');
    await fill(page, 'factory.criticalPoints', '6');
    await fill(page, 'factory.permanentHalalEmployees', '35');
    await fill(page, 'factory.shifts', '2');
    await fill(page, 'factory.productionArea', '5200');
    await screenshot(page, `${shot}-factory`);
    await next(page, 'paymentWay');
    await select(page, 'paymentWay.way', 'full');
    await fill(page, 'paymentWay.validityYears', '2');
    await next(page, 'operations');
    await testId(page, 'operations-add').click();
    await select(page, 'operations.0.operation', 'slaughtering');
    await testId(page, 'upload-operations.0.planAttachmentId').setInputFiles(pdf(L(lang, 'خطة-الذبح.pdf', 'slaughtering-plan.pdf')));
    await testId(page, 'file-operations.0.planAttachmentId').locator('[data-testid="attachment-name"]').waitFor();
    await next(page, 'products');
    await fillProducts(page, products);
    await screenshot(page, `${shot}-products`);
    await next(page, 'attachments');
    for (const category of ['finalAcknowledgment', 'qualityGuide']) {
      const before = await page.locator('a[href^="/api/attachments/"]').count();
      await testId(page, `attachment-${category}`).setInputFiles(pdf(`${category}.pdf`));
      await expect.poll(() => page.locator('a[href^="/api/attachments/"]').count()).toBeGreaterThan(before);
    }
  }

  async function externalCertificate(applicant: Page, registration: Page, lang: Lang): Promise<CertificateJson> {
    const shot = `external-${lang}-certificate`;
    await openFacilityRequests(applicant);
    const id = await startService(applicant, 'externalCertificate');
    await fillExternalRequest(applicant, lang, PRODUCTS[lang], shot);
    await next(applicant, 'summary');
    await submitWizard(applicant, id, shot);
    await expectStatus(applicant, 101);
    step('external certificate submitted');

    await openRequest(registration, id);
    await act(registration, 'ASSIGN_TO_ME');
    await expectStatus(registration, 204);
    await act(registration, 'ACCEPT');
    await expectState(registration, id, 'certificateFees');
    await expectStatus(registration, 102);
    // Payment way "full": the bill covers both years at once.
    expectBill(lang, await payBill(applicant, id, `${shot}-bill`), 2 * FEES.externalCertificateYear, VAT);
    // Issued by the system immediately after payment (103 -> 105): the page the payment portal returned to shows it,
    // with the way to the certificate, without a reload.
    await expect.poll(() => testId(applicant, 'request-status').getAttribute('data-code'), { timeout: 30_000 }).toBe('105');
    await testId(applicant, 'certificate-link').waitFor();
    await expectState(applicant, id, 'certified');

    const cert = await openCertificate(applicant, id, `${shot}-page`);
    expect(cert.kind).toBe('externalHalal');
    expect(cert.status.public).toBe('active');
    expect(cert.products.map((p) => p.nameEn).sort()).toEqual(PRODUCTS[lang].map((p) => p.nameEn).sort());
    const listed = await testId(applicant, 'certificate-products').innerText();
    for (const p of PRODUCTS[lang]) expect(listed).toContain(nameOf(lang, p));
    const text = await applicant.locator('main').innerText();
    expect(text).toContain(cert.number);
    expect(text).toContain(cert.issuedAt.gregorian);
    expect(text).toContain(cert.expiresAt.gregorian);
    expect(monthsBetween(cert.validFrom.iso, cert.expiresAt.iso)).toBe(24);
    step('external certificate issued');
    return cert;
  }

  async function addProducts(applicant: Page, registration: Page, lang: Lang, cert: CertificateJson) {
    const shot = `external-${lang}-add-products`;
    const id = await fromCertificate(applicant, cert.number, 'externalAddProducts');
    // The product under CI, a category the certificate (C0) does not list: refused at submission in the page's
    // language, the wizard back on the product, the request still a draft.
    await fillProducts(applicant, [{ ...ADDED[lang], category: 'CI' }]);
    await next(applicant, 'attachments');
    await next(applicant, 'summary');
    await testId(applicant, 'agreement').click();
    await testId(applicant, 'wizard-submit').click();
    await testId(applicant, 'wizard-step-products').waitFor();
    const refused = ((locale(lang, 'validation').form as Record<string, string>).subCategoryNotInFacilityCertificate)!;
    await expect.poll(() => testId(applicant, 'server-errors').innerText()).toContain(refused);
    await screenshot(applicant, `${shot}-category-refused`);
    expect((await requestOf(applicant, id)).status.code).toBe(0);
    // Under the certificate's category it goes through.
    await select(applicant, 'products.0.category', ADDED[lang].category);
    await screenshot(applicant, `${shot}-products`);
    await next(applicant, 'attachments');
    await next(applicant, 'summary');
    await testId(applicant, 'agreement').click(); // untick: submitWizard shows the agreement is required first
    await submitWizard(applicant, id, shot);
    await expectStatus(applicant, 7);

    await openRequest(registration, id);
    await act(registration, 'ASSIGN_TO_ME');
    await act(registration, 'ACCEPT');
    await expectState(registration, id, 'pendingPayment');
    await expectStatus(registration, 2);
    expectBill(lang, await payBill(applicant, id, `${shot}-bill`), FEES.application, VAT);
    await expectState(applicant, id, 'productsUpdated');
    await expectStatus(applicant, 8);

    await applicant.goto(`/certificates/${cert.id}`);
    await waitForIdle(applicant);
    await expect.poll(() => testId(applicant, 'certificate-products').innerText()).toContain(nameOf(lang, ADDED[lang]));
    const listed = await testId(applicant, 'certificate-products').innerText();
    for (const p of PRODUCTS[lang]) expect(listed).toContain(nameOf(lang, p));
    await screenshot(applicant, `${shot}-certificate`);
    step('products added');
  }

  async function renewal(applicant: Page, lang: Lang) {
    const shot = `external-${lang}-renewal`;
    const id = await fromCertificate(applicant, RENEWAL_CERT[lang], 'externalRenewal');
    await fillExternalRequest(applicant, lang, [PRODUCTS[lang][0]!], shot);
    await next(applicant, 'renewal');
    await fill(applicant, 'renewal.reason', L(lang, 'قرب انتهاء صلاحية الشهادة', 'The certificate is about to expire'));
    await next(applicant, 'summary');
    await submitWizard(applicant, id, shot);
    const r = await requestOf(applicant, id);
    // Set B: submitted into the registration queue (1).
    expect(r.status.code).toBe(1);
    step('renewal submitted');
  }

  async function shipment(applicant: Page, lang: Lang, certified: ProductRow) {
    const shot = `external-${lang}-shipment`;
    const w = SHIPMENT[lang];
    await openFacilityRequests(applicant);
    const id = await startService(applicant, 'shipment');
    await testId(applicant, 'wizard-step-shipmentType').waitFor();
    await select(applicant, 'shipmentType.goods', 'meat');
    await next(applicant, 'factory');
    await select(applicant, 'factory.facilityPublicId', FACTORY);
    await next(applicant, 'importer');

    // Importer: the unified number checked against the commercial registry fills the registry's data.
    await fill(applicant, 'importer.unifiedNumber', IMPORTER.unifiedNumber);
    await testId(applicant, 'importer-check-button').click();
    const checked = testId(applicant, 'importer-check-result');
    await checked.waitFor();
    expect(await checked.getAttribute('data-verified')).toBe('true');
    await expect.poll(() => applicant.locator('[name="importer.crNumber"]').inputValue()).toBe(IMPORTER.crNumber);
    expect((await applicant.locator('[name="importer.name"]').inputValue()).trim()).not.toBe('');
    await screenshot(applicant, `${shot}-importer`);
    await next(applicant, 'exporter');
    await fill(applicant, 'exporter.name', L(lang, 'شركة الأناضول للتصدير', 'Anatolia Export Company'));
    await next(applicant, 'shipping');
    await select(applicant, 'shipping.countryCode', 'TR');
    await select(applicant, 'shipping.method', 'sea');
    await fill(applicant, 'shipping.port', 'Mersin');
    await fill(applicant, 'shipping.portOfEntry', L(lang, 'ميناء جدة الإسلامي', 'Jeddah Islamic Port'));
    await next(applicant, 'other');
    await fill(applicant, 'other.billOfLading.number', `BL-${lang.toUpperCase()}-7781`);
    await fill(applicant, 'other.billOfLading.date', day(0));
    await select(applicant, 'other.arrivalCountryCode', 'SA');
    await fill(applicant, 'other.arrivalPort', L(lang, 'جدة', 'Jeddah'));
    await select(applicant, 'other.arrivalMethod', 'sea');
    await fill(applicant, 'other.containerNumbers', `MSCU${lang === 'ar' ? '1234565' : '7654321'}`);
    await testId(applicant, 'other.invoices-add').click();
    await fill(applicant, 'other.invoices.0.number', `INV-${lang.toUpperCase()}-0042`);
    await testId(applicant, 'upload-other.invoices.0.attachmentId').setInputFiles(pdf('invoice.pdf'));
    await testId(applicant, 'file-other.invoices.0.attachmentId').locator('[data-testid="attachment-name"]').waitFor();
    // The exporting conformity body is chosen by its name from the accredited ones, not typed as an id.
    await select(applicant, 'other.exportingCbPublicId', CB);
    await screenshot(applicant, `${shot}-other`);
    await next(applicant, 'products');

    // One product: a net weight above its gross is refused here, in the page's language, and nothing is saved.
    await testId(applicant, 'products-add').click();
    await fill(applicant, 'products.0.saudiHsCode', certified.saudiHsCode);
    await fill(applicant, 'products.0.globalHsCode', certified.globalHsCode);
    await fill(applicant, 'products.0.quantity', '1200');
    await fill(applicant, 'products.0.amount', '450000');
    await fill(applicant, 'products.0.netWeight', String(w.productKg));
    await fill(applicant, 'products.0.grossWeight', String(w.productKg - 500));
    await fill(applicant, 'products.0.actualGrossWeight', String(w.productKg - 500));
    await select(applicant, 'products.0.unit', '0');
    await fill(applicant, 'products.0.productionDate', day(-20));
    await fill(applicant, 'products.0.expiryDate', day(340));
    await testId(applicant, 'wizard-next').click();
    const error = testId(applicant, 'field-error').first();
    await error.waitFor();
    expect(await error.innerText()).toBe(locale(lang, 'validation').totalWeightAtLeastNet);
    await testId(applicant, 'wizard-step-products').waitFor();
    await screenshot(applicant, `${shot}-weight-error`);
    expect((await requestOf(applicant, id)).data.products).toBeUndefined();
    await fill(applicant, 'products.0.grossWeight', String(w.productKg + 800));
    await fill(applicant, 'products.0.actualGrossWeight', String(w.productKg + 750));
    await next(applicant, 'slaughters');

    await testId(applicant, 'slaughters-add').click();
    await fill(applicant, 'slaughters.0.slaughterFacility', L(lang, 'مسلخ أنقرة', 'Ankara Slaughterhouse'));
    await fill(applicant, 'slaughters.0.slaughterDate', day(-3));
    await fill(applicant, 'slaughters.0.cuttingType', L(lang, 'أرباع', 'Quarters'));
    await select(applicant, 'slaughters.0.category', 'C');
    await fill(applicant, 'slaughters.0.netWeight', String(w.slaughterKg));
    await fill(applicant, 'slaughters.0.actualWeight', String(w.slaughterKg + 100));
    await select(applicant, 'slaughters.0.unit', '0');
    await fill(applicant, 'slaughters.0.saudiHsCode', '020120000000');
    await fill(applicant, 'slaughters.0.globalHsCode', '020120');
    await screenshot(applicant, `${shot}-slaughters`);
    await next(applicant, 'summary');

    // 1,000 SAR per started 27 t of the total net weight, excluding VAT, previewed before submitting.
    const fee = Math.ceil((w.productKg + w.slaughterKg) / 27_000) * 1_000;
    await testId(applicant, 'fee-preview').waitFor();
    await expect.poll(() => testId(applicant, 'fee-amount').first().innerText()).toBe(fee.toFixed(2));
    // The summary names the exporting body, never its id.
    const cbName = await applicant.evaluate(async (cb) => {
      const list = (await (await fetch('/api/public/conformity-bodies?pageSize=100')).json()) as { items: { publicId: string; nameAr: string; nameEn: string }[] };
      return list.items.find((c) => c.publicId === cb)!;
    }, CB);
    const summary = await testId(applicant, 'wizard-step-summary').innerText();
    expect(summary).toContain(L(lang, cbName.nameAr, cbName.nameEn));
    expect(summary).not.toContain(CB);
    await submitWizard(applicant, id, shot);
    await expectState(applicant, id, 'inProgress');
    await expectStatus(applicant, 1007);
    expectBill(lang, await payBill(applicant, id, `${shot}-bill`), fee, VAT);
    await expectState(applicant, id, 'completed');
    await openRequest(applicant, id);
    expect(await testId(applicant, 'request-status').getAttribute('data-code')).toBe('1008');
    step('shipment paid');

    const cert = await openCertificate(applicant, id, `${shot}-certificate`);
    expect(cert.kind).toBe('shipment');
    // On a phone its title keeps the certificate's number on one line (it broke as "Shipment certificate SC-2026-" /
    // "000002").
    await applicant.setViewportSize({ width: 390, height: 844 });
    expect(await numberDrawn(applicant, 'h1', cert.number), lang).toEqual({ leftToRight: true, lines: 1 });
    expect(await numberDrawn(applicant, '[data-testid="breadcrumbs"]', cert.number), lang).toEqual({ leftToRight: true, lines: 1 });
    await applicant.setViewportSize({ width: 1280, height: 800 });
    // The certificate lists the consignment's goods: the product line under the certified product's name, the slaughter line.
    const goods = await testId(applicant, 'certificate-products').innerText();
    expect(goods).toContain(nameOf(lang, certified));
    expect(goods).toContain(L(lang, 'أرباع', 'Quarters'));
    // The bilingual PDF of the shipment certificate.
    const res = await applicant.request.get(`/api/certificates/${cert.id}/pdf`);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('application/pdf');
    const body = await res.body();
    expect(body.subarray(0, 5).toString()).toBe('%PDF-');
    expect(body.length).toBeGreaterThan(5_000);

    // The QR's link: the public verification page shows the shipment certificate as valid.
    await testId(applicant, 'certificate-qr').waitFor();
    await testId(applicant, 'verify-link').click();
    await applicant.waitForURL(new RegExp(`/verify/${cert.verificationCode}`));
    await waitForIdle(applicant);
    const verified = testId(applicant, 'verify-result');
    await verified.waitFor();
    expect(await verified.getAttribute('data-status')).toBe('active');
    expect(await testId(applicant, 'verify-number').innerText()).toBe(cert.number);
    expect(await verified.innerText()).toContain((locale(lang, 'public').kind as Record<string, string>).shipment);
    await screenshot(applicant, `${shot}-verification`);
    step('shipment verified');
  }

  async function run(lang: Lang) {
    t0 = Date.now();
    try {
      const applicant = await userPage('external', lang);
      const registration = await userPage('registration', lang);
      const cert = await externalCertificate(applicant, registration, lang);
      await addProducts(applicant, registration, lang, cert);
      await renewal(applicant, lang);
      await shipment(applicant, lang, PRODUCTS[lang][1]!);
      for (const { errors } of opened.values()) expect(errors).toEqual([]);
    } catch (e) {
      for (const [name, o] of opened) if (!o.page.isClosed()) await saveScreenshot(o.page, `external-failure-${name}`).catch(() => undefined);
      console.error(server.output().slice(-4000));
      throw e;
    } finally {
      for (const o of opened.values()) if (!o.page.isClosed()) await o.page.context().close();
      opened.clear();
      console.log(`external services walk (${lang}): ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    }
  }

  it('walks the external certificate, added products, renewal and a shipment certificate in Arabic', () => run('ar'), 600_000);

  it('walks the external certificate, added products, renewal and a shipment certificate in English', () => run('en'), 600_000);

  it('an empty products step says "required" once, not twice', async () => {
    const { page, context, errors } = await openPage(browser, server.url, { locale: 'en-US' });
    await signInWithCookie(page, server.url, 'external');
    await openFacilityRequests(page);
    const id = await startService(page, 'externalCertificate');
    await page.goto(`/requests/${id}/edit?step=products&lang=en`);
    await waitForIdle(page);
    await testId(page, 'wizard-step-products').waitFor();
    await testId(page, 'wizard-next').click();
    await testId(page, 'field-error').first().waitFor();
    expect(await testId(page, 'field-error').allInnerTexts()).toEqual(['This field is required']);
    await testId(page, 'wizard-step-products').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
