import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Response } from 'playwright-core';
import { launchBrowser, openPage, startServer, waitForIdle, type RunningServer } from './harness';

/**
 * Spec 01 section 9 and issue 18: the service worker registers once the page has been stable for 30 s (the
 * page's clock is skipped ahead, nobody waits), then a returning visit gets the shell's scripts and styles from it
 * while /api stays on the network; and when a new build is deployed the new-version modal still appears.
 */
describe('service worker', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const registrations = (page: Page) => page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length);
  const controlled = (page: Page) =>
    page.evaluate(() =>
      navigator.serviceWorker.controller
        ? true
        : new Promise<boolean>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(true))),
    );

  it('registers after 30 s without navigation, serves the shell from its cache and leaves /api alone; a new build still brings the update modal', async () => {
    const { page, context, errors } = await openPage(browser, server.url);
    await page.clock.install();
    await page.goto('/home?lang=en');
    await waitForIdle(page);

    // Not before 30 s, and a navigation starts the count again.
    await page.clock.runFor(20_000);
    expect(await registrations(page)).toBe(0);
    await page.getByRole('link', { name: 'FAQ' }).first().click();
    await page.waitForURL('**/faq');
    await waitForIdle(page);
    await page.clock.runFor(20_000);
    expect(await registrations(page)).toBe(0);
    await page.clock.runFor(11_000);
    expect(await controlled(page)).toBe(true);
    expect(await registrations(page)).toBe(1);

    // The returning visit: the entry script and styles come from the worker, the API calls from the server.
    const responses: Response[] = [];
    page.on('response', (r) => responses.push(r));
    await page.goto('/home?lang=en');
    await waitForIdle(page);
    const assets = responses.filter((r) => new URL(r.url()).pathname.startsWith('/assets/'));
    const api = responses.filter((r) => new URL(r.url()).pathname.startsWith('/api/'));
    expect(assets.some((r) => /\/assets\/index-[\w-]+\.js$/.test(r.url()))).toBe(true);
    expect(assets.every((r) => r.fromServiceWorker())).toBe(true);
    expect(api.length).toBeGreaterThan(0);
    expect(api.some((r) => r.fromServiceWorker())).toBe(false);
    const cached = await page.evaluate(async () => {
      const paths: string[] = [];
      for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname);
      return paths;
    });
    expect(cached.some((p) => p.startsWith('/assets/index-'))).toBe(true);
    expect(cached.filter((p) => p.startsWith('/api'))).toEqual([]);

    // A new build is deployed (the server comes back with another version on the same address).
    const port = String(server.port);
    await server.stop();
    server = await startServer({ PORT: port, APP_VERSION: '2' });
    await page.getByRole('link', { name: 'FAQ' }).first().click();
    await page.waitForURL('**/faq');
    const dialog = page.getByTestId('new-version-dialog');
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('A new version is available');
    expect(errors).toEqual([]);
    await context.close();
  });
});
