import fs from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, types, type PGliteOptions } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import postgres from 'postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';

export { schema };
/**
 * The one database type the rest of the code sees, whichever driver is underneath. Without drizzle's relational
 * query API (`db.query.*`), which nothing uses: given the schema, drizzle builds a query helper per table for the
 * database and again for every transaction (~30 objects per event; issue 18, the engine's CPU per event).
 */
export type Db = PgDatabase<PgQueryResultHKT>;
/** A transaction handle (same query API as Db). */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

export interface OpenOptions {
  /** postgres:// URL; when absent PGlite is used. */
  databaseUrl?: string;
  /** PGlite data directory; `undefined` or 'memory://' keeps it in memory (tests). */
  dataDir?: string;
  /** postgres.js pool size. */
  maxConnections?: number;
  /**
   * An in-memory PGlite started from this dump of a migrated database (`dumpDataDir`) instead of an empty one: the
   * test suite's databases (tests/helpers/global-setup.ts), ~2 s less each than initdb and every migration. The
   * migrations still run and find nothing to do.
   */
  template?: Blob;
}

/** What drizzle asks PGlite to leave as text (drizzle-orm/pglite/session.js): dates, times, intervals, their arrays. */
const AS_TEXT = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182];

/**
 * drizzle on a PGlite client, without PGlite copying its parsers for every query (issue 18, PGlite's ratio). drizzle
 * names its own parsers in each query's options (AS_TEXT, kept as text); PGlite 0.5 answers such a query after copying
 * all ~320 of its parsers into a new object (`parseResults`), ~100 µs of CPU a query — a one-row select cost 270
 * against 175 µs without. The same parsers are set on the client once, and the options' copy is dropped on the way
 * in: drizzle gets the same rows.
 */
export async function drizzleOnPglite(client: PGlite) {
  await client.waitReady;
  const asText = (value: string) => value;
  for (const oid of AS_TEXT) client.parsers[oid] = asText;
  return drizzlePglite({ client: withoutQueryParsers(client) });
}

type Queryable = Pick<PGlite, 'query'>;

/** `target` whose `query` drops `parsers`, and whose transactions hand out the same; the wrappers are built once per target, not per call. */
function withoutQueryParsers<C extends Queryable>(target: C): C {
  type Options = Parameters<PGlite['query']>[2];
  type Tx = Parameters<Parameters<PGlite['transaction']>[0]>[0];
  const query = (sql: string, params?: unknown[], options?: Options) => target.query(sql, params, options && { ...options, parsers: undefined });
  const transaction = <T>(callback: (tx: Tx) => Promise<T>) => (target as unknown as PGlite).transaction((tx) => callback(withoutQueryParsers(tx)));
  const bound = new Map<PropertyKey, { of: (...args: unknown[]) => unknown; to: (...args: unknown[]) => unknown }>();
  return new Proxy(target, {
    get(t, prop) {
      if (prop === 'query') return query;
      if (prop === 'transaction') return transaction;
      const value: unknown = Reflect.get(t, prop, t);
      if (typeof value !== 'function') return value;
      const kept = bound.get(prop);
      if (kept?.of === value) return kept.to;
      const to = (value as (...args: unknown[]) => unknown).bind(t);
      bound.set(prop, { of: value as (...args: unknown[]) => unknown, to });
      return to;
    },
  });
}

/** Opens the database (PostgreSQL when a URL is given, embedded PGlite otherwise) and applies the migrations. */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const client = postgres(opts.databaseUrl, { max: opts.maxConnections ?? 10, onnotice: () => {} });
    const db = drizzlePostgres({ client });
    await migratePostgres(db, { migrationsFolder: MIGRATIONS_FOLDER });
    return { db: db as unknown as Db, kind: 'postgres', close: () => client.end({ timeout: 5 }) };
  }
  if (!opts.dataDir || opts.dataDir.startsWith('memory://')) {
    const client = opts.template ? new PGlite({ loadDataDir: opts.template }) : new PGlite(opts.dataDir);
    const db = await drizzleOnPglite(client);
    await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
    return { db: db as unknown as Db, kind: 'pglite', close: () => client.close() };
  }
  const durable = await openDurablePglite(opts.dataDir);
  try {
    const db = await drizzleOnPglite(durable.client);
    await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
    return { db: db as unknown as Db, kind: 'pglite', close: durable.close };
  } catch (e) {
    await durable.close();
    throw e;
  }
}

/*
 * PGlite on disk, durable.
 *
 * PGlite runs PostgreSQL compiled to WebAssembly over Emscripten's NODEFS: every write PostgreSQL makes is an
 * fs.writeSync on the real file, so a killed process loses nothing PostgreSQL wrote. But the page cache is not the
 * disk. Out of the box PGlite 0.5 starts PostgreSQL with `-F` (fsync=off), NODEFS has no fsync operation (Emscripten's
 * fsync() calls the stream's `fsync` if there is one and otherwise succeeds without doing anything), and fdatasync()
 * is a no-op in Emscripten whatever the stream. So nothing ever reached the disk before the kernel chose to write it
 * back, and a power cut could lose commits the portal had acknowledged.
 *
 * Here PostgreSQL keeps its own durability protocol and the syscalls it relies on do their job:
 * - NODEFS streams get an `fsync` that calls fs.fsyncSync on the real file descriptor (files and directories);
 * - PostgreSQL starts with fsync=on and wal_sync_method=fsync (fsync(), not the no-op fdatasync()).
 * PostgreSQL then does what it does on any server: at every commit it fsyncs the WAL it wrote before it answers
 * (synchronous_commit=on), a new WAL segment is fsynced with its directory entry before use, and a checkpoint fsyncs
 * the data files, pg_control and the directories it changed. Each is a real fsync from Node, synchronously inside the
 * call that runs the statement, so a commit's promise resolves only after its WAL is on disk.
 * tests/db/durability.test.ts watches every write and fsync Node makes under the data directory and fails if one
 * acknowledged commit leaves WAL bytes or a directory entry unsynced.
 *
 * Two things PostgreSQL does not do for itself here:
 * - A new data directory is made by PGlite's initdb and copied in without fsync; it is fsynced as a whole before the
 *   first commit (initdb does the same on a server).
 * - PGlite runs PostgreSQL as a single-user backend, which has no checkpointer: WAL grows and crash recovery gets
 *   longer until the database is closed. A checkpoint runs every CHECKPOINT_INTERVAL_MS when something was written.
 *
 * And one it cannot know about: a PGlite data directory must be opened by one process at a time (PostgreSQL's own
 * postmaster.pid check does not work in WebAssembly, so two processes would both open it and corrupt it). openDatabase
 * holds LOCK_FILE in the directory while it is open; a second opener gets DataDirectoryInUseError.
 */

/** PGlite's start parameters with fsync on and the WAL synced with fsync() (see above). */
export const DURABLE_PGLITE_START_PARAMS: readonly string[] = [
  ...PGlite.defaultStartParams.filter((p) => p !== '-F'),
  '-c',
  'fsync=on',
  '-c',
  'wal_sync_method=fsync',
  '-c',
  'synchronous_commit=on',
  '-c',
  'full_page_writes=on',
];

/** Like PostgreSQL's checkpoint_timeout default. */
export const CHECKPOINT_INTERVAL_MS = 5 * 60_000;

/** Held in a PGlite data directory while a process has it open: the holder's pid. */
export const LOCK_FILE = 'portal.lock';

export class DataDirectoryInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(`The database in ${dir} is in use by process ${pid}; stop it first (only one process may open a PGlite data directory).`);
  }
}

interface NodeFsNode {
  mode: number;
}
interface NodeFsStream {
  nfd?: number;
  node: NodeFsNode;
}
interface NodeFsType {
  stream_ops: { fsync?: (stream: NodeFsStream) => number };
  node_ops: {
    mknod(parent: NodeFsNode, name: string, mode: number, dev: number): NodeFsNode;
    rename(node: NodeFsNode, newDir: NodeFsNode, newName: string): void;
  };
  realPath(node: NodeFsNode): string;
  tryFSOperation<T>(f: () => T): T;
}

/**
 * NODEFS whose streams can fsync (see above). It also makes a new directory entry durable, which PostgreSQL leaves
 * to the file system for relation files (ext4 and XFS persist a new file's entry with the file's first fsync; not
 * every file system does): the first fsync of a file created or renamed since also fsyncs its directory.
 */
class SyncingNodeFS extends NodeFS {
  /** fsyncs done so far (the start-up self-check reads it). */
  fsyncs = 0;

  override async init(pg: PGlite, opts: Parameters<NodeFS['init']>[1]) {
    const { emscriptenOpts } = await super.init(pg, opts);
    const install = (mod: { NODEFS: unknown }) => {
      const nodefs = mod.NODEFS as NodeFsType;
      const newEntries = new Set<string>();
      const { mknod, rename } = nodefs.node_ops;
      nodefs.node_ops.mknod = (parent, name, mode, dev) => {
        const node = mknod(parent, name, mode, dev);
        newEntries.add(nodefs.realPath(node));
        return node;
      };
      nodefs.node_ops.rename = (node, newDir, newName) => {
        rename(node, newDir, newName);
        newEntries.add(nodefs.realPath(node));
      };
      nodefs.stream_ops.fsync = (stream) => {
        // tryFSOperation turns a Node error (EIO, ENOSPC) into the errno PostgreSQL sees (and PANICs on, as it should).
        if (stream.nfd !== undefined) nodefs.tryFSOperation(() => fs.fsyncSync(stream.nfd!));
        const path = nodefs.realPath(stream.node);
        if (newEntries.delete(path)) nodefs.tryFSOperation(() => fsyncPath(dirname(path), true));
        this.fsyncs++;
        return 0;
      };
    };
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), install] } };
  }
}

/** fsyncs one file or directory by path. Platforms that cannot open a directory for sync are let be, as PostgreSQL does. */
export function fsyncPath(path: string, isDirectory: boolean): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(path, 'r');
    fs.fsyncSync(fd);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (!(isDirectory && (code === 'EISDIR' || code === 'EPERM' || code === 'EACCES' || code === 'EBADF' || code === 'EINVAL'))) throw e;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** fsyncs every file and directory under `dir` (each directory after its entries), then `dir`'s own entry. */
export function fsyncTree(dir: string): void {
  const walk = (path: string) => {
    const st = fs.lstatSync(path);
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(path)) walk(join(path, name));
      fsyncPath(path, true);
    } else if (st.isFile()) {
      fsyncPath(path, false);
    }
  };
  walk(dir);
  fsyncPath(dirname(dir), true);
}

const heldHere = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes a PGlite data directory's lock file (a stale one, whose process is gone, is taken over); returns its release.
 * openDurablePglite takes it itself; a tool that works on the directory's files after closing the database (the
 * backup) holds it around both.
 */
export function lockDataDir(dataDir: string): () => void {
  const dir = resolve(dataDir);
  if (heldHere.has(dir)) throw new DataDirectoryInUseError(dir, process.pid);
  const file = join(dir, LOCK_FILE);
  for (let attempt = 0; ; attempt++) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
      // After a crash the next process may get the same pid (pid 1 in a container): that is not a live holder.
      if (attempt > 0 || (pid > 0 && pid !== process.pid && isAlive(pid))) throw new DataDirectoryInUseError(dir, pid);
      fs.rmSync(file, { force: true });
    }
  }
  heldHere.add(dir);
  return () => {
    heldHere.delete(dir);
    fs.rmSync(file, { force: true });
  };
}

export interface DurablePgliteOptions extends Omit<PGliteOptions, 'fs' | 'dataDir' | 'startParams'> {
  /** The caller holds the directory's lock (lockDataDir) and releases it itself. */
  locked?: boolean;
  /** How often to checkpoint while open (default CHECKPOINT_INTERVAL_MS). */
  checkpointIntervalMs?: number;
}

/** Opens a PGlite data directory on disk with fsync working, or throws if it cannot show that it does. */
export async function openDurablePglite(dataDir: string, { locked, checkpointIntervalMs = CHECKPOINT_INTERVAL_MS, ...options }: DurablePgliteOptions = {}): Promise<{ client: PGlite; close(): Promise<void> }> {
  const dir = resolve(dataDir);
  fs.mkdirSync(dir, { recursive: true });
  const unlock = locked ? () => {} : lockDataDir(dir);
  let client: PGlite | undefined;
  try {
    const fresh = !fs.existsSync(join(dir, 'PG_VERSION'));
    const nodeFs = new SyncingNodeFS(dir);
    client = await PGlite.create({ ...options, fs: nodeFs, startParams: [...DURABLE_PGLITE_START_PARAMS] });
    if (fresh || options.loadDataDir) fsyncTree(dir);
    await checkDurable(client, nodeFs);
    return { client, close: closer(client, unlock, checkpointIntervalMs) };
  } catch (e) {
    await client?.close().catch(() => {});
    unlock();
    throw e;
  }
}

/**
 * Refuses to go on unless PostgreSQL runs with the settings above and a commit really calls fsync: a PGlite upgrade
 * that changed either would otherwise silently bring back acknowledged-but-lost commits.
 */
async function checkDurable(client: PGlite, nodeFs: SyncingNodeFS): Promise<void> {
  const { rows } = await client.query<{ name: string; setting: string }>(
    `select name, setting from pg_settings where name in ('fsync', 'wal_sync_method', 'synchronous_commit', 'full_page_writes')`,
  );
  const got = Object.fromEntries(rows.map((r) => [r.name, r.setting]));
  const want = { fsync: 'on', wal_sync_method: 'fsync', synchronous_commit: 'on', full_page_writes: 'on' };
  for (const [name, value] of Object.entries(want)) {
    if (got[name] !== value) throw new Error(`PGlite runs with ${name}=${got[name]}, not ${value}: commits would not be durable`);
  }
  const before = nodeFs.fsyncs;
  // A transactional WAL message: a transaction that wrote WAL, whose commit must be flushed before it returns.
  await client.query(`select pg_logical_emit_message(true, 'halal-portal', 'opened')`);
  if (nodeFs.fsyncs === before) throw new Error('PGlite committed without fsync: commits would not be durable');
}

/** Periodic checkpoints while open (see above); close stops them, shuts PostgreSQL down cleanly and releases the lock. */
function closer(client: PGlite, unlock: () => void, intervalMs: number): () => Promise<void> {
  let lastLsn = '';
  let running: Promise<void> | undefined;
  const checkpoint = async () => {
    const lsn = async () => (await client.query<{ lsn: string }>('select pg_current_wal_insert_lsn()::text as lsn')).rows[0].lsn;
    if ((await lsn()) === lastLsn) return;
    await client.exec('checkpoint');
    lastLsn = await lsn();
  };
  const timer = setInterval(() => {
    if (running || client.closed) return;
    running = checkpoint()
      .catch((e: unknown) => {
        // A checkpoint that cannot fsync means the disk is failing: stop, as PostgreSQL itself PANICs; the next start
        // recovers from the WAL.
        if (!client.closed) setImmediate(() => { throw e; });
      })
      .finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();
  let closing: Promise<void> | undefined;
  return () =>
    (closing ??= (async () => {
      clearInterval(timer);
      await running;
      try {
        await client.close();
      } finally {
        unlock();
      }
    })());
}
