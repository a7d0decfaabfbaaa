/**
 * npx tsx tests/bench/look.ts <outDir> <label>=<webDist> <label>=<webDist>... — does a change look the same?
 * Screenshots (full page) of the same pages under each web build, at 390 and 1280 px, in Arabic and English, then
 * the pixels of each build against the first: "same", or how many pixels differ (with a diff-*.png in
 * <outDir>/<label>). One server and one set of data serve every build: the browser gets the build's files from its
 * folder (page.route) and the API from the server, so dates and numbers match. Used for the Chakra theme trimming
 * (docs/performance-log.md, fifth pass). Asserts nothing; ends with a `name=value` line.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { finishAnimations, launchBrowser, waitForIdle } from '../e2e/harness/browser';
import { pixelDifference } from '../e2e/harness/pixels';
import { signInOverHttp, startDraftOverHttp } from '../e2e/harness/http-session';
import { spawnServer } from '../e2e/harness/spawn';

const [outDir, ...builds] = process.argv.slice(2);
if (!outDir || builds.length === 0) throw new Error('usage: look.ts <outDir> <label>=<webDist>...');
const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.woff2': 'font/woff2', '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json' };

const server = await spawnServer();
const browser = await launchBrowser();

const owner = await signInOverHttp(server.url, 'internal.main');
const requestId = await startDraftOverHttp(server.url, owner);

const click = (button: string, shows: string) => async (page: Page) => {
  const target = page.locator(`[data-testid="${button}"]`);
  if (!(await target.isVisible())) return;
  await target.click();
  await page.locator(`[data-testid="${shows}"]`).first().waitFor();
};
interface Shot {
  name: string;
  path: string;
  signedIn?: boolean;
  act?: (page: Page) => Promise<void>;
  /** Answer /api/public/news with a 429, so the page shows an error toast. */
  failNews?: boolean;
}
const shots: Shot[] = [
  { name: 'home', path: '/home' },
  { name: 'hscode', path: '/hs-code' },
  { name: 'faq', path: '/faq' },
  { name: 'login', path: '/account/login' },
  { name: 'register', path: '/account/register' },
  { name: 'media', path: '/media-center' },
  { name: 'verify', path: '/verify' },
  { name: 'menu', path: '/home', act: click('menu-button', 'menu-drawer') },
  { name: 'toast', path: '/home', failNews: true, act: (page) => page.locator('[data-testid="toast"]').first().waitFor() },
  { name: 'request', path: `/requests/${requestId}`, signedIn: true },
  { name: 'wizard', path: `/requests/${requestId}/edit`, signedIn: true },
  { name: 'requests', path: '/halal-request', signedIn: true },
  { name: 'dashboard', path: '/dashboard', signedIn: true },
  { name: 'facilities', path: '/', signedIn: true },
  { name: 'certificates', path: '/certificates', signedIn: true },
  { name: 'menu-signed-in', path: '/home', signedIn: true, act: click('menu-button', 'menu-drawer') },
  { name: 'sign-out', path: '/home', signedIn: true, act: click('sign-out', 'sign-out-dialog') },
];

/** Loaded, calls done, fonts and images in, finite animations ended. */
async function settle(page: Page) {
  await waitForIdle(page);
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready);
  // Lazy images load in one run and not the next (full-page shots reach them while they load): all load first.
  await page.evaluate(() => document.querySelectorAll('img').forEach((i) => (i.loading = 'eager')));
  await page.waitForFunction(() => [...document.images].every((i) => i.complete), undefined, { timeout: 15_000 });
  await finishAnimations(page);
  await page.waitForTimeout(300);
}

async function take(label: string, dist: string) {
  mkdirSync(join(outDir!, label), { recursive: true });
  for (const width of [390, 1280]) {
    for (const lang of ['ar', 'en']) {
      for (const shot of shots) {
        const context = await browser.newContext({ viewport: { width, height: 800 }, serviceWorkers: 'block', reducedMotion: 'reduce' });
        if (shot.signedIn) {
          await context.addCookies(owner.jar.map((c) => ({ ...c, url: server.url })));
        }
        await context.route('**/*', async (route) => {
          const url = new URL(route.request().url());
          if (url.pathname.startsWith('/api') || url.pathname.startsWith('/simulators')) {
            // Signed-in users are offered the circular letter once (a modal over the page): answered already.
            if (url.pathname.endsWith('is-external-user-downloaded-circular')) return route.fulfill({ json: true });
            if (shot.failNews && url.pathname === '/api/public/news') {
              return route.fulfill({ status: 429, contentType: 'application/problem+json', body: JSON.stringify({ status: 429, title: 'Too many requests' }) });
            }
            return route.continue();
          }
          const file = join(dist, url.pathname);
          const isFile = existsSync(file) && extname(file) !== '';
          return route.fulfill({ body: readFileSync(isFile ? file : join(dist, 'index.html')), contentType: TYPES[extname(file)] ?? 'text/html' });
        });
        const page = await context.newPage();
        page.on('pageerror', (e) => console.log(`${label} ${shot.name}: page error ${String(e)}`));
        await page.goto(`${server.url}${shot.path}?lang=${lang}`);
        await settle(page);
        if (shot.act) {
          await shot.act(page);
          await settle(page);
        }
        await page.screenshot({ path: join(outDir!, label, `${shot.name}-${lang}-${width}.png`), fullPage: true, animations: 'disabled', caret: 'hide' });
        await context.close();
      }
    }
  }
}

/** Differing pixels per screenshot of `label` against `first`; writes diff-<name>.png (differences in red). */
function compare(first: string, label: string): number {
  let differing = 0;
  for (const name of readdirSync(join(outDir!, first)).filter((f) => f.endsWith('.png')).sort()) {
    const compared = pixelDifference(readFileSync(join(outDir!, first, name)), readFileSync(join(outDir!, label, name)));
    if (!compared) {
      console.log(`${label} ${name}: the sizes differ`);
      differing++;
      continue;
    }
    const { pixels, image: diff } = compared;
    console.log(`${label} ${name}: ${pixels === 0 ? 'same' : `${pixels} pixels differ`}`);
    if (pixels > 0) {
      writeFileSync(join(outDir!, label, `diff-${name}`), PNG.sync.write(diff));
      differing++;
    }
  }
  return differing;
}

try {
  const labels = builds.map((b) => b.split('=')[0]!);
  for (const build of builds) {
    const [label, dist] = build.split('=') as [string, string];
    await take(label, dist);
  }
  const figures = labels.slice(1).map((label) => `${label}_differing=${compare(labels[0]!, label)}`);
  console.log(`screenshots=${shots.length * 4} ${figures.join(' ')}`);
} finally {
  await browser.close();
  await server.stop();
}
