import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGunzip, createGzip } from 'node:zlib';
import { count } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import postgres from 'postgres';
import tar from 'tar-stream';
import { z } from 'zod';
import { fsyncPath, fsyncTree, LOCK_FILE, lockDataDir, openDatabase, openDurablePglite, type Database, type Db } from '../../db/client';
import { attachments, facilityAttachments, requestHistory, requests } from '../../db/schema';
import { verifyRequestHistory } from '../../workflows/queries';

/*
 * Backups of the portal's data: the database and the uploaded files (DATA_DIR/files), in one .tar.gz:
 *
 *   manifest.json     what it holds (ZManifest): kind, when, row and file counts to check a restore against
 *   pgdata/...        PGlite: the data directory as a cleanly shut-down PostgreSQL leaves it (a cold copy)
 *   database.dump     PostgreSQL: pg_dump --format=custom (a consistent snapshot, taken online)
 *   files/...         the uploaded files, content-addressed (immutable, so copying them after the dump is safe)
 *
 * PGlite can only be opened by one process, so its backup needs the server stopped (the data directory's lock says
 * so if it is not). A restore goes into an empty target only, then opens the database (applying newer migrations)
 * and checks it: every request's history hash chain, the row and file counts, and every file's SHA-256.
 */

const execFileAsync = promisify(execFile);

export const ZManifest = z.object({
  format: z.literal('halal-portal-backup'),
  version: z.literal(1),
  kind: z.enum(['pglite', 'postgres']),
  createdAt: z.string(),
  counts: z.object({ requests: z.number().int(), historyRows: z.number().int(), files: z.number().int(), fileBytes: z.number().int() }),
});
export type Manifest = z.infer<typeof ZManifest>;

export interface Target {
  /** PostgreSQL URL; unset means PGlite in dataDir. */
  databaseUrl?: string;
  /** DATA_DIR: PGlite's data directory, and files/ under it in either mode. */
  dataDir: string;
}

export class BackupError extends Error {}

/** Files of DATA_DIR/files to back up (not tmp/, where uploads in progress wait), as paths relative to files/. */
function listFiles(filesDir: string): string[] {
  if (!existsSync(filesDir)) return [];
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(join(filesDir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${name.name}` : name.name;
      if (name.isDirectory() && r !== 'tmp') walk(r);
      else if (name.isFile()) out.push(r);
    }
  };
  walk('');
  return out.sort();
}

/** Every directory and regular file under `dir` except what `skip` rejects (relative POSIX paths; directories end in /). */
function listTree(dir: string, skip: (rel: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (skip(r)) continue;
      if (e.isDirectory()) {
        out.push(`${r}/`); // PostgreSQL needs its empty directories (pg_tblspc, pg_wal/archive_status ...)
        walk(r);
      } else if (e.isFile()) out.push(r);
    }
  };
  walk('');
  return out.sort();
}

async function countRows(db: Db) {
  const [r] = await db.select({ n: count() }).from(requests);
  const [h] = await db.select({ n: count() }).from(requestHistory);
  return { requests: Number(r.n), historyRows: Number(h.n) };
}

/** Writes a .tar.gz next to `file` and renames it into place once it is on disk. */
async function writeArchive(file: string, entries: { name: string; path?: string; data?: Buffer; directory?: boolean }[]): Promise<void> {
  const out = resolve(file);
  mkdirSync(dirname(out), { recursive: true });
  const partial = `${out}.partial`;
  const pack = tar.pack();
  const writing = pipeline(pack, createGzip(), createWriteStream(partial));
  try {
    for (const e of entries) {
      if (e.directory) {
        await new Promise<void>((ok, fail) => pack.entry({ name: e.name, type: 'directory', mode: 0o700 }, (err) => (err ? fail(err) : ok())));
        continue;
      }
      const data = e.data;
      if (data) {
        await new Promise<void>((ok, fail) => pack.entry({ name: e.name, mode: 0o600 }, data, (err) => (err ? fail(err) : ok())));
        continue;
      }
      const st = statSync(e.path!);
      await new Promise<void>((ok, fail) => {
        const entry = pack.entry({ name: e.name, size: st.size, mode: 0o600, mtime: st.mtime }, (err) => (err ? fail(err) : ok()));
        pipeline(createReadStream(e.path!), entry).catch(fail);
      });
    }
    pack.finalize();
    await writing;
  } catch (err) {
    pack.destroy(err as Error);
    await writing.catch(() => {});
    rmSync(partial, { force: true });
    throw err;
  }
  fsyncPath(partial, false);
  renameSync(partial, out);
  fsyncPath(dirname(out), true);
}

/** Backs the target up into `file`; returns the manifest written. */
export async function backup(target: Target, file: string): Promise<Manifest> {
  const dataDir = resolve(target.dataDir);
  const filesDir = join(dataDir, 'files');
  const manifest = (counts: { requests: number; historyRows: number }, files: string[]): Manifest => ({
    format: 'halal-portal-backup',
    version: 1,
    kind: target.databaseUrl ? 'postgres' : 'pglite',
    createdAt: new Date().toISOString(),
    counts: { ...counts, files: files.length, fileBytes: files.reduce((n, f) => n + statSync(join(filesDir, f)).size, 0) },
  });
  const fileEntries = (files: string[]) => files.map((f) => ({ name: `files/${f}`, path: join(filesDir, f) }));

  if (target.databaseUrl) {
    const database = await openDatabase({ databaseUrl: target.databaseUrl, maxConnections: 1 });
    let rows;
    try {
      rows = await countRows(database.db);
    } finally {
      await database.close();
    }
    const work = mkdtempSync(join(tmpdir(), 'halal-backup-'));
    try {
      const dump = join(work, 'database.dump');
      await execFileAsync('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${dump}`, target.databaseUrl]).catch((e: Error & { stderr?: string }) => {
        throw new BackupError(`pg_dump failed (it must be on PATH, of the server's major version or newer): ${e.stderr || e.message}`);
      });
      const files = listFiles(filesDir); // after the dump: every file a dumped row names is there already
      const m = manifest(rows, files);
      await writeArchive(file, [{ name: 'manifest.json', data: Buffer.from(JSON.stringify(m, null, 2)) }, { name: 'database.dump', path: dump }, ...fileEntries(files)]);
      return m;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }

  if (!existsSync(join(dataDir, 'PG_VERSION'))) throw new BackupError(`no PGlite database in ${dataDir}`);
  // Held from before the database opens until the copy is done: no server can open it in between.
  const unlock = lockDataDir(dataDir);
  try {
    // Opening replays the WAL if the last run crashed; closing shuts PostgreSQL down cleanly (a final checkpoint,
    // everything synced), which is what makes a copy of the files a consistent backup.
    const pg = await openDurablePglite(dataDir, { locked: true });
    let rows;
    try {
      rows = await countRows(drizzle({ client: pg.client }) as unknown as Db);
    } finally {
      await pg.close();
    }
    const files = listFiles(filesDir);
    const pgdata = listTree(dataDir, (rel) => rel === 'files' || rel === LOCK_FILE || rel === 'postmaster.pid');
    const m = manifest(rows, files);
    await writeArchive(file, [
      { name: 'manifest.json', data: Buffer.from(JSON.stringify(m, null, 2)) },
      ...pgdata.map((p) => (p.endsWith('/') ? { name: `pgdata/${p}`, directory: true } : { name: `pgdata/${p}`, path: join(dataDir, p) })),
      ...fileEntries(files),
    ]);
    return m;
  } finally {
    unlock();
  }
}

const isEmptyDir = (dir: string) => !existsSync(dir) || readdirSync(dir).length === 0;

/** Extracts the archive: manifest.json must come first; `place` says where each other entry goes (or throws). */
async function extract(file: string, place: (name: string, manifest: Manifest) => string): Promise<Manifest> {
  const ex = tar.extract();
  const reading = pipeline(createReadStream(file), createGunzip(), ex);
  let manifest: Manifest | undefined;
  try {
    for await (const entry of ex) {
      const name = entry.header.name;
      const isDirectory = entry.header.type === 'directory';
      if (entry.header.type !== 'file' && !isDirectory) throw new BackupError(`${file}: unexpected ${entry.header.type} ${name}`);
      if (!manifest) {
        if (name !== 'manifest.json') throw new BackupError(`${file} is not a portal backup (no manifest.json first)`);
        const chunks: Buffer[] = [];
        for await (const c of entry) chunks.push(c as Buffer);
        const parsed = ZManifest.safeParse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        if (!parsed.success) throw new BackupError(`${file}: unknown manifest: ${parsed.error.message}`);
        manifest = parsed.data;
        continue;
      }
      const normal = posix.normalize(name);
      if (normal.startsWith('..') || posix.isAbsolute(normal)) throw new BackupError(`${file}: unsafe entry ${name}`);
      const to = place(normal, manifest);
      if (isDirectory) {
        mkdirSync(to, { recursive: true, mode: 0o700 });
        entry.resume();
        continue;
      }
      mkdirSync(dirname(to), { recursive: true, mode: 0o700 });
      await pipeline(entry, createWriteStream(to, { mode: 0o600 }));
    }
    await reading;
  } catch (err) {
    ex.destroy(err as Error);
    await reading.catch(() => {});
    throw err;
  }
  if (!manifest) throw new BackupError(`${file} is empty`);
  return manifest;
}

export interface Verification {
  manifest: Manifest;
  requests: number;
  historyRows: number;
  files: number;
  /** Requests whose history hash chain does not hold, with the reason. */
  brokenChains: { id: string; reason: string; firstBrokenSeq: number }[];
  /** Files whose bytes do not hash to their address. */
  badFiles: string[];
  /** SHA-256s that an attachment row names but no stored file has. */
  missingFiles: string[];
  ok: boolean;
}

/** The SHA-256 a stored file's path names: `ab/cdef...` (attachments) or `ab/abcdef...` (facility documents). */
function addressOf(rel: string): string | undefined {
  const m = /^([0-9a-f]{2})\/([0-9a-f]{62}|[0-9a-f]{64})$/.exec(rel);
  if (!m) return undefined;
  return m[2].length === 64 ? m[2] : m[1] + m[2];
}

async function sha256Of(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const c of createReadStream(path)) h.update(c as Buffer);
  return h.digest('hex');
}

/** Checks a database and its files against a manifest: every history chain, the counts, every file's hash, every file a row names. */
export async function verify(database: Database, filesDir: string, manifest: Manifest): Promise<Verification> {
  const { requests: nRequests, historyRows } = await countRows(database.db);
  const brokenChains: Verification['brokenChains'] = [];
  const ids = await database.db.select({ id: requests.id }).from(requests);
  for (const { id } of ids) {
    const r = await verifyRequestHistory(database.db, id);
    if (!r.ok) brokenChains.push({ id, reason: r.reason, firstBrokenSeq: r.firstBrokenSeq });
  }
  const files = listFiles(filesDir);
  const badFiles: string[] = [];
  for (const f of files) {
    const address = addressOf(f);
    if (address && (await sha256Of(join(filesDir, f))) !== address) badFiles.push(f);
  }
  const present = new Set(files.map(addressOf));
  const referenced = [
    ...(await database.db.selectDistinct({ sha256: attachments.sha256 }).from(attachments)),
    ...(await database.db.selectDistinct({ sha256: facilityAttachments.sha256 }).from(facilityAttachments)),
  ].map((r) => r.sha256);
  const missingFiles = [...new Set(referenced)].filter((sha) => !present.has(sha)).sort();
  const ok =
    brokenChains.length === 0 &&
    badFiles.length === 0 &&
    missingFiles.length === 0 &&
    nRequests === manifest.counts.requests &&
    historyRows === manifest.counts.historyRows &&
    files.length === manifest.counts.files;
  return { manifest, requests: nRequests, historyRows, files: files.length, brokenChains, badFiles, missingFiles, ok };
}

/**
 * Restores `file` into the target, which must be empty (PGlite: DATA_DIR empty or absent; PostgreSQL: a database
 * without tables, and DATA_DIR/files empty or absent), then opens it and verifies it.
 */
export async function restore(target: Target, file: string): Promise<Verification> {
  const dataDir = resolve(target.dataDir);
  const filesDir = join(dataDir, 'files');
  if (!existsSync(file)) throw new BackupError(`no such backup: ${file}`);

  if (target.databaseUrl) {
    if (!isEmptyDir(filesDir)) throw new BackupError(`${filesDir} is not empty: restore into an empty one`);
    const sql = postgres(target.databaseUrl, { max: 1, onnotice: () => {} });
    try {
      const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`;
      if (n > 0) throw new BackupError('the target database has tables: restore into an empty database (dropdb/createdb)');
    } finally {
      await sql.end();
    }
    const work = mkdtempSync(join(tmpdir(), 'halal-restore-'));
    try {
      const dump = join(work, 'database.dump');
      const manifest = await extract(file, (name, m) => {
        if (m.kind !== 'postgres') throw new BackupError(`${file} is a ${m.kind} backup; restore it with DATABASE_URL unset`);
        if (name === 'database.dump') return dump;
        if (name.startsWith('files/')) return join(filesDir, name.slice('files/'.length));
        throw new BackupError(`${file}: unexpected entry ${name}`);
      });
      await execFileAsync('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${target.databaseUrl}`, dump]).catch(
        (e: Error & { stderr?: string }) => {
          throw new BackupError(`pg_restore failed: ${e.stderr || e.message}`);
        },
      );
      if (existsSync(filesDir)) fsyncTree(filesDir);
      const database = await openDatabase({ databaseUrl: target.databaseUrl, maxConnections: 2 });
      try {
        return await verify(database, filesDir, manifest);
      } finally {
        await database.close();
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }

  if (!isEmptyDir(dataDir)) throw new BackupError(`${dataDir} is not empty: restore into an empty or new directory`);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const unlock = lockDataDir(dataDir);
  let manifest: Manifest;
  try {
    manifest = await extract(file, (name, m) => {
      if (m.kind !== 'pglite') throw new BackupError(`${file} is a ${m.kind} backup; restore it with DATABASE_URL set`);
      if (name.startsWith('pgdata/')) return join(dataDir, name.slice('pgdata/'.length));
      if (name.startsWith('files/')) return join(filesDir, name.slice('files/'.length));
      throw new BackupError(`${file}: unexpected entry ${name}`);
    });
    fsyncTree(dataDir);
  } catch (err) {
    unlock();
    // Leave no half-restored directory behind (it was empty before).
    for (const e of readdirSync(dataDir)) rmSync(join(dataDir, e), { recursive: true, force: true });
    throw err;
  }
  unlock();
  const database = await openDatabase({ dataDir });
  try {
    return await verify(database, filesDir, manifest);
  } finally {
    await database.close();
  }
}
