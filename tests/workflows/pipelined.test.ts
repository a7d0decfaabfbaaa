import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database, Tx } from '../../db/client';
import { bills, requestHistory, requests, workflowTimers } from '../../db/schema';
import { SYSTEM_ACTOR } from '../../machines/actor';
import { EmbeddedEngine } from '../../workflows/embedded/embedded-engine';
import { machinesCatalogue } from '../../workflows/machines-catalogue';
import { DEFERRED_MARK, pipelinedTransaction, pipelines, sendNow } from '../../workflows/pipelined';
import { createTestDatabase, testDbKind } from '../helpers/db';
import { testStoreDeps } from '../helpers/deps';
import { internalCertificateData } from '../services/fixtures';
import { FACILITY, applicant, registration } from './fixtures/internal-certificate-scenario';

/*
 * workflows/pipelined.ts: BEGIN sent with the first statement, COMMIT (behind a guard) with the last write. On
 * PostgreSQL the pipelined path runs; on PGlite both paths are db.transaction, so these tests hold there too.
 */

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase({ seed: false, maxConnections: 2 });
});
afterAll(() => database?.close());

const dialect = new PgDialect();
const q = (query: SQL) => dialect.sqlToQuery(query);
/** The database's own error (drizzle wraps it: "Failed query: ..."). */
const dbError = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (e) {
    const err = e as Error & { cause?: Error };
    return `${err.message} ${err.cause?.message ?? ''}`;
  }
  return 'no error';
};

const setting = async (tx: Tx, name: string) => {
  const rows = (await tx.execute(sql`select current_setting(${name}, true) as v`)) as unknown as { v: string | null }[] | { rows: { v: string | null }[] };
  return (Array.isArray(rows) ? rows : rows.rows)[0].v;
};

describe('pipelinedTransaction', () => {
  it('pipelines on PostgreSQL only', () => {
    expect(pipelines(database.db)).toBe(testDbKind === 'postgres');
  });

  it('the first statement runs inside the transaction (what it sets locally is seen by the rest)', async () => {
    const seen = await pipelinedTransaction(
      database.db,
      // Queued at once, as the engine's first statements are (an async function runs to its first await).
      (tx) => sendNow(tx, q(sql`select set_config('wf.test_first', 'inside', true)`)),
      (tx) => setting(tx, 'wf.test_first'),
    );
    expect(seen).toBe('inside');
  });

  it("the first statement's row lock is held until the transaction ends", async () => {
    const id = await insertRow();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const hasLock = new Promise<void>((r) => (locked = r));
    const a = pipelinedTransaction(
      database.db,
      (tx) => sendNow(tx, q(sql`select id from requests where id = ${id} for update`)),
      async () => {
        locked();
        await held;
      },
    );
    await hasLock;
    if (testDbKind === 'postgres') {
      // Another connection cannot take the lock (it would, had the lock run before BEGIN, in autocommit).
      expect(await dbError(database.db.transaction((tx) => tx.execute(sql`select id from requests where id = ${id} for update nowait`)))).toMatch(/could not obtain lock/);
    }
    release();
    await a;
  });

  it('a deferred write is committed with the transaction', async () => {
    const id = await insertRow();
    await pipelinedTransaction(
      database.db,
      (tx) => tx.execute(sql`select 1`),
      async (tx, _a, defer) => {
        defer(sendNow(tx, q(sql`update requests set creator_name = 'deferred' where id = ${id} and set_config(${DEFERRED_MARK}, 'm1', true) is not null`)), 'm1');
      },
    );
    expect(await creatorOf(id)).toBe('deferred');
  });

  it('a deferred write the database refuses: its error, and nothing of the transaction is kept', async () => {
    const id = await insertRow();
    const refused = await dbError(
      pipelinedTransaction(
        database.db,
        (tx) => tx.execute(sql`select 1`),
        async (tx, _a, defer) => {
          await tx.execute(sql`update requests set creator_name = 'first write' where id = ${id}`);
          // version is an integer: the cast fails at the database.
          defer(sendNow(tx, q(sql`update requests set version = 'x'::int where id = ${id} and set_config(${DEFERRED_MARK}, 'm2', true) is not null`)), 'm2');
        },
      ),
    );
    expect(refused).toMatch(testDbKind === 'postgres' ? /invalid input syntax/ : /Failed query/);
    expect(await creatorOf(id)).toBe('');
    await expectPoolClean();
  });

  it('a deferred write that fails before reaching the database: its error, and nothing is kept (the guard)', async () => {
    const id = await insertRow();
    await expect(
      pipelinedTransaction(
        database.db,
        (tx) => tx.execute(sql`select 1`),
        async (tx, _a, defer) => {
          await tx.execute(sql`update requests set creator_name = 'first write' where id = ${id}`);
          defer(Promise.reject(new Error('failed in the driver')), 'm3');
        },
      ),
    ).rejects.toThrow('failed in the driver');
    expect(await creatorOf(id)).toBe('');
    await expectPoolClean();
  });

  it('a deferred write that ran but is not the one marked (another mark): nothing is kept', async () => {
    const id = await insertRow();
    const attempt = pipelinedTransaction(
      database.db,
      (tx) => tx.execute(sql`select 1`),
      async (tx, _a, defer) => {
        defer(sendNow(tx, q(sql`update requests set creator_name = 'wrong mark' where id = ${id} and set_config(${DEFERRED_MARK}, 'other', true) is not null`)), 'm4');
      },
    );
    if (testDbKind === 'postgres') {
      await expect(attempt).rejects.toThrow(/division by zero/);
      expect(await creatorOf(id)).toBe('');
    } else {
      // PGlite awaits the write before its COMMIT: no guard to fail.
      await attempt;
    }
    await expectPoolClean();
  });

  it('a deferred write on a row that is not there leaves no mark: nothing is kept', async () => {
    const id = await insertRow();
    const attempt = pipelinedTransaction(
      database.db,
      (tx) => tx.execute(sql`select 1`),
      async (tx, _a, defer) => {
        await tx.execute(sql`update requests set creator_name = 'first write' where id = ${id}`);
        defer(
          sendNow(tx, q(sql`update requests set creator_name = 'x' where id = '00000000-0000-4000-8000-000000000000' and set_config(${DEFERRED_MARK}, 'm5', true) is not null`)),
          'm5',
        );
      },
    );
    if (testDbKind === 'postgres') {
      await expect(attempt).rejects.toThrow(/division by zero/);
      expect(await creatorOf(id)).toBe('');
    } else await attempt;
  });

  it('an error after a deferred write rolls everything back', async () => {
    const id = await insertRow();
    await expect(
      pipelinedTransaction(
        database.db,
        (tx) => tx.execute(sql`select 1`),
        async (tx, _a, defer) => {
          defer(sendNow(tx, q(sql`update requests set creator_name = 'deferred' where id = ${id} and set_config(${DEFERRED_MARK}, 'm6', true) is not null`)), 'm6');
          throw new Error('refused after the write');
        },
      ),
    ).rejects.toThrow('refused after the write');
    expect(await creatorOf(id)).toBe('');
    await expectPoolClean();
  });

  it.runIf(testDbKind === 'postgres')('a connection killed mid-transaction: the error, nothing kept, the pool works on', async () => {
    const id = await insertRow();
    await expect(
      pipelinedTransaction(
        database.db,
        (tx) => tx.execute(sql`select pg_backend_pid() as pid`),
        async (tx, _a, defer) => {
          await tx.execute(sql`update requests set creator_name = 'killed' where id = ${id}`);
          defer(sendNow(tx, q(sql`select pg_terminate_backend(pg_backend_pid())`)), 'm7');
        },
      ),
    ).rejects.toThrow();
    expect(await creatorOf(id)).toBe('');
    for (let i = 0; i < 4; i++) await expectPoolClean();
  });
});

describe('the engine, pipelined and plain, writes the same rows', () => {
  it('the realistic mix (start, submit with its bill and timers, payment, assign, note, accept)', async () => {
    const deps = testStoreDeps({ catalogue: machinesCatalogue });
    const at = new Date('2026-03-01T08:00:00Z');
    const outcome = async (pipeline: boolean) => {
      const engine = new EmbeddedEngine({ db: database.db, deps, now: () => at, pipeline });
      const r = await engine.start('internalCertificate', { ownerUserId: applicant.userId, facilityId: FACILITY, data: internalCertificateData() }, applicant);
      const views = [r];
      views.push(await engine.send(r.id, { type: 'SUBMIT', agreementAccepted: true }, applicant, 1));
      views.push(await engine.send(r.id, { type: 'PAYMENT_CONFIRMED' }, SYSTEM_ACTOR, 2));
      views.push(await engine.send(r.id, { type: 'ASSIGN_TO_ME' }, registration, 3));
      views.push(await engine.send(r.id, { type: 'ADD_NOTE', note: 'Called the factory' }, registration, 4));
      views.push(await engine.send(r.id, { type: 'ACCEPT' }, registration, 5));
      // Refusals and conflicts write nothing on either path.
      await expect(engine.send(r.id, { type: 'ACCEPT' }, registration, 6)).rejects.toThrow();
      await expect(engine.send(r.id, { type: 'ADD_NOTE', note: 'late' }, registration, 2)).rejects.toThrow();
      const [row] = await database.db.select().from(requests).where(eq(requests.id, r.id));
      const history = await database.db.select().from(requestHistory).where(eq(requestHistory.requestId, r.id)).orderBy(asc(requestHistory.seq));
      const [bill] = await database.db.select().from(bills).where(eq(bills.requestId, r.id));
      const billRow = bill && (await database.db.select().from(requests).where(eq(requests.id, bill.id)))[0];
      const timers = await database.db.select().from(workflowTimers).where(eq(workflowTimers.requestId, r.id)).orderBy(asc(workflowTimers.event));
      const billTimers = bill ? await database.db.select().from(workflowTimers).where(eq(workflowTimers.requestId, bill.id)) : [];
      // Ids, numbers and hashes differ between the two requests by construction; everything else must not.
      const ids = [r.id, r.number, bill?.id, bill?.number, billRow?.number].filter((x): x is string => !!x);
      const norm = (v: unknown) =>
        JSON.parse(
          ids.reduce((text, id, i) => text.split(id).join(`<id${i}>`), JSON.stringify(v)).replace(/h1:[^"]+/g, '<hash>').replace(/"id":("[^"]*"|\d+)/g, '"id":0'),
        ) as unknown;
      expect((await engine.verifyHistory(r.id)).ok).toBe(true);
      return norm({ views, row, history, bill, billRow, timers, billTimers });
    };
    const plain = await outcome(false);
    const pipelined = await outcome(true);
    expect(pipelined).toEqual(plain);
  });
});

async function insertRow(): Promise<string> {
  const id = crypto.randomUUID();
  await database.db.insert(requests).values({
    id,
    number: `T-${id.slice(0, 8)}`,
    kind: 'test',
    machineVersion: 1,
    input: {},
    snapshot: {},
    status: 1,
    queue: null,
    stateValue: 'x',
    version: 1,
    facilityPublicId: FACILITY,
    ownerUserId: applicant.userId,
    creatorName: '',
    historySeq: 0,
    historyHash: '',
  });
  return id;
}

async function creatorOf(id: string): Promise<string | undefined> {
  const [row] = await database.db.select({ creatorName: requests.creatorName }).from(requests).where(eq(requests.id, id));
  return row?.creatorName;
}

/** No connection was handed back with a transaction open (an open one would see this as not the first statement). */
async function expectPoolClean(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const rows = (await database.db.execute(sql`select current_setting(${DEFERRED_MARK}, true) as mark`)) as unknown as
      | { mark: string | null }[]
      | { rows: { mark: string | null }[] };
    const [row] = Array.isArray(rows) ? rows : rows.rows;
    expect(row.mark || null).toBe(null);
  }
}
