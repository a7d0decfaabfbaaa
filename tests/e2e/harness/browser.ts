import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { signInOverHttp } from './http-session';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
export const SCREENSHOT_DIR = join(ROOT, 'test-results/screenshots');
export const DEMO_PASSWORD = 'Demo@12345';

/** Debian's Chromium, driven by playwright-core (no browser download). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

export interface PageOptions {
  /** Default 1280x800 (large screen); use a width below 992 for the small-screen layout. */
  viewport?: { width: number; height: number };
  /** Preferred language sent by the browser; the portal still defaults to Arabic. */
  locale?: string;
  /** The device's time zone (default: the machine's). The portal shows Riyadh time whatever it is. */
  timezoneId?: string;
  /**
   * The portal's service worker registers 30 s after a page loads; walks block it (default) so that every call goes
   * to the server and page.route sees it. service-worker.e2e.ts allows it.
   */
  serviceWorkers?: 'allow' | 'block';
}

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught errors of the page so far: tests assert it stays empty. */
  errors: string[];
}

/** A fresh browser context (own cookies and storage) with one page whose relative URLs start at `baseURL`. */
export async function openPage(browser: Browser, baseURL: string, options: PageOptions = {}): Promise<OpenedPage> {
  const context = await browser.newContext({
    baseURL,
    viewport: options.viewport ?? { width: 1280, height: 800 },
    locale: options.locale ?? 'ar-SA',
    timezoneId: options.timezoneId,
    acceptDownloads: true,
    serviceWorkers: options.serviceWorkers ?? 'block',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return { context, page, errors };
}

/**
 * Waits until the current navigation has settled (guards and redirects done: <html data-app-state="ready">) and
 * no request is in flight (the full-page loader is gone). Call it after goto, reload and clicks that navigate.
 */
export async function waitForIdle(page: Page): Promise<void> {
  // A public page the server painted waits for the visitor to engage before it loads the app (web/public/after-paint.js):
  // a key is pressed, as a person's first move would be, and the app is then waited for as on any page.
  for (;;) {
    const state = await page.waitForFunction(
      () => {
        const html = document.documentElement.dataset;
        return html.appState === 'ready' ? 'ready' : html.app === 'waiting' ? 'waiting' : false;
      },
      undefined,
      { timeout: 30_000 },
    );
    if ((await state.jsonValue()) === 'ready') break;
    await page.keyboard.press('Shift');
  }
  await page.locator('[data-testid="page-loader"]').waitFor({ state: 'detached', timeout: 30_000 });
}

const circularAnswered = new WeakSet<Page>();

/**
 * Signs in through the sign-in page, like a person, and waits for the landing page. Non-staff users are offered
 * the circular letter once after signing in (a modal); unless `offerCircular` is set, this page is told it was
 * already downloaded so the modal does not cover the screen under test.
 */
export async function signIn(page: Page, userName: string, options: { password?: string; offerCircular?: boolean } = {}): Promise<void> {
  const { password = DEMO_PASSWORD, offerCircular = false } = options;
  if (!offerCircular) await answerCircular(page);
  await page.goto('/account/login');
  await page.locator('input[name="userName"]').fill(userName);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('[data-testid="login-submit"]').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/account/login'));
  await waitForIdle(page);
}

/** Tells this page the circular letter was already downloaded, so its modal does not cover the screen under test. */
async function answerCircular(page: Page): Promise<void> {
  if (circularAnswered.has(page)) return;
  circularAnswered.add(page);
  await page.route('**/api/app/halal-user/is-external-user-downloaded-circular', (route) => route.fulfill({ json: true }));
}

/**
 * Gives the page's context a demo user's session signed in over HTTP, for walks whose subject is not signing in
 * (signing in on the sign-in page is walked by accounts.e2e.ts and shell.e2e.ts): it spares the sign-in page's load
 * and the landing page's, per user and language. Navigates nowhere; the circular-letter offer is answered as by signIn.
 */
export async function signInWithCookie(page: Page, baseURL: string, userName: string): Promise<void> {
  await answerCircular(page);
  const session = await signInOverHttp(baseURL, userName);
  await page.context().addCookies(session.jar.map((c) => ({ ...c, url: baseURL })));
}

/** Lets opening dialogs and drawers finish sliding in (endless animations such as spinners are skipped). */
export async function finishAnimations(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number(a.effect?.getComputedTiming().endTime) < 5_000)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/**
 * With E2E_SCREENSHOTS=1, saves test-results/screenshots/<name>.png (to look at the screens a walk went through).
 * Without it only the animations finish, as before a picture: a full-page picture is ~0.35 s each on a quiet machine
 * (41 in the shell and internal-certificate walks, 14.6 s of their 171 s) and nothing reads them in CI.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  await finishAnimations(page);
  if (process.env.E2E_SCREENSHOTS === '1') await saveScreenshot(page, name);
}

/** Saves test-results/screenshots/<name>.png in any case: what each user saw when a walk failed. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** The boxes of two elements (by data-testid) intersect: a floating button covering an action. */
/** Whether the drawn text of `a` (its lines' boxes, not its block's) lies under `b`. */
export async function textOverlaps(page: Page, a: string, b: string): Promise<boolean> {
  return page.evaluate(
    ([a, b]) => {
      const text = document.querySelector(`[data-testid="${a}"]`);
      const other = document.querySelector(`[data-testid="${b}"]`);
      if (!text || !other) return false;
      const range = document.createRange();
      range.selectNodeContents(text);
      const o = other.getBoundingClientRect();
      return [...range.getClientRects()].some((r) => r.width > 0 && r.left < o.right && o.left < r.right && r.top < o.bottom && o.top < r.bottom);
    },
    [a, b] as const,
  );
}

export async function overlaps(page: Page, a: string, b: string): Promise<boolean> {
  const box = (id: string) => page.locator(`[data-testid="${id}"]`).first().boundingBox();
  const [ra, rb] = await Promise.all([box(a), box(b)]);
  if (!ra || !rb) return false;
  return ra.x < rb.x + rb.width && rb.x < ra.x + ra.width && ra.y < rb.y + rb.height && rb.y < ra.y + ra.height;
}
