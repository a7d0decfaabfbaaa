/**
 * npm run walk — the new-user crawl: walks the portal as each visitor would (anonymous, then demo users) and prints what
 * a newcomer would trip over. A check tool like the benches, not part of `npm test` (vitest's include is *.test.ts).
 *
 *   BASE=http://127.0.0.1:3311 npm run walk     # a running server (its web built: vite build && vite build --ssr)
 *   npm run walk                                # without BASE: starts one as the e2e harness does (serves web/dist)
 *
 * A server seeded with `npm run seed:demo` (same DATA_DIR, before it starts) has requests in every status, so the
 * visitors' lists link request pages too; a fresh one has the accounts and certificates only.
 *
 * Pages: for each visitor, the links of the menus (header, nav, footer) of every page it reaches, starting at its
 * landing page, then one page per route of the router (web/src/router.tsx, routes/public, the service start paths of
 * machines/services/start-routes.ts) whose parameters a link the visitor saw fills (its first request, facility,
 * certificate…), then the pages no link leads to, opened by address with the visitor's own data from the API (entryPages:
 * staff the halal-profile view of each request's CB or facility; applicants their delegation wizard, the CB certificate
 * page, each service's start page for their facilities and certificates (renewals, added categories and products), and
 * a draft's or returned request's wizard), then the routes without parameters no link led to, opened by address (a 403
 * screen of a page opened by address is a note).
 * Public routes are walked by the anonymous visitor only, who also opens the others by address (each should send it
 * to sign in). A page that redirects elsewhere is noted, not walked.
 * Each page is opened in English at 1280 px (where the menus show their links) and in Arabic at 390 px.
 *
 * Checks per page: <html dir> (rtl/ltr), no sideways scroll, no raw i18n key of locales/ among the texts, no console
 * or page error, no 4xx/5xx answer or failed request (an anonymous visitor's 401/403 on /api/ before the sign-in
 * redirect is noted with `#`, not a finding), no error screen on a page a link led to.
 *
 * Prints one line per finding `visitor lang page: problem`, `#` lines for notes, and a last line of `name=value`
 * figures. Exits 1 when it found anything. Settings: WALK_VISITORS (comma-separated, `anonymous` for nobody),
 * WALK_MAX (pages in total, default 80), WALK_PER_VISITOR (default: an equal share of the pages left).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, signIn, waitForIdle } from '../e2e/harness/browser';
import { horizontalOverflow } from '../e2e/harness/drawn';
import { spawnServer, type RunningServer } from '../e2e/harness/spawn';
import { flattenTexts } from '../../machines/text-overrides';
import { START_ROUTES } from '../../machines/services/start-routes';
import { servicePath, servicesFor, type FacilityType } from '../../machines/services';
import { wizardPath } from '../../web/src/routes/services/wizards';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ANONYMOUS = 'anonymous';
const VISITORS = (process.env.WALK_VISITORS ?? `${ANONYMOUS},internal.main,cb.main,external,registration,committee,admin`).split(',').map((v) => v.trim());
const MAX_PAGES = Number(process.env.WALK_MAX ?? 80);
/** Without WALK_PER_VISITOR, the pages left are shared equally among the visitors left. */
const PER_VISITOR = process.env.WALK_PER_VISITOR ? Number(process.env.WALK_PER_VISITOR) : undefined;
type Lang = 'ar' | 'en';
const LOOKS: { lang: Lang; width: number; height: number }[] = [
  { lang: 'en', width: 1280, height: 800 },
  { lang: 'ar', width: 390, height: 844 },
];

// ---- the router's routes, read from its source (the router itself needs the browser build to load) ----

interface Route {
  template: string;
  pattern: RegExp;
  public: boolean;
}

function routeOf(path: string, isPublic: boolean): Route {
  const segments = path.replace(/^\/+/, '').split('/').map((s) => (s === '$' ? '.+' : s.startsWith('$') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')));
  return { template: `/${path.replace(/^\/+/, '')}`, pattern: new RegExp(`^/${segments.join('/')}$`), public: isPublic };
}

/** Route entries `{ path: '…', component: … }` (placeholders left out: nothing links them). */
function entriesIn(file: string): string[] {
  const source = readFileSync(join(ROOT, file), 'utf8');
  return [...source.matchAll(/\{\s*path:\s*'([^']+)',\s*component:\s*([\w.]+)/g)].filter((m) => m[2] !== 'placeholder').map((m) => m[1]!);
}

function loadRoutes(): Route[] {
  const publicPaths = [...entriesIn('web/src/routes/public/index.ts'), 'account/login', 'account/register', 'account/forgot-password', 'delegate-invitation/$token'];
  const all = new Set([...publicPaths, ...entriesIn('web/src/router.tsx'), ...Object.values(START_ROUTES).map((r) => r.start.replace(/^\//, ''))]);
  // Fixed segments before parameters: /internal-halal-request/new/$x must win over /internal-halal-request/$requestId.
  const routes = [...all].map((p) => routeOf(p, publicPaths.includes(p)));
  const rank = (r: Route) => r.template.split('/').map((s) => (s.startsWith('$') ? 1 : 0) as number);
  return routes.sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
    return y.length - x.length;
  });
}

const routes = loadRoutes();
const routeFor = (pathname: string): Route | undefined => routes.find((r) => r.pattern.test(pathname));

// ---- the i18n keys of locales/ ----

/** Every key of locales/<lang>/<ns>.json, as `ns:key` and `key`, with its plural base and its parents of two parts or more. */
function loadKeys(): Set<string> {
  const keys = new Set<string>();
  for (const lang of readdirSync(join(ROOT, 'locales'))) {
    for (const file of readdirSync(join(ROOT, 'locales', lang)).filter((f) => f.endsWith('.json'))) {
      const ns = file.replace(/\.json$/, '');
      for (const key of Object.keys(flattenTexts(JSON.parse(readFileSync(join(ROOT, 'locales', lang, file), 'utf8'))))) {
        const parts = key.replace(/_(zero|one|two|few|many|other)$/, '').split('.');
        for (let n = 2; n <= parts.length; n++) {
          const k = parts.slice(0, n).join('.');
          keys.add(k).add(`${ns}:${k}`);
        }
        if (parts.length === 1) keys.add(`${ns}:${parts[0]}`);
      }
    }
  }
  return keys;
}

const KEYS = loadKeys();
const KEY_LIKE = /[A-Za-z][\w-]*(?::[\w-]+(?:\.[\w-]+)*|(?:\.[\w-]+)+)/g;

// ---- one page ----

interface Seen {
  /** Where the page ended (path and query). */
  at: string;
  problems: string[];
  /** Anonymous 401/403 answers of the API (expected before the sign-in redirect). */
  expected: string[];
  /** Same-origin links of the menus (to walk) and of the whole page (to fill route parameters). */
  menuLinks: string[];
  links: string[];
}

/** Collects the console errors, page errors and failed answers of `page` between two calls of take(). */
function listen(page: Page, anonymous: boolean) {
  let problems: string[] = [];
  let expected: string[] = [];
  const origin = () => new URL(page.url()).origin;
  page.on('pageerror', (e) => problems.push(`page error: ${String(e).split('\n')[0]}`));
  page.on('console', (m) => {
    // A failed load is reported with its address by the response listener.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(`console error: ${m.text().split('\n')[0]}`);
  });
  page.on('response', (r) => {
    if (r.status() < 400) return;
    const url = new URL(r.url());
    const what = `${r.status()} ${r.request().method()} ${url.origin === origin() ? url.pathname + url.search : url.href}`;
    if (anonymous && (r.status() === 401 || r.status() === 403) && url.pathname.startsWith('/api/')) expected.push(what);
    else problems.push(`answer ${what}`);
  });
  page.on('requestfailed', (r) => {
    const failure = r.failure()?.errorText ?? '';
    // Requests cut short by the next navigation are not failures of the page.
    if (failure !== 'net::ERR_ABORTED') problems.push(`request failed: ${r.method()} ${r.url()} ${failure}`);
  });
  return {
    take() {
      const out = { problems, expected };
      problems = [];
      expected = [];
      return out;
    },
  };
}

async function visit(page: Page, listener: ReturnType<typeof listen>, path: string, lang: Lang): Promise<Seen> {
  listener.take();
  const problems: string[] = [];
  await page.goto(path);
  try {
    await waitForIdle(page);
    // Lazy screens start their own calls after the shell is ready: let them answer.
    await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
  } catch {
    problems.push('did not settle within 30 s (data-app-state never ready, or the loader stayed)');
  }
  const url = new URL(page.url());
  // No named inner functions in here: tsx (esbuild keepNames) would wrap them in a __name the page does not have.
  const found = await page.evaluate(() => {
    const menus = document.querySelectorAll('header, nav, footer, [role="navigation"], [data-testid="main-menu"]');
    const menuLinks: string[] = [];
    const links: string[] = [];
    for (const a of document.querySelectorAll<HTMLAnchorElement>('a[href]')) {
      const skipped =
        a.hasAttribute('download') ||
        /sign-?out|log-?out/i.test(a.href + (a.dataset.testid ?? '')) ||
        a.origin !== location.origin ||
        a.pathname.startsWith('/api/') ||
        /\.(pdf|xlsx?|csv|zip|png|jpe?g)$/i.test(a.pathname);
      if (skipped) continue;
      links.push(a.pathname + a.search);
      if ([...menus].some((m) => m.contains(a))) menuLinks.push(a.pathname + a.search);
    }
    const texts = [document.title];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || !n.textContent?.trim() || el.closest('script, style, noscript') || !el.checkVisibility()) continue;
      // A key shown as a key (the monospace key column of the texts screens) is meant to be read as one.
      if (/mono/i.test(getComputedStyle(el).fontFamily)) continue;
      texts.push(n.textContent);
    }
    for (const el of document.querySelectorAll('[placeholder], [title], [aria-label], img[alt]'))
      for (const attr of ['placeholder', 'title', 'aria-label', 'alt']) texts.push(el.getAttribute(attr) ?? '');
    const scroller = document.scrollingElement ?? document.documentElement;
    return {
      dir: document.documentElement.dir,
      errorScreen: document.querySelector('[data-testid="error-screen"]')?.getAttribute('data-status') ?? null,
      sideways: scroller.scrollWidth - scroller.clientWidth,
      menuLinks,
      links,
      text: texts.join('\n'),
    };
  });
  const want = lang === 'ar' ? 'rtl' : 'ltr';
  if (found.dir !== want) problems.push(`<html dir="${found.dir}">, not ${want}`);
  const sideways = Math.max(found.sideways, await horizontalOverflow(page));
  if (sideways > 1) problems.push(`scrolls sideways by ${sideways}px`);
  if (found.errorScreen) problems.push(`shows the ${found.errorScreen} error screen`);
  const raw = [...new Set(found.text.match(KEY_LIKE) ?? [])].filter((k) => KEYS.has(k));
  if (raw.length) problems.push(`raw i18n key(s) shown: ${raw.slice(0, 5).join(', ')}${raw.length > 5 ? ` (+${raw.length - 5})` : ''}`);
  const heard = listener.take();
  return {
    at: url.pathname + url.search,
    problems: [...problems, ...new Set(heard.problems)],
    expected: [...new Set(heard.expected)],
    menuLinks: found.menuLinks,
    links: found.links,
  };
}

// ---- the pages no link leads to, from the visitor's own data ----

interface Row {
  id: string;
  publicId: string;
  facilityType: 'InternalFacility' | 'ExternalFacility' | 'ConformityBody';
  kind: string;
  state: string;
  facilityId: string;
  holder: { publicId: string } | null;
}

/** The API's facility types as the services name them (web/src/routes/services/FacilityRequestsPage.tsx). */
const SERVICE_TYPE: Record<Row['facilityType'], FacilityType> = { InternalFacility: 'internal', ExternalFacility: 'external', ConformityBody: 'cb' };

async function rows(request: APIRequestContext, base: string, path: string): Promise<Row[]> {
  const answer = await request.get(new URL(path, base).href);
  return answer.ok() ? (((await answer.json()) as { items?: Row[] }).items ?? []) : [];
}

/**
 * Addresses of pages the app opens with a button or from another user's screen, or links only once some state holds
 * (a delegation, a renewal window, a draft's wizard, a staff member's view of a CB or facility), filled from what the
 * API tells this visitor: its facilities, their certificates and its requests (staff: the requests of every queue).
 */
async function entryPages(request: APIRequestContext, base: string, staff: boolean): Promise<string[]> {
  const requests = await rows(request, base, '/api/queues/all?tab=any&pageSize=100');
  if (staff) {
    // The Halal center's view of the CB or facility behind a request (no screen links it).
    return requests.map((r) => (r.kind.startsWith('cb') ? `/halal-profile/cb/${encodeURIComponent(r.facilityId)}` : `/halal-profile/facility/${encodeURIComponent(r.facilityId)}`));
  }
  const facilities = await rows(request, base, '/api/Facility/GetUserFacilities?pageSize=100');
  const certificates = await rows(request, base, '/api/certificates?pageSize=100');
  const pages: string[] = [];
  for (const f of facilities) {
    const params = { facilityPublicId: f.publicId, cbPublicId: f.publicId };
    // The delegation wizard (main users; a sub user's 403 is a note).
    if (f.facilityType === 'ConformityBody') pages.push(`/cb-delegation/${encodeURIComponent(f.publicId)}`);
    if (f.facilityType === 'InternalFacility') pages.push(`/internal-delegation/${encodeURIComponent(f.publicId)}`);
    for (const d of servicesFor(SERVICE_TYPE[f.facilityType])) {
      if (d.subject.type === 'facility') pages.push(servicePath(d.routes.start, params));
      for (const c of certificates.filter((c) => c.holder?.publicId === f.publicId)) {
        if (c.kind === 'cbDesignation' && f.facilityType === 'ConformityBody')
          pages.push(`/facility-profile/cb/${encodeURIComponent(f.publicId)}/certifications/cb-halal-certificate/${encodeURIComponent(c.id)}`);
        // Renewals, added categories or products: the services of this certificate's kind (the start link's query
        // carries the certificate where the path does not).
        if (d.subject.type !== 'certificate' || !(d.subject.certificateKinds as readonly string[]).includes(c.kind)) continue;
        const path = servicePath(d.routes.start, { ...params, certificateId: c.id });
        pages.push(d.routes.start.includes('$certificateId') ? path : `${path}?certificateId=${encodeURIComponent(c.id)}`);
      }
    }
  }
  // A draft (else a returned request) in its wizard, where the request page's button leads.
  for (const state of ['draft', 'returned'])
    for (const r of requests.filter((r) => r.state === state)) pages.push(wizardPath(r.id));
  return pages;
}

// ---- one visitor ----

interface Finding {
  visitor: string;
  lang: Lang;
  page: string;
  problem: string;
}

async function signedInPage(browser: Browser, base: string, visitor: string, look: (typeof LOOKS)[number]) {
  const { context, page } = await openPage(browser, base, { viewport: { width: look.width, height: look.height }, locale: look.lang === 'ar' ? 'ar-SA' : 'en-US' });
  // The app reads ?lang=, then localStorage, then the cookie (web/src/i18n.ts initialLanguage); the server the cookie.
  // A PDF frame (/user-manual) has no storage, hence the try.
  await context.addInitScript((lang) => {
    try {
      localStorage.setItem('halal.lang', lang);
    } catch {
      // no storage in this frame
    }
  }, look.lang);
  await context.addCookies([{ name: 'lang', value: look.lang, url: base }]);
  const listener = listen(page, visitor === ANONYMOUS);
  if (visitor !== ANONYMOUS) await signIn(page, visitor);
  return { context, page, listener };
}

/**
 * Walks one visitor: discovers its pages in the first look (English, wide: the menus show every link), then opens the
 * same pages in the other look.
 */
async function walkVisitor(browser: Browser, base: string, visitor: string, budget: number, findings: Finding[], notes: string[]): Promise<string[]> {
  const [first, ...others] = LOOKS;
  const pages: string[] = [];
  const anonymous = visitor === ANONYMOUS;
  {
    const { context, page, listener } = await signedInPage(browser, base, visitor, first!);
    const landing = anonymous ? '/home' : new URL(page.url()).pathname;
    const queue = [landing];
    const tried = new Set<string>();
    const walkedTemplates = new Set<string>();
    const links = new Set<string>();
    let entries: string[] = [];
    if (!anonymous) {
      const session = await context.request.get(new URL('/api/auth/session', base).href);
      entries = await entryPages(context.request, base, session.ok() && ((await session.json()) as { isStaff?: boolean }).isStaff === true);
    }
    const templateOf = (path: string) => routeFor(path.split('?')[0]!)?.template ?? path.split('?')[0]!;
    // Public routes are the anonymous visitor's; it also opens the others by address, to see them send it to sign in.
    const wanted = (path: string, byAddress = false) => {
      const route = routeFor(path.split('?')[0]!);
      if (route && route.public !== anonymous && !(anonymous && byAddress)) return false;
      return !tried.has(templateOf(path));
    };
    const next = (): { path: string; byAddress: boolean } | undefined => {
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) if (wanted(path)) return { path, byAddress: false };
      // Menus exhausted: one page per route whose parameters the visitor's links fill (its first request, facility…).
      const filled = [...links].find((l) => templateOf(l).includes('$') && wanted(l));
      if (filled) return { path: filled, byAddress: false };
      // Then the pages no link led to, filled from the visitor's data (a delegation, a start page, a draft's wizard…).
      const entry = entries.find((e) => wanted(e));
      if (entry) return { path: entry, byAddress: true };
      // Then the routes without parameters that no link led to, opened by address.
      const route = routes.find((r) => !r.template.includes('$') && wanted(r.template, true));
      return route && { path: route.template, byAddress: true };
    };
    for (let step = next(); step && pages.length < budget; step = next()) {
      const { path, byAddress } = step;
      const key = templateOf(path);
      tried.add(key);
      const seen = await visit(page, listener, path, first!.lang);
      for (const l of seen.links) links.add(l);
      // A route opened by address that the visitor may not see: its 403 screen is the answer, not a finding.
      if (byAddress && seen.problems.includes('shows the 403 error screen')) {
        notes.push(`# ${visitor} ${path} (opened by address) shows the 403 screen`);
        continue;
      }
      for (const p of seen.problems) findings.push({ visitor, lang: first!.lang, page: path, problem: p });
      for (const e of seen.expected) notes.push(`# ${visitor} ${first!.lang} ${path}: expected ${e}`);
      // A link that lands elsewhere (a start page, the sign-in page) is walked where it lands, if at all.
      if (seen.at.split('?')[0] !== path.split('?')[0]) {
        notes.push(`# ${visitor} ${path} redirects to ${seen.at}`);
        continue;
      }
      pages.push(path);
      walkedTemplates.add(key);
      for (const l of seen.menuLinks) if (!queue.includes(l)) queue.push(l);
    }
    const unreached = routes.filter((r) => r.public === anonymous && !walkedTemplates.has(r.template)).map((r) => r.template);
    notes.push(`# ${visitor} walked: ${pages.join(' ')}`);
    notes.push(`# ${visitor} not reached (no menu link, or no link to fill its parameters): ${unreached.join(' ') || 'none'}`);
    await context.close();
  }
  for (const look of others) {
    const { context, page, listener } = await signedInPage(browser, base, visitor, look);
    for (const path of pages) {
      const seen = await visit(page, listener, path, look.lang);
      if (seen.at.split('?')[0] !== path.split('?')[0]) findings.push({ visitor, lang: look.lang, page: path, problem: `redirects to ${seen.at} (not in ${first!.lang})` });
      for (const p of seen.problems) findings.push({ visitor, lang: look.lang, page: path, problem: p });
      for (const e of seen.expected) notes.push(`# ${visitor} ${look.lang} ${path}: expected ${e}`);
    }
    await context.close();
  }
  return pages;
}

// ---- main ----

let server: RunningServer | undefined;
const base = process.env.BASE ?? (server = await spawnServer()).url;
const browser = await launchBrowser();
const started = Date.now();
const findings: Finding[] = [];
const notes: string[] = [];
let walked = 0;
try {
  for (const [i, visitor] of VISITORS.entries()) {
    const budget = Math.min(PER_VISITOR ?? Math.ceil((MAX_PAGES - walked) / (VISITORS.length - i)), MAX_PAGES - walked);
    if (budget <= 0) break;
    try {
      walked += (await walkVisitor(browser, base, visitor, budget, findings, notes)).length;
    } catch (e) {
      findings.push({ visitor, lang: LOOKS[0]!.lang, page: '-', problem: `walk stopped: ${String(e).split('\n')[0]}` });
    }
  }
} finally {
  await browser.close();
  await server?.stop();
}

for (const n of notes) console.log(n);
for (const f of findings) console.log(`${f.visitor} ${f.lang} ${f.page}: ${f.problem}`);
const expected = notes.filter((n) => n.includes(': expected ')).length;
console.log(`pages=${walked} loads=${walked * LOOKS.length} visitors=${VISITORS.length} routes=${routes.length} findings=${findings.length} expected=${expected} seconds=${Math.round((Date.now() - started) / 1000)}`);
process.exit(findings.length ? 1 : 0);
