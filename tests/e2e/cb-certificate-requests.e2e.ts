import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import arRequests from '../../locales/ar/requests.json';
import enRequests from '../../locales/en/requests.json';
import arStatus from '../../locales/ar/status.json';
import enStatus from '../../locales/en/status.json';
import { horizontalOverflow, issueCertificate, launchBrowser, openPage, screenshot, signInWithCookie, startServerWithData, testId, waitForIdle, type Lang, type RunningServer } from './harness';
import { signInOverHttp, type HttpSession } from './harness/http-session';

/**
 * Spec 02 section 2, "CB certificate details, and add-categories requests in three steps (submit, audit review,
 * certificate issue). Tabs: current, previous, draft": cb.main opens its designation certificate and reads, beside its
 * details, a completed add-categories request under "previous" and a draft under "draft", each with its status name and
 * step, and "current" saying in words that none is in progress; in Arabic and English, on a phone's 390 px.
 */
const CB = 'cb-global-halal';
const NUMBER = 'CB-E2E-TABS';
const texts = { ar: arRequests.certificate.cbRequests, en: enRequests.certificate.cbRequests };
const statuses = { ar: arStatus.cbAddCategories, en: enStatus.cbAddCategories } as Record<Lang, Record<string, string>>;

interface Sent {
  id: string;
  number: string;
  version: number;
}

async function call(base: string, s: HttpSession, path: string, body: unknown): Promise<Sent> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: s.cookie, 'x-csrf-token': s.csrf },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Sent;
}

describe('a CB designation certificate’s add-categories requests', () => {
  let server: RunningServer;
  let browser: Browser;
  let certificateId: string;
  let completed: Sent;
  let draft: Sent;

  beforeAll(async () => {
    ({ server, data: certificateId } = await startServerWithData((database) => {
      const expiresAt = new Date(Date.now() + 500 * 86_400_000);
      const issuedAt = new Date(expiresAt.getTime() - 3 * 365 * 86_400_000);
      return issueCertificate(database, 'cb.main', {
        number: NUMBER,
        kind: 'cbDesignation',
        facilityPublicId: CB,
        categories: ['C0', 'CI'],
        verificationCode: 'CBE2ETABS',
        scope: 'Halal certification of foreign facilities and shipments',
        issuedAt,
        validFrom: issuedAt,
        expiresAt,
      });
    }));
    browser = await launchBrowser();
    // One request walked to its end by the CB, audit and the committee over HTTP, then a second one left as a draft.
    const [cb, audit, committee] = await Promise.all(['cb.main', 'audit', 'committee'].map((u) => signInOverHttp(server.url, u)));
    const start = (category: string) =>
      call(server.url, cb!, '/api/requests', { kind: 'cbAddCategories', facilityId: CB, certificateId, data: { categories: [{ category, subCategories: [] }] } });
    const send = (s: HttpSession, r: Sent, type: string, payload: Record<string, unknown> = {}) =>
      call(server.url, s, `/api/requests/${r.id}/events`, { type, expectedVersion: r.version, payload });
    completed = await start('D');
    completed = await send(cb!, completed, 'SUBMIT', { agreementAccepted: true });
    completed = await send(audit!, completed, 'ASSIGN_TO_ME');
    completed = await send(audit!, completed, 'ACCEPT');
    completed = await send(committee!, completed, 'ISSUE_CERTIFICATE');
    draft = await start('E');
  }, 150_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function run(lang: Lang) {
    const { page, errors } = await openPage(browser, server.url, { locale: lang === 'ar' ? 'ar-SA' : 'en-US', viewport: { width: 390, height: 844 } });
    try {
      await signInWithCookie(page, server.url, 'cb.main');
      await page.goto(`/facility-profile/cb/${CB}/certifications/cb-halal-certificate/${certificateId}?lang=${lang}`);
      await waitForIdle(page);
      await testId(page, 'certificate-status').waitFor();
      const section = testId(page, 'cb-add-categories-requests');
      const t = texts[lang];
      // The certificate's details, then its requests: none in progress, said in words.
      expect(await page.locator('main').innerText()).toContain(NUMBER);
      // A designation holds categories, not products: no empty "Products" heading.
      expect(await testId(page, 'certificate-products').count()).toBe(0);
      await section.getByText(t.title).waitFor();
      await section.getByText(t.empty.current).waitFor();
      // The open tab's rows (a tab seen before stays in the page, hidden).
      const rows = section.locator('[role="tabpanel"]:not([hidden]) [role="row"]', { has: page.locator('[data-testid="request-link"]') });

      const tab = async (key: 'previous' | 'draft', request: Sent, status: string, step: 1 | 3, name: string) => {
        await testId(section, `cb-requests-tab-${key}`).click();
        await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(1);
        const text = await rows.first().innerText();
        expect(text).toContain(request.number);
        expect(text).toContain(statuses[lang][status]);
        expect(text).toContain(t.step.replace('{{n}}', String(step)).replace('{{count}}', '3').replace('{{name}}', name));
        expect(await rows.first().locator('a').getAttribute('href')).toBe(`/requests/${request.id}`);
      };
      await tab('previous', completed, '1003', 3, t.steps.issue);
      await screenshot(page, `cb-certificate-requests-${lang}-previous`);
      await tab('draft', draft, '1000', 1, t.steps.submit);
      await screenshot(page, `cb-certificate-requests-${lang}-draft`);
      expect(await page.locator('html').getAttribute('dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr');
      expect(await horizontalOverflow(page)).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await page.context().close();
    }
  }

  it('lists them in Arabic', () => run('ar'), 120_000);
  it('lists them in English', () => run('en'), 120_000);
});
