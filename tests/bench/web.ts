/**
 * npm run bench:web — Lighthouse (mobile preset, the default) through Debian Chromium on the pages of issue 18 item 1:
 * the home page, a public list (/hs-code) and a signed-in request page, in Arabic and in English.
 *
 * It builds nothing: run `npm run build` (or `npm start` once) first; the server serves web/dist (or WEB_DIST).
 * It starts the real server as the e2e harness does (`tsx server/main.ts`, a fresh DATA_DIR, SIMULATORS=true,
 * NODE_ENV=test, a free port), signs in as internal.main through the API, starts a draft request, puts the session
 * cookies into the browser for the request pages, then runs
 * Lighthouse on each page in turn. Prints scores and Web Vitals per page and ends with one line of `name=value`
 * figures. Asserts nothing.
 *
 * Settings: CHROME_PATH (default /usr/bin/chromium), BENCH_PAGES (comma-separated subset of the page names below),
 * BENCH_RUNS (Lighthouse runs per page, default 1; the median performance run is reported), BENCH_SAVE (a folder:
 * each run's Lighthouse JSON is written there as <page>-<run>.json, for the critical request chain and LCP element).
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { signInOverHttp, startDraftOverHttp } from '../e2e/harness/http-session';
import { spawnServer } from '../e2e/harness/spawn';

const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 1));

interface Figures {
  perf: number;
  a11y: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  scriptKb: number;
  totalKb: number;
}

// The harness's server start (tests/e2e/harness/spawn.ts), serving web/dist or WEB_DIST.
const server = await spawnServer();
const chrome = await launch({ chromePath: CHROME_PATH, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });

/**
 * Lighthouse's `extraHeaders: { cookie }` does not reach the app's own API calls (the page ends on the sign-in page),
 * so the session cookies go into the browser itself and that run keeps them (disableStorageReset), after the cache
 * has been emptied so it is still a cold load.
 */
async function putCookies(url: string, cookie: string) {
  const page = await browser.newPage();
  const cdp = await page.createCDPSession();
  await cdp.send('Network.clearBrowserCache');
  const cookies = cookie.split('; ').map((pair) => {
    const at = pair.indexOf('=');
    return { name: pair.slice(0, at), value: pair.slice(at + 1), url };
  });
  await cdp.send('Network.setCookies', { cookies });
  await page.close();
}

try {
  const owner = await signInOverHttp(server.url, 'internal.main');
  const requestId = await startDraftOverHttp(server.url, owner);

  const pages: { name: string; path: string; cookie?: string }[] = [
    { name: 'home_ar', path: '/home?lang=ar' },
    { name: 'home_en', path: '/home?lang=en' },
    { name: 'hscode_ar', path: '/hs-code?lang=ar' },
    { name: 'hscode_en', path: '/hs-code?lang=en' },
    { name: 'request_ar', path: `/requests/${requestId}?lang=ar`, cookie: owner.cookie },
    { name: 'request_en', path: `/requests/${requestId}?lang=en`, cookie: owner.cookie },
  ];
  const only = process.env.BENCH_PAGES?.split(',').map((s) => s.trim());
  const results: [string, Figures][] = [];
  console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${RUNS} run(s) per page, mobile preset`);
  for (const page of pages.filter((p) => !only || only.includes(p.name))) {
    const runs: Figures[] = [];
    // A run Lighthouse could not trace (NO_NAVSTART, now and then on this Chromium) is run again, twice at most.
    for (let i = 0, retries = 0; i < RUNS; i++) {
      if (page.cookie) await putCookies(server.url, page.cookie);
      const result = await lighthouse(
        `${server.url}${page.path}`,
        {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility'],
          disableStorageReset: !!page.cookie,
        },
      );
      if (!result) throw new Error(`lighthouse gave no result for ${page.path}`);
      const { lhr } = result;
      if (process.env.BENCH_SAVE) writeFileSync(`${process.env.BENCH_SAVE}/${page.name}-${i}.json`, JSON.stringify(lhr));
      if (lhr.runtimeError) {
        const message = `${page.path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`;
        if (++retries > 2) throw new Error(message);
        console.log(`  ${message}: run again`);
        i--;
        continue;
      }
      const num = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
      const items = (lhr.audits['resource-summary']?.details as { items?: { resourceType: string; transferSize: number }[] } | undefined)?.items ?? [];
      const size = (type: string) => (items.find((it) => it.resourceType === type)?.transferSize ?? 0) / 1024;
      runs.push({
        perf: Math.round((lhr.categories.performance?.score ?? 0) * 100),
        a11y: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
        fcp: num('first-contentful-paint'),
        lcp: num('largest-contentful-paint'),
        tbt: num('total-blocking-time'),
        cls: num('cumulative-layout-shift'),
        scriptKb: size('script'),
        totalKb: size('total'),
      });
      if (i === 0) {
        if (lhr.finalDisplayedUrl !== `${server.url}${page.path}`) console.log(`  ${page.name} ended on ${lhr.finalDisplayedUrl}`);
        const opportunities = Object.values(lhr.audits)
          .filter((a) => a.details?.type === 'opportunity' && (a.numericValue ?? 0) > 0)
          .sort((a, b) => (b.numericValue ?? 0) - (a.numericValue ?? 0))
          .slice(0, 3)
          .map((a) => `${a.id} ${Math.round(a.numericValue ?? 0)} ms`);
        if (opportunities.length) console.log(`  ${page.name} opportunities: ${opportunities.join(', ')}`);
        const shifts = ((lhr.audits['layout-shifts']?.details as { items?: { score: number; node?: { selector?: string; nodeLabel?: string } }[] } | undefined)?.items ?? [])
          .slice(0, 3)
          .map((it) => `${it.score.toFixed(3)} ${it.node?.selector ?? '?'} "${(it.node?.nodeLabel ?? '').slice(0, 40)}"`);
        if (shifts.length) console.log(`  ${page.name} layout shifts: ${shifts.join('; ')}`);
      }
    }
    runs.sort((a, b) => a.perf - b.perf);
    const f = runs[Math.floor(runs.length / 2)];
    results.push([page.name, f]);
    console.log(
      `${page.name.padEnd(11)} ${page.path.padEnd(50)} performance ${String(f.perf).padStart(3)}  accessibility ${String(f.a11y).padStart(3)}  ` +
        `FCP ${(f.fcp / 1000).toFixed(2)} s  LCP ${(f.lcp / 1000).toFixed(2)} s  TBT ${Math.round(f.tbt)} ms  CLS ${f.cls.toFixed(3)}  ` +
        `script ${f.scriptKb.toFixed(0)} KB (all ${f.totalKb.toFixed(0)} KB) transferred`,
    );
  }
  console.log(
    results
      .map(([name, f]) =>
        [
          `${name}_perf=${f.perf}`,
          `${name}_a11y=${f.a11y}`,
          `${name}_fcp_ms=${Math.round(f.fcp)}`,
          `${name}_lcp_ms=${Math.round(f.lcp)}`,
          `${name}_tbt_ms=${Math.round(f.tbt)}`,
          `${name}_cls=${f.cls.toFixed(3)}`,
          `${name}_script_kb=${f.scriptKb.toFixed(0)}`,
        ].join(' '),
      )
      .join(' '),
  );
} finally {
  await browser.disconnect();
  chrome.kill();
  await server.stop();
}
