import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Database } from '../../db/client';
import arErrors from '../../locales/ar/errors.json';
import enErrors from '../../locales/en/errors.json';
import arRequests from '../../locales/ar/requests.json';
import enRequests from '../../locales/en/requests.json';
import {
  act,
  addUndesignatedCb,
  confirmIn,
  expectBill,
  expectState as waitForState,
  expectStatus,
  fill,
  fillCbDesignation,
  issueCertificate,
  monthsBetween,
  launchBrowser,
  next,
  openPage,
  openRequest,
  payBill,
  requestOf,
  saveScreenshot,
  screenshot,
  signInWithCookie,
  startServerWithData,
  startService,
  submitPlan,
  submitWizard,
  testId,
  tickCategories,
  waitForIdle,
  type Lang,
  type RunningServer,
} from './harness';

/**
 * Issue 12, the conformity-body services end to end in real Chromium, once in Arabic and once in English: the CB user
 * and the staff (registration, audit, decision committee) walk each CB service to its certificate.
 * - designation (type 0): Global Halal CB, designated already, is told on the start page why it may not ask again
 *   (Start disabled); a body new.applicant registered, designated by none (one per language), asks: wizard -> registration takes it from its queue and accepts -> audit plan -> the CB accepts it
 *   -> appointment-request bill paid -> inspection (compliant) -> report -> committee approves -> appointment bill paid
 *   -> committee issues -> the new designation certificate (3 years, the chosen categories);
 * - renewal (600), from a seeded certificate expiring in 90 days: the same staff path without audit fees, the renewal
 *   bill (shown including VAT) -> the same certificate, 3 more years from its old expiry, categories kept and added;
 * - added categories (300), from a seeded valid certificate: audit takes it and accepts -> committee re-issues -> the
 *   certificate lists the old and the new categories, nothing billed.
 * Screenshots (E2E_SCREENSHOTS=1): test-results/screenshots/cb-<lang>-*.png.
 */
const CB = 'cb-global-halal';
const DAY = 86_400_000;
const locale = (lang: Lang) => JSON.parse(readFileSync(join(__dirname, `../../locales/${lang}/forms.json`), 'utf8')) as { category: Record<string, string> };

/** The issued designation certificates renewal and added categories start from (one per language and service). */
const SEEDED = {
  renewal: { ar: 'CB-E2E-REN-AR', en: 'CB-E2E-REN-EN', expiresInDays: 90 },
  add: { ar: 'CB-E2E-ADD-AR', en: 'CB-E2E-ADD-EN', expiresInDays: 500 },
  expired: { ar: 'CB-E2E-OLD-AR', en: 'CB-E2E-OLD-EN', expiresInDays: -5 },
} as const;
const SEEDED_CATEGORIES = ['C0', 'CI'];

/** The CB's issued designation certificates, with their lifecycles (as the committee issues them), and the undesignated CBs. */
async function prepareData(database: Database): Promise<{ expiries: Record<string, Date>; newCb: Record<Lang, string> }> {
  const expiries: Record<string, Date> = {};
  for (const s of [SEEDED.renewal, SEEDED.add, SEEDED.expired]) {
    for (const lang of ['ar', 'en'] as const) {
      const number = s[lang];
      const expiresAt = new Date(Date.now() + s.expiresInDays * DAY);
      const issuedAt = new Date(expiresAt.getTime() - 3 * 365 * DAY);
      expiries[number] = expiresAt;
      await issueCertificate(database, 'cb.main', {
        number,
        kind: 'cbDesignation',
        facilityPublicId: CB,
        categories: SEEDED_CATEGORIES,
        verificationCode: number.replace(/-/g, '').slice(0, 12),
        scope: 'Halal certification of foreign facilities and shipments',
        issuedAt,
        validFrom: issuedAt,
        expiresAt,
      });
    }
  }
  return { expiries, newCb: { ar: await addUndesignatedCb(database, 'new.applicant', 1), en: await addUndesignatedCb(database, 'new.applicant', 2) } };
}

interface CertificateJson {
  id: string;
  number: string;
  kind: string;
  categories: string[];
  status: { public: string; label: string };
  issuedAt: { iso: string; gregorian: string };
  validFrom: { iso: string };
  expiresAt: { iso: string; gregorian: string };
}

let t0 = Date.now();
/** Elapsed seconds per step in the test output (E2E_STEPS=1), to see where a slow run spends its time. */
const step = (name: string) => {
  if (process.env.E2E_STEPS) console.log(`${((Date.now() - t0) / 1000).toFixed(1)}s ${name}`);
};

async function expectState(page: Page, id: string, state: string) {
  await waitForState(page, id, state);
  step(`${state} ${id.slice(0, 8)}`);
}

describe('conformity-body services end to end', () => {
  let server: RunningServer;
  let browser: Browser;
  let expiries: Record<string, Date>;
  let newCb: Record<Lang, string>;

  beforeAll(async () => {
    ({ server, data: { expiries, newCb } } = await startServerWithData(prepareData));
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
    await page.goto(`/${STAFF.includes(userName) ? 'halal-profile' : 'associated-facilities'}?lang=${lang}`);
    await waitForIdle(page);
    expect(errors).toEqual([]);
    return page;
  }

  const STAFF = ['registration', 'audit', 'committee'];

  interface People {
    cb: Page;
    /** new.applicant, main user of the undesignated CBs. */
    applicant: Page;
    registration: Page;
    audit: Page;
    committee: Page;
  }

  /** The inspection (compliant) and the report, by the audit employee. */
  async function inspectAndReport(audit: Page, id: string, lang: Lang, round: string) {
    await openRequest(audit, id);
    await act(audit, 'START_INSPECTION');
    await expectState(audit, id, `${round}.procedures`);
    await testId(audit, 'action-SUBMIT_AUDIT_RESULT').click();
    await testId(audit, 'result-dialog').waitFor();
    await testId(audit, 'compliant-yes').click();
    await testId(audit, 'dialog-submit').click();
    await expectState(audit, id, `${round}.report`);
    await testId(audit, 'action-SUBMIT_REPORT').click();
    await fill(audit, 'summary', lang === 'ar' ? 'جهة المطابقة مستوفية للمتطلبات' : 'The conformity body meets the requirements');
    await testId(audit, 'dialog-submit').click();
    await expectState(audit, id, `${round}.decision`);
  }

  /** The certificate the request issued or updated, opened from the request page as the CB user would. */
  async function openCertificate(page: Page, id: string, shot: string): Promise<CertificateJson> {
    await openRequest(page, id);
    await testId(page, 'certificate-link').waitFor();
    await screenshot(page, `${shot}-request-completed`);
    await testId(page, 'certificate-link').locator('a').click();
    await page.waitForURL(/\/certificates\/[0-9a-f-]{36}$/);
    await waitForIdle(page);
    await testId(page, 'certificate-status').waitFor();
    const certId = page.url().split('/').pop()!;
    await screenshot(page, `${shot}-certificate`);
    return page.evaluate(async (cid) => (await (await fetch(`/api/certificates/${cid}`)).json()) as CertificateJson, certId);
  }

  /** What the certificate page shows: status active, the categories by name, the dates. */
  async function expectCertificatePage(page: Page, lang: Lang, cert: CertificateJson, categories: string[]) {
    expect([...cert.categories].sort()).toEqual([...categories].sort());
    expect(await testId(page, 'certificate-status').getAttribute('data-status')).toBe('active');
    const text = await page.locator('main').innerText();
    const names = locale(lang).category;
    for (const c of categories) expect(text).toContain(names[c]);
    expect(text).toContain(cert.expiresAt.gregorian);
    expect(text).toContain(cert.number);
  }

  async function designation(p: People, lang: Lang) {
    const shot = `cb-${lang}-designation`;
    const { registration, audit, committee } = p;
    // Global Halal CB holds designations in force (db/seed-public.ts, SEEDED): its start page names the one it holds
    // and says to renew it instead, in the user's language, before any click, with "Start" disabled.
    await p.cb.goto(`/facility-profile/cb/${CB}`);
    await waitForIdle(p.cb);
    await testId(p.cb, 'start-cbDesignation').first().click();
    await testId(p.cb, 'start-service').waitFor();
    const [before, after] = { ar: arErrors.CbAlreadyDesignated, en: enErrors.CbAlreadyDesignated }[lang].replace('{{days}}', '180').split('{{number, ltr}}') as [string, string];
    const escape = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // In Arabic the number comes inside LTR isolates (machines/message-formats.ts).
    const refused = (await testId(p.cb, 'start-refused').innerText()).trim().replace(/[\u2066-\u2069]/g, '');
    const held = new RegExp(`^${escape(before)}(\\S+)${escape(after)}$`).exec(refused)?.[1];
    // The one that runs longest: the demo's, or the renewed one once the Arabic walk has renewed it.
    expect(['HC-CB-000012', SEEDED.renewal.ar]).toContain(held);
    expect(await testId(p.cb, 'start-service').isDisabled()).toBe(true);
    await screenshot(p.cb, `${shot}-refused`);

    // The body new.applicant registered, designated by none, asks for its designation.
    const cb = p.applicant;
    await cb.goto(`/facility-profile/cb/${newCb[lang]}`);
    await waitForIdle(cb);
    const id = await startService(cb, 'cbDesignation');
    await fillCbDesignation(cb, { categories: ['D', 'G'], after: 'summary' });
    await submitWizard(cb, id, shot);
    const { number } = await requestOf(cb, id);

    // Registration finds it in its queue, takes it and accepts it.
    await registration.goto('/halal-profile');
    await waitForIdle(registration);
    await registration.locator('input[name="search"]').fill(number);
    await testId(registration, 'search-submit').click();
    await waitForIdle(registration);
    const row = registration.locator('tr', { has: registration.locator('[data-testid="request-link"]') }).first();
    await row.waitFor();
    expect(await row.innerText()).toContain(number);
    await row.locator('[data-testid="row-assignment"]').click();
    await row.locator('[data-testid="row-action-ASSIGN_TO_ME"]').click();
    await confirmIn(testId(registration, 'event-dialog'));
    await testId(registration, 'event-dialog').waitFor({ state: 'detached' });
    await screenshot(registration, `${shot}-registration-queue`);
    await openRequest(registration, id);
    await act(registration, 'ACCEPT');
    await expectState(registration, id, 'audit1.plan');

    // Audit plans the visit; the CB reads and accepts it, then pays the appointment request (excluding VAT).
    await openRequest(audit, id);
    await submitPlan(audit, lang, 'new');
    await expectState(audit, id, 'audit1.planApproval');
    await openRequest(cb, id);
    await testId(cb, 'plan-read-first').waitFor();
    await screenshot(cb, `${shot}-plan`);
    await act(cb, 'ACCEPT_PLAN');
    await expectState(cb, id, 'audit1.auditFees');
    expectBill(lang, await payBill(cb, id, `${shot}-appointment-request-bill`), 10_000);
    await expectState(cb, id, 'audit1.planApproved');

    await inspectAndReport(audit, id, lang, 'audit1');
    await openRequest(committee, id);
    await act(committee, 'APPROVE', lang === 'ar' ? 'استوفت الجهة جميع المتطلبات' : 'The body meets every requirement');
    await expectState(committee, id, 'audit1.certificateFees');
    expectBill(lang, await payBill(cb, id, `${shot}-appointment-bill`), 30_000);
    await expectState(cb, id, 'audit1.waitingIssue');
    await openRequest(committee, id);
    await act(committee, 'ISSUE_CERTIFICATE');
    await expectState(committee, id, 'issued');
    await openRequest(cb, id);
    await expectStatus(cb, 1003);
    // The bills load beside the request: wait for both rather than count what has arrived so far.
    await expect.poll(() => testId(cb, 'bill').count(), { timeout: 20_000 }).toBe(2);

    const cert = await openCertificate(cb, id, shot);
    expect(cert.kind).toBe('cbDesignation');
    await expectCertificatePage(cb, lang, cert, ['D', 'G']);
    expect(monthsBetween(cert.validFrom.iso, cert.expiresAt.iso)).toBe(36);
    // The same page at the CB certificate route of spec 01 (facility-profile/cb/.../cb-halal-certificate/{id}).
    await cb.goto(`/facility-profile/cb/${newCb[lang]}/certifications/cb-halal-certificate/${cert.id}`);
    await waitForIdle(cb);
    await testId(cb, 'certificate-status').waitFor();
    await expectCertificatePage(cb, lang, cert, ['D', 'G']);
  }

  /** The CB's renewal requests (spec 02 section 2): its requests list filtered to the renewal service, searched by number or creator. */
  async function findRenewal(cb: Page, number: string, creator: string, shot: string) {
    await cb.goto(`/facility-requests/${CB}`);
    await waitForIdle(cb);
    // Each filter is in the URL once applied: a count read before that is the previous filter's.
    const applied = (key: string, value: string) => expect.poll(() => new URL(cb.url()).searchParams.get(key), { timeout: 20_000 }).toBe(value);
    const kind = async (value: string) => {
      await testId(cb, 'requests-kind').selectOption(value);
      await applied('kind', value);
    };
    const search = async (query: string) => {
      await testId(cb, 'requests-search').fill(query);
      await testId(cb, 'requests-search').press('Enter');
      await applied('q', query);
    };
    await kind('cbRenewal');
    const rows = cb.locator('tr', { has: cb.locator('[data-testid="request-link"]') });
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBeGreaterThan(0);
    for (const query of [number, creator]) {
      await search(query);
      await expect.poll(async () => (await rows.allInnerTexts()).join('|'), { timeout: 20_000 }).toContain(number);
      expect((await rows.allInnerTexts()).every((r) => r.includes(creator))).toBe(true);
    }
    // Another service's requests are not in the renewal list; nor does a search for someone else find it.
    await search('Nobody Such');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(0);
    await kind('cbDesignation');
    await search(number);
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(0);
    await kind('cbRenewal');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(1);
    await screenshot(cb, `${shot}-renewal-list`);
  }

  /** The seeded certificate's row on the CB's certificates list; its service buttons start the request. */
  async function fromCertificate(cb: Page, number: string, kind: string): Promise<string> {
    await cb.goto(`/facility-requests/${CB}?tab=certificates`);
    await waitForIdle(cb);
    const row = cb.locator('tr', { hasText: number });
    await row.waitFor();
    return startService(cb, kind, row);
  }

  async function renewal(p: People, lang: Lang) {
    const shot = `cb-${lang}-renewal`;
    const { cb, registration, audit, committee } = p;
    const number = SEEDED.renewal[lang];
    const id = await fromCertificate(cb, number, 'cbRenewal');
    await fillCbDesignation(cb, { categories: ['D'], after: 'renewal' });
    await fill(cb, 'renewal.reason', lang === 'ar' ? 'انتهاء مدة التعيين' : 'The designation is about to expire');
    await next(cb, 'summary');
    // The renewal fee, shown including VAT before submitting.
    await expect.poll(() => testId(cb, 'fee-amount').first().innerText()).toBe('25000.00');
    await submitWizard(cb, id, shot);

    // While this renewal is open the certificates tab does not offer another: the row links the open one by its number,
    // in the user's language (the server's `openRenewal`, by the start's own one-open-request rule).
    await cb.goto(`/facility-requests/${CB}?tab=certificates`);
    await waitForIdle(cb);
    const row = cb.locator('tr', { hasText: number });
    const openLink = testId(row, 'open-renewal');
    await openLink.waitFor();
    expect(await testId(row, 'start-cbRenewal').count()).toBe(0);
    const requestNumber = (await requestOf(cb, id)).number;
    const says = { ar: arRequests.renewal.open, en: enRequests.renewal.open }[lang];
    // The number is drawn left to right in either language (its isolate marks are not the text).
    expect((await openLink.innerText()).replace(/[\u2066-\u2069]/g, '')).toBe(says.replace('{{number}}', requestNumber));
    expect(await openLink.getAttribute('href')).toBe(`/requests/${id}`);

    await openRequest(registration, id);
    await act(registration, 'ASSIGN_TO_ME');
    await act(registration, 'ACCEPT');
    await expectState(registration, id, 'audit1.plan');
    await openRequest(audit, id);
    await submitPlan(audit, lang, 'new');
    await expectState(audit, id, 'audit1.planApproval');
    await openRequest(cb, id);
    await act(cb, 'ACCEPT_PLAN');
    // No audit fees on a renewal.
    await expectState(cb, id, 'audit1.planApproved');
    await inspectAndReport(audit, id, lang, 'audit1');
    await openRequest(committee, id);
    await act(committee, 'APPROVE', lang === 'ar' ? 'تجديد التعيين' : 'Designation renewed');
    await expectState(committee, id, 'audit1.certificateFees');
    expectBill(lang, await payBill(cb, id, `${shot}-bill`), 25_000);
    await expectState(cb, id, 'audit1.waitingIssue');
    await openRequest(committee, id);
    await act(committee, 'ISSUE_CERTIFICATE');
    await expectState(committee, id, 'issued');

    const cert = await openCertificate(cb, id, shot);
    expect(cert.number).toBe(number);
    await expectCertificatePage(cb, lang, cert, [...SEEDED_CATEGORIES, 'D']);
    // Three more years from the old expiry.
    expect(monthsBetween(expiries[number]!.toISOString(), cert.expiresAt.iso)).toBe(36);
    expect(new Date(cert.expiresAt.iso).getUTCDate()).toBe(expiries[number]!.getUTCDate());
    await findRenewal(cb, (await requestOf(cb, id)).number, 'Aisyah Rahman', shot);
  }

  async function addCategories(p: People, lang: Lang) {
    const shot = `cb-${lang}-add-categories`;
    const { cb, audit, committee } = p;
    const number = SEEDED.add[lang];
    // Spec 01 section 2's guard: categories cannot be added to an expired designation certificate. The wizard does not
    // open; the user is told why and is back on the CB's requests.
    await cb.goto(`/facility-requests/${CB}?tab=certificates`);
    await waitForIdle(cb);
    await testId(cb.locator('tr', { hasText: SEEDED.expired[lang] }), 'start-cbAddCategories').first().click();
    // Said with the certificate's number and the day it expired: the text up to that day.
    const expiredNumber = lang === 'ar' ? `\u2066${SEEDED.expired[lang]}\u2069` : SEEDED.expired[lang];
    const notValid = { ar: arErrors.CertificateNotValidExpired, en: enErrors.CertificateNotValidExpired }[lang].replace('{{number, ltr}}', expiredNumber).split('{{date, date}}')[0];
    await cb.getByText(notValid, { exact: false }).first().waitFor();
    await expect.poll(() => `${new URL(cb.url()).pathname}${new URL(cb.url()).search}`).toBe(`/facility-requests/${CB}`);
    expect(await testId(cb, 'start-service').count()).toBe(0);

    // Its renewal is not open yet (500 days left): the certificates tab does not offer it (the server's `renewal` of
    // the row, as on the certificate page), and its start page opened by address names the certificate and says why
    // before the click, in the user's language (the start call's own words), with "Start" disabled.
    await cb.goto(`/facility-requests/${CB}?tab=certificates`);
    await waitForIdle(cb);
    const row = cb.locator('tr', { hasText: number });
    await testId(row, 'start-cbAddCategories').first().waitFor();
    expect(await testId(row, 'start-cbRenewal').count()).toBe(0);
    const certificateId = (await testId(row, 'certificate-link').first().getAttribute('href'))!.split('/').pop()!;
    await cb.goto(`/cba-renewal-request/${CB}/${certificateId}`);
    await waitForIdle(cb);
    await testId(cb, 'start-service').waitFor();
    await testId(cb, 'start-certificate-number').waitFor();
    expect(await testId(cb, 'start-certificate-number').innerText()).toBe(number);
    // A renewal has no step the profile could fill in: the start screen does not promise it.
    expect(await testId(cb, 'prefill-note').count()).toBe(0);
    const notOpen = { ar: arErrors.RenewalNotOpen, en: enErrors.RenewalNotOpen }[lang].replace('{{days}}', '180');
    expect((await testId(cb, 'start-refused').innerText()).trim()).toBe(notOpen);
    expect(await testId(cb, 'start-service').isDisabled()).toBe(true);
    await screenshot(cb, `${shot}-renewal-not-open`);
    const id = await fromCertificate(cb, number, 'cbAddCategories');
    await testId(cb, 'wizard-step-categories').waitFor();
    await tickCategories(cb, ['D', 'E']);
    await next(cb, 'summary');
    await submitWizard(cb, id, shot);

    await openRequest(audit, id);
    await act(audit, 'ASSIGN_TO_ME');
    await act(audit, 'ACCEPT');
    await expectState(audit, id, 'waitingIssue');
    await openRequest(committee, id);
    await act(committee, 'ISSUE_CERTIFICATE');
    await expectState(committee, id, 'issued');

    const before = expiries[number]!;
    const cert = await openCertificate(cb, id, shot);
    expect(cert.number).toBe(number);
    await expectCertificatePage(cb, lang, cert, [...SEEDED_CATEGORIES, 'D', 'E']);
    expect(new Date(cert.expiresAt.iso).getTime()).toBe(before.getTime());
    // Nothing billed for added categories.
    await openRequest(cb, id);
    expect(await testId(cb, 'bill').count()).toBe(0);
  }

  async function people(lang: Lang, who: (keyof People)[]): Promise<People> {
    const users: Record<keyof People, string> = { cb: 'cb.main', applicant: 'new.applicant', registration: 'registration', audit: 'audit', committee: 'committee' };
    const out = {} as People;
    for (const k of who) out[k] = await userPage(users[k], lang);
    return out;
  }

  async function run(lang: Lang) {
    t0 = Date.now();
    try {
      // One after another: side by side (own contexts per service) timed out signing in on a loaded 2-core machine.
      const p = await people(lang, ['cb', 'applicant', 'registration', 'audit', 'committee']);
      await designation(p, lang);
      await renewal(p, lang);
      await addCategories(p, lang);
    } catch (e) {
      for (const [name, page] of opened) if (!page.isClosed()) await saveScreenshot(page, `cb-failure-${name}`).catch(() => undefined);
      console.error(server.output().slice(-4000));
      throw e;
    } finally {
      for (const page of opened.values()) if (!page.isClosed()) await page.context().close();
      opened.clear();
    }
  }

  it('walks designation, renewal and added categories to the certificate in Arabic', () => run('ar'), 900_000);

  it('walks designation, renewal and added categories to the certificate in English', () => run('en'), 900_000);
});
