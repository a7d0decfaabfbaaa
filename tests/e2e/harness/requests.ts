import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { screenshot, waitForIdle } from './browser';

/**
 * Steps of the request screens shared by the E2E files: the generic service wizard (start from a profile, fill,
 * step, submit), the request page's staff actions, and paying a bill at the payment portal simulator.
 */
export const testId = (page: Page, id: string): Locator => page.locator(`[data-testid="${id}"]`);

const PDF_BYTES = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
/** A tiny valid PDF to upload as `name`. */
export const pdf = (name: string) => ({ name, mimeType: 'application/pdf', buffer: PDF_BYTES });
/** The ISO date `offset` days from today. */
export const day = (offset: number): string => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

export const fill = (page: Page, name: string, value: string) => page.locator(`[name="${name}"]`).fill(value);
export const select = (page: Page, name: string, value: string) => page.locator(`select[name="${name}"]`).selectOption(value);

/** "Next" in the wizard, then waits for `nextStep`. */
export async function next(page: Page, nextStep: string): Promise<void> {
  await testId(page, 'wizard-next').click();
  await testId(page, `wizard-step-${nextStep}`).waitFor();
}

export interface RequestJson {
  number: string;
  status: { code: number; label: string };
  state: string;
  data: Record<string, unknown>;
}
/** The request as the signed-in user reads it (GET /api/requests/{id}). */
export const requestOf = (page: Page, id: string): Promise<RequestJson> =>
  page.evaluate(async (rid) => (await (await fetch(`/api/requests/${rid}`)).json()) as RequestJson, id);

/**
 * From a profile (a path), or a screen `from` opens: the service's start button (`start-<kind>`, or `button` when
 * given), the generic start screen, then the wizard. Returns the request id.
 */
export async function startService(page: Page, from: string | (() => Promise<void>), kind: string, button?: Locator): Promise<string> {
  if (typeof from === 'string') {
    await page.goto(from);
    await waitForIdle(page);
  } else await from();
  await (button ?? testId(page, `start-${kind}`).first()).click();
  await testId(page, 'start-service').click();
  await page.waitForURL(/\/requests\/[0-9a-f-]{36}\/edit$/);
  await waitForIdle(page);
  await testId(page, 'wizard-nav').waitFor();
  // A new draft shows when it is deleted automatically.
  await expect.poll(() => testId(page, 'days-left').innerText()).toMatch(/\d/);
  return page.url().split('/').slice(-2)[0]!;
}

/** Ticks the agreement on the summary, submits, and checks the request page shows the submitted (non-draft) status. */
export async function submitWizard(page: Page, requestId: string, shot: string): Promise<RequestJson> {
  await testId(page, 'wizard-step-summary').waitFor();
  await testId(page, 'request-data').waitFor();
  const draftCode = await testId(page, 'request-status').getAttribute('data-code');
  await screenshot(page, `${shot}-summary`);
  // Without the agreement the request is not sent.
  await testId(page, 'wizard-submit').click();
  await testId(page, 'field-error').first().waitFor();
  await testId(page, 'agreement').click();
  await testId(page, 'wizard-submit').click();
  await page.waitForURL(new RegExp(`/requests/${requestId}(\\?.*)?$`));
  await waitForIdle(page);
  const after = await requestOf(page, requestId);
  expect(String(after.status.code)).not.toBe(draftCode);
  expect(after.state).not.toBe('draft');
  await expect.poll(() => testId(page, 'request-status').innerText()).toBe(after.status.label);
  await screenshot(page, `${shot}-submitted`);
  return after;
}

export async function openRequest(page: Page, id: string): Promise<void> {
  await page.goto(`/requests/${id}`);
  await waitForIdle(page);
  await testId(page, 'request-status').waitFor();
}

export async function expectStatus(page: Page, code: number): Promise<void> {
  await expect.poll(() => testId(page, 'request-status').getAttribute('data-code'), { timeout: 20_000 }).toBe(String(code));
}

/** Sends a reason-only or confirm-only event from the action bar (its dialog's last button confirms) and waits for the status. */
export async function act(page: Page, type: string, code: number, reason?: string): Promise<void> {
  await testId(page, `action-${type}`).click();
  const dialog = testId(page, 'event-dialog');
  await dialog.waitFor();
  if (reason !== undefined) await dialog.locator('textarea').fill(reason);
  await dialog.locator('button').last().click();
  await dialog.waitFor({ state: 'detached' });
  await expectStatus(page, code);
}

/** Pays the open bill at the payment portal simulator, comes back to the request page and waits for `code`. */
export async function payBill(page: Page, requestId: string, code: number, shot: string): Promise<Locator> {
  await openRequest(page, requestId);
  const bill = testId(page, 'bill').filter({ has: testId(page, 'pay-bill') });
  await bill.waitFor();
  expect(await bill.locator('[data-testid="bill-vat"]').innerText()).toMatch(/\d/);
  await screenshot(page, shot);
  await bill.locator('[data-testid="pay-bill"]').click();
  await page.waitForURL(/\/simulators\/payment-portal\/pay/);
  await page.locator('[data-testid="pay"]').click();
  await page.waitForURL(new RegExp(`/requests/${requestId}\\?payment=`));
  expect(page.url()).toContain('payment=paid');
  await waitForIdle(page);
  await expectStatus(page, code);
  return bill;
}

/**
 * The shipment wizard up to its products step: goods type, the exporting factory, the importer checked in the
 * commercial registry (filled from it), the exporter, shipping and arrival, the exporting CB.
 */
export async function fillShipmentHeader(page: Page, goods: 'meat' | 'poultry' | 'other', factoryPublicId: string): Promise<void> {
  await testId(page, 'wizard-step-shipmentType').waitFor();
  await select(page, 'shipmentType.goods', goods);
  await next(page, 'factory');
  const factory = page.locator('select[name="factory.facilityPublicId"]');
  await expect.poll(() => factory.locator('option').count()).toBeGreaterThan(1);
  await factory.selectOption(factoryPublicId);
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
  await fill(page, 'other.exportingCbPublicId', 'cb-global-halal');
  await next(page, 'products');
}
