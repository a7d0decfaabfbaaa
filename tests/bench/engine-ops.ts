/**
 * Node CPU per operation of the realistic mix (tests/bench/engine-mix.ts), one client, raw and engine in turn:
 * `process.cpuUsage()` around each operation, 150 cycles after 10 warm-up cycles. CPU moves far less with the load
 * than throughput does, so on a shared machine this is the figure to compare before and after a change.
 *   DATABASE_URL=… npx tsx tests/bench/engine-ops.ts   (BENCH_DB=pglite for PGlite in memory, BENCH_CYCLES=150)
 * BENCH_ENGINE_ONLY=1 (BENCH_SECONDS=8) runs only the engine, 8 clients: a profile without the raw side
 * (`node --import tsx --cpu-prof tests/bench/engine-ops.ts`). BENCH_PROFILE=START,SUBMIT runs only the engine, one
 * client, and prints the profile of the named operations alone (op-profile.ts; bundle with esbuild into db/ for
 * line numbers). A benchmark: it asserts nothing.
 */
import postgres from 'postgres';
import { openDatabase } from '../../db/client';
import { EmbeddedEngine } from '../../workflows/embedded/embedded-engine';
import { testStoreDeps } from '../helpers/deps';
import { machinesCatalogue } from '../../workflows/machines-catalogue';
import { MIX, engineMixClient, opName, rawMixClient, recordMix } from './engine-mix';
import { opProfiler } from './op-profile';

async function main() {
  const kind = process.env.BENCH_DB ?? 'postgres';
  let drop = async () => {};
  let database;
  if (kind === 'postgres') {
    const name = `engine_ops_${Date.now().toString(36)}`;
    const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${name}`;
    database = await openDatabase({ databaseUrl: url.toString(), maxConnections: 12 });
    const d = database;
    drop = async () => { await d.close(); await admin.unsafe(`drop database if exists ${name} with (force)`); await admin.end(); };
  } else {
    database = await openDatabase({});
    const d = database;
    drop = () => d.close();
  }
  const engine = new EmbeddedEngine({ db: database.db, deps: testStoreDeps({ catalogue: machinesCatalogue }) });
  try {
    if (process.env.BENCH_ENGINE_ONLY) {
      const clients = Array.from({ length: 8 }, () => engineMixClient(engine));
      const end = Date.now() + Number(process.env.BENCH_SECONDS ?? 8) * 1000;
      let n = 0;
      const cpu = process.cpuUsage();
      await Promise.all(clients.map(async (c) => { while (Date.now() < end) { await c(); n++; } }));
      const u = process.cpuUsage(cpu);
      console.log(`engine only: ${n} ops, ${((u.user + u.system) / 1000 / n).toFixed(3)} ms/op`);
      return;
    }
    const cycles = Number(process.env.BENCH_CYCLES ?? 150);
    if (process.env.BENCH_PROFILE) {
      const profiled = new Set(process.env.BENCH_PROFILE.split(','));
      const eng = engineMixClient(engine);
      for (let c = 0; c < 10 * MIX.length; c++) await eng();
      const profiler = await opProfiler();
      for (let c = 0; c < cycles; c++) for (const op of MIX) await (profiled.has(opName(op)) ? profiler.time(opName(op), eng) : eng());
      await profiler.report();
      return;
    }
    const recorded = await recordMix(database);
    const raw = rawMixClient(database, recorded);
    const eng = engineMixClient(engine);
    const sums = { raw: MIX.map(() => 0), engine: MIX.map(() => 0) };
    for (let c = 0; c < cycles + 10; c++) {
      for (const [side, op] of [['raw', raw], ['engine', eng]] as const) {
        for (let i = 0; i < MIX.length; i++) {
          const t = process.cpuUsage();
          await op();
          const u = process.cpuUsage(t);
          if (c >= 10) sums[side][i] += u.user + u.system;
        }
      }
    }
    const row = (s: number[]) => [...s.map((v) => (v / cycles / 1000).toFixed(2)), (s.reduce((a, b) => a + b) / cycles / 1000).toFixed(1)].join(' | ');
    console.log(`| ${kind} | ${MIX.map(opName).join(' | ')} | cycle |`);
    console.log(`| raw | ${row(sums.raw)} |`);
    console.log(`| engine | ${row(sums.engine)} |`);
  } finally {
    await drop();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
