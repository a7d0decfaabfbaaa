import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { screenshot, waitForIdle } from './browser';

/**
 * Steps shared by the lifecycle walks: the generic service wizard (start screen, fields, submit), the request page's
 * action bar and dialogs, the payment portal simulator and the audit plan wizard. Each does what a person does and
 * waits for what the screen shows next.
 */
export type Lang = 'ar' | 'en';
export const testId = (page: Page | Locator, id: string): Locator => page.locator(`[data-testid="${id}"]`);

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
/** A small valid PDF to upload under `name`. */
export const pdf = (name: string) => ({ name, mimeType: 'application/pdf', buffer: PDF });
/** Whole calendar months from one ISO date to another (a certificate's validity). */
export const monthsBetween = (a: string, b: string): number => {
  const x = new Date(a);
  const y = new Date(b);
  return (y.getUTCFullYear() - x.getUTCFullYear()) * 12 + (y.getUTCMonth() - x.getUTCMonth());
};
/** yyyy-mm-dd, `offset` days from today. */
export const day = (offset: number): string => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

export const fill = (page: Page, name: string, value: string) => page.locator(`[name="${name}"]`).fill(value);
export const select = (page: Page, name: string, value: string) => page.locator(`select[name="${name}"]`).selectOption(value);

export interface RequestJson {
  id: string;
  number: string;
  state: string;
  status: { code: number; label: string };
  data: Record<string, unknown>;
}
/** The request as the API gives it to the signed-in user of `page`. */
export const requestOf = (page: Page, id: string): Promise<RequestJson> =>
  page.evaluate(async (rid) => (await (await fetch(`/api/requests/${rid}`)).json()) as RequestJson, id);

/** The wizard's "Next", then waits for the step `nextStep`. */
export async function next(page: Page, nextStep: string): Promise<void> {
  await testId(page, 'wizard-next').click();
  await testId(page, `wizard-step-${nextStep}`).waitFor();
}

/**
 * Clicks a service's start link (`start-<kind>`, on a profile or a certificate row) on the current page, confirms on
 * the generic start screen and waits for the wizard of the new draft. Returns the request id.
 */
export async function startService(page: Page, kind: string, scope: Page | Locator = page): Promise<string> {
  await testId(scope, `start-${kind}`).first().click();
  await testId(page, 'start-service').click();
  await page.waitForURL(/\/requests\/[0-9a-f-]{36}\/edit$/);
  await waitForIdle(page);
  await testId(page, 'wizard-nav').waitFor();
  // A new draft shows when it is deleted automatically.
  await expect.poll(() => testId(page, 'days-left').innerText()).toMatch(/\d/);
  return page.url().split('/').slice(-2)[0]!;
}

/** Ticks the agreement on the summary, submits, and checks the request page confirms it and shows the submitted request's status. */
export async function submitWizard(page: Page, requestId: string, shot: string): Promise<void> {
  await testId(page, 'wizard-step-summary').waitFor();
  await testId(page, 'request-data').waitFor();
  await screenshot(page, `${shot}-summary`);
  // Without the agreement the request is not sent.
  await testId(page, 'wizard-submit').click();
  await testId(page, 'field-error').first().waitFor();
  await testId(page, 'agreement').click();
  await testId(page, 'wizard-submit').click();
  await page.waitForURL(new RegExp(`/requests/${requestId}\\?submitted=1$`));
  await waitForIdle(page);
  const after = await requestOf(page, requestId);
  // The request page confirms the submission with the request's number and the next steps.
  expect(await testId(page, 'submitted-number').innerText()).toContain(after.number);
  expect((await testId(page, 'next-steps').innerText()).trim()).not.toBe('');
  // The machine left its draft (the simple set 1001-1005 shows 1001 for a draft and a new request alike).
  expect(after.state).not.toMatch(/(^|\.)draft$/);
  await expect.poll(() => testId(page, 'request-status').innerText()).toBe(after.status.label);
  await screenshot(page, `${shot}-submitted`);
}

/**
 * The CB designation's sections (facility info, certificates and specifications, categories, operations), from the
 * facility-info step to the step after operations. `categories` are the codes ticked (main categories: `category-X`).
 */
export async function fillCbDesignation(page: Page, o: { categories: string[]; after: string }): Promise<void> {
  await testId(page, 'wizard-step-facilityInfo').waitFor();
  await fill(page, 'facilityInfo.nameAr', 'الهيئة العالمية للحلال');
  await fill(page, 'facilityInfo.nameEn', 'Global Halal Certification Body');
  await select(page, 'facilityInfo.countryCode', 'MY');
  await fill(page, 'facilityInfo.city', 'Kuala Lumpur');
  await fill(page, 'facilityInfo.address', 'Jalan Ampang 12, Kuala Lumpur');
  await next(page, 'certificatesAndSpecifications');
  await fillCbCertificates(page);
  await next(page, 'categories');
  await tickCategories(page, o.categories);
  await next(page, 'operations');
  await testId(page, 'operations.items-processing').click();
  await testId(page, 'operations.items-packaging').click();
  await next(page, o.after);
}

/** One accreditation certificate with its file and one specification (the certificates-and-specifications step). */
export async function fillCbCertificates(page: Page): Promise<void> {
  await testId(page, 'certificatesAndSpecifications.certificates-add').click();
  await fill(page, 'certificatesAndSpecifications.certificates.0.name', 'ISO/IEC 17065 accreditation');
  await testId(page, 'upload-certificatesAndSpecifications.certificates.0.attachmentId').setInputFiles(pdf('accreditation.pdf'));
  await testId(page, 'file-certificatesAndSpecifications.certificates.0.attachmentId').locator('[data-testid="attachment-name"]').waitFor();
  await fill(page, 'certificatesAndSpecifications.specifications', 'GSO 2055-1');
  await page.locator('[name="certificatesAndSpecifications.specifications"]').blur();
}

/** Ticks main categories (`category-<code>`) on the categories step. */
export async function tickCategories(page: Page, codes: string[]): Promise<void> {
  for (const code of codes) await testId(page, `category-${code}`).click();
}

export async function openRequest(page: Page, id: string): Promise<void> {
  await page.goto(`/requests/${id}`);
  await waitForIdle(page);
  await testId(page, 'request-status').waitFor();
}

export async function expectStatus(page: Page, code: number): Promise<void> {
  await expect.poll(() => testId(page, 'request-status').getAttribute('data-code'), { timeout: 20_000 }).toBe(String(code));
}

/** Waits until the request's machine state starts with `state` (several states share one status code). */
export async function expectState(page: Page, id: string, state: string): Promise<void> {
  await expect.poll(async () => (await requestOf(page, id)).state, { timeout: 20_000 }).toMatch(new RegExp(`^${state.replace('.', '\\.')}`));
}

/** The confirm button of a ConfirmDialog (the last footer button). */
export const confirmIn = (dialog: Locator) => dialog.locator('button').last().click();

/** Sends a reason-only or confirm-only event from the action bar and waits for the page to show the next version. */
export async function act(page: Page, type: string, reason?: string): Promise<void> {
  const before = await testId(page, 'request-status').getAttribute('data-code');
  await testId(page, `action-${type}`).click();
  const dialog = testId(page, 'event-dialog');
  await dialog.waitFor();
  if (reason !== undefined) await dialog.locator('textarea').fill(reason);
  await confirmIn(dialog);
  await dialog.waitFor({ state: 'detached' });
  // The action is gone from the bar once the request moved on (or the status changed).
  await expect
    .poll(async () => (await testId(page, `action-${type}`).count()) === 0 || (await testId(page, 'request-status').getAttribute('data-code')) !== before, { timeout: 20_000 })
    .toBe(true);
}

/**
 * Pays the open bill at the payment portal simulator and comes back to the request page. Returns the bill's amount,
 * VAT and total as shown before paying.
 */
export async function payBill(page: Page, requestId: string, shot: string): Promise<{ amount: string; vat: string; total: string }> {
  await openRequest(page, requestId);
  const bill = testId(page, 'bill').filter({ has: testId(page, 'pay-bill') });
  await bill.waitFor();
  const shown = {
    amount: await bill.locator('[data-testid="bill-amount"]').innerText(),
    vat: await bill.locator('[data-testid="bill-vat"]').innerText(),
    total: await bill.locator('[data-testid="bill-total"]').innerText(),
  };
  await screenshot(page, shot);
  await bill.locator('[data-testid="pay-bill"]').click();
  await page.waitForURL(/\/simulators\/payment-portal\/pay/);
  await page.locator('[data-testid="pay"]').click();
  await page.waitForURL(new RegExp(`/requests/${requestId}\\?payment=`));
  expect(page.url()).toContain('payment=paid');
  await waitForIdle(page);
  await expect.poll(() => testId(page, 'pay-bill').count(), { timeout: 20_000 }).toBe(0);
  return shown;
}

/**
 * `new`: types the whole plan (checking its rules on the way); otherwise the saved plan is kept, `revise` adds the change
 * reason. `notesForCommittee`: the plan's optional notes for the decision committee (on a new plan).
 */
export async function submitPlan(page: Page, lang: Lang, mode: 'new' | 'reuse' | { reason: string; description: string }, notesForCommittee?: string): Promise<void> {
  const fresh = mode === 'new';
  const revise = typeof mode === 'object' ? mode : undefined;
  await testId(page, 'action-SUBMIT_PLAN').click();
  const d = testId(page, 'plan-dialog');
  await d.waitFor();
  if (fresh) {
    await fill(page, 'visitGoal', lang === 'ar' ? 'تدقيق الحصول على شهادة الحلال' : 'Initial Halal certification audit');
    await fill(page, 'coordinatorName', lang === 'ar' ? 'سعد القحطاني' : 'Saad Al-Qahtani');
    await fill(page, 'islamicAffairsExpert', lang === 'ar' ? 'الشيخ عبدالرحمن' : 'Sheikh Abdulrahman');
    const leader = page.locator('select[name="teamLeaderUserId"]');
    await expect.poll(() => leader.locator('option').count()).toBeGreaterThan(1);
    await leader.selectOption({ label: 'Abdullah Al-Shehri' });
    await d.locator('[data-testid^="check-auditor-auditor"]').click();
    if (notesForCommittee) await fill(page, 'notesForCommittee', notesForCommittee);
  }
  await testId(page, 'plan-next').click();
  if (fresh) {
    // A date in the past is refused (the visit is at or after now).
    await fill(page, 'days.0.date', '2020-01-01');
    await testId(page, 'plan-next').click();
    await d.locator('[data-testid="field-error"]').first().waitFor();
    await fill(page, 'days.0.date', day(7));
    await fill(page, 'days.0.hour', '9');
    await fill(page, 'days.0.minute', '30');
  }
  await testId(page, 'plan-next').click();
  if (fresh) {
    await fill(page, 'days.0.activity', lang === 'ar' ? 'الاجتماع الافتتاحي وجولة في خطوط الإنتاج' : 'Opening meeting and production line tour');
    // Every auditor must be in the timeline.
    await testId(page, 'plan-next').click();
    await testId(page, 'plan-timeline-error').waitFor();
    for (const box of await d.locator('[data-testid^="check-day-0-auditor-"]').all()) await box.click();
  }
  await testId(page, 'plan-next').click();
  await testId(page, 'plan-next').click();
  await testId(page, 'plan-summary').waitFor();
  if (revise) {
    await fill(page, 'changeReason', revise.reason);
    await fill(page, 'changeDescription', revise.description);
  }
  await testId(page, 'dialog-submit').click();
  await d.waitFor({ state: 'detached' });
}

/** A product row of the products step (the internal wizard's component, reused by the generic wizard). */
export interface ProductRow {
  nameAr: string;
  nameEn: string;
  brandAr: string;
  brandEn: string;
  saudiHsCode: string;
  globalHsCode: string;
  productNumber: string;
  category: string;
  netWeight: string;
  grossWeight: string;
  /** Unit code (forms:unit): 0 kg ... 5 ml. */
  unit: string;
}

/** Adds `rows` to the products step (after any rows already there) and fills each. */
export async function fillProducts(page: Page, rows: readonly ProductRow[]): Promise<void> {
  await testId(page, 'wizard-step-products').waitFor();
  const start = await page.locator('[name$=".nameAr"][name^="products."]').count();
  for (const [k, p] of rows.entries()) {
    const i = start + k;
    await testId(page, 'products-add').click();
    for (const f of ['nameAr', 'nameEn', 'brandAr', 'brandEn', 'saudiHsCode', 'globalHsCode', 'productNumber', 'netWeight', 'grossWeight'] as const) {
      await fill(page, `products.${i}.${f}`, p[f]);
    }
    await select(page, `products.${i}.category`, p.category);
    await select(page, `products.${i}.unit`, p.unit);
  }
}

const money = (lang: Lang, n: number) => new Intl.NumberFormat(lang === 'ar' ? 'ar-SA-u-nu-latn' : 'en-US', { minimumFractionDigits: 2 }).format(n);
const stripMarks = (s: string) => s.replace(/[\u200e\u200f\u2066-\u2069]/g, '');
/** The bill `payBill` showed has this amount (SAR, excluding VAT), its VAT at `vatRate` and their total, as the page formats them. */
export function expectBill(lang: Lang, shown: { amount: string; vat: string; total: string }, amount: number, vatRate = 0.15): void {
  const vat = Math.round(amount * vatRate * 100) / 100;
  expect(stripMarks(shown.amount)).toContain(money(lang, amount));
  expect(stripMarks(shown.vat)).toContain(money(lang, vat));
  expect(stripMarks(shown.total)).toContain(money(lang, amount + vat));
}
