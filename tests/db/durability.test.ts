import { testStoreDeps } from '../helpers/deps';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PGlite } from '@electric-sql/pglite';
import { DataDirectoryInUseError, LOCK_FILE, openDatabase, openDurablePglite, type Database } from '../../db/client';
import { EmbeddedEngine } from '../../workflows/embedded/embedded-engine';
import { fixtureCatalogue } from '../workflows/fixtures/payment-machine';
import { FACILITY, applicant, reviewer } from '../workflows/fixtures/actors';
import { DiskLedger } from './disk-ledger';

/*
 * The embedded database (PGlite on disk) keeps what it acknowledged through a power cut: every commit's WAL, and at a
 * checkpoint every data file, has been fsynced by Node before the call that made it returns. DiskLedger watches the
 * writes and fsyncs Node makes under the data directory; what it still holds as unsynced is what a power cut could
 * take back. The last case runs the same check on stock PGlite, to show the ledger does see unsynced commits.
 */

/**
 * Files PostgreSQL never fsyncs because a crash may lose them: the lock and options files and the relation cache
 * init files (remade at start), the statistics (reset after a crash) and pg_subtrans (zeroed at start).
 */
const EPHEMERAL = /(^|\/)(postmaster\.pid|postmaster\.opts|pg_internal\.init|portal\.lock)$|^(pg_stat|pg_stat_tmp|pg_subtrans)\//;
const ephemeral = (p: string) => EPHEMERAL.test(p);

let root: string;
const ledgers: DiskLedger[] = [];
const watch = (dir: string) => {
  const l = new DiskLedger(dir).start();
  ledgers.push(l);
  return l;
};

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'durability-'));
});
afterAll(() => {
  for (const l of ledgers.splice(0)) l.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('PGlite on disk', () => {
  it('a new data directory is wholly on disk when it opens', async () => {
    const dir = join(root, 'fresh');
    const ledger = watch(dir);
    const { client, close } = await openDurablePglite(dir);
    try {
      expect(ledger.writes.length).toBeGreaterThan(100); // initdb's files, the catalogue, the WAL
      expect(ledger.unsynced('', ephemeral)).toEqual([]);
      expect((await client.query<{ fsync: string }>('show fsync')).rows[0].fsync).toBe('on');
    } finally {
      await close();
    }
  });

  describe('every acknowledged commit', () => {
    let database: Database;
    let ledger: DiskLedger;
    let engine: EmbeddedEngine;
    const dir = () => join(root, 'commits');

    beforeAll(async () => {
      ledger = watch(dir()); // before the database opens, so it knows every file descriptor
      database = await openDatabase({ dataDir: dir() });
      engine = new EmbeddedEngine({ db: database.db, deps: testStoreDeps({ catalogue: fixtureCatalogue() }) });
      await database.db.execute(sql`create table probe (n int)`);
    });
    afterAll(() => database?.close());

    /** Runs `commit`, then asserts that it wrote WAL and that no WAL byte or pg_wal entry is left unsynced. */
    async function acknowledged<T>(commit: () => Promise<T>): Promise<T> {
      const before = { writes: ledger.writes.length, fsyncs: ledger.fsyncs.length };
      const result = await commit();
      const walWrites = ledger.writes.slice(before.writes).filter((p) => p.startsWith('pg_wal/'));
      const walFsyncs = ledger.fsyncs.slice(before.fsyncs).filter((p) => p.startsWith('pg_wal/'));
      expect(walWrites.length, 'the commit wrote WAL').toBeGreaterThan(0);
      expect(walFsyncs.length, 'the commit fsynced its WAL segment').toBeGreaterThan(0);
      expect(ledger.unsynced('pg_wal'), 'WAL written but not on disk when the commit returned').toEqual([]);
      return result;
    }

    it('has its WAL on disk when the engine answers: a request started, submitted, approved (a bill issued)', async () => {
      const started = await acknowledged(() => engine.start('fixturePayment', { ownerUserId: applicant.userId, facilityId: FACILITY, data: {} }, applicant));
      const submitted = await acknowledged(() => engine.send(started.id, { type: 'SUBMIT' }, applicant, started.version));
      const approved = await acknowledged(() => engine.send(submitted.id, { type: 'APPROVE' }, reviewer, submitted.version));
      expect(approved.version).toBe(3);
      for (let i = 0; i < 20; i++) await acknowledged(() => database.db.execute(sql`insert into probe (n) values (${i})`));
    });

    it('and when a commit starts a new WAL segment, the segment and its directory entry are on disk too', async () => {
      const segments = async () => ((await database.db.execute(sql`select pg_walfile_name(pg_current_wal_insert_lsn()) as name`)) as unknown as { rows: { name: string }[] }).rows[0].name;
      const first = await segments();
      await database.db.execute(sql`select pg_switch_wal()`);
      await acknowledged(() => database.db.execute(sql`insert into probe (n) values (-1)`));
      expect(await segments()).not.toBe(first);
      expect(ledger.fsyncs).toContain('pg_wal');
    });

    it('a checkpoint leaves no data file, WAL or directory entry unsynced', async () => {
      for (let i = 0; i < 50; i++) await database.db.execute(sql`insert into probe (n) values (${i})`);
      expect(ledger.unsynced('base').length, 'data files written since the last checkpoint').toBeGreaterThan(0);
      await database.db.execute(sql`checkpoint`);
      expect(ledger.unsynced('', ephemeral)).toEqual([]);
    });
  });

  it('checkpoints on its own while open (single-user PostgreSQL has no checkpointer), so WAL and recovery stay short', async () => {
    const dir = join(root, 'periodic');
    const ledger = watch(dir);
    const { client, close } = await openDurablePglite(dir, { checkpointIntervalMs: 200 });
    try {
      const redo = async () => (await client.query<{ lsn: string }>('select redo_lsn::text as lsn from pg_control_checkpoint()')).rows[0].lsn;
      const first = await redo();
      await client.exec('create table t (n int); insert into t select generate_series(1, 1000)');
      expect(ledger.unsynced('base').length, 'data files written, not yet checkpointed').toBeGreaterThan(0);
      await expect.poll(redo, { timeout: 20_000, interval: 100 }).not.toBe(first);
      await expect.poll(() => ledger.unsynced('', ephemeral), { timeout: 20_000, interval: 100 }).toEqual([]);
    } finally {
      await close();
    }
  });

  it('stock PGlite (fsync off, no fsync in NODEFS) leaves an acknowledged commit in the page cache: what the above rules out', async () => {
    const dir = join(root, 'stock');
    const ledger = watch(dir);
    const pg = await PGlite.create(dir);
    try {
      await pg.exec('create table t (n int)');
      const before = ledger.writes.length;
      await pg.query('insert into t values (1)');
      expect(ledger.writes.slice(before).filter((p) => p.startsWith('pg_wal/')).length).toBeGreaterThan(0);
      expect(ledger.fsyncs).toEqual([]);
      expect(ledger.unsynced('pg_wal').length).toBeGreaterThan(0);
    } finally {
      await pg.close();
    }
  });

  it('one process at a time: a data directory held by a live process is refused, a stale lock is taken over', async () => {
    const dir = join(root, 'locked');
    const first = await openDatabase({ dataDir: dir });
    await expect(openDatabase({ dataDir: dir })).rejects.toBeInstanceOf(DataDirectoryInUseError);
    await first.close();
    // Held by another live process (vitest's parent process stands in for a running server).
    writeFileSync(join(dir, LOCK_FILE), `${process.ppid}\n`);
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(`in use by process ${process.ppid}`);
    // Left by a process that is gone (killed): taken over.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(join(dir, LOCK_FILE), `${gone.stdout}\n`);
    const again = await openDatabase({ dataDir: dir });
    await again.close();
  });
});
