/**
 * npm run bench:web — Lighthouse (mobile preset: throttled 4G and a slowed CPU) through Debian Chromium against the
 * built portal, served by the app itself on a fresh in-memory database (as bench:http). Pages: the home page, a
 * public list (/hs-code) and a signed-in request page (the applicant's own request; the session cookie goes in
 * Lighthouse's extraHeaders), each in Arabic and in English (?lang=, which the web app reads first and remembers).
 *
 * Builds the web first (`vite build`) unless BENCH_NO_BUILD=1. CHROME_PATH overrides /usr/bin/chromium; BENCH_PAGES
 * (home,hscode,request) and BENCH_LANGS (ar,en) pick fewer runs.
 * Prints performance and accessibility scores and the Web Vitals of each page, asserts nothing, and ends with one
 * line of name=value figures.
 */
import { execFileSync } from 'node:child_process';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { buildApp } from '../../server/app';
import { testConfig } from '../../server/config';
import { registerWeb } from '../../server/plugins/web';
import { DEMO_PASSWORD } from '../../db/seed';
import { createTestDatabase } from '../helpers/db';
import { internalCertificateData } from '../services/fixtures';
import { FACILITY, applicant } from '../workflows/fixtures/internal-certificate-scenario';

const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

interface Figures {
  performance: number;
  accessibility: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
}

async function main() {
  if (process.env.BENCH_NO_BUILD !== '1') execFileSync('npx', ['vite', 'build', '--logLevel', 'error'], { stdio: 'inherit' });

  const database = await createTestDatabase();
  const app = await buildApp({ config: testConfig(), database, extra: [(a) => registerWeb(a)] });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: FLAGS });
  try {
    // The applicant's own request (a submitted internal certificate request), opened signed in.
    const created = await app.engine.start('internalCertificate', { ownerUserId: applicant.userId, facilityId: FACILITY, data: internalCertificateData() }, applicant);
    await app.engine.send(created.id, { type: 'SUBMIT', agreementAccepted: true }, applicant, created.version);
    const res = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userName: 'internal.main', password: DEMO_PASSWORD }),
    });
    if (res.status !== 200) throw new Error(`login: ${res.status}`);
    const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');

    const pages = [
      { name: 'home', path: '/home' },
      { name: 'hscode', path: '/hs-code' },
      { name: 'request', path: `/requests/${created.id}`, cookie },
    ];
    const results: Record<string, Figures> = {};
    const only = process.env.BENCH_PAGES?.split(',');
    for (const page of pages.filter((p) => !only || only.includes(p.name))) {
      for (const lang of (process.env.BENCH_LANGS ?? 'ar,en').split(',')) {
        const url = `${base}${page.path}?lang=${lang}`;
        const run = await lighthouse(url, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility'],
          extraHeaders: page.cookie ? { cookie: page.cookie } : undefined,
        });
        if (!run) throw new Error(`no result for ${url}`);
        const { categories, audits } = run.lhr;
        const value = (id: string) => audits[id]?.numericValue ?? NaN;
        const f: Figures = {
          performance: Math.round((categories.performance?.score ?? NaN) * 100),
          accessibility: Math.round((categories.accessibility?.score ?? NaN) * 100),
          fcp: Math.round(value('first-contentful-paint')),
          lcp: Math.round(value('largest-contentful-paint')),
          tbt: Math.round(value('total-blocking-time')),
          cls: Number(value('cumulative-layout-shift').toFixed(3)),
        };
        results[`${page.name}_${lang}`] = f;
        console.log(
          `${`${page.path.replace(created.id, ':id')} (${lang})`.padEnd(22)} performance ${String(f.performance).padStart(3)}  accessibility ${String(f.accessibility).padStart(3)}  ` +
            `FCP ${f.fcp} ms  LCP ${f.lcp} ms  TBT ${f.tbt} ms  CLS ${f.cls}`,
        );
        // What moved (Lighthouse's layout-shifts audit): the element and its share of the score.
        const shifts = audits['layout-shifts']?.details as { items?: { node?: { snippet?: string; selector?: string }; score?: number }[] } | undefined;
        for (const item of shifts?.items ?? []) console.log(`    shift ${item.score?.toFixed(3)} ${item.node?.selector ?? ''} ${item.node?.snippet?.slice(0, 100) ?? ''}`);
        if (process.env.BENCH_DEBUG) console.log(JSON.stringify(audits['layout-shifts'], null, 1).slice(0, 3000));
      }
    }
    console.log(
      Object.entries(results)
        .flatMap(([page, f]) => [`${page}_perf=${f.performance}`, `${page}_a11y=${f.accessibility}`, `${page}_lcp=${f.lcp}`, `${page}_tbt=${f.tbt}`, `${page}_cls=${f.cls}`])
        .join(' '),
    );
  } finally {
    chrome.kill();
    await app.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
