/**
 * What each layer of the HTTP path costs the server, in user and system CPU per request (process.cpuUsage around each
 * run; `--cpu-prof` samples wall-clock time, so a thread descheduled inside a socket write shows as CPU there):
 * a public GET that reads `select 1`, the same with a session cookie (the session's read), the session call, a
 * request's read, the event POST, and the engine's own send of the same events in the server's process. The clients
 * run in their own process (tests/bench/http-client.ts), 8 connections, two rounds.
 *   DATABASE_URL=postgres://… npx tsx tests/bench/http-layers.ts   (PGlite in memory without it; BENCH_SECONDS=4)
 * A benchmark: prints figures, asserts nothing, and ends with one line of name=value figures (the second round's).
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { signInOverHttp } from '../e2e/harness/http-session';
import { registration } from '../workflows/fixtures/internal-certificate-scenario';
import type { EventsResult, GetResult } from './http-client';
import { startBenchServer } from './http-server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const LOOP = ['ASSIGN_TO_ME', 'CANCEL_ASSIGNMENT'];

async function main() {
  const { database, app, base, ask, inRegistration, close } = await startBenchServer();
  try {
    const staff = await signInOverHttp(base, 'registration');
    const state = (await Promise.all(Array.from({ length: 8 }, inRegistration))).map((v) => ({ id: v.id, version: v.version, step: 0 }));
    const get = (url: string, headers: Record<string, string> = {}) => async () =>
      (await ask<GetResult>({ op: 'get', url, headers, connections: 8, seconds: SECONDS })).latencies.length;
    const layers: [string, string, () => Promise<number>][] = [
      ['health', 'GET /api/health, anonymous', get(`${base}/api/health`)],
      ['health_session', 'GET /api/health, signed in (+ session)', get(`${base}/api/health`, { cookie: staff.cookie })],
      ['session', 'GET /api/auth/session', get(`${base}/api/auth/session`, { cookie: staff.cookie })],
      ['request', 'GET /api/requests/:id', get(`${base}/api/requests/${state[0].id}`, { cookie: staff.cookie })],
      [
        'event_post',
        'POST /api/requests/:id/events',
        async () => {
          const r = await ask<EventsResult>({ op: 'events', base, headers: { cookie: staff.cookie, 'x-csrf-token': staff.csrf }, clients: state, loop: LOOP, seconds: SECONDS });
          r.clients.forEach((c, i) => Object.assign(state[i], c));
          return r.latencies.length;
        },
      ],
      [
        'engine_send',
        "engine.send (server's process)",
        async () => {
          const end = Date.now() + SECONDS * 1000;
          let n = 0;
          await Promise.all(
            state.map(async (st) => {
              while (Date.now() < end) {
                st.version = (await app.engine.send(st.id, { type: LOOP[st.step++ % 2] }, registration, st.version)).version;
                n++;
              }
            }),
          );
          return n;
        },
      ],
    ];
    // The garbage collector's pauses of the server's thread (its helper threads' work is in the user time only).
    let gcMs = 0;
    const gc = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) gcMs += e.duration;
    });
    gc.observe({ entryTypes: ['gc'] });
    const figures: string[] = [];
    for (let round = 1; round <= 2; round++) {
      console.log(`round ${round} (${database.kind}, 8 clients, ${SECONDS} s each): server CPU per request`);
      for (const [key, name, run] of layers) {
        const c0 = process.cpuUsage();
        gcMs = 0;
        const n = await run();
        const c = process.cpuUsage(c0);
        const user = c.user / n;
        const system = c.system / n;
        console.log(`  ${name.padEnd(40)} ${String(n).padStart(6)} requests  user ${user.toFixed(0).padStart(5)} µs  system ${system.toFixed(0).padStart(4)} µs  GC pauses ${((gcMs * 1000) / n).toFixed(0).padStart(4)} µs`);
        if (round === 2) figures.push(`${key}_user_us=${user.toFixed(0)}`, `${key}_system_us=${system.toFixed(0)}`);
      }
    }
    gc.disconnect();
    console.log(figures.join(' '));
  } finally {
    await close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
