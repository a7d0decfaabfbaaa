/**
 * E2E harness. In a test file (tests/e2e/<area>.e2e.ts):
 *
 *   const server = await startServer();            // real server, fresh PGlite in a temp DATA_DIR, free port
 *   const browser = await launchBrowser();         // /usr/bin/chromium via playwright-core
 *   const { page } = await openPage(browser, server.url);
 *   await signIn(page, 'internal.main');           // demo users, password Demo@12345
 *   await screenshot(page, 'my-screen');           // E2E_SCREENSHOTS=1: test-results/screenshots/my-screen.png
 *   ... await browser.close(); await server.stop();
 *
 * `npm run test:e2e` builds the web app once into a temp dir the servers serve (E2E_SKIP_BUILD=1 serves web/dist
 * as it is). After goto/reload/navigating clicks, waitForIdle(page) waits for guards, redirects and calls to settle.
 * Pass settings to startServer({ SESSION_TIME_MINUTES: '0.05' }). signIn answers the circular-letter offer for
 * you unless { offerCircular: true }. On a failure, server.output() has the server's log.
 */
export { startServer, startServerWithData, freePort, type RunningServer } from './server';
export { launchBrowser, openPage, overlaps, signIn, signInWithCookie, textOverlaps, screenshot, saveScreenshot, waitForIdle, DEMO_PASSWORD, SCREENSHOT_DIR, type OpenedPage } from './browser';
export * from './flows';
export { addUndesignatedCb, issueCertificate } from './data';
export { datesDrawn, horizontalOverflow, listCells, numberDrawn } from './drawn';
export { payOnPortalPage, registerPortalPayment, type PortalPayment } from './portal';
