import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { INTERNAL_REQUEST_ATTACHMENTS } from '../../machines/forms';
import { internalCertificateData } from '../services/fixtures';
import { act, datesDrawn, horizontalOverflow, launchBrowser, listCells, numberDrawn, openPage, overlaps, screenshot, textOverlaps, signIn, startServer, waitForIdle, type RunningServer } from './harness';

/**
 * Issue 17: the way a person goes through the portal, in real Chromium, in Arabic and English, on a phone (390 px)
 * and a large screen (1280 px). A new applicant adds a facility, finds the service on the facility's profile,
 * starts it (the facility's data prefilled), uploads, removes and re-uploads a file of a one-file category,
 * submits; another user of a facility sees the main user's requests in the facility's list; the wizard's Next is
 * never under the chat button; the request page has no horizontal overflow and its number keeps its order;
 * axe finds nothing serious on the pages touched. One server and one browser for the whole file.
 */
type Lang = 'ar' | 'en';
const WIDTHS = [390, 1280] as const;
const testId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
const pdfNamed = (name: string) => ({ name, mimeType: 'application/pdf', buffer: PDF });

describe('a person goes through the portal', () => {
  let server: RunningServer;
  let browser: Browser;
  const axeFindings: string[] = [];

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function userPage(userName: string, lang: Lang, width: number): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
    const { page, context, errors } = await openPage(browser, server.url, { locale: lang === 'ar' ? 'ar-SA' : 'en-US', viewport: { width, height: 860 } });
    page.on('dialog', (d) => void d.dismiss());
    await signIn(page, userName);
    return { page, errors, close: () => context.close() };
  }

  async function go(page: Page, path: string, lang: Lang) {
    await page.goto(`${path}${path.includes('?') ? '&' : '?'}lang=${lang}`);
    await waitForIdle(page);
  }

  /** axe on the page as it is now: serious and critical violations are collected and asserted at the end. */
  async function axe(page: Page, label: string) {
    const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    for (const v of result.violations) {
      if (v.impact === 'serious' || v.impact === 'critical') axeFindings.push(`${label}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`);
    }
  }

  /** Sends the wizard's data for the steps before the attachments, as the wizard's own draft call does. */
  async function fillDraft(page: Page, requestId: string) {
    const { attachments: _files, ...data } = internalCertificateData();
    const status = await page.evaluate(
      async ({ requestId, data }) => {
        const session = (await (await fetch('/api/auth/session')).json()) as { csrfToken: string };
        const request = (await (await fetch(`/api/requests/${requestId}`)).json()) as { version: number; data: Record<string, unknown> };
        const res = await fetch(`/api/requests/${requestId}/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
          body: JSON.stringify({
            type: 'EDIT',
            expectedVersion: request.version,
            payload: { data: { ...data, factory: { ...(data.factory as object), ...(request.data.factory as object) } } },
          }),
        });
        return res.status;
      },
      { requestId, data },
    );
    expect(status).toBe(200);
  }

  async function journey(lang: Lang, width: number, crNumber: string) {
    const shot = (name: string) => `journey-${lang}-${width}-${name}`;
    const { page, errors, close } = await userPage('new.applicant', lang, width);

    // ---- adds a facility (the commercial registry's data), lands on its profile ----
    await go(page, '/add-facility/internal', lang);
    await page.locator('input[name="crNumber"]').fill(crNumber);
    await testId(page, 'cr-lookup').click();
    await testId(page, 'cr-data').waitFor();
    await testId(page, 'wizard-next').click();
    await page.locator('input[name="fullTimeEmployeeCount"]').fill('35');
    await testId(page, 'wizard-next').click();
    await testId(page, 'wizard-next').click();
    await testId(page, 'agree').click();
    await testId(page, 'submit-facility').click();
    await page.waitForURL(/\/facility-profile\/internal\/inf-[0-9a-f]+$/);
    await waitForIdle(page);
    const facilityId = page.url().split('/').pop()!;
    const facilityName = await testId(page, 'page-title').innerText();

    // ---- the profile offers the service (from the service registry) and the facility's lists ----
    await testId(page, 'facility-services').waitFor();
    for (const v of ['requests', 'certificates', 'marks', 'bills']) expect(await testId(page, `facility-${v}`).isVisible()).toBe(true);
    await axe(page, `${lang}-${width} profile`);
    await screenshot(page, shot('profile'));
    await testId(page, 'start-internalCertificate').click();
    await waitForIdle(page);
    // The start screen says the profile's data is filled in for this service (it is).
    await testId(page, 'prefill-note').waitFor();
    await testId(page, 'start-service').click();
    await page.waitForURL(/\/requests\/[0-9a-f-]{36}\/edit$/);
    await waitForIdle(page);
    const requestId = page.url().split('/').at(-2)!;
    // What the portal knows is already there.
    expect(await page.locator('[name="factory.nameAr"]').inputValue()).not.toBe('');
    expect(await page.locator('[name="factory.commercialRegistrationNumber"]').inputValue()).toBe(crNumber);
    // Nothing covers Next (the chat button sits at the same side), wherever the page is scrolled.
    await testId(page, 'wizard-next').scrollIntoViewIfNeeded();
    expect(await overlaps(page, 'wizard-next', 'chat-button')).toBe(false);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    expect(await overlaps(page, 'wizard-next', 'chat-button')).toBe(false);
    await axe(page, `${lang}-${width} wizard`);

    // An empty step names every missing field, not only the step.
    await page.locator('[name="factory.nameEn"]').fill('');
    await page.locator('[name="factory.totalAnnualRevenue"]').fill('');
    await testId(page, 'wizard-next').click();
    await expect.poll(() => page.locator('[data-testid="field-error"]').count()).toBeGreaterThanOrEqual(2);

    // ---- the data of the other steps, then the files through the wizard ----
    await fillDraft(page, requestId);
    await page.reload();
    await waitForIdle(page);
    await testId(page, 'step-attachments').click();
    await testId(page, 'wizard-step-attachments').waitFor();
    // The file field is a translated button, not the browser's "Choose File".
    expect(await testId(page, 'attachment-industrialLicense-button').innerText()).toBe(lang === 'ar' ? 'اختر ملفًا' : 'Choose a file');
    expect(await testId(page, 'attachment-industrialLicense').evaluate((e) => getComputedStyle(e).opacity)).toBe('0');
    if (lang === 'ar') {
      // A ".pdf" that is not a PDF inside: refused, and the refusal on screen follows a language switch.
      const refused = testId(page, 'attachments-industrialLicense').locator('[data-testid="upload-error"]');
      await testId(page, 'attachment-industrialLicense').setInputFiles({ name: 'licence.pdf', mimeType: 'application/pdf', buffer: Buffer.from('not a pdf') });
      await expect.poll(() => refused.innerText()).toBe('محتوى الملف لا يطابق نوعه.');
      await testId(page, 'language-toggle').click();
      await expect.poll(() => refused.innerText()).toBe('The file content does not match its file type.');
      await testId(page, 'language-toggle').click();
      await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('ar');
    }
    for (const category of INTERNAL_REQUEST_ATTACHMENTS.required) {
      await testId(page, `attachment-${category}`).setInputFiles(pdfNamed(`${category}-first.pdf`));
      await testId(page, `attachments-${category}`).locator('[data-testid="attachment-name"]').waitFor();
    }
    const license = testId(page, 'attachments-industrialLicense');
    await expect.poll(() => license.locator('[data-testid="attachment-name"]').allInnerTexts()).toEqual(['industrialLicense-first.pdf']);
    // A one-file category: remove the file, choose another — accepted, listed by its name.
    await license.locator('[data-testid="attachment-remove"]').click();
    await expect.poll(() => license.locator('[data-testid="attachment-name"]').count()).toBe(0);
    await testId(page, 'attachment-industrialLicense').setInputFiles(pdfNamed('licence-2026.pdf'));
    await expect.poll(() => license.locator('[data-testid="attachment-name"]').allInnerTexts()).toEqual(['licence-2026.pdf']);
    expect(await license.locator('[data-testid="upload-error"]').count()).toBe(0);
    await screenshot(page, shot('attachments'));

    // ---- summary (files by name), agreement, submit ----
    await testId(page, 'step-summary').click();
    await testId(page, 'wizard-step-summary').waitFor();
    expect(await page.locator('[data-testid="wizard-step-summary"] [data-testid="attachment-link"]').allInnerTexts()).toContain('licence-2026.pdf');
    await testId(page, 'agreement').click();
    await testId(page, 'wizard-submit').click();
    await page.waitForURL(new RegExp(`/requests/${requestId}\\?submitted=1$`));
    await waitForIdle(page);
    await testId(page, 'request-status').waitFor();
    const number = await requestNumber(page, requestId);
    expect(number).toMatch(/^\d{4}-\d{6}$/);

    // ---- the facility's list shows it, searchable ----
    await go(page, `/facility-requests/${facilityId}`, lang);
    await expect.poll(() => page.locator('[data-testid="request-link"]').allInnerTexts()).toContain(number);
    await testId(page, 'requests-search').fill(number);
    await testId(page, 'requests-search').press('Enter');
    await expect.poll(() => page.locator('[data-testid="request-link"]').count()).toBe(1);
    expect(await numberDrawn(page, '[data-testid="request-link"]', number)).toEqual({ leftToRight: true, lines: 1 });
    // Its date reads day, month, year from the right in Arabic (English writes the month's name).
    if (lang === 'ar') {
      const dates = await datesDrawn(page, 'main');
      expect(dates.length).toBeGreaterThan(0);
      expect(dates.filter((d) => d.order !== 'dayFirst')).toEqual([]);
    }
    await axe(page, `${lang}-${width} facility requests`);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(facilityName).not.toBe('');
    expect(errors).toEqual([]);
    await close();
    return { requestId, number };
  }

  /** The request number as the server gives it. */
  async function requestNumber(page: Page, requestId: string): Promise<string> {
    return page.evaluate(async (id) => ((await (await fetch(`/api/requests/${id}`)).json()) as { number: string }).number, requestId);
  }

  const journeys: Record<Lang, { requestId: string; number: string } | null> = { ar: null, en: null };

  it('Arabic on a phone: adds a facility, starts its service from the profile, replaces a file, submits', async () => {
    journeys.ar = await journey('ar', 390, '1010700001');
  }, 300_000);

  it('English on a large screen: the same journey', async () => {
    journeys.en = await journey('en', 1280, '1010700002');
  }, 300_000);

  it('the request page: no horizontal overflow, the number keeps its order on one line, nothing covers an action, in both languages at 390/768/1280', async () => {
    const r = journeys.ar ?? journeys.en;
    expect(r).not.toBeNull();
    for (const lang of ['ar', 'en'] as const) {
      for (const width of [390, 768, 1280]) {
        const { page, close } = await userPage('new.applicant', lang, width);
        await go(page, `/requests/${r!.requestId}`, lang);
        await testId(page, 'request-status').waitFor();
        expect(await horizontalOverflow(page), `${lang} ${width}`).toBeLessThanOrEqual(0);
        // In order and on one line: "2026-" / "000002" on a phone reads as two numbers.
        expect(await numberDrawn(page, 'h1', r!.number), `${lang} ${width}`).toEqual({ leftToRight: true, lines: 1 });
        // The breadcrumb's number too, and a copy of it is the number alone (no invisible isolate marks to paste into a search).
        expect(await numberDrawn(page, '[data-testid="breadcrumbs"]', r!.number), `${lang} ${width}`).toEqual({ leftToRight: true, lines: 1 });
        expect(await testId(page, 'breadcrumbs').textContent(), `${lang} ${width}`).not.toMatch(/[\u2066-\u2069]/);
        // Each step of its history says when, in the reader's order: day, month, year from the right in Arabic.
        if (lang === 'ar') {
          const dates = await datesDrawn(page, '[data-testid="history"]');
          expect(dates.length, `${width}`).toBeGreaterThan(0);
          expect(dates.filter((d) => d.order !== 'dayFirst'), `${width}`).toEqual([]);
        }
        if (width === 390) {
          // The request's products, a card each: every value on screen beside its field's name (as a table, the HS
          // code and the brand were off screen).
          const cells = await listCells(page);
          expect(cells.total, lang).toBeGreaterThan(0);
          expect(cells.offScreen, lang).toEqual([]);
          expect(cells.unlabelled, lang).toEqual([]);
        }
        if ((WIDTHS as readonly number[]).includes(width)) await axe(page, `${lang}-${width} request page`);
        await screenshot(page, `journey-request-${lang}-${width}`);
        // At the page's end the floating chat button (back once scrolling stops) leaves the footer's last line readable.
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        await testId(page, 'chat-button').waitFor({ state: 'visible' });
        await page.waitForTimeout(1500);
        expect(await textOverlaps(page, 'copyright', 'chat-button'), `${lang} ${width}`).toBe(false);
        await close();
      }
    }
  }, 300_000);

  it('a request cancelled before it was paid: its page does not ask for a certificate it cannot have', async () => {
    const r = journeys.en ?? journeys.ar;
    expect(r).not.toBeNull();
    const { page, errors, close } = await userPage('new.applicant', 'en', 1280);
    await go(page, `/requests/${r!.requestId}`, 'en');
    await testId(page, 'request-status').waitFor();
    await act(page, 'CANCEL', 'Sent by mistake');
    await expect.poll(() => testId(page, 'request-status').getAttribute('data-code')).not.toBe('2');
    const asked: string[] = [];
    page.on('request', (q) => void (q.url().includes('/certificate') && asked.push(q.url())));
    await page.reload();
    await waitForIdle(page);
    await testId(page, 'request-status').waitFor();
    expect(asked).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  }, 120_000);

  it("a sub user sees the main user's requests in the facility's list; the new request's wizard title keeps its number whole on a phone", async () => {
    // internal.main starts a request of Al Marai Foods; internal.sub (a delegated sub user) lists the facility.
    const main = await userPage('internal.main', 'en', 1280);
    await go(main.page, '/facility-profile/internal/inf-almarai-foods', 'en');
    await testId(main.page, 'start-internalCertificate').click();
    await waitForIdle(main.page);
    await testId(main.page, 'start-service').click();
    await main.page.waitForURL(/\/requests\/[0-9a-f-]{36}\/edit$/);
    const id = main.page.url().split('/').at(-2)!;
    const number = await requestNumber(main.page, id);
    await main.close();
    // The wizard's title on a phone keeps the number on one line (it broke as "… request 2026-" / "000003"), opened
    // from the wizard's former address (a bookmark), which leads to the wizard.
    for (const lang of ['ar', 'en'] as const) {
      const phone = await userPage('internal.main', lang, 390);
      await go(phone.page, `/internal-halal-request/${id}`, lang);
      await phone.page.waitForURL(new RegExp(`/requests/${id}/edit`));
      await expect.poll(() => phone.page.locator('h1').textContent()).toContain(number);
      expect(await numberDrawn(phone.page, 'h1', number), `${lang} wizard`).toEqual({ leftToRight: true, lines: 1 });
      await phone.close();
    }
    for (const [lang, width] of [['ar', 390], ['en', 1280]] as const) {
      const sub = await userPage('internal.sub', lang, width);
      await go(sub.page, '/facility-profile/internal/inf-almarai-foods', lang);
      await testId(sub.page, 'facility-requests').click();
      await waitForIdle(sub.page);
      await expect.poll(() => sub.page.locator('[data-testid="request-link"]').allInnerTexts()).toContain(number);
      await testId(sub.page, 'status-draft').click();
      await expect.poll(() => sub.page.locator('[data-testid="request-link"]').allInnerTexts()).toContain(number);
      await testId(sub.page, 'status-completed').click();
      await expect.poll(() => sub.page.locator('[data-testid="request-link"]').allInnerTexts()).not.toContain(number);
      await axe(sub.page, `${lang}-${width} sub user list`);
      // Another facility's list is refused by the server, not only hidden.
      const status = await sub.page.evaluate(async () => (await fetch('/api/queues/all?tab=any&facilityId=exf-anatolia-meat')).status);
      expect(status).toBe(403);
      await sub.close();
    }
  }, 300_000);

  it("a list keeps two filters changed in one go (a search sent, then at once a service chosen)", async () => {
    const { page, errors, close } = await userPage('internal.main', 'en', 1280);
    await go(page, '/facility-requests/inf-almarai-foods', 'en');
    await testId(page, 'requests-search').fill('2026-0000');
    // Both in the same task, before React renders the first: the second change must not undo the first.
    await page.evaluate(() => {
      document.querySelector<HTMLFormElement>('form[role="search"]')!.requestSubmit();
      const kind = document.querySelector<HTMLSelectElement>('[data-testid="requests-kind"]')!;
      kind.value = 'internalCertificate';
      kind.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await expect.poll(() => Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ lang: 'en', q: '2026-0000', kind: 'internalCertificate' });
    expect(errors).toEqual([]);
    await close();
  });

  it("a facility's and a conformity body's main users: no page of theirs scrolls sideways on a phone, and every wizard names its step, in both languages", async () => {
    // The step rows of the add-facility and delegation wizards widened the Arabic page by 91 and 206 px at 390 px.
    const pages: Record<string, string[]> = {
      'internal.main': [
        '/associated-facilities',
        '/add-facility/internal',
        '/add-facility/external',
        '/add-facility/conformity-body',
        '/internal-delegation/inf-almarai-foods',
        '/facility-profile/internal/inf-almarai-foods',
        '/facility-requests/inf-almarai-foods',
        '/certificates',
        '/halal-marks',
        '/invoices',
        '/personal-profile/personal-data',
      ],
      'cb.main': ['/cb-delegation/cb-global-halal', '/facility-profile/cb/cb-global-halal', '/facility-profile/cb/cb-global-halal/requests'],
    };
    const wizards = /add-facility\/internal|delegation/;
    for (const lang of ['ar', 'en'] as const) {
      for (const [user, paths] of Object.entries(pages)) {
        const { page, errors, close } = await userPage(user, lang, 390);
        for (const path of paths) {
          await go(page, path, lang);
          await testId(page, 'page-title').waitFor();
          if (wizards.test(path)) {
            await expect.poll(() => testId(page, 'step-counter').textContent(), { message: `${lang} ${path}` }).toMatch(lang === 'ar' ? /^الخطوة 1 من \d: .+/ : /^Step 1 of \d: .+/);
          }
          expect(await horizontalOverflow(page), `${lang} ${path}`).toBeLessThanOrEqual(0);
          if (/^\/(associated-facilities|facility-requests|invoices|certificates)/.test(path)) {
            // A list on a phone is a card per row: every value on screen with its column's name, none left to a
            // sideways swipe inside the table (as a table, the amount and the status were off screen).
            await testId(page, 'data-table').locator('tbody tr').first().waitFor();
            const cells = await listCells(page);
            // The facility's lists are empty until a request is made; its facilities are there from the start.
            if (path === '/associated-facilities') expect(cells.total, `${lang} ${path}`).toBeGreaterThan(0);
            expect(cells.offScreen, `${lang} ${path}`).toEqual([]);
            expect(cells.unlabelled, `${lang} ${path}`).toEqual([]);
            await axe(page, `${lang}-390 ${path}`);
          }
          if (/^\/facility-profile\/[a-z]+\/[a-z-]+$/.test(path)) {
            // A profile's facts: each value under its label, the card's whole width (beside it, a CB's categories ran
            // to ten lines in a third of the screen).
            const beside = await testId(page, 'facility-data').evaluate((dl) =>
              [...dl.querySelectorAll('dt')].filter((dt) => {
                const dd = dt.nextElementSibling;
                return dd !== null && dd.getBoundingClientRect().top < dt.getBoundingClientRect().bottom;
              }).length,
            );
            expect(beside, `${lang} ${path}`).toBe(0);
          }
        }
        expect(errors).toEqual([]);
        await close();
      }
    }
  }, 300_000);

  it('axe: no serious or critical violation on the pages touched', () => {
    expect(axeFindings).toEqual([]);
  });
});
