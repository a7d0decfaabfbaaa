import { testStoreDeps } from '../helpers/deps';
/**
 * npm run bench:engine — what the engine costs over the bare SQL of a transition.
 *
 * On the same database in one run it measures (a) the raw SQL of one transition through the driver (BEGIN, SELECT
 * ... FOR UPDATE, UPDATE the request, INSERT the history row, COMMIT) and (b) the engine's `send` (the same plus
 * restoring the snapshot, the machine's transition, the guard and payload checks, the hash chain and the timer diff),
 * at 1, 8 and 32 concurrent clients, each client on its own request. PGlite always, three times: in memory (the
 * engine's own cost), on disk as stock PGlite opens it (fsync off: what the embedded mode was before issue 19), and on
 * disk as db/client.ts opens it (what `npm start` runs: every commit waits for its WAL fsync); PostgreSQL too when
 * DATABASE_URL is set. Prints transitions/s and p50/p95/p99 latency per run, and last `ratio=<engine/raw transitions per second>`
 * for PostgreSQL at 8 clients (PGlite at 8 when there is no PostgreSQL). A benchmark, not a test: it asserts nothing.
 *
 * BENCH_SECONDS (default 3) sets the duration of each run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import postgres from 'postgres';
import { PGlite } from '@electric-sql/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { drizzleOnPglite, MIGRATIONS_FOLDER, openDatabase, type Database, type Db } from '../../db/client';
import { EmbeddedEngine } from '../../workflows/embedded/embedded-engine';
import { benchScenario } from './engine-scenario';
import { MIX, engineMixClient, opName, rawMixClient, recordMix } from './engine-mix';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
// BENCH_CLIENTS=0 skips the pair (a profile of the mix alone), BENCH_MIX_CLIENTS=0 the mix.
const CLIENTS = (process.env.BENCH_CLIENTS ?? '1,8,32').split(',').map(Number).filter((n) => n > 0);
const MIX_CLIENTS = (process.env.BENCH_MIX_CLIENTS ?? '8').split(',').map(Number).filter((n) => n > 0);

interface Result {
  db: string;
  /** 'pair' (ASSIGN_TO_ME / CANCEL_ASSIGNMENT) or 'mix' (tests/bench/engine-mix.ts). */
  scenario: 'pair' | 'mix';
  mode: 'raw' | 'engine';
  clients: number;
  tps: number;
  p50: number;
  p95: number;
  p99: number;
  /** Node CPU per operation (ms): what the process itself spent, not the database. */
  cpuMsPerOp: number;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

interface Sample {
  latencies: number[];
  seconds: number;
  /** Node CPU (user + system) spent during the runs, in microseconds: the engine's own cost shows here first. */
  cpuMicros: number;
}

/** Runs `clients` loops of `op` for `seconds`, timing each call. */
async function run(clients: number, seconds: number, op: (client: number) => Promise<void>, into: Sample): Promise<void> {
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        await op(c);
        into.latencies.push(performance.now() - t0);
      }
    }),
  );
  into.seconds += (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  into.cpuMicros += used.user + used.system;
}

function summarize(s: Sample) {
  const sorted = [...s.latencies].sort((a, b) => a - b);
  return { tps: sorted.length / s.seconds, p50: pct(sorted, 50), p95: pct(sorted, 95), p99: pct(sorted, 99), cpuMsPerOp: s.cpuMicros / 1000 / sorted.length };
}

/**
 * Raw and engine alternate in ROUNDS short runs (on a shared machine the load drifts; alternating spreads the drift
 * over both instead of charging it to whichever ran second).
 */
const ROUNDS = 3;
async function compare(clients: number, raw: (c: number) => Promise<void>, engine: (c: number) => Promise<void>) {
  const warm = (op: (c: number) => Promise<void>) =>
    Promise.all(Array.from({ length: clients }, async (_, c) => { for (let i = 0; i < 5; i++) await op(c); }));
  await warm(raw);
  await warm(engine);
  const samples = { raw: { latencies: [], seconds: 0, cpuMicros: 0 } as Sample, engine: { latencies: [], seconds: 0, cpuMicros: 0 } as Sample };
  for (let r = 0; r < ROUNDS; r++) {
    await run(clients, SECONDS / ROUNDS, raw, samples.raw);
    await run(clients, SECONDS / ROUNDS, engine, samples.engine);
  }
  return { raw: summarize(samples.raw), engine: summarize(samples.engine) };
}

/** One transition in bare SQL through the driver; the same tables and row sizes as the engine writes. */
type RawTransition = (id: string) => Promise<void>;

function rawFor(database: Database): RawTransition {
  const client = (database.db as unknown as { $client: unknown }).$client;
  const note = { note: 'bench' };
  // drizzle's postgres.js client passes json parameters through as text (it serialises them itself), so do the same.
  if (database.kind === 'postgres') {
    const sql = client as postgres.Sql;
    return async (id) => {
      await sql.begin(async (tx) => {
        const [row] = await tx`select version, history_seq, history_hash, snapshot from requests where id = ${id} for update`;
        await tx`update requests set version = ${row.version + 1}, history_seq = ${row.history_seq + 1}, history_hash = ${'h' + row.version}, snapshot = ${JSON.stringify(row.snapshot)}, updated_at = now() where id = ${id}`;
        await tx`insert into request_history (request_id, seq, actor_user_id, actor, event, payload, note, from_status, to_status, at, prev_hash, hash)
                 values (${id}, ${row.history_seq + 1}, 'bench', ${JSON.stringify(note)}, 'BENCH', ${JSON.stringify(note)}, 'bench', 1, 1, now(), ${row.history_hash}, ${'h' + row.version})`;
      });
    };
  }
  const pg = client as PGlite;
  return async (id) => {
    await pg.transaction(async (tx) => {
      const { rows } = await tx.query<{ version: number; history_seq: number; history_hash: string; snapshot: unknown }>(
        'select version, history_seq, history_hash, snapshot from requests where id = $1 for update',
        [id],
      );
      const row = rows[0];
      await tx.query('update requests set version = $2, history_seq = $3, history_hash = $4, snapshot = $5, updated_at = now() where id = $1', [
        id,
        row.version + 1,
        row.history_seq + 1,
        'h' + row.version,
        JSON.stringify(row.snapshot),
      ]);
      await tx.query(
        `insert into request_history (request_id, seq, actor_user_id, actor, event, payload, note, from_status, to_status, at, prev_hash, hash)
         values ($1, $2, 'bench', $3, 'BENCH', $3, 'bench', 1, 1, now(), $4, $5)`,
        [id, row.history_seq + 1, JSON.stringify(note), row.history_hash, 'h' + row.version],
      );
    });
  };
}

type Kind = 'pglite' | 'pglite-nofsync' | 'pglite-disk' | 'postgres';

async function openBenchDatabase(kind: Kind): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (kind === 'pglite') {
    const database = await openDatabase({});
    return { database, drop: () => database.close() };
  }
  if (kind === 'pglite-nofsync') {
    const dir = mkdtempSync(join(tmpdir(), 'bench-pglite-'));
    const client = await PGlite.create(join(dir, 'db'));
    const db = await drizzleOnPglite(client);
    await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
    return {
      database: { db: db as unknown as Db, kind: 'pglite', close: () => client.close() },
      drop: async () => {
        await client.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (kind === 'pglite-disk') {
    const dir = mkdtempSync(join(tmpdir(), 'bench-pglite-'));
    const database = await openDatabase({ dataDir: join(dir, 'db') });
    return {
      database,
      drop: async () => {
        await database.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `bench_${Date.now().toString(36)}`;
  const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), maxConnections: Math.max(...CLIENTS, ...MIX_CLIENTS) + 4 });
  return {
    database,
    drop: async () => {
      await database.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

async function benchDatabase(kind: Kind): Promise<Result[]> {
  const { database, drop } = await openBenchDatabase(kind);
  const results: Result[] = [];
  try {
    const engine = new EmbeddedEngine({ db: database.db, deps: testStoreDeps({ catalogue: benchScenario.catalogue }) });
    const raw = rawFor(database);
    for (const clients of CLIENTS) {
      const rawIds: string[] = [];
      const ids: string[] = [];
      const versions: number[] = [];
      let firstVersion = 0;
      for (let c = 0; c < clients; c++) {
        rawIds.push((await benchScenario.prepare(engine)).id);
        const view = await benchScenario.prepare(engine);
        ids.push(view.id);
        versions.push(view.version);
        firstVersion = view.version;
      }
      const measured = await compare(
        clients,
        (c) => raw(rawIds[c]),
        async (c) => {
          const event = benchScenario.loop[(versions[c] - firstVersion) % benchScenario.loop.length];
          const view = await engine.send(ids[c], event, benchScenario.actor, versions[c]);
          versions[c] = view.version;
        },
      );
      for (const mode of ['raw', 'engine'] as const) {
        const r = { db: kind, scenario: 'pair' as const, mode, clients, ...measured[mode] };
        results.push(r);
        console.log(
          `${kind.padEnd(14)} pair ${mode.padEnd(6)} clients=${String(clients).padStart(2)}  ${r.tps.toFixed(0).padStart(6)} transitions/s  ` +
            `p50=${r.p50.toFixed(2)}ms p95=${r.p95.toFixed(2)}ms p99=${r.p99.toFixed(2)}ms node_cpu=${r.cpuMsPerOp.toFixed(3)}ms/op`,
        );
      }
    }
    // The realistic mix: recorded once, then engine and raw clients alternate as for the pair.
    if (!MIX_CLIENTS.length) return results;
    const recorded = await recordMix(database);
    // BENCH_PRINT_MIX=1 prints the statements of each operation (what the raw side replays).
    if (process.env.BENCH_PRINT_MIX) recorded.forEach((op, i) => op.forEach((s) => console.log(`${opName(MIX[i])}: ${s.sql.replace(/\s+/g, ' ').slice(0, 220)}`)));
    console.log(`${kind.padEnd(14)} mix: ${MIX.map((op, i) => `${opName(op)} ${recorded[i].length}`).join(', ')} statements (+ BEGIN/COMMIT)`);
    for (const clients of MIX_CLIENTS) {
      const rawClients = Array.from({ length: clients }, () => rawMixClient(database, recorded));
      const engineClients = Array.from({ length: clients }, () => engineMixClient(engine));
      const measured = await compare(clients, (c) => rawClients[c](), (c) => engineClients[c]());
      for (const mode of ['raw', 'engine'] as const) {
        const r = { db: kind, scenario: 'mix' as const, mode, clients, ...measured[mode] };
        results.push(r);
        console.log(
          `${kind.padEnd(14)} mix  ${mode.padEnd(6)} clients=${String(clients).padStart(2)}  ${r.tps.toFixed(0).padStart(6)} operations/s   ` +
            `p50=${r.p50.toFixed(2)}ms p95=${r.p95.toFixed(2)}ms p99=${r.p99.toFixed(2)}ms node_cpu=${r.cpuMsPerOp.toFixed(3)}ms/op`,
        );
      }
    }
  } finally {
    await drop();
  }
  return results;
}

async function main() {
  console.log(`engine benchmark: machine '${benchScenario.kind}', events ${benchScenario.loop.map((e) => e.type).join(' / ')}, ${SECONDS}s per run`);
  const all_kinds: Kind[] = process.env.DATABASE_URL ? ['pglite', 'pglite-nofsync', 'pglite-disk', 'postgres'] : ['pglite', 'pglite-nofsync', 'pglite-disk'];
  // BENCH_DBS=postgres,pglite runs only those (a profile of one database, a quick check).
  const only = process.env.BENCH_DBS?.split(',');
  const kinds = only ? all_kinds.filter((k) => only.includes(k)) : all_kinds;
  if (!process.env.DATABASE_URL) console.log('PostgreSQL skipped: DATABASE_URL not set');
  const all: Result[] = [];
  for (const kind of kinds) all.push(...(await benchDatabase(kind)));
  const at = kinds.includes('postgres') ? 'postgres' : 'pglite';
  const pick = (db: string, scenario: 'pair' | 'mix', mode: 'raw' | 'engine') =>
    all.find((r) => r.db === db && r.scenario === scenario && r.mode === mode && r.clients === 8);
  const figures: string[] = [];
  for (const db of kinds) {
    for (const scenario of ['pair', 'mix'] as const) {
      const engine = pick(db, scenario, 'engine');
      const raw = pick(db, scenario, 'raw');
      if (!engine || !raw) continue;
      const p = `${db}_${scenario}_8`;
      figures.push(`${p}_engine_tps=${engine.tps.toFixed(0)}`, `${p}_raw_tps=${raw.tps.toFixed(0)}`, `${p}_engine_p95_ms=${engine.p95.toFixed(2)}`);
      figures.push(`${p}_engine_cpu_ms=${engine.cpuMsPerOp.toFixed(3)}`, `${p}_raw_cpu_ms=${raw.cpuMsPerOp.toFixed(3)}`);
      figures.push(`${p}_ratio=${(engine.tps / raw.tps).toFixed(2)}`);
    }
  }
  const engine8 = pick(at, 'pair', 'engine');
  const raw8 = pick(at, 'pair', 'raw');
  console.log(`${at} at 8 clients: targets (issue 18) engine/raw >= 0.8 on PostgreSQL (0.7 on PGlite), p95 < 10 ms`);
  // One line of figures; the pair's ratio at 8 clients (PostgreSQL when there is one) last, as `ratio=`.
  if (engine8 && raw8) figures.push(`ratio=${(engine8.tps / raw8.tps).toFixed(2)}`);
  console.log(figures.join(' '));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
