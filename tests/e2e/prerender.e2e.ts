import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, startServer, waitForIdle, type RunningServer } from './harness';
import { holdEntry, layoutShift, paintSettled, watchLayoutShift } from './harness/painted';
import { pixelDifference } from './harness/pixels';
import { DEMO_VERIFICATION_CODES } from '../../db/seed-public';

/**
 * Public pages painted by the server (issue 18 item 1, server/plugins/prerender.ts): readable and navigable with
 * JavaScript off, and taken over by the app without a change on screen — same pixels, same elements (hydrated,
 * not replaced), no layout shift, nothing in the console.
 */

const ARABIC = /[\u0600-\u06FF]/;
const title = (page: Page) => page.locator('h1[data-testid="page-title"]').first();

describe('public pages painted by the server', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the home page without JavaScript, in Arabic and in English, and its links work', async () => {
    for (const [lang, dir, text] of [
      ['ar', 'rtl', ARABIC],
      ['en', 'ltr', /Trusted Halal certification/],
    ] as const) {
      // English for a visitor who chose it before (the lang cookie); Arabic otherwise, whatever the browser accepts.
      const context = await browser.newContext({ baseURL: server.url, javaScriptEnabled: false, locale: 'en-US' });
      if (lang === 'en') await context.addCookies([{ name: 'lang', value: 'en', url: server.url }]);
      const page = await context.newPage();
      await page.goto('/home');
      expect(await page.locator('html').getAttribute('lang')).toBe(lang);
      expect(await page.locator('html').getAttribute('dir')).toBe(dir);
      expect(await title(page).textContent()).toMatch(text);
      // Styled: the hero's heading is white on the brand gradient, not the browser's default black.
      expect(await title(page).evaluate((h) => getComputedStyle(h).color)).toBe('rgb(255, 255, 255)');
      await page.locator('a[href="/hs-code"]').first().click();
      await page.waitForURL('**/hs-code');
      expect(await title(page).textContent()).toMatch(lang === 'ar' ? ARABIC : /HS codes/i);
      await context.close();
    }
  });

  it('asks only for the fonts its HTML preloads, so no text waits for a face found late', async () => {
    for (const path of ['/home?lang=ar', '/home?lang=en', '/hs-code?lang=en']) {
      const { page, context } = await openPage(browser, server.url, { viewport: { width: 390, height: 844 } });
      const fonts = new Set<string>();
      page.on('request', (r) => {
        if (r.resourceType() === 'font') fonts.add(new URL(r.url()).pathname);
      });
      await page.goto(path);
      await waitForIdle(page);
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      const preloaded = await page.evaluate(() => Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="font"]')).map((l) => new URL(l.href).pathname));
      expect(fonts.size, path).toBeGreaterThan(0);
      expect([...fonts].filter((f) => !preloaded.includes(f)), `${path}: fonts fetched without a preload`).toEqual([]);
      await context.close();
    }
  });

  it('loads no app script for a visitor who only reads, and loads it when the visitor engages', async () => {
    for (const path of ['/home?lang=ar', '/hs-code?lang=en']) {
      const { page, context, errors } = await openPage(browser, server.url, { viewport: { width: 390, height: 844 } });
      const scripts: string[] = [];
      page.on('request', (r) => {
        if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
      });
      await page.goto(path);
      // Well past the load event: nothing but the small script that waits for the visitor.
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 1_500)));
      expect(scripts, path).toEqual(['/after-paint.js']);
      expect(await page.evaluate(() => document.documentElement.dataset.app), path).toBe('waiting');
      // The page reads and scrolls as it is; a link works as a link.
      expect(await title(page).isVisible()).toBe(true);
      await page.mouse.move(200, 300);
      await page.waitForFunction(() => document.documentElement.dataset.appState === 'ready', undefined, { timeout: 30_000 });
      expect(scripts.some((s) => /^\/assets\/index-[\w-]+\.js$/.test(s)), path).toBe(true);
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.app), { timeout: 10_000 }).toBe('taken-over');
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('does what the visitor did before the app came once it has: a click, a choice in a list, typed text, a form sent with Enter', async () => {
    // Each case acts on the painted page while the app's entry script is held back, then lets it through.
    const cases: { path: string; width: number; act: (page: Page) => Promise<void>; done: (page: Page) => Promise<void> }[] = [
      {
        path: '/home?lang=ar',
        width: 1280,
        act: (page) => page.getByTestId('language-toggle').click(),
        done: (page) => page.waitForFunction(() => document.documentElement.lang === 'en' && document.documentElement.dir === 'ltr').then(() => undefined),
      },
      {
        // A choice in a list (the browser changes it at once; the app filters by it once it has come).
        path: '/accredited-cb?lang=en',
        width: 1280,
        act: async (page) => {
          await page.getByTestId('cb-country').hover();
          await page.getByTestId('cb-country').selectOption('TR');
        },
        done: (page) => page.waitForFunction(() => document.querySelector('[data-testid="cb-count"]')?.getAttribute('data-count') === '1').then(() => undefined),
      },
      {
        path: '/privacy?lang=en',
        width: 800,
        act: (page) => page.getByTestId('menu-button').click(),
        done: (page) => page.getByTestId('menu-drawer').waitFor(),
      },
      {
        path: '/home?lang=en',
        width: 390,
        act: async (page) => {
          await page.getByTestId('verify-input').fill(DEMO_VERIFICATION_CODES.active);
          await page.getByTestId('verify-input').press('Enter');
        },
        done: async (page) => {
          await page.waitForURL(`**/verify/${DEMO_VERIFICATION_CODES.active}`);
          await page.getByTestId('verify-result').waitFor();
        },
      },
    ];
    for (const c of cases) {
      const { page, context, errors } = await openPage(browser, server.url, { viewport: { width: c.width, height: 844 } });
      const entry = await holdEntry(page);
      await page.goto(c.path);
      await c.act(page);
      // The visitor's move asked for the app; the page has not changed under them meanwhile.
      await expect.poll(entry.asked, { timeout: 10_000 }).toBe(true);
      expect(page.url(), c.path).toContain(c.path.split('?')[0]);
      entry.release();
      await c.done(page);
      expect(errors, c.path).toEqual([]);
      await context.close();
    }
  });

  it('lets go of a click when the app could not be loaded, and loads the page afresh at the next one', async () => {
    // The first request for the entry fails (a dropped connection): the page stays as painted, not stuck "busy".
    const { page, context, errors } = await openPage(browser, server.url);
    let asked = 0;
    await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
      asked++;
      if (asked === 1) await route.abort('connectionreset');
      else await route.continue();
    });
    await page.goto('/home?lang=ar');
    await page.getByTestId('language-toggle').click();
    await page.waitForFunction(() => document.documentElement.dataset.app === 'failed' && document.documentElement.style.cursor === '');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ar');
    expect(await page.getByTestId('language-toggle').getAttribute('aria-busy')).toBeNull();
    // The next click on a control loads the page afresh (the page cannot ask for a failed module again), and the
    // click after that is done by the app.
    await Promise.all([page.waitForEvent('load'), page.getByTestId('language-toggle').click()]);
    expect(await page.evaluate(() => document.documentElement.dataset.app)).toBe('waiting');
    await page.getByTestId('language-toggle').click();
    await page.waitForFunction(() => document.documentElement.lang === 'en' && document.documentElement.dir === 'ltr');
    expect(asked).toBe(2);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('is taken over by the app with no change on screen, no layout shift and nothing in the console', async () => {
    const news = (await (await fetch(`${server.url}/api/public/news?pageSize=1`)).json()) as { items: { id: string }[] };
    const paths = ['/home?lang=ar', '/home?lang=en', '/hs-code?lang=ar', '/faq?lang=en', `/media-center/${news.items[0]!.id}?lang=ar`, `/verify/${DEMO_VERIFICATION_CODES.active}?lang=en`];
    for (const path of paths) {
      const { page, context, errors } = await openPage(browser, server.url, { viewport: { width: 390, height: 844 } });
      const console: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') console.push(`${m.type()}: ${m.text()}`);
      });
      await watchLayoutShift(page);
      // The entry script is held back until the server's page has been looked at.
      const entry = await holdEntry(page);
      await page.goto(path, { waitUntil: 'commit' });
      await title(page).waitFor();
      await paintSettled(page);
      expect(await page.evaluate(() => document.documentElement.dataset.appState)).toBeUndefined();
      await page.evaluate(() => ((window as unknown as { painted: Element | null }).painted = document.querySelector('h1')));
      const box = await title(page).boundingBox();
      const before = await page.screenshot();

      // Shifts from here on are the takeover's (the font swap of the first paint is counted before).
      await layoutShift(page, { reset: true });
      entry.release();
      await waitForIdle(page);
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
      expect(console, path).toEqual([]);
      expect(errors).toEqual([]);
      // Hydrated: the heading is the very element the server sent, where it was.
      expect(await page.evaluate(() => document.querySelector('h1') === (window as unknown as { painted: Element | null }).painted), path).toBe(true);
      expect(await title(page).boundingBox(), path).toEqual(box);
      expect(pixelDifference(before, await page.screenshot())?.pixels, `${path}: pixels that changed when the app took over`).toBe(0);
      expect(await layoutShift(page), path).toBeLessThan(0.01);
      await context.close();
    }
  });
});
