import { testStoreDeps } from '../helpers/deps';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import postgres from 'postgres';
import { openDatabase, type Database } from '../../db/client';
import { facilityAttachments, requestHistory, requests, users } from '../../db/schema';
import { seed } from '../../db/seed';
import { FileStore } from '../../server/modules/attachments/file-store';
import { EmbeddedEngine } from '../../workflows/embedded/embedded-engine';
import { requestHistoryOf } from '../../workflows/queries';
import { verify, ZManifest } from '../../scripts/lib/backup';
import { benchScenario } from '../bench/engine-scenario';
import { TEST_DATABASE_URL } from '../helpers/db';

/*
 * The documented backup and restore commands, end to end: a seeded database with requests moved through the real
 * internal-certificate machine (payments, assignment) and uploaded files is backed up with `npm run db:backup`,
 * wiped, restored with `npm run db:restore` (which verifies every history chain, the counts, every file's hash and
 * that every file a row names is there),
 * and then compared with what it was. PGlite always; PostgreSQL too when DATABASE_URL is set.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function npmRun(script: string, args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '-s', script, '--', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

interface Snapshot {
  requests: { kind: string }[];
  histories: Record<string, unknown[]>;
}

/** Some life in the database: requests through real transitions, and uploaded files. */
async function populate(database: Database, dataDir: string): Promise<void> {
  await seed(database.db);
  const engine = new EmbeddedEngine({ db: database.db, deps: testStoreDeps({ catalogue: benchScenario.catalogue }) });
  for (let i = 0; i < 3; i++) {
    let view = await benchScenario.prepare(engine); // started, submitted, application fee paid
    for (const event of benchScenario.loop.slice(0, i + 1)) view = await engine.send(view.id, event, benchScenario.actor, view.version);
  }
  const store = new FileStore(dataDir);
  const [uploader] = await database.db.select({ id: users.id }).from(users).limit(1);
  for (const text of ['certificate of registration', 'quality manual']) {
    const file = await store.receive(Readable.from([Buffer.from(text)]), 1 << 20);
    await store.commit(file);
    await database.db.insert(facilityAttachments).values({ category: 'qualityManual', fileName: `${text}.pdf`, contentType: 'application/pdf', size: file.size, sha256: file.sha256, uploadedBy: uploader.id });
  }
  // An upload still in progress: not part of a backup.
  mkdirSync(join(dataDir, 'files', 'tmp'), { recursive: true });
  writeFileSync(join(dataDir, 'files', 'tmp', 'in-progress'), 'partial');
}

async function snapshot(database: Database): Promise<Snapshot> {
  const rows = await database.db.select().from(requests).orderBy(asc(requests.id));
  const histories: Snapshot['histories'] = {};
  for (const r of rows) histories[r.id] = await requestHistoryOf(database.db, r.id);
  return { requests: rows, histories };
}

const storedFiles = (dataDir: string) =>
  readdirSync(join(dataDir, 'files'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dataDir.length))
    .sort();

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'backup-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('PGlite: npm run db:backup / db:restore', () => {
  it('backs up with the server stopped, restores into an empty directory, and the restore holds every history chain', async () => {
    const dataDir = join(work, 'pglite-data');
    const file = join(work, 'pglite-backup.tar.gz');
    const database = await openDatabase({ dataDir });
    let before: Snapshot;
    try {
      await populate(database, dataDir);
      before = await snapshot(database);
      // Three requests, and the application-fee bill each one's submission created (a lifecycle of its own).
      expect(before.requests.filter((r) => r.kind === 'internalCertificate')).toHaveLength(3);
      expect(before.requests.filter((r) => r.kind === 'bill')).toHaveLength(3);

      // While a server has the database open, a backup is refused: it would copy files being written.
      const refused = await npmRun('db:backup', [file], { DATA_DIR: dataDir });
      expect(refused.code, refused.out).toBe(1);
      expect(refused.out).toContain(`in use by process ${process.pid}`);
      expect(existsSync(file)).toBe(false);
    } finally {
      await database.close();
    }
    const filesBefore = storedFiles(dataDir);

    const backedUp = await npmRun('db:backup', [file], { DATA_DIR: dataDir });
    expect(backedUp.code, backedUp.out).toBe(0);
    expect(backedUp.out).toContain(`backed up pglite: 6 requests`);

    rmSync(dataDir, { recursive: true, force: true }); // the disk is lost

    const restored = await npmRun('db:restore', [file], { DATA_DIR: dataDir });
    expect(restored.code, restored.out).toBe(0);
    expect(restored.out).toContain('history chains: 6 of 6 hold');
    expect(restored.out).toContain('restore verified');

    // A restore never overwrites: the directory is not empty now.
    const again = await npmRun('db:restore', [file], { DATA_DIR: dataDir });
    expect(again.code).toBe(1);
    expect(again.out).toContain('is not empty');

    const back = await openDatabase({ dataDir });
    try {
      expect(await snapshot(back)).toEqual(before);
      expect(storedFiles(dataDir)).toEqual(filesBefore.filter((f) => !f.includes('/tmp/')));

      // The verification a restore runs does catch damage: a changed history row, a changed file, a lost file.
      const manifest = ZManifest.parse({ format: 'halal-portal-backup', version: 1, kind: 'pglite', createdAt: '', counts: { requests: 6, historyRows: (await back.db.select().from(requestHistory)).length, files: 2, fileBytes: 0 } });
      expect((await verify(back, join(dataDir, 'files'), manifest)).ok).toBe(true);
      const [row] = await back.db.select().from(requestHistory).orderBy(asc(requestHistory.seq)).limit(1);
      await back.db.update(requestHistory).set({ note: 'changed after the fact' }).where(and(eq(requestHistory.requestId, row.requestId), eq(requestHistory.seq, row.seq)));
      const [firstFile, secondFile] = storedFiles(dataDir);
      writeFileSync(join(dataDir, firstFile), 'tampered');
      rmSync(join(dataDir, secondFile));
      const damaged = await verify(back, join(dataDir, 'files'), { ...manifest, counts: { ...manifest.counts, files: 1 } });
      expect(damaged.ok).toBe(false);
      expect(damaged.brokenChains.map((b) => b.id)).toEqual([row.requestId]);
      expect(damaged.badFiles).toEqual([firstFile.slice('/files/'.length)]);
      expect(damaged.missingFiles).toEqual([secondFile.slice('/files/'.length).replace('/', '')]);
    } finally {
      await back.close();
    }
  }, 240_000);
});

describe.runIf(TEST_DATABASE_URL)('PostgreSQL: npm run db:backup / db:restore (pg_dump, pg_restore)', () => {
  it('backs up online, restores into an empty database, and the restore holds every history chain', async () => {
    const name = `t_backup_${Date.now().toString(36)}`;
    const admin = postgres(TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
    const url = new URL(TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    const dataDir = join(work, 'postgres-data');
    const file = join(work, 'postgres-backup.tar.gz');
    try {
      await admin.unsafe(`create database ${name}`);
      const database = await openDatabase({ databaseUrl: url.toString(), maxConnections: 2 });
      let before: Snapshot;
      try {
        await populate(database, dataDir);
        before = await snapshot(database);
        // Online: the server may keep running while pg_dump takes its snapshot.
        const backedUp = await npmRun('db:backup', [file], { DATA_DIR: dataDir, DATABASE_URL: url.toString() });
        expect(backedUp.code, backedUp.out).toBe(0);
        expect(backedUp.out).toContain('backed up postgres: 6 requests');
      } finally {
        await database.close();
      }
      const filesBefore = storedFiles(dataDir);

      // Lost: the database and the files.
      await admin.unsafe(`drop database ${name} with (force)`);
      await admin.unsafe(`create database ${name}`);
      rmSync(dataDir, { recursive: true, force: true });

      const restored = await npmRun('db:restore', [file], { DATA_DIR: dataDir, DATABASE_URL: url.toString() });
      expect(restored.code, restored.out).toBe(0);
      expect(restored.out).toContain('history chains: 6 of 6 hold');

      const again = await npmRun('db:restore', [file], { DATA_DIR: join(work, 'other'), DATABASE_URL: url.toString() });
      expect(again.code).toBe(1);
      expect(again.out).toContain('has tables');

      const back = await openDatabase({ databaseUrl: url.toString(), maxConnections: 2 });
      try {
        expect(await snapshot(back)).toEqual(before);
      } finally {
        await back.close();
      }
      expect(storedFiles(dataDir)).toEqual(filesBefore.filter((f) => !f.includes('/tmp/')));
    } finally {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }, 240_000);
});
