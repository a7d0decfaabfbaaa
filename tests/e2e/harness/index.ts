/**
 * E2E harness. In a test file (tests/e2e/<area>.e2e.ts):
 *
 *   const server = await startServer();            // real server, fresh PGlite in a temp DATA_DIR, free port
 *   const browser = await launchBrowser();         // /usr/bin/chromium via playwright-core
 *   const { page } = await openPage(browser, server.url);
 *   await signIn(page, 'internal.main');           // demo users, password Demo@12345
 *   await screenshot(page, 'my-screen');           // test-results/screenshots/my-screen.png
 *   ... await browser.close(); await server.stop();
 *
 * `npm run test:e2e` builds web/dist once first (E2E_SKIP_BUILD=1 skips it). Wait for calls to finish with
 * waitForIdle(page) (the full-page loader). Pass settings to startServer({ SESSION_TIME_MINUTES: '0.05' }).
 */
export { startServer, freePort, type RunningServer } from './server';
export { launchBrowser, openPage, signIn, screenshot, waitForIdle, DEMO_PASSWORD, SCREENSHOT_DIR, type OpenedPage } from './browser';
