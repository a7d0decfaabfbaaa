import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DrizzleQueryError, eq, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client';
import { requests } from '../../db/schema';
import { SYSTEM_ACTOR } from '../../machines/actor';
import { EmbeddedEngine } from '../../workflows/embedded/embedded-engine';
import { HotStatement, fieldsOf, param } from '../../workflows/hot-statements';
import { machinesCatalogue } from '../../workflows/machines-catalogue';
import { lockRequest, readRequest } from '../../workflows/store';
import { createTestDatabase } from '../helpers/db';
import { testStoreDeps } from '../helpers/deps';
import { internalCertificateData } from '../services/fixtures';
import { FACILITY, applicant, registration } from './fixtures/internal-certificate-scenario';

/*
 * Issue 18, the engine's eleventh look: the per-event statements (HotStatement) go to postgres.js directly instead of
 * through drizzle's prepared-query object. What a caller gets back must not change: the same rows, decoded by the same
 * columns (dates, jsonb, integers, nulls), the same errors, and the statements still reach drizzle's logger.
 */
let database: Database;
let engine: EmbeddedEngine;

beforeAll(async () => {
  database = await createTestDatabase();
  engine = new EmbeddedEngine({ db: database.db, deps: testStoreDeps({ catalogue: machinesCatalogue }) });
});
afterAll(() => database?.close());

const everyColumn = new HotStatement<typeof requests.$inferSelect>(
  'engine11_every_column',
  (db) => db.select().from(requests).where(eq(requests.id, param('id'))),
  fieldsOf(requests),
);

describe('the per-event statements read and write as drizzle does', () => {
  it('a locked row equals the row drizzle reads: dates as dates, jsonb as objects, nulls as null', async () => {
    const r = await engine.start('internalCertificate', { ownerUserId: applicant.userId, facilityId: FACILITY, data: internalCertificateData() }, applicant);
    await engine.send(r.id, { type: 'SUBMIT', agreementAccepted: true }, applicant, r.version);
    const byDrizzle = await readRequest(database.db, r.id);
    const [byStatement] = await database.db.transaction((tx) => everyColumn.execute(tx, { id: r.id }));
    expect(byStatement).toEqual(byDrizzle);
    expect(Object.keys(byStatement)).toEqual(Object.keys(byDrizzle!));
    expect(byStatement.createdAt).toBeInstanceOf(Date);
    expect(byStatement.deletedAt).toBeNull();
    expect(byStatement.assigneeUserId).toBeNull();
    expect(typeof byStatement.snapshot).toBe('object');
    expect(byStatement.version).toBe(2);
    // The engine's own lock (without the start input) reads the same columns.
    const locked = await database.db.transaction((tx) => lockRequest(tx, r.id));
    const { input: _input, ...rest } = byDrizzle!;
    expect(locked).toEqual(rest);
  });

  it('a number drawn by its statement is the series value as text; a statement with no rows gives none', async () => {
    const [n] = await database.db.transaction((tx) =>
      new HotStatement<{ n: string }>('engine11_number', () => ({ toSQL: () => new PgDialect().sqlToQuery(sql`select ${sql<string>`(41 + 1)::text`} as n`) }), [
        { path: ['n'], field: sql<string>`(41 + 1)::text` },
      ]).execute(tx, {}),
    );
    expect(n).toEqual({ n: '42' });
    const none = await database.db.transaction((tx) => everyColumn.execute(tx, { id: '00000000-0000-4000-8000-000000000000' }));
    expect(none).toEqual([]);
  });

  it('a statement the database refuses fails as drizzle fails (DrizzleQueryError with the database error as cause) and changes nothing', async () => {
    const r = await engine.start('internalCertificate', { ownerUserId: applicant.userId, facilityId: FACILITY, data: internalCertificateData() }, applicant);
    const clash = new HotStatement('engine11_clash', () => ({
      toSQL: () => new PgDialect().sqlToQuery(sql`update ${requests} set "number" = (select "number" from ${requests} where "id" <> ${sql.placeholder('id')}::uuid limit 1) where "id" = ${sql.placeholder('id')}::uuid`),
    }));
    const err = await database.db.transaction((tx) => clash.execute(tx, { id: r.id })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DrizzleQueryError);
    expect((err as { cause?: { code?: string } }).cause?.code).toBe('23505');
    expect((await readRequest(database.db, r.id))!.number).toBe(r.number);
  });

  it('a missing placeholder value is refused before anything is sent', async () => {
    await expect(database.db.transaction((tx) => everyColumn.execute(tx, {}))).rejects.toThrow('No value for placeholder "id" was provided');
  });

  it("drizzle's logger is told every statement with its parameters (the bench's raw side replays what it records)", async () => {
    const seen: { sql: string; params: unknown[] }[] = [];
    const logger = { logQuery: (q: string, params: unknown[]) => void seen.push({ sql: q, params }) };
    const client = (database.db as unknown as { $client: unknown }).$client;
    const db =
      database.kind === 'postgres'
        ? (await import('drizzle-orm/postgres-js')).drizzle({ client: client as never, logger })
        : (await import('drizzle-orm/pglite')).drizzle({ client: client as never, logger });
    const r = await engine.start('internalCertificate', { ownerUserId: applicant.userId, facilityId: FACILITY, data: internalCertificateData() }, applicant);
    await (db as unknown as Database['db']).transaction((tx) => everyColumn.execute(tx, { id: r.id }));
    expect(seen.filter((s) => s.sql.includes('from "requests"'))).toEqual([{ sql: expect.stringContaining('where "requests"."id" = $1'), params: [r.id] }]);
  });

  it('the engine still answers, refuses and moves versions the same way through these statements', async () => {
    const r = await engine.start('internalCertificate', { ownerUserId: applicant.userId, facilityId: FACILITY, data: internalCertificateData() }, applicant);
    const submitted = await engine.send(r.id, { type: 'SUBMIT', agreementAccepted: true }, applicant, r.version);
    const paid = await engine.send(r.id, { type: 'PAYMENT_CONFIRMED' }, SYSTEM_ACTOR, submitted.version);
    const taken = await engine.send(r.id, { type: 'ASSIGN_TO_ME' }, registration, paid.version);
    expect(taken.assigneeUserId).toBe(registration.userId);
    await expect(engine.send(r.id, { type: 'ASSIGN_TO_ME' }, registration, paid.version)).rejects.toMatchObject({ code: 'ConcurrencyConflict' });
    expect((await engine.get(r.id))!.version).toBe(taken.version);
    expect(await engine.verifyHistory(r.id)).toMatchObject({ ok: true });
  });
});
