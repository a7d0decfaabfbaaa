import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import {
  act as harnessAct,
  confirmIn,
  expectStatus,
  fill,
  launchBrowser,
  next,
  openPage,
  openRequest,
  payBill as harnessPayBill,
  pdf,
  saveScreenshot,
  screenshot,
  select,
  signInWithCookie,
  startServerWithData,
  submitPlan,
  submitWizard,
  testId,
  waitForIdle,
  type Lang,
  type RunningServer,
} from './harness';
import arErrors from '../../locales/ar/errors.json';
import enErrors from '../../locales/en/errors.json';
import arRequests from '../../locales/ar/requests.json';
import enRequests from '../../locales/en/requests.json';
import arStatus from '../../locales/ar/status.json';
import enStatus from '../../locales/en/status.json';
import arValidation from '../../locales/ar/validation.json';
import enValidation from '../../locales/en/validation.json';
import { issueDueForRenewal, withDemoApp } from '../../scripts/lib/demo-requests';
import { testConfig } from '../../server/config';
import { internalCertificateData } from '../services/fixtures';
import { SERVICES } from '../../machines/services';

/**
 * Issue 5 end to end in real Chromium: the whole internal facility Halal certificate lifecycle through the UI,
 * switching between the demo users (each in its own browser context), once in Arabic and once in English:
 * applicant wizard -> application fee -> registration returns a section -> applicant fixes it -> registration
 * accepts -> audit plan -> applicant returns the plan -> audit revises -> applicant accepts -> audit fees ->
 * non-conformities (CONFMSG66) -> corrective actions, one rejected (CONFMSG28) and fixed -> report -> committee
 * returns to audit -> second round (compliant) -> committee approves -> payment option -> certificate fees ->
 * certificate issued -> certificate page -> public verification page. Then, in each language, the renewal of a
 * certificate due for renewal (issued through the engine and aged before the server starts, as the demo seed does):
 * certificate page -> start page -> reason (required) -> the prefilled steps -> submitted. Screenshots
 * (E2E_SCREENSHOTS=1): test-results/screenshots/.
 */

describe('internal Halal certificate lifecycle', () => {
  let server: RunningServer;
  let browser: Browser;
  /** Two certificates due for renewal (one per language: a certificate has one renewal open at a time). */
  let dueForRenewal: Record<Lang, string>;

  beforeAll(async () => {
    // Issued and aged as the demo seed does it, through the portal and its engine (scripts/lib/demo-requests.ts).
    // The server's own data folder: the certified requests' files are stored where the server reads them.
    ({ server, data: dueForRenewal } = await startServerWithData(async (database, dataDir) => {
      const [ar, en] = await withDemoApp(testConfig({ DATA_DIR: dataDir }), database, (app) => issueDueForRenewal(app, 2));
      return { ar: ar!, en: en! };
    }));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Every page opened, so a failure leaves a screenshot of what each user saw. */
  const opened = new Map<string, Page>();

  async function userPage(userName: string, lang: Lang): Promise<Page> {
    const { page, errors } = await openPage(browser, server.url, { locale: lang === 'ar' ? 'ar-SA' : 'en-US' });
    opened.set(`${lang}-${userName}`, page);
    page.on('dialog', (d) => void d.dismiss());
    await signInWithCookie(page, server.url, userName);
    await page.goto(`/halal-profile?lang=${lang}`);
    await waitForIdle(page);
    expect(errors).toEqual([]);
    return page;
  }

  const check = async (scope: Page | Locator, id: string) => scope.locator(`[data-testid="${id}"]`).click();
  const clickAction = (page: Page, type: string) => testId(page, `action-${type}`).click();

  /** The shared action-bar step, then the status the request must show. */
  async function act(page: Page, type: string, code: number, reason?: string) {
    await harnessAct(page, type, reason);
    await expectStatus(page, code);
  }

  /** Pays the open bill at the payment portal simulator, back on the request page with the status `code`. */
  async function payBill(page: Page, requestId: string, code: number, shot: string) {
    const shown = await harnessPayBill(page, requestId, shot);
    expect(shown.vat).toMatch(/\d/);
    await expectStatus(page, code);
  }

  /** The product upload form from the template, with one product row (sheet row 3) filled by column key. */
  async function productForm(page: Page, row: Record<string, string>): Promise<Buffer> {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await (await page.request.get('/api/product-upload/template')).body()) as unknown as ExcelJS.Buffer);
    const sheet = wb.getWorksheet('Products')!;
    sheet.getRow(1).eachCell((cell, col) => {
      const value = row[String(cell.value)];
      if (value !== undefined) sheet.getRow(3).getCell(col).value = value;
    });
    return Buffer.from(await wb.xlsx.writeBuffer());
  }
  const BRAND_AR_LATIN = { ar: 'الصف 3، العلامة التجارية (عربي): استخدم الحروف العربية فقط', en: 'Row 3, Brand (Arabic): Use Arabic letters only' };

  async function runLifecycle(lang: Lang) {
    const L = (ar: string, en: string) => (lang === 'ar' ? ar : en);
    const shot = (name: string) => `internal-certificate-${lang}-${name}`;

    // ---- applicant: the wizard ----
    const applicant = await userPage('internal.main', lang);
    await applicant.goto('/internal-halal-request');
    await waitForIdle(applicant);
    await testId(applicant, 'new-request').click();
    // The registry's start screen, then the wizard with the facility's data prefilled.
    await testId(applicant, 'start-service').click();
    await applicant.waitForURL(/\/requests\/[0-9a-f-]{36}\/edit$/);
    await waitForIdle(applicant);
    const requestId = applicant.url().split('/').at(-2)!;
    await expect.poll(() => testId(applicant, 'days-left').innerText()).toMatch(/30/);

    // Factory: a bad value is refused with its message, then fixed.
    await fill(applicant, 'factory.nameAr', 'مصنع المراعي للأغذية');
    await fill(applicant, 'factory.nameEn', 'Almarai Foods Factory');
    await fill(applicant, 'factory.commercialRegistrationNumber', '12345');
    await fill(applicant, 'factory.totalAnnualRevenue', '5000000');
    await fill(applicant, 'factory.fullTimeEmployees', '120');
    await testId(applicant, 'wizard-next').click();
    await testId(applicant, 'field-error').first().waitFor();
    await screenshot(applicant, shot('wizard-factory-error'));
    await fill(applicant, 'factory.commercialRegistrationNumber', '1010123456');
    await testId(applicant, 'wizard-next').click();
    await testId(applicant, 'wizard-step-address').waitFor();
    await fill(applicant, 'address.city', 'الرياض');
    await fill(applicant, 'address.district', 'العليا');
    await fill(applicant, 'address.street', 'طريق الملك فهد');
    await fill(applicant, 'address.zipCode', '12211');
    await fill(applicant, 'address.buildingNumber', '1234');
    await fill(applicant, 'address.additionalNumber', '5678');
    await testId(applicant, 'wizard-next').click();
    await testId(applicant, 'wizard-step-branches').waitFor();
    await testId(applicant, 'wizard-next').click();
    await testId(applicant, 'wizard-step-trademarks').waitFor();
    await testId(applicant, 'trademarks-add').click();
    await fill(applicant, 'trademarks.0.nameAr', 'المراعي');
    await fill(applicant, 'trademarks.0.nameEn', 'Almarai');
    await testId(applicant, 'wizard-next').click();
    await testId(applicant, 'wizard-step-products').waitFor();
    // An uploaded form's row error names the row, the column and the problem, and says them again after a switch.
    const upload = { name: 'products.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' };
    await testId(applicant, 'product-upload-file').setInputFiles({ ...upload, buffer: await productForm(applicant, { brandAr: 'Almarai' }) });
    await expect.poll(() => testId(applicant, 'product-upload-errors').innerText()).toContain(BRAND_AR_LATIN[lang]);
    await testId(applicant, 'language-toggle').click();
    await expect.poll(() => testId(applicant, 'product-upload-errors').innerText()).toContain(BRAND_AR_LATIN[lang === 'ar' ? 'en' : 'ar']);
    await testId(applicant, 'language-toggle').click();
    await expect.poll(() => applicant.evaluate(() => document.documentElement.lang)).toBe(lang);
    await testId(applicant, 'products-add').click();
    await fill(applicant, 'products.0.nameAr', 'حليب طازج');
    await fill(applicant, 'products.0.nameEn', 'Fresh Milk');
    await fill(applicant, 'products.0.brandAr', 'المراعي');
    await fill(applicant, 'products.0.brandEn', 'Almarai');
    await fill(applicant, 'products.0.saudiHsCode', '040110');
    await fill(applicant, 'products.0.globalHsCode', '040110');
    await fill(applicant, 'products.0.productNumber', 'ABC12345678901234');
    await select(applicant, 'products.0.category', 'CI');
    await fill(applicant, 'products.0.netWeight', '1');
    await fill(applicant, 'products.0.grossWeight', '1.1');
    await select(applicant, 'products.0.unit', '4');
    await testId(applicant, 'wizard-next').click();
    await testId(applicant, 'wizard-step-hsCodes').waitFor();
    await testId(applicant, 'hsCodes-add').click();
    await fill(applicant, 'hsCodes.0.code', '040110');
    await testId(applicant, 'wizard-next').click();
    await testId(applicant, 'wizard-step-categories').waitFor();
    await check(applicant, 'category-C');
    await testId(applicant, 'wizard-next').click();
    await testId(applicant, 'wizard-step-operations').waitFor();
    await check(applicant, 'operation-processing');
    await check(applicant, 'operation-packaging');
    await testId(applicant, 'wizard-next').click();
    await testId(applicant, 'wizard-step-production').waitFor();
    await fill(applicant, 'production.productionLines', '3');
    await fill(applicant, 'production.haccpCriticalPoints', '5');
    await fill(applicant, 'production.permanentHalalEmployees', '40');
    await fill(applicant, 'production.shifts', '2');
    await fill(applicant, 'production.productionArea', '2500');
    await testId(applicant, 'wizard-next').click();
    await testId(applicant, 'wizard-step-validity').waitFor();
    await select(applicant, 'validity.years', '3');
    await testId(applicant, 'wizard-next').click();
    await testId(applicant, 'wizard-step-attachments').waitFor();
    for (const category of ['commercialRegistrationCopy', 'industrialLicense']) {
      await testId(applicant, `attachment-${category}`).setInputFiles(pdf(`${category}.pdf`));
      await expect.poll(() => applicant.locator('a[href^="/api/attachments/"]').count()).toBeGreaterThan(category === 'industrialLicense' ? 1 : 0);
    }
    await testId(applicant, 'wizard-next').click();
    await testId(applicant, 'wizard-step-summary').waitFor();
    await screenshot(applicant, shot('wizard-summary'));
    // The agreement is ticked on the summary: unticked, the submission is refused with its message.
    await testId(applicant, 'wizard-submit').click();
    await testId(applicant, 'field-error').first().waitFor();
    await testId(applicant, 'agreement').click();
    await testId(applicant, 'wizard-submit').click();
    await applicant.waitForURL(new RegExp(`/requests/${requestId}\\?submitted=1$`));
    await waitForIdle(applicant);
    await expectStatus(applicant, 2);
    await payBill(applicant, requestId, 1, shot('application-fee'));
    const number = await applicant.evaluate(async (id) => ((await (await fetch(`/api/requests/${id}`)).json()) as { number: string }).number, requestId);

    // ---- registration: finds it in the queue, takes it, returns the products section ----
    const registration = await userPage('registration', lang);
    await testId(registration, 'search-submit').waitFor();
    await registration.locator('input[name="search"]').fill(number);
    await testId(registration, 'search-submit').click();
    await waitForIdle(registration);
    const row = registration.locator('tr', { has: registration.locator('[data-testid="request-link"]') }).first();
    await row.waitFor();
    await row.locator('[data-testid="row-assignment"]').click();
    await row.locator('[data-testid="row-action-ASSIGN_TO_ME"]').click();
    await confirmIn(testId(registration, 'event-dialog'));
    await testId(registration, 'event-dialog').waitFor({ state: 'detached' });
    await screenshot(registration, shot('registration-queue'));
    await openRequest(registration, requestId);
    await expectStatus(registration, 4);
    // Staff reach the facility's profile from its request, named in the page's language (the server names its type).
    const profile = testId(registration, 'facility-profile-link');
    expect(await profile.getAttribute('href')).toBe('/halal-profile/facility/inf-almarai-foods');
    expect(await profile.innerText()).toContain(L('مصنع المراعي للأغذية', 'Al Marai Foods Factory'));
    await clickAction(registration, 'RETURN');
    await testId(registration, 'return-section-products').click();
    await registration.locator('textarea[name="reason"]').fill(L('يرجى تصحيح وزن المنتج وإضافة منتج اللبن', 'Please correct the product weight and add the laban product'));
    await testId(registration, 'dialog-submit').click();
    await expectStatus(registration, 5);

    // ---- applicant: only the returned section is editable; fixes it and resubmits ----
    await openRequest(applicant, requestId);
    await testId(applicant, 'returned-sections').waitFor();
    await clickAction(applicant, 'EDIT');
    await applicant.waitForURL(new RegExp(`/requests/${requestId}/edit`));
    await waitForIdle(applicant);
    // It opens at the returned section, with the registration's note.
    await testId(applicant, 'wizard-step-products').waitFor();
    expect(await testId(applicant, 'return-note').innerText()).toContain(L('يرجى تصحيح وزن المنتج', 'Please correct the product weight'));
    await testId(applicant, 'step-factory').click();
    expect(await applicant.locator('[name="factory.nameAr"]').getAttribute('readonly')).not.toBeNull();
    await testId(applicant, 'step-products').click();
    await testId(applicant, 'wizard-step-products').waitFor();
    await fill(applicant, 'products.0.netWeight', '0.95');
    await testId(applicant, 'products-add').click();
    await fill(applicant, 'products.1.nameAr', 'لبن طازج');
    await fill(applicant, 'products.1.nameEn', 'Fresh Laban');
    await fill(applicant, 'products.1.brandAr', 'المراعي');
    await fill(applicant, 'products.1.brandEn', 'Almarai');
    await fill(applicant, 'products.1.saudiHsCode', '040390');
    await fill(applicant, 'products.1.globalHsCode', '040390');
    await fill(applicant, 'products.1.productNumber', 'ABC12345678901235');
    await select(applicant, 'products.1.category', 'CI');
    await fill(applicant, 'products.1.netWeight', '1');
    await fill(applicant, 'products.1.grossWeight', '1.1');
    await select(applicant, 'products.1.unit', '4');
    await testId(applicant, 'save-draft').click();
    await testId(applicant, 'toast').first().waitFor();
    // A resubmission asks no agreement again (it was given on submission).
    await testId(applicant, 'step-summary').click();
    await testId(applicant, 'wizard-step-summary').waitFor();
    expect(await testId(applicant, 'agreement').count()).toBe(0);
    await testId(applicant, 'wizard-submit').click();
    await applicant.waitForURL(new RegExp(`/requests/${requestId}\\?submitted=1$`));
    await waitForIdle(applicant);
    await expectStatus(applicant, 1);

    // ---- registration: sees the changes highlighted, takes it again and accepts ----
    await openRequest(registration, requestId);
    await testId(registration, 'changes-legend').waitFor();
    expect(await registration.locator('[data-change="added"]').count()).toBeGreaterThan(0);
    expect(await registration.locator('[data-change="modified"]').count()).toBeGreaterThan(0);
    await screenshot(registration, shot('registration-changes'));
    await act(registration, 'ASSIGN_TO_ME', 4);
    await act(registration, 'ACCEPT', 6);

    // ---- audit: the plan; the applicant returns it; audit revises with a reason; the applicant accepts ----
    const audit = await userPage('audit', lang);
    await openRequest(audit, requestId);
    const notes = L('المنشأة سبق أن حصلت على شهادة من جهة أخرى', 'The facility held a certificate from another body before');
    await submitPlan(audit, lang, 'new', notes);
    await expectStatus(audit, 7);
    // The plan's notes for the decision committee are for the staff: audit reads them, the applicant does not.
    await expect.poll(() => testId(audit, 'plan-notes-for-committee').innerText(), { timeout: 20_000 }).toBe(notes);
    await openRequest(applicant, requestId);
    // The applicant reads the plan on the request page before answering it: goal, the visit programme, the auditors by name.
    const plan = testId(applicant, 'plan-panel');
    await testId(applicant, 'plan-read-first').waitFor();
    expect(await plan.innerText()).toContain(L('تدقيق الحصول على شهادة الحلال', 'Initial Halal certification audit'));
    await expect.poll(() => plan.innerText()).toContain('Abdullah Al-Shehri');
    expect(await testId(applicant, 'plan-notes-for-committee').count()).toBe(0);
    expect(await plan.locator('[data-testid="plan-timeline"] tbody tr').count()).toBeGreaterThan(0);
    await act(applicant, 'RETURN_PLAN', 8, L('نرجو تغيير موعد الزيارة إلى الفترة الصباحية', 'Please move the visit to the morning shift'));
    await openRequest(audit, requestId);
    await submitPlan(audit, lang, { reason: L('طلب المنشأة', 'Facility request'), description: L('تعديل جدول الزيارة', 'Visit schedule adjusted') });
    await expectStatus(audit, 7);
    await openRequest(applicant, requestId);
    await testId(applicant, 'plan-read-first').waitFor();
    await screenshot(applicant, shot('plan-for-approval'));
    await act(applicant, 'ACCEPT_PLAN', 26);
    await payBill(applicant, requestId, 28, shot('audit-fees'));

    // ---- audit: inspection with two non-conformities (CONFMSG66) ----
    await openRequest(audit, requestId);
    await act(audit, 'START_INSPECTION', 9);
    await clickAction(audit, 'SUBMIT_AUDIT_RESULT');
    const result = testId(audit, 'result-dialog');
    await testId(audit, 'compliant-no').click();
    await fill(audit, 'nc.0.reference', 'GSO 2055-1');
    await fill(audit, 'nc.0.clauseNumber', '5.2.1.1');
    await fill(audit, 'nc.0.description', L('سجلات التنظيف غير مكتملة', 'Cleaning records incomplete'));
    await fill(audit, 'nc.0.observedCase', L('لا توجد سجلات لشهر مارس', 'No entries for March'));
    // The observed case's optional supporting document, uploaded by the auditor into the request's files.
    await testId(audit, 'nc-0-document').setInputFiles(pdf('observed-case.pdf'));
    await result.locator('[data-testid="uploaded-name"]').waitFor();
    expect(await result.locator('[data-testid="upload-error"]').count()).toBe(0);
    await testId(audit, 'dialog-submit').click();
    // The clause number rule: digits and . - / only, at most 5 characters.
    await result.locator('[data-testid="field-error"]').first().waitFor();
    await fill(audit, 'nc.0.clauseNumber', '5.2/1');
    await testId(audit, 'nc-add').click();
    await fill(audit, 'nc.1.reference', 'GSO 993');
    await fill(audit, 'nc.1.clauseNumber', '4-3');
    await fill(audit, 'nc.1.description', L('تخزين المواد الخام بجوار مواد غير حلال', 'Raw materials stored next to non-Halal materials'));
    await fill(audit, 'nc.1.observedCase', L('المستودع رقم 2', 'Warehouse 2'));
    await testId(audit, 'dialog-submit').click();
    await testId(audit, 'confmsg66').waitFor();
    await screenshot(audit, shot('confmsg66'));
    await confirmIn(testId(audit, 'confmsg66'));
    await expectStatus(audit, 10);

    // ---- applicant: corrective actions ----
    const correctiveActions = async (descriptions: string[], signFirst = false) => {
      await openRequest(applicant, requestId);
      await clickAction(applicant, 'SUBMIT_CORRECTIVE_ACTIONS');
      const dialog = testId(applicant, 'corrective-dialog');
      await dialog.waitFor();
      for (const [i, text] of descriptions.entries()) {
        await fill(applicant, `ca.${i}.description`, text);
        await fill(applicant, `ca.${i}.implementationDate`, new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10));
      }
      if (signFirst) {
        // The customer's signature on the first action, a file of the request.
        await testId(applicant, 'ca-0-signature').setInputFiles(pdf('customer-signature.pdf'));
        await dialog.locator('[data-testid="uploaded-name"]').waitFor();
      }
      await testId(applicant, 'dialog-submit').click();
      await expectStatus(applicant, 11);
    };
    await correctiveActions([L('استكمال سجلات التنظيف اليومية', 'Daily cleaning log completed'), L('نقل المواد إلى مستودع منفصل', 'Materials moved to a separate warehouse')], true);

    // ---- audit: accepts one, rejects the other with a reason (CONFMSG28) ----
    await openRequest(audit, requestId);
    // The auditor sees the signature the applicant attached to the first action.
    await expect.poll(() => testId(audit, 'customer-signature').count(), { timeout: 20_000 }).toBe(1);
    expect(await testId(audit, 'customer-signature').innerText()).toContain('customer-signature.pdf');
    await clickAction(audit, 'DECIDE_CORRECTIVE_ACTIONS');
    await testId(audit, 'decision-0-accept').click();
    await testId(audit, 'decision-1-reject').click();
    await fill(audit, 'decision-1-reason', L('لا يوجد دليل على النقل', 'No evidence of the move'));
    await testId(audit, 'dialog-submit').click();
    await testId(audit, 'confmsg28').waitFor();
    await screenshot(audit, shot('confmsg28'));
    await confirmIn(testId(audit, 'confmsg28'));
    await expectStatus(audit, 12);

    // ---- applicant: fixes the rejected one ----
    await openRequest(applicant, requestId);
    await clickAction(applicant, 'SUBMIT_CORRECTIVE_ACTIONS');
    await testId(applicant, 'rejection-reason').waitFor();
    await applicant.locator('[data-testid="dialog-cancel"]').click();
    await correctiveActions([L('نقل المواد مع صور المستودع الجديد', 'Materials moved, photos of the new warehouse attached')]);

    // ---- audit: accepts, writes the report ----
    await openRequest(audit, requestId);
    await clickAction(audit, 'DECIDE_CORRECTIVE_ACTIONS');
    await testId(audit, 'decision-0-accept').click();
    await testId(audit, 'dialog-submit').click();
    await expectStatus(audit, 13);
    const report = async () => {
      await clickAction(audit, 'SUBMIT_REPORT');
      await fill(audit, 'summary', L('المنشأة مطابقة بعد الإجراءات التصحيحية', 'The facility complies after the corrective actions'));
      await testId(audit, 'dialog-submit').click();
      await expectStatus(audit, 14);
    };
    await report();

    // ---- committee: returns to audit ----
    const committee = await userPage('committee', lang);
    await openRequest(committee, requestId);
    await testId(committee, 'toggle-reports').click();
    await testId(committee, 'audit-report').first().waitFor();
    await act(committee, 'RETURN_TO_AUDIT', 18, L('يلزم تدقيق ميداني إضافي لخط التعبئة', 'A further on-site audit of the filling line is needed'));

    // ---- second round: plan, acceptance, fees, compliant inspection, report ----
    await openRequest(audit, requestId);
    await submitPlan(audit, lang, 'reuse');
    await expectStatus(audit, 19);
    await openRequest(applicant, requestId);
    await act(applicant, 'ACCEPT_PLAN', 27);
    await payBill(applicant, requestId, 29, shot('audit-fees-round-2'));
    await openRequest(audit, requestId);
    await act(audit, 'START_INSPECTION', 21);
    await clickAction(audit, 'SUBMIT_AUDIT_RESULT');
    await testId(audit, 'compliant-yes').click();
    await testId(audit, 'dialog-submit').click();
    await expectStatus(audit, 13);
    await report();

    // ---- committee approves; applicant chooses the payment option and pays the certificate fees ----
    await openRequest(committee, requestId);
    await act(committee, 'APPROVE', 17, L('استوفت المنشأة جميع المتطلبات', 'The facility meets every requirement'));
    await openRequest(applicant, requestId);
    await clickAction(applicant, 'CHOOSE_PAYMENT_OPTION');
    await testId(applicant, 'payment-option-yearly').click();
    await testId(applicant, 'dialog-submit').click();
    await expectStatus(applicant, 16);
    await payBill(applicant, requestId, 33, shot('certificate-fees'));

    // ---- committee issues the certificate ----
    await openRequest(committee, requestId);
    await act(committee, 'ISSUE_CERTIFICATE', 25);
    await screenshot(committee, shot('committee-issued'));

    // ---- applicant: certificate page, then the public verification page ----
    await openRequest(applicant, requestId);
    await testId(applicant, 'certificate-link').waitFor();
    // The whole case is in the history; the wizard's draft saves of one sitting are one entry.
    expect(await testId(applicant, 'history-item').count()).toBeGreaterThan(20);
    expect(await applicant.locator('[data-testid="history-item"][data-event="EDIT"]').count()).toBeLessThan(5);
    await screenshot(applicant, shot('request-completed'));
    await testId(applicant, 'certificate-link').locator('a').click();
    await applicant.waitForURL(/\/certificates\/[0-9a-f-]{36}$/);
    await waitForIdle(applicant);
    const certificatePath = new URL(applicant.url()).pathname;
    await testId(applicant, 'certificate-qr').waitFor();
    await screenshot(applicant, shot('certificate'));
    await testId(applicant, 'verify-link').click();
    await applicant.waitForURL(/\/verify\//);
    await waitForIdle(applicant);
    expect(await testId(applicant, 'verify-result').getAttribute('data-status')).toBe('active');
    await screenshot(applicant, shot('verification'));
    // A fresh certificate cannot be renewed yet: its renewal starts on the generic start page, which says why in the
    // start's own words, with the days of the setting (60), and keeps "Start" disabled.
    await applicant.goto(`/internal-renewal-request/inf-almarai-foods/${certificatePath.split('/').pop()}`);
    await waitForIdle(applicant);
    await testId(applicant, 'start-refused').waitFor();
    // The certificate is named as every start page names it (GET /api/certificates/:id, StartCertificate).
    expect(await testId(applicant, 'start-certificate-number').count()).toBe(1);
    expect((await testId(applicant, 'start-refused').innerText()).trim()).toBe(L(arErrors.RenewalNotOpen, enErrors.RenewalNotOpen).replace('{{days}}', '60'));
    expect(await testId(applicant, 'start-service').isDisabled()).toBe(true);
    for (const p of [applicant, registration, audit, committee]) await p.context().close();
  }

  /**
   * The renewal of a certificate 30 days before its expiry, as the applicant sees it: the certificate page offers it,
   * the generic start page starts it, the wizard opens on the reason (required), the other steps arrive filled from
   * the certified request and are only looked over, and the submitted renewal shows its status; the certificate page
   * then links the open renewal instead of offering another.
   */
  async function renew(lang: Lang) {
    const applicant = await userPage('internal.main', lang);
    const certificateId = dueForRenewal[lang];
    await applicant.goto(`/certificates/${certificateId}`);
    await waitForIdle(applicant);
    await testId(applicant, 'renew-certificate').click();
    await applicant.waitForURL(new RegExp(`/internal-renewal-request/inf-almarai-foods/${certificateId}`));
    await waitForIdle(applicant);
    await testId(applicant, 'start-certificate-number').waitFor();
    expect(await testId(applicant, 'start-refused').count()).toBe(0);
    await testId(applicant, 'start-service').click();
    await applicant.waitForURL(/\/requests\/[0-9a-f-]{36}\/edit$/);
    await waitForIdle(applicant);
    const requestId = applicant.url().split('/').at(-2)!;
    // The wizard opens on the reason, and does not go on without it (the field's message in the page's language).
    await testId(applicant, 'wizard-step-renewal').waitFor();
    await testId(applicant, 'wizard-next').click();
    await expect.poll(() => testId(applicant, 'field-error').first().innerText()).toBe(lang === 'ar' ? arValidation.required : enValidation.required);
    await testId(applicant, 'wizard-step-renewal').waitFor();
    await fill(applicant, 'renewal.reason', lang === 'ar' ? 'تنتهي الشهادة الشهر القادم والإنتاج مستمر' : 'The certificate expires next month and production continues');
    await fill(applicant, 'renewal.notes', lang === 'ar' ? 'لا تغيير في المنتجات' : 'No change to the products');
    // The other steps arrive filled from the certified request: looked over, a product of it on its step.
    const products = internalCertificateData().products as { nameEn: string }[];
    // Every step after the reason, in the service's own order (the wizard draws a step per section), then the summary.
    for (const step of [...Object.keys(SERVICES.internalRenewal.sections).filter((s) => s !== 'renewal'), 'summary']) {
      await next(applicant, step);
      if (step === 'products') expect(await applicant.locator(`[name="products.${products.length - 1}.nameEn"]`).inputValue()).toBe(products.at(-1)!.nameEn);
      // The certified request's files came too, each shown by its name (not as an unnamed "attached file").
      if (step === 'attachments') {
        const unnamed = (lang === 'ar' ? arRequests : enRequests).wizard.attached;
        const names = () => applicant.locator('[data-testid="attachment-name"]').allInnerTexts();
        await expect.poll(async () => (await names()).length).toBeGreaterThan(0);
        await expect.poll(async () => (await names()).filter((n) => n.trim() === unnamed)).toEqual([]);
        // A prefilled file removed and another sent in its place: the removal says which file left, with no error, and
        // the file stays the certified request's (frozen at its submission: it still downloads).
        const section = testId(applicant, 'attachments-commercialRegistrationCopy');
        const prefilled = section.locator('[data-testid="attachment-name"]').first();
        const [name, href] = [(await prefilled.innerText()).trim(), await prefilled.getAttribute('href')];
        await section.locator('[data-testid="attachment-remove"]').first().click();
        const removed = (lang === 'ar' ? arRequests : enRequests).attachments.removed.replace('{{name}}', name);
        await expect.poll(() => testId(applicant, 'toast').allInnerTexts()).toContainEqual(expect.stringContaining(removed));
        await expect.poll(() => section.locator(`a[href="${href}"]`).count()).toBe(0);
        await testId(applicant, 'attachment-commercialRegistrationCopy').setInputFiles(pdf('commercial-registration-renewed.pdf'));
        await expect.poll(() => section.locator('[data-testid="attachment-name"]').allInnerTexts()).toEqual(['commercial-registration-renewed.pdf']);
        expect((await applicant.request.get(href!)).status()).toBe(200);
      }
    }
    await submitWizard(applicant, requestId, `internal-renewal-${lang}`);
    const code = await testId(applicant, 'request-status').getAttribute('data-code');
    const labels = (lang === 'ar' ? arStatus : enStatus).internalRenewal as Record<string, string>;
    expect((await testId(applicant, 'request-status').innerText()).trim()).toBe(labels[code!]);
    // The certificate page now links this renewal instead of offering a second one.
    await applicant.goto(`/certificates/${certificateId}`);
    await waitForIdle(applicant);
    await testId(applicant, 'open-renewal').waitFor();
    expect(await testId(applicant, 'renew-certificate').count()).toBe(0);
    expect(await testId(applicant, 'open-renewal').getAttribute('href')).toBe(`/requests/${requestId}`);
    await applicant.context().close();
  }

  async function withFailureShots(lang: Lang, walk: (lang: Lang) => Promise<void> = runLifecycle) {
    try {
      await walk(lang);
    } catch (e) {
      for (const [name, page] of opened) if (!page.isClosed()) await saveScreenshot(page, `internal-certificate-failure-${name}`).catch(() => undefined);
      console.error(server.output().slice(-4000));
      throw e;
    }
  }

  it('walks the whole lifecycle in Arabic', () => withFailureShots('ar'), 900_000);

  it('walks the whole lifecycle in English', () => withFailureShots('en'), 900_000);

  it('renews a certificate due for renewal in Arabic', () => withFailureShots('ar', renew));

  it('renews a certificate due for renewal in English', () => withFailureShots('en', renew));
});
