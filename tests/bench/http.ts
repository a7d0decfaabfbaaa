/**
 * npm run bench:http — the workflow calls through the whole HTTP stack (Fastify, session cookie, CSRF, policy,
 * service contract, machine, database), with autocannon as the load generator against a listening server.
 *
 * 1. POST /api/requests/:id/events at 8 connections, each on its own request in the registration queue, sending
 *    ASSIGN_TO_ME / CANCEL_ASSIGNMENT in turn with the version it last saw, alternated in rounds with the engine's own
 *    send of the same events in the server's process (the ratio HTTP/engine is issue 18's "0.6 of the engine").
 *
 * The HTTP clients (events and lists) run in a process of their own (tests/bench/http-client.ts), so the server's
 * figures do not carry the client's CPU.
 * 2. 100,000 requests seeded (bulk SQL copies of a real request, spread over 50 facilities, queues and dates), then
 *    GET /api/queues/registration?tab=waiting as a registration employee and GET /api/queues/all?facilityId=...&tab=any
 *    as the facility's applicant (the facility's request list of the web), and the plans of the statements the server
 *    runs for them (EXPLAIN ANALYZE of workflows/queries.ts listStatement).
 *
 * DATABASE_URL: a PostgreSQL server (a fresh database is created on it and dropped); PGlite in memory without it.
 * BENCH_SECONDS (default 6) per measurement; BENCH_REQUESTS (default 100000) seeded; BENCH_PHASES (default
 * "events,lists") picks the phases: BENCH_PHASES=events runs the event path alone (the events phase always runs: it
 * makes the request the lists phase copies). Prints figures, asserts nothing,
 * and ends with one line of name=value figures.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { eq, sql } from 'drizzle-orm';
import { actorOf } from '../../server/plugins/auth';
import { users } from '../../db/schema';
import { Permissions } from '../../machines/permissions';
import { listRequests, listStatement } from '../../workflows/queries';
import { queueMovesOf } from '../../server/modules/requests/clock';
import type { QueueQuery } from '../../workflows/engine';
import { signInOverHttp } from '../e2e/harness/http-session';
import { FACILITY, registration } from '../workflows/fixtures/internal-certificate-scenario';
import type { EventsResult, GetResult } from './http-client';
import { startBenchServer } from './http-server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const SEEDED = Number(process.env.BENCH_REQUESTS ?? 100_000);
const CLIENTS = 8;
const ROUNDS = 3;
const PHASES = new Set((process.env.BENCH_PHASES ?? 'events,lists').split(',').map((p) => p.trim()));

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const summary = (latencies: number[], seconds: number, errors = 0) => {
  const s = [...latencies].sort((a, b) => a - b);
  return { rps: s.length / seconds, p50: pct(s, 50), p95: pct(s, 95), p99: pct(s, 99), errors };
};

async function main() {
  const { database, app, base, ask, inRegistration, close } = await startBenchServer();
  try {
    const staff = await signInOverHttp(base, 'registration');
    const owner = await signInOverHttp(base, 'internal.main');

    const LOOP = ['ASSIGN_TO_ME', 'CANCEL_ASSIGNMENT'];

    // --- 1. POST events: HTTP and the engine's own send, alternated.
    const httpIds = await Promise.all(Array.from({ length: CLIENTS }, inRegistration));
    const engineIds = await Promise.all(Array.from({ length: CLIENTS }, inRegistration));
    const httpState = httpIds.map((v) => ({ id: v.id, version: v.version, step: 0 }));
    const engineState = engineIds.map((v) => ({ id: v.id, version: v.version, step: 0 }));
    // cpu: the server process's CPU time (user + system, µs) over the phase; clientCpu: the client process's.
    const http = { latencies: [] as number[], seconds: 0, errors: 0, cpu: 0, clientCpu: 0, pg: 0 };
    const engine = { latencies: [] as number[], seconds: 0, cpu: 0, pg: 0 };
    const cpuSince = (c: NodeJS.CpuUsage) => {
      const d = process.cpuUsage(c);
      return d.user + d.system;
    };

    // pgCpu: the CPU time (µs) of the PostgreSQL backends serving this database (same machine; /proc, 10 ms ticks),
    // so the database's share of an event is counted too (a commit fewer shows there, not in the server's process).
    const pgCpu = async (): Promise<number> => {
      if (database.kind !== 'postgres') return 0;
      const rows = (await database.db.execute(sql`select pid from pg_stat_activity where datname = current_database()`)) as unknown as { pid: number }[];
      let ticks = 0;
      for (const { pid } of rows) {
        try {
          const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
          ticks += Number(fields[11]) + Number(fields[12]);
        } catch {
          // not on this machine, or gone
        }
      }
      return ticks * 10_000;
    };
    const statuses = new Map<number, number>();
    const runHttp = async (seconds: number) => {
      const headers = { cookie: staff.cookie, 'x-csrf-token': staff.csrf };
      const pg0 = await pgCpu();
      const cpu0 = process.cpuUsage();
      const r = await ask<EventsResult>({ op: 'events', base, headers, clients: httpState, loop: LOOP, seconds });
      http.cpu += cpuSince(cpu0);
      http.pg += (await pgCpu()) - pg0;
      http.clientCpu += r.cpuMicros;
      r.clients.forEach((c, i) => Object.assign(httpState[i], c));
      for (const line of r.firstErrors) console.log(line);
      for (const [status, n] of r.statuses) {
        statuses.set(status, (statuses.get(status) ?? 0) + n);
        if (status !== 200) http.errors += n;
      }
      http.latencies.push(...r.latencies);
      http.seconds += r.seconds;
    };
    const runEngine = async (seconds: number) => {
      const end = performance.now() + seconds * 1000;
      const started = performance.now();
      const pg0 = await pgCpu();
      const cpu0 = process.cpuUsage();
      await Promise.all(
        engineState.map(async (st) => {
          while (performance.now() < end) {
            const t0 = performance.now();
            st.version = (await app.engine.send(st.id, { type: LOOP[st.step++ % 2] }, registration, st.version)).version;
            engine.latencies.push(performance.now() - t0);
          }
        }),
      );
      engine.seconds += (performance.now() - started) / 1000;
      engine.cpu += cpuSince(cpu0);
      engine.pg += (await pgCpu()) - pg0;
    };
    await runHttp(1);
    await runEngine(1);
    Object.assign(http, { latencies: [], seconds: 0, errors: 0, cpu: 0, clientCpu: 0, pg: 0 });
    Object.assign(engine, { latencies: [], seconds: 0, cpu: 0, pg: 0 });
    statuses.clear();
    for (let r = 0; r < ROUNDS; r++) {
      await runHttp(Math.max(1, Math.round(SECONDS / ROUNDS)));
      await runEngine(Math.max(1, Math.round(SECONDS / ROUNDS)));
    }
    const h = summary(http.latencies, http.seconds, http.errors);
    const e = summary(engine.latencies, engine.seconds);
    const line = (name: string, r: ReturnType<typeof summary>) =>
      console.log(`${name.padEnd(34)} ${r.rps.toFixed(0).padStart(6)}/s  p50=${r.p50.toFixed(2)}ms p95=${r.p95.toFixed(2)}ms p99=${r.p99.toFixed(2)}ms${r.errors ? ` non-2xx=${r.errors}` : ''}`);
    console.log(`${database.kind}, ${CLIENTS} clients, ASSIGN_TO_ME / CANCEL_ASSIGNMENT`);
    line('POST /api/requests/:id/events', h);
    console.log(`  statuses: ${[...statuses].map(([k, v]) => `${k} x${v}`).join(', ')}`);
    line("engine.send (server's process)", e);
    // CPU per event: less sensitive to other processes' load than the rates (it still grows a little with contention).
    const perEvent = (micros: number, n: number) => (n ? micros / n : NaN);
    const httpCpu = perEvent(http.cpu, http.latencies.length);
    const clientCpu = perEvent(http.clientCpu, http.latencies.length);
    const engineCpu = perEvent(engine.cpu, engine.latencies.length);
    console.log(`  CPU per event: server ${httpCpu.toFixed(0)} µs (HTTP) vs ${engineCpu.toFixed(0)} µs (engine.send); bench client ${clientCpu.toFixed(0)} µs`);
    const httpPg = perEvent(http.pg, http.latencies.length);
    const enginePg = perEvent(engine.pg, engine.latencies.length);
    if (database.kind === 'postgres') console.log(`  PostgreSQL backends' CPU per event: ${httpPg.toFixed(0)} µs (HTTP) vs ${enginePg.toFixed(0)} µs (engine.send)`);

    const listFigures: string[] = [];
    if (PHASES.has('lists')) {
      // --- 2. 100,000 requests, then the lists.
      const t0 = performance.now();
      const template = httpIds[0].id;
      await database.db.execute(sql`
        insert into requests (id, number, kind, machine_version, input, snapshot, status, queue, state_value, version,
                              facility_public_id, owner_user_id, assignee_user_id, creator_name, brand_names,
                              history_seq, history_hash, created_at, updated_at)
        select gen_random_uuid(), 'B-' || g, t.kind, t.machine_version, t.input, t.snapshot,
               case g % 5 when 0 then 1 when 1 then 4 when 2 then 0 when 3 then 7 else 20 end,
               case g % 5 when 0 then 'registration' when 1 then 'registration' when 2 then 'applicant' when 3 then 'audit' else 'final' end,
               t.state_value, t.version,
               case when g % 50 = 0 then ${FACILITY} else 'bench-facility-' || (g % 50) end,
               t.owner_user_id, case when g % 5 = 1 then ${registration.userId} else null end,
               t.creator_name, t.brand_names, t.history_seq, t.history_hash,
               now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval
        from generate_series(1, ${SEEDED}) g, requests t where t.id = ${template}`);
      // vacuum as well as analyze: autovacuum does it after a bulk insert in production, and without the visibility
      // map an index-only count of a queue is a heap visit per row.
      await database.db.execute(sql`vacuum (analyze) requests`);
      console.log(`seeded ${SEEDED} requests in ${((performance.now() - t0) / 1000).toFixed(1)}s`);

      const get = async (path: string, who: { cookie: string }) => {
        const r = await ask<GetResult>({ op: 'get', url: `${base}${path}`, headers: { cookie: who.cookie }, connections: CLIENTS, seconds: SECONDS });
        return summary(r.latencies, r.seconds, r.non2xx);
      };
      const queuePath = '/api/queues/registration?tab=waiting&pageNumber=1&pageSize=20';
      const facilityPath = `/api/queues/all?facilityId=${FACILITY}&tab=any&pageNumber=1&pageSize=20`;
      const q = await get(queuePath, staff);
      const f = await get(facilityPath, owner);
      line(`GET ${queuePath.split('?')[0]} (waiting)`, q);
      line('GET /api/queues/all (facility list)', f);
      listFigures.push(
        `queue_waiting_p95_ms=${q.p95.toFixed(2)}`,
        `queue_waiting_rps=${q.rps.toFixed(0)}`,
        `facility_list_p95_ms=${f.p95.toFixed(2)}`,
        `facility_list_rps=${f.rps.toFixed(0)}`,
      );

      if (database.kind === 'postgres' && process.env.BENCH_EXPLAIN !== '0') {
        // The plans of the statements the server runs for the two lists (workflows/queries.ts listStatement), for the
        // actors the sessions of the two users build.
        const client = (database.db as unknown as { $client: { unsafe: (text: string, params: unknown[]) => Promise<{ 'QUERY PLAN': string }[]> } }).$client;
        const viewer = async (userName: string) => {
          const [u] = await database.db.select({ id: users.id, roles: users.roles }).from(users).where(eq(users.userName, userName));
          return actorOf(app, u.id, u.roles);
        };
        const explain = async (title: string, statement: { toSQL(): { sql: string; params: unknown[] } }) => {
          const { sql: text, params } = statement.toSQL();
          const rows = await client.unsafe(`explain (analyze, buffers, costs off, timing off, summary on) ${text}`, params);
          console.log(`\n-- ${title}\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`);
        };
        const page = { pageNumber: 1, pageSize: 20 };
        const lists: [string, QueueQuery][] = [
          ['registration queue, waiting', { queue: 'registration', tab: 'waiting', viewer: await viewer('registration'), ...page }],
          ['facility list', { queue: 'all', tab: 'any', facilityId: FACILITY, viewer: await viewer('internal.main'), ...page }],
        ];
        // A delegate of the facility given its internal service only: the read rule adds `kind not in (...)` for the
        // other services (workflows/read-scope.ts), filtered in the same facility index.
        const owner = await viewer('internal.main');
        lists.push(['facility list, a delegate of one service', { ...lists[1]![1], viewer: { ...owner, facilityPermissions: { [FACILITY]: [Permissions.facility.internal, Permissions.internalRequest.request] } } }]);
        for (const [title, q] of lists) {
          await explain(`${title}: the page and its total`, listStatement(database.db, q).page);
          // The working-day clocks of the page's rows (the requests of the events phase are on it, with their histories).
          await explain(`${title}: the clocks`, queueMovesOf(database.db, (await listRequests(database.db, q)).items.map((i) => i.id)));
        }
      }
    }
    console.log(
      [
        `db=${database.kind}`,
        `events_http_rps=${h.rps.toFixed(0)}`,
        `events_http_p95_ms=${h.p95.toFixed(2)}`,
        `events_engine_rps=${e.rps.toFixed(0)}`,
        `events_engine_p95_ms=${e.p95.toFixed(2)}`,
        `events_http_server_cpu_us=${httpCpu.toFixed(0)}`,
        `events_http_client_cpu_us=${clientCpu.toFixed(0)}`,
        `events_engine_cpu_us=${engineCpu.toFixed(0)}`,
        ...(database.kind === 'postgres' ? [`events_http_pg_cpu_us=${httpPg.toFixed(0)}`, `events_engine_pg_cpu_us=${enginePg.toFixed(0)}`] : []),
        ...listFigures,
        `http_engine_ratio=${(h.rps / e.rps).toFixed(2)}`,
      ].join(' '),
    );
  } finally {
    await close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
