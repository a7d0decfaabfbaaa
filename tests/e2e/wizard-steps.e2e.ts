import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import type { Database } from '../../db/client';
import { facilities, facilityMembers, users } from '../../db/schema';
import { FACILITY_ACCESS } from '../../machines/forms/facilities/permissions';
import { countryName } from '../../web/src/lib/countries';
import { fill, launchBrowser, next, openPage, screenshot, select, signInWithCookie, startServerWithData, startService, testId, waitForIdle, type Lang, type RunningServer } from './harness';

/**
 * What the generic wizard checks at the step a person is on (found by the external walk), in Arabic and English:
 * 1. the external certificate's "choose a factory": the factory list is searched and sorted (spec 02 section 2: all,
 *    name, registration number, city, country) and the chosen factory's record fills what it already holds
 *    (production lines, critical points, employees, shifts, area), said so, with its address and country shown;
 * 2. the shipment's importer step: an importer name the commercial registry contradicts stops the user there with the
 *    registry's message on the field (the check SUBMIT runs), and the registry's own data passes.
 * The factory list offers only the factories the request's save accepts (GetUserFacilities?forRequest=, the
 * foreignFactory rule): a conformity body acts for any foreign factory, so the sorting and searching walk is the CB
 * user's (`cb.main`), made a user of the Turkish factory and of a second one (Brazil) so the orders differ; a foreign
 * factory's own account names only itself, so the `external` user, also given the Brazilian factory, is offered only
 * its own (the save would refuse the other).
 */
const FACTORY = 'exf-anatolia-meat';
const SECOND = { publicId: 'exf-e2e-yaqut', nameAr: 'ياقوت للدواجن', nameEn: 'Yaqut Poultry', registrationNumber: 'BR-100200', countryCode: 'BR', city: 'Curitiba' };
/** The conformity body the sorting walk applies from, and its user. */
const CB = 'cb-global-halal';
const CB_USER = 'cb.main';
const IMPORTER = { unifiedNumber: '701 070 0001', crNumber: '1010700001' };
const locale = (lang: Lang, ns: string) => JSON.parse(readFileSync(join(__dirname, `../../locales/${lang}/${ns}.json`), 'utf8')) as Record<string, Record<string, unknown>>;

async function prepareData(database: Database): Promise<void> {
  const [f] = await database.db
    .insert(facilities)
    .values({ ...SECOND, type: 'ExternalFacility' })
    .returning({ id: facilities.id });
  const [anatolia] = await database.db.select({ id: facilities.id }).from(facilities).where(eq(facilities.publicId, FACTORY));
  const userId = async (userName: string) => (await database.db.select({ id: users.id }).from(users).where(eq(users.userName, userName)))[0]!.id;
  const [cb, external] = [await userId(CB_USER), await userId('external')];
  // The CB's user is a user of both factories (the Turkish one's sub user, allowed to see it: `external` is its main
  // user, and a factory has one); the factory's own user is also a sub user of the Brazilian one.
  const view = [FACILITY_ACCESS.ExternalFacility.view];
  await database.db.insert(facilityMembers).values([
    { facilityId: anatolia!.id, userId: cb, role: 1, permissions: view },
    { facilityId: f!.id, userId: cb, role: 0, permissions: [] },
    { facilityId: f!.id, userId: external, role: 1, permissions: view },
  ]);
}

describe('wizard steps check what they ask', () => {
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

  async function applicant(lang: Lang, as: { userName: string; facility: string } = { userName: 'external', facility: FACTORY }): Promise<{ page: Page; errors: string[] }> {
    const o = await openPage(browser, server.url, { locale: lang === 'ar' ? 'ar-SA' : 'en-US' });
    await signInWithCookie(o.page, server.url, as.userName);
    await o.page.goto(`/facility-requests/${as.facility}?lang=${lang}`);
    await waitForIdle(o.page);
    return o;
  }
  const factoryOptions = (page: Page) =>
    page.locator('select[name="factory.facilityPublicId"] option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter(Boolean));

  async function chooseFactory(lang: Lang) {
    const { page, errors } = await applicant(lang, { userName: CB_USER, facility: CB });
    const wizard = locale(lang, 'requests').wizard as Record<string, unknown>;
    try {
      await startService(page, 'externalCertificate');
      await testId(page, 'wizard-step-factory').waitFor();
      // The sort offers spec 02's five orders, in the page's language.
      const sorts = wizard.facilitySorts as Record<string, string>;
      const labels = await testId(page, 'facility-sort').locator('option').allInnerTexts();
      expect(labels).toEqual(['all', 'name', 'registrationNumber', 'city', 'country'].map((k) => sorts[k]));
      // By name (Arabic: مصنع before ياقوت; English: Anatolia before Yaqut), by country (Brazil before Turkey in both).
      await testId(page, 'facility-sort').selectOption('name');
      await expect.poll(() => factoryOptions(page)).toEqual([FACTORY, SECOND.publicId]);
      await testId(page, 'facility-sort').selectOption('country');
      await expect.poll(() => factoryOptions(page)).toEqual([SECOND.publicId, FACTORY]);
      // Searched by city.
      await testId(page, 'facility-search').fill('Curitiba');
      await expect.poll(() => factoryOptions(page)).toEqual([SECOND.publicId]);
      await testId(page, 'facility-search').fill('');
      await select(page, 'factory.facilityPublicId', FACTORY);
      // The factory's record fills what it holds (db/seed-facilities.ts), and says so; its address and country are shown.
      await testId(page, 'factory-prefilled').waitFor();
      await expect.poll(() => page.locator('[name="factory.productionLines"]').inputValue()).toBe('3');
      expect(await page.locator('[name="factory.criticalPoints"]').inputValue()).toBe('6');
      expect(await page.locator('[name="factory.permanentHalalEmployees"]').inputValue()).toBe('85');
      expect(await page.locator('[name="factory.shifts"]').inputValue()).toBe('2');
      expect(await page.locator('[name="factory.productionArea"]').inputValue()).toBe('5400');
      const said = (wizard.factoryPrefilled as string).split('{{')[0]!;
      expect(await testId(page, 'factory-prefilled').innerText()).toContain(said.trim());
      expect(await testId(page, 'factory-record-country').innerText()).toContain(countryName('TR', lang));
      expect(await testId(page, 'factory-record-address').innerText()).toContain('Organize Sanayi Bolgesi');
      await screenshot(page, `wizard-steps-${lang}-factory`);
      // What was filled is saved with the step.
      await next(page, 'paymentWay');
      expect(errors).toEqual([]);
    } finally {
      await page.context().close();
    }
  }

  /** A foreign factory's own account: offered only itself, not the other factory its user holds (the save refuses it). */
  async function ownFactoryOnly(lang: Lang) {
    const { page, errors } = await applicant(lang);
    try {
      await startService(page, 'externalCertificate');
      await testId(page, 'wizard-step-factory').waitFor();
      await expect.poll(() => factoryOptions(page)).toEqual([FACTORY]);
      // Not a search away either: the other factory's city finds nothing.
      await testId(page, 'facility-search').fill(SECOND.city);
      await expect.poll(() => factoryOptions(page)).toEqual([]);
      await testId(page, 'facility-search').fill('');
      await expect.poll(() => factoryOptions(page)).toEqual([FACTORY]);
      expect(errors).toEqual([]);
    } finally {
      await page.context().close();
    }
  }

  async function importerStep(lang: Lang) {
    const { page, errors } = await applicant(lang);
    const validation = locale(lang, 'validation').form as Record<string, string>;
    try {
      await startService(page, 'shipment');
      await testId(page, 'wizard-step-shipmentType').waitFor();
      await select(page, 'shipmentType.goods', 'meat');
      await next(page, 'factory');
      await select(page, 'factory.facilityPublicId', FACTORY);
      await next(page, 'importer');
      await fill(page, 'importer.unifiedNumber', IMPORTER.unifiedNumber);
      await testId(page, 'importer-check-button').click();
      await testId(page, 'importer-check-result').waitFor();
      await expect.poll(() => page.locator('[name="importer.crNumber"]').inputValue()).toBe(IMPORTER.crNumber);
      // A name the registry does not hold: stopped on this step, the registry's message on the name.
      await fill(page, 'importer.name', lang === 'ar' ? 'شركة غير مسجلة' : 'Unregistered Trading Co');
      await testId(page, 'wizard-next').click();
      const error = page.locator('[data-testid="wizard-step-importer"] [data-testid="field-error"]').first();
      await error.waitFor();
      expect(await error.innerText()).toContain(validation.importerNameMismatch!.split(':')[0]!);
      await screenshot(page, `wizard-steps-${lang}-importer`);
      expect(await testId(page, 'wizard-step-importer').count()).toBe(1);
      // The registry's data again: on to the exporter.
      await testId(page, 'importer-check-button').click();
      await expect.poll(async () => (await page.locator('[name="importer.name"]').inputValue()).includes(lang === 'ar' ? 'غير' : 'Unregistered')).toBe(false);
      await next(page, 'exporter');
      expect(errors).toEqual([]);
    } finally {
      await page.context().close();
    }
  }

  for (const lang of ['ar', 'en'] as const) {
    it(`searches, sorts and takes the factory's record on the factory step (${lang})`, () => chooseFactory(lang), 120_000);
    it(`offers a foreign factory's own account only its own factory (${lang})`, () => ownFactoryOnly(lang), 120_000);
    it(`stops a wrong importer on the importer step (${lang})`, () => importerStep(lang), 120_000);
  }
});
