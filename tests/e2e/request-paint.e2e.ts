import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Route } from 'playwright-core';
import { launchBrowser, openPage, startServer, testId, waitForIdle, type RunningServer } from './harness';
import { signInOverHttp, startDraftOverHttp, type HttpSession } from './harness/http-session';
import { holdEntry, layoutShift, paintSettled, watchLayoutShift } from './harness/painted';
import { pixelDifference } from './harness/pixels';

/**
 * The signed-in request page painted by the server (issue 18, server/plugins/prerender.ts `signedIn`): the HTML holds
 * the user's own request, kept by no cache, and the app takes it over without a change on screen; anyone else (another
 * facility's user, no session, a forged session cookie) gets the plain shell, with nothing of the request in it.
 */

const rootOf = (html: string) => /<div id="root">([\s\S]*?)<\/div><script type="application\/json" id="prerender-state">/.exec(html)?.[1] ?? '';

describe('the signed-in request page painted by the server', () => {
  let server: RunningServer;
  let browser: Browser;
  let owner: HttpSession;
  let requestId: string;
  let requestNumber: string;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    owner = await signInOverHttp(server.url, 'internal.main');
    requestId = await startDraftOverHttp(server.url, owner);
    const read = await fetch(`${server.url}/api/requests/${requestId}`, { headers: { cookie: owner.cookie } });
    requestNumber = ((await read.json()) as { number: string }).number;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("sends the owner's request in the HTML, kept by no cache, in Arabic and in English", async () => {
    for (const [lang, dir] of [
      ['ar', 'rtl'],
      ['en', 'ltr'],
    ] as const) {
      const res = await fetch(`${server.url}/requests/${requestId}?lang=${lang}`, { headers: { cookie: owner.cookie } });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(res.headers.get('vary')).toMatch(/cookie/i);
      const html = await res.text();
      expect(html).toContain(`<html lang="${lang}" dir="${dir}"`);
      // The tab's title is the page's own, in its language, before the app has loaded.
      const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
      expect(title).toContain(requestNumber);
      expect(title).toMatch(lang === 'ar' ? /^الطلب .* \| بوابة المركز الوطني للحلال$/ : /^Request .* \| National Halal Center portal$/);
      const main = rootOf(html);
      expect(main).toMatch(/<h1[^>]*data-testid="page-title"/);
      expect(main).toContain(requestNumber);
      expect(main).toContain('data-testid="request-status"');
      expect(main).toContain('Khalid Al-Harbi');
      const state = JSON.parse(/<script type="application\/json" id="prerender-state">([^<]*)<\/script>/.exec(html)![1]!) as { lang: string; queries: { queries: { queryKey: unknown[] }[] } };
      expect(state.lang).toBe(lang);
      expect(state.queries.queries.map((q) => q.queryKey[0])).toContain('/api/requests/{id}');
    }
  });

  it("paints nothing for another facility's user, without a session or with a forged one", async () => {
    const other = await signInOverHttp(server.url, 'external');
    const tampered = owner.cookie.replace(/halal_session=([^;]+)/, (_m, token: string) => `halal_session=${token.slice(0, -4)}AAAA`);
    for (const [who, cookie] of [
      ['another facility', other.cookie],
      ['no session', undefined],
      ['forged session', tampered],
      ['not a token', 'halal_session=x'],
    ] as const) {
      const res = await fetch(`${server.url}/requests/${requestId}?lang=en`, { headers: cookie ? { cookie } : {} });
      const html = await res.text();
      expect(html, who).toContain('<div id="root"></div>');
      expect(html, who).not.toContain('prerender-state');
      expect(html, who).not.toContain(requestNumber);
      expect(res.headers.get('cache-control') ?? '', who).not.toMatch(/public/);
    }
    // In the browser: no session -> the sign-in page; another facility's user -> the 403 screen, as before.
    const { page, context } = await openPage(browser, server.url);
    await page.goto(`/requests/${requestId}?lang=en`);
    await page.waitForURL('**/account/login**');
    await context.addCookies(other.jar.map((c) => ({ ...c, url: server.url })));
    await page.route('**/api/app/halal-user/is-external-user-downloaded-circular', (route) => route.fulfill({ json: true }));
    await page.goto(`/requests/${requestId}?lang=en`);
    await waitForIdle(page);
    expect(await page.locator('body').textContent()).not.toContain(requestNumber);
    await context.close();
  });

  it("the owner's error screen for a request that does not exist says the server's refusal again after a language switch", async () => {
    const { page, context, errors } = await openPage(browser, server.url);
    await context.addCookies(owner.jar.map((c) => ({ ...c, url: server.url })));
    await page.route('**/api/app/halal-user/is-external-user-downloaded-circular', (route) => route.fulfill({ json: true }));
    // The owner's own request id with its last digit changed: the same shape, no such request.
    const missing = requestId.slice(0, -1) + (requestId.endsWith('0') ? '1' : '0');
    // Arabic by default, no ?lang= (the toggle would reload the route without it, and the server say it again).
    await page.goto(`/requests/${missing}`);
    const screen = testId(page, 'error-screen');
    await expect.poll(() => screen.innerText()).toContain('السجل المطلوب غير موجود.');
    // The switch reads the request again in English; held unanswered, so the words come from the refusal's key.
    await page.route(`**/api/requests/${missing}**`, () => undefined);
    await screen.getByTestId('language-toggle').click();
    await expect.poll(() => screen.innerText()).toContain('The requested record does not exist.');
    expect(await screen.innerText()).not.toContain('السجل المطلوب غير موجود.');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("an action whose code cannot be fetched closes with the network message, the page stays, and the next click opens it", async () => {
    const { page, context, errors } = await openPage(browser, server.url);
    await context.addCookies(owner.jar.map((c) => ({ ...c, url: server.url })));
    await page.route('**/api/app/halal-user/is-external-user-downloaded-circular', (route) => route.fulfill({ json: true }));
    // Offline for the dialogs' code only (or a new build has replaced this one's files on the server).
    const offline = (route: Route) => route.abort('internetdisconnected');
    await page.route('**/assets/EventDialog-*.js', offline);
    await page.goto(`/requests/${requestId}?lang=en`);
    await waitForIdle(page);
    await testId(page, 'action-DELETE').click();
    await expect.poll(() => page.getByText('The portal cannot be reached. Check your connection and try again.').count()).toBe(1);
    expect(await testId(page, 'error-screen').count()).toBe(0);
    expect(await page.locator('h1[data-testid="page-title"]').textContent()).toContain(requestNumber);
    expect(await testId(page, 'event-dialog').count()).toBe(0);

    await page.unroute('**/assets/EventDialog-*.js', offline);
    await testId(page, 'action-DELETE').click();
    await testId(page, 'event-dialog').waitFor();
    expect(await testId(page, 'error-screen').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('is taken over by the app with no change on screen and nothing in the console; writes still pass the CSRF check', async () => {
    for (const lang of ['ar', 'en'] as const) {
      // A device in another time zone than the server's (UTC): the history's times are Riyadh's on both sides.
      const { page, context, errors } = await openPage(browser, server.url, { viewport: { width: 390, height: 844 }, timezoneId: 'America/Sao_Paulo' });
      await context.addCookies(owner.jar.map((c) => ({ ...c, url: server.url })));
      // The circular letter's offer (a dialog opened after the app has loaded, whatever painted the page) is answered.
      await page.route('**/api/app/halal-user/is-external-user-downloaded-circular', (route) => route.fulfill({ json: true }));
      const console: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') console.push(`${m.type()}: ${m.text()}`);
      });
      // The facility the user chose earlier, kept by the browser (the header's logo links to it): the server cannot
      // know it, so the app must take the page over without a mismatch and then show it.
      await page.addInitScript(() => {
        localStorage.setItem('halal.selectedFacility', JSON.stringify({ facilityType: 'InternalFacility', id: 'inf-almarai-foods', publicId: 'inf-almarai-foods' }));
      });
      await watchLayoutShift(page);
      // The entry script is held back until the server's page has been looked at.
      const entry = await holdEntry(page);
      await page.goto(`/requests/${requestId}?lang=${lang}`, { waitUntil: 'commit' });
      const title = page.locator('h1[data-testid="page-title"]');
      await title.waitFor();
      expect(await title.textContent()).toContain(requestNumber);
      await paintSettled(page);
      // Painted by the server: the app has not run.
      expect(await page.evaluate(() => document.documentElement.dataset.appState)).toBeUndefined();
      expect(await testId(page, 'request-status').getAttribute('data-code')).toBe('0');
      await page.evaluate(() => ((window as unknown as { painted: Element | null }).painted = document.querySelector('h1')));
      const box = await title.boundingBox();
      const before = await page.screenshot();
      const tabTitle = await page.title();

      await layoutShift(page, { reset: true });
      entry.release();
      await waitForIdle(page);
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
      expect(console, lang).toEqual([]);
      expect(errors).toEqual([]);
      expect(await page.evaluate(() => document.querySelector('h1') === (window as unknown as { painted: Element | null }).painted), lang).toBe(true);
      expect(await title.boundingBox(), lang).toEqual(box);
      expect(await page.title(), lang).toBe(tabTitle);
      expect(pixelDifference(before, await page.screenshot())?.pixels, `${lang}: pixels that changed when the app took over`).toBe(0);
      expect(await layoutShift(page), lang).toBeLessThan(0.01);
      expect(await testId(page, 'logo-link').getAttribute('href'), lang).not.toBe('/');

      // A write after the takeover carries the session's CSRF token (the API refuses it otherwise): the draft is
      // deleted from its action bar (last, so the other checks had the request).
      if (lang === 'en') {
        const sent = page.waitForResponse((r) => r.url().endsWith(`/api/requests/${requestId}/events`) && r.request().method() === 'POST');
        await testId(page, 'action-DELETE').click();
        const dialog = testId(page, 'event-dialog');
        await dialog.waitFor();
        await dialog.locator('button').last().click();
        expect((await sent).status()).toBeLessThan(300);
        expect(errors).toEqual([]);
      }
      await context.close();
    }
  });

  it("opens an action's dialog clicked before the app has come, once it has taken the page over", async () => {
    // The painted page's actions are real buttons before the app is there (web/public/after-paint.js): the click is
    // held while the app loads and made again once it has hydrated the page, so the dialog opens (it was lost before).
    // A draft of its own: the test above deleted the first one.
    const draftId = await startDraftOverHttp(server.url, owner);
    const { page, context, errors } = await openPage(browser, server.url);
    await context.addCookies(owner.jar.map((c) => ({ ...c, url: server.url })));
    await page.route('**/api/app/halal-user/is-external-user-downloaded-circular', (route) => route.fulfill({ json: true }));
    const entry = await holdEntry(page);
    await page.goto(`/requests/${draftId}?lang=ar`);
    expect(await page.evaluate(() => document.documentElement.dataset.app)).toBe('waiting');
    expect(entry.asked()).toBe(false);
    await testId(page, 'action-DELETE').click();
    await expect.poll(entry.asked).toBe(true);
    expect(await testId(page, 'event-dialog').count()).toBe(0);
    // The button shows it was pressed meanwhile (a phone has no busy pointer): dimmed and busy.
    const pressed = testId(page, 'action-DELETE');
    expect(await pressed.getAttribute('aria-busy')).toBe('true');
    // Polled: the button's own opacity transition starts from 1 (CI read it in the same frame once).
    await expect.poll(() => pressed.evaluate((b) => Number(getComputedStyle(b).opacity))).toBeLessThan(1);
    entry.release();
    await testId(page, 'event-dialog').waitFor();
    expect(await pressed.getAttribute('aria-busy')).toBeNull();
    expect(await pressed.evaluate((b) => b.style.opacity)).toBe('');
    expect(await page.evaluate(() => document.documentElement.dataset.app)).toBe('taken-over');
    expect(errors).toEqual([]);
    await context.close();
  });
});
