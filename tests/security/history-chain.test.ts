import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { requestHistory, requests } from '../../db/schema';
import { EmbeddedEngine } from '../../workflows/embedded/embedded-engine';
import { canonicalJson, checkChain, configureHistoryKeys, historyHash, legacyHistoryHash, type HashedRow } from '../../workflows/hash-chain';
import type { Database } from '../../db/client';
import { createTestDatabase } from '../helpers/db';
import { testStoreDeps } from '../helpers/deps';
import { fixtureCatalogue } from '../workflows/fixtures/payment-machine';
import { fixtureScenario as scenario } from '../workflows/fixtures/scenario';

/*
 * Issue 11, point 5: the history cannot be rewritten quietly. Rows are HMAC-keyed with a server-held key; a database
 * editor who edits, deletes or re-chains rows (recomputing plain SHA-256 all the way to the head on the request row)
 * is found by verify. Keys rotate by configuration; unkeyed rows of before verify only when allowed.
 */

const KEY_A = 'a:0123456789abcdef0123456789abcdef-key-a';
const KEY_B = 'b:fedcba9876543210fedcba9876543210-key-b';

let database: Database;
let engine: EmbeddedEngine;

beforeAll(async () => {
  configureHistoryKeys({ keys: KEY_A });
  database = await createTestDatabase({ seed: false });
  engine = new EmbeddedEngine({ db: database.db, deps: testStoreDeps({ catalogue: fixtureCatalogue() }) });
}, 60_000);
afterEach(() => configureHistoryKeys({ keys: KEY_A }));
afterAll(async () => {
  configureHistoryKeys({});
  await database?.close();
});

async function threeRows(): Promise<string> {
  const started = await engine.start(scenario.kind, scenario.input, scenario.starter, { creatorName: 'Chain Tester' });
  let view = await engine.get(started.id);
  for (const s of [scenario.accepted, scenario.second]) view = await engine.send(started.id, s.event, s.actor, view!.version);
  expect(await engine.verifyHistory(started.id)).toEqual({ ok: true, rows: 3 });
  return started.id;
}

type Row = typeof requestHistory.$inferSelect;
const rowsOf = (id: string): Promise<Row[]> => database.db.select().from(requestHistory).where(eq(requestHistory.requestId, id)).orderBy(asc(requestHistory.seq));

/** What a database editor can do: rewrite rows and recompute every hash with plain SHA-256, head included. */
async function rechainWithSha256(id: string, edit: (rows: Row[]) => Row[]) {
  const rows = edit(await rowsOf(id));
  await database.db.delete(requestHistory).where(eq(requestHistory.requestId, id));
  let prev = '';
  for (const [i, r] of rows.entries()) {
    const row = { ...r, seq: i + 1, prevHash: prev } as Row;
    row.hash = legacyHistoryHash(prev, row as unknown as HashedRow);
    await database.db.insert(requestHistory).values(row);
    prev = row.hash;
  }
  await database.db.update(requests).set({ historySeq: rows.length, historyHash: prev }).where(eq(requests.id, id));
}

describe('the keyed history chain', () => {
  it('stores keyed hashes naming their key', async () => {
    const rows = await rowsOf(await threeRows());
    for (const r of rows) expect(r.hash).toMatch(/^h1:a:[0-9a-f]{64}$/);
  });

  it('an edited row is found', async () => {
    const id = await threeRows();
    await database.db.update(requestHistory).set({ note: 'rewritten afterwards' }).where(and(eq(requestHistory.requestId, id), eq(requestHistory.seq, 2)));
    expect(await engine.verifyHistory(id)).toEqual({ ok: false, rows: 3, firstBrokenSeq: 2, reason: 'hash' });
  });

  it('a deleted row is found, even with the later rows renumbered', async () => {
    const id = await threeRows();
    await database.db.delete(requestHistory).where(and(eq(requestHistory.requestId, id), eq(requestHistory.seq, 2)));
    await database.db.update(requestHistory).set({ seq: 2 }).where(and(eq(requestHistory.requestId, id), eq(requestHistory.seq, 3)));
    expect(await engine.verifyHistory(id)).toMatchObject({ ok: false, firstBrokenSeq: 2 });
  });

  it('a history re-chained with plain SHA-256 (an edited note, every hash and the head recomputed) is found', async () => {
    const id = await threeRows();
    await rechainWithSha256(id, (rows) => rows.map((r) => (r.seq === 2 ? { ...r, note: 'nothing happened here' } : r)));
    expect(await engine.verifyHistory(id)).toEqual({ ok: false, rows: 3, firstBrokenSeq: 1, reason: 'hash' });
  });

  it('a history re-chained after deleting a row is found', async () => {
    const id = await threeRows();
    await rechainWithSha256(id, (rows) => rows.filter((r) => r.seq !== 2));
    expect(await engine.verifyHistory(id)).toMatchObject({ ok: false, firstBrokenSeq: 1, reason: 'hash' });
  });

  it('a history re-chained with a guessed key is found', async () => {
    const id = await threeRows();
    const rows = await rowsOf(id);
    let prev = '';
    for (const r of rows) {
      const { requestId, seq, actorUserId, actor, event, payload, note, fromStatus, toStatus, fromQueue, toQueue, at } = r;
      const canonical = canonicalJson({ requestId, seq, actorUserId, actor, event, payload, note: seq === 2 ? 'forged' : note, fromStatus, toStatus, fromQueue, toQueue, at });
      const hash = `h1:a:${createHash('sha256').update(`guess${prev}\n${canonical}`).digest('hex')}`;
      await database.db.update(requestHistory).set({ prevHash: prev, hash, note: seq === 2 ? 'forged' : note }).where(and(eq(requestHistory.requestId, id), eq(requestHistory.seq, seq)));
      prev = hash;
    }
    await database.db.update(requests).set({ historyHash: prev }).where(eq(requests.id, id));
    expect(await engine.verifyHistory(id)).toMatchObject({ ok: false, firstBrokenSeq: 1, reason: 'hash' });
  });

  it('rotation: rows signed with the old key still verify after a new key is put first; new rows use the new key', async () => {
    const id = await threeRows();
    configureHistoryKeys({ keys: `${KEY_B},${KEY_A}` });
    expect(await engine.verifyHistory(id)).toEqual({ ok: true, rows: 3 });
    const other = await threeRows();
    expect((await rowsOf(other)).map((r) => r.hash.split(':')[1])).toEqual(['b', 'b', 'b']);
    // Dropping the old key from the list makes its rows unverifiable: keys are retired only with their rows.
    configureHistoryKeys({ keys: KEY_B });
    expect(await engine.verifyHistory(id)).toMatchObject({ ok: false, firstBrokenSeq: 1 });
    expect(await engine.verifyHistory(other)).toEqual({ ok: true, rows: 3 });
  });

  it('histories of before (plain SHA-256) verify only when HISTORY_ACCEPT_LEGACY allows, and a keyed chain cannot fall back', async () => {
    const id = await threeRows();
    await rechainWithSha256(id, (rows) => rows); // the same rows, as the old code hashed them
    expect(await engine.verifyHistory(id)).toMatchObject({ ok: false, reason: 'hash' });
    configureHistoryKeys({ keys: KEY_A, acceptLegacy: true });
    expect(await engine.verifyHistory(id)).toEqual({ ok: true, rows: 3 });
    // A keyed row followed by an unkeyed one is a rewrite, even with legacy accepted.
    const rows = await rowsOf(id);
    const r1 = { ...rows[0], prevHash: '' } as unknown as HashedRow & { prevHash: string; hash: string };
    r1.hash = historyHash('', r1);
    const r2 = { ...rows[1], prevHash: r1.hash } as unknown as HashedRow & { prevHash: string; hash: string };
    r2.hash = legacyHistoryHash(r1.hash, r2);
    expect(checkChain([r1, r2], { seq: 2, hash: r2.hash })).toEqual({ ok: false, rows: 2, firstBrokenSeq: 2, reason: 'hash' });
  });
});
