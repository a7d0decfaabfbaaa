/**
 * npx tsx tests/bench/boot-trace.ts [path...] — where the main thread's time goes while a page boots.
 * Loads each path (default /home?lang=ar, /hs-code?lang=en) cold in Debian Chromium at a phone viewport with the CPU
 * slowed 4× (as Lighthouse's mobile preset assumes), records a trace and a CPU profile from navigation until the
 * network has been idle for a second, and prints: the long tasks (> 50 ms) with what ran in them, the blocking
 * time (sum of each task's time over 50 ms, as TBT counts it), first paint, LCP, and the self time per module and
 * per function. Built files are attributed to their sources when the build has source maps
 * (`npx vite build --sourcemap --outDir <dir>` and WEB_DIST=<dir>). Serves web/dist or WEB_DIST through the real
 * server (tests/e2e/harness/spawn.ts). Asserts nothing; ends with a `name=value` line.
 * A path with `{request}` (e.g. `/requests/{request}?lang=en`) is loaded signed in as internal.main, on a draft
 * request made for it, as `npm run bench:web` measures the request page; the LCP element is printed too.
 * A painted public page that waits for the visitor before loading the app gets a key press once it has loaded
 * (BOOT_ENGAGE=0 leaves it as a reader would).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
import puppeteer from 'puppeteer-core';
import { signInOverHttp, startDraftOverHttp } from '../e2e/harness/http-session';
import { spawnServer } from '../e2e/harness/spawn';

const paths = process.argv.slice(2).length ? process.argv.slice(2) : ['/home?lang=ar', '/hs-code?lang=en'];
const DIST = resolve(process.env.WEB_DIST ?? 'web/dist');
const CPU_SLOWDOWN = Number(process.env.BOOT_CPU_SLOWDOWN ?? 4);
/**
 * The thread-time figures scale the main thread's CPU time (`tdur`) by this, as Lighthouse's simulation scales what it
 * observed by 4: with BOOT_CPU_SLOWDOWN=1 (no throttling) they estimate the tasks of a 4× slower phone whatever the
 * machine's load (throttling itself shows in `tdur` only in part).
 */
const THREAD_SCALE = 4 / CPU_SLOWDOWN;

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** The thread's CPU time in the event: what a busy machine does not stretch, unlike `dur`. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; functionName?: string; type?: string; frame?: string } };
}
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const maps = new Map<string, TraceMap | null>();
/** The source file (package name for node_modules) of a position in a built file, when its source map exists. */
function sourceOf(url: string, line: number, column: number, detail = false): string {
  const file = url.replace(/^https?:\/\/[^/]+\//, '');
  if (!file.startsWith('assets/')) return file || '(native)';
  if (!maps.has(file)) {
    const mapFile = join(DIST, `${file}.map`);
    maps.set(file, existsSync(mapFile) ? new TraceMap(readFileSync(mapFile, 'utf8')) : null);
  }
  const map = maps.get(file);
  if (!map) return file;
  const pos = originalPositionFor(map, { line: line + 1, column });
  if (!pos.source) return `${file} (unmapped)`;
  const source = pos.source.replace(/^.*node_modules\//, '').replace(/^(\.\.\/)+/, '');
  if (detail) return `${source}:${pos.line}`;
  return /^(@[^/]+\/)?[^/]+/.exec(source)![0] === source.split('/')[0] && pos.source.includes('node_modules/') ? /^(?:@[^/]+\/)?[^/]+/.exec(source)![0] : source;
}

const ms = (us: number) => us / 1000;
const server = await spawnServer();

/** Signs in as internal.main and starts a draft request. */
async function signedInRequest(): Promise<{ cookie: string; requestId: string }> {
  const owner = await signInOverHttp(server.url, 'internal.main');
  return { cookie: owner.cookie, requestId: await startDraftOverHttp(server.url, owner) };
}
const signedIn = paths.some((p) => p.includes('{request}')) ? await signedInRequest() : null;
const browser = await puppeteer.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const figures: string[] = [];
try {
  for (const asked of paths) {
    const path = signedIn ? asked.replace('{request}', signedIn.requestId) : asked;
    const page = await browser.newPage();
    if (signedIn && asked !== path) {
      const cookies = signedIn.cookie.split('; ').map((pair) => ({ name: pair.slice(0, pair.indexOf('=')), value: pair.slice(pair.indexOf('=') + 1), url: server.url }));
      await page.setCookie(...cookies);
    }
    await page.setViewport({ width: 412, height: 823, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
    const cdp = await page.createCDPSession();
    await cdp.send('Network.clearBrowserCache');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await page.evaluateOnNewDocument(() => {
      (window as unknown as { __lcp: number }).__lcp = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          (window as unknown as { __lcp: number }).__lcp = e.startTime;
          const el = (e as PerformanceEntry & { element?: Element }).element;
          (window as unknown as { __lcpElement: string }).__lcpElement = el ? `${el.outerHTML.slice(0, 160)} (${(e as PerformanceEntry & { size: number }).size} px²)` : '?';
        }
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    });
    await page.tracing.start({
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing', 'loading', 'toplevel'],
    });
    await cdp.send('Profiler.start');
    const started = Date.now();
    await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle0', timeout: 120_000 });
    // A painted public page loads the app when the visitor engages (web/public/after-paint.js): a key is pressed once
    // the page has loaded, so the trace shows what the app costs then too (BOOT_ENGAGE=0: the page as read only).
    if (process.env.BOOT_ENGAGE !== '0' && (await page.evaluate(() => document.documentElement.dataset.app === 'waiting'))) {
      console.log(`${path}: engaged (a key pressed) at ${Date.now() - started} ms after navigation`);
      await page.keyboard.press('Shift');
      await page.waitForFunction(() => document.documentElement.dataset.app === 'taken-over', { timeout: 120_000 });
      await page.waitForNetworkIdle({ idleTime: 1000, timeout: 120_000 });
    }
    const wallMs = Date.now() - started;
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
    const trace = JSON.parse(Buffer.from((await page.tracing.stop())!).toString("utf8")) as { traceEvents: TraceEvent[] };
    const { fp, lcp, lcpElement, chain } = await page.evaluate(() => ({
      fp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
      lcp: (window as unknown as { __lcp: number }).__lcp,
      lcpElement: (window as unknown as { __lcpElement?: string }).__lcpElement ?? '',
      // The chain: when the entry script, the API calls and the first few chunks were asked for and answered.
      chain: performance
        .getEntriesByType('resource')
        .map((e) => e as PerformanceResourceTiming)
        .filter((e) => /\/api\/|\/assets\/(index|RequestPage|ar-|en-)/.test(e.name))
        .map((e) => `${new URL(e.name).pathname.slice(0, 48)} ${e.startTime.toFixed(0)}→${e.responseEnd.toFixed(0)}`),
    }));
    await page.close();

    // The renderer's main thread: the CrRendererMain thread that ran the page's scripts.
    const events = trace.traceEvents;
    const mains = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`);
    const busiest = mains
      .map((key) => [key, events.filter((e) => `${e.pid}:${e.tid}` === key && e.name === 'RunTask').reduce((sum, e) => sum + (e.dur ?? 0), 0)] as const)
      .sort((a, b) => b[1] - a[1])[0]![0];
    const onMain = events.filter((e) => `${e.pid}:${e.tid}` === busiest && e.ph === 'X');
    const navStart = events.find((e) => e.name === 'navigationStart' && `${e.pid}:${e.tid}` === busiest)?.ts ?? onMain[0]!.ts;
    const tasks = onMain.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) > 0).sort((a, b) => a.ts - b.ts);
    // The main thread's CPU time (tdur), scaled: on a machine other processes load, `dur` grows with the time the
    // thread waited for a core; `tdur` does not (figures from it compare builds measured at different loads).
    const threadMs = (t: TraceEvent) => THREAD_SCALE * ms(t.tdur ?? 0);
    const wallLong = tasks.filter((t) => ms(t.dur!) > 50).length;
    // Listed below: the tasks over 50 ms by either clock.
    const long = tasks.filter((t) => ms(t.dur!) > 50 || threadMs(t) > 50);
    const blocking = tasks.reduce((sum, t) => sum + Math.max(0, ms(t.dur!) - 50), 0);
    const busy = tasks.reduce((sum, t) => sum + ms(t.dur!), 0);
    const threadBlocking = tasks.reduce((sum, t) => sum + Math.max(0, threadMs(t) - 50), 0);
    const threadLong = tasks.filter((t) => threadMs(t) > 50).length;
    console.log(`\n${path}: wall ${wallMs} ms, FCP ${fp.toFixed(0)} ms, LCP ${lcp.toFixed(0)} ms, main thread busy ${busy.toFixed(0)} ms in ${tasks.length} tasks, ${wallLong} over 50 ms, blocking ${blocking.toFixed(0)} ms (CPU ${CPU_SLOWDOWN}× slower); by thread time ×${THREAD_SCALE} ${threadLong} over 50 ms, blocking ${threadBlocking.toFixed(0)} ms`);
    console.log(`  LCP element: ${lcpElement}\n  requests (ms from navigation): ${chain.join('; ')}`);
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const sampleAt: number[] = [];
    profile.timeDeltas.reduce((at, d) => (sampleAt.push(at + d), at + d), profile.startTime);
    /** Self time per module (or per function) of the samples between two trace timestamps. */
    const selfTime = (from: number, to: number, key: (f: ProfileNode['callFrame']) => string) => {
      const totals = new Map<string, number>();
      profile.samples.forEach((id, i) => {
        if (sampleAt[i]! < from || sampleAt[i]! > to) return;
        const { callFrame: f } = byId.get(id)!;
        if (f.functionName === '(idle)' || f.functionName === '(program)') return;
        const k = key(f);
        totals.set(k, (totals.get(k) ?? 0) + (profile.timeDeltas[i] ?? 0));
      });
      return totals;
    };
    const parentOf = new Map<number, number>();
    for (const n of profile.nodes as (ProfileNode & { children?: number[] })[]) for (const c of n.children ?? []) parentOf.set(c, n.id);
    /** Total (inclusive) time of the portal's own functions (components, hooks) between two trace timestamps. */
    const ownTotal = (from: number, to: number) => {
      const totals = new Map<string, number>();
      profile.samples.forEach((id, i) => {
        if (sampleAt[i]! < from || sampleAt[i]! > to) return;
        const seen = new Set<string>();
        for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
          const { callFrame: f } = byId.get(at)!;
          if (!f.url) continue;
          const where = sourceOf(f.url, f.lineNumber, f.columnNumber, true);
          if (!where.includes('web/src/')) continue;
          const k = `${f.functionName || '(anonymous)'} ${where.replace(/^.*web\/src\//, '')}`;
          if (seen.has(k)) continue;
          seen.add(k);
          totals.set(k, (totals.get(k) ?? 0) + (profile.timeDeltas[i] ?? 0));
        }
      });
      return totals;
    };
    const moduleOf = (f: ProfileNode['callFrame']) => (f.url ? sourceOf(f.url, f.lineNumber, f.columnNumber) : f.functionName);
    const functionOf = (f: ProfileNode['callFrame']) => `${f.functionName || '(anonymous)'} ${f.url ? sourceOf(f.url, f.lineNumber, f.columnNumber, true) : ''}`;
    const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
    for (const t of long) {
      const inside = onMain
        .filter((e) => e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + t.dur! && e !== t && (e.dur ?? 0) > 2000)
        .filter((e) => ['EvaluateScript', 'v8.compileModule', 'v8.evaluateModule', 'FunctionCall', 'TimerFire', 'ParseHTML', 'UpdateLayoutTree', 'Layout', 'Paint', 'RunMicrotasks', 'v8.run', 'EventDispatch', 'FireAnimationFrame', 'V8.GCScavenger', 'MajorGC', 'MinorGC', 'ParseAuthorStyleSheet', 'ScheduleStyleRecalculation'].includes(e.name))
        .sort((a, b) => b.dur! - a.dur!)
        .slice(0, 4)
        .map((e) => `${e.name}${e.args?.data?.url ? ` ${e.args.data.url.replace(/^.*\//, '')}` : ''}${e.args?.data?.functionName ? ` ${e.args.data.functionName}` : ''} ${ms(e.dur!).toFixed(0)}`);
      console.log(`  task at ${ms(t.ts - navStart).toFixed(0)} ms: ${ms(t.dur!).toFixed(0)} ms (thread ×${THREAD_SCALE} ${threadMs(t).toFixed(0)} ms) — ${inside.join(', ')}`);
      const modules = top(selfTime(t.ts, t.ts + t.dur!, moduleOf), 6).map(([k, us]) => `${k.replace(/^work\/wt\/[^/]+\//, '')} ${ms(us).toFixed(0)}`);
      const functions = top(selfTime(t.ts, t.ts + t.dur!, functionOf), 5).map(([k, us]) => `${k.replace(/^work\/wt\/[^/]+\//, '')} ${ms(us).toFixed(0)}`);
      const own = top(ownTotal(t.ts, t.ts + t.dur!), 8).map(([k, us]) => `${k} ${ms(us).toFixed(0)}`);
      console.log(`    modules: ${modules.join(', ')}\n    functions: ${functions.join(', ')}\n    portal code (inclusive): ${own.join(', ')}`);
    }

    // Self time per module and per function over the whole load, from the CPU profile.
    const fmt = (m: Map<string, number>, n: number) => top(m, n).map(([k, us]) => `    ${ms(us).toFixed(0).padStart(5)} ms  ${k}`).join('\n');
    const byModule = selfTime(-Infinity, Infinity, moduleOf);
    const byFunction = selfTime(-Infinity, Infinity, functionOf);
    console.log(`  self time by module:\n${fmt(byModule, 18)}\n  self time by function:\n${fmt(byFunction, 25)}`);
    const name = path.replace(/^\//, '').replace(/[^\w]+/g, '_');
    figures.push(`${name}_fcp_ms=${fp.toFixed(0)} ${name}_lcp_ms=${lcp.toFixed(0)} ${name}_busy_ms=${busy.toFixed(0)} ${name}_long_tasks=${wallLong} ${name}_blocking_ms=${blocking.toFixed(0)} ${name}_thread_blocking_ms=${threadBlocking.toFixed(0)}`);
  }
  console.log(figures.join(' '));
} finally {
  await browser.close();
  await server.stop();
}
