import { httpStatusOf } from '../../server/errors';
import { testStoreDeps } from '../helpers/deps';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { requestHistory, workflowTimers } from '../../db/schema';
import { AppError } from '../../server/errors';
import { EmbeddedEngine } from '../../workflows/embedded/embedded-engine';
import { fixtureCatalogue } from './fixtures/payment-machine';
import { FACILITY, applicant, reviewer } from './fixtures/actors';
import { databasesUnderTest } from './fixtures/databases';

if (databasesUnderTest.length === 1) console.log('concurrency on PostgreSQL skipped: DATABASE_URL not set');

describe.each(databasesUnderTest)('concurrency on $kind', ({ open }) => {
  let database: Database;
  let engine: EmbeddedEngine;
  beforeAll(async () => {
    database = await open(16);
    engine = new EmbeddedEngine({ db: database.db, deps: testStoreDeps({ catalogue: fixtureCatalogue() }) });
  });
  afterAll(() => database?.close());

  it('32 clients send the same event with the same expectedVersion: one succeeds, 31 get 409, one history row', async () => {
    const req = await engine.start('fixturePayment', { ownerUserId: applicant.userId, facilityId: FACILITY }, applicant);
    const results = await Promise.allSettled(
      Array.from({ length: 32 }, () => engine.send(req.id, { type: 'SUBMIT' }, applicant, req.version)),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(31);
    for (const e of refused) {
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).code).toBe('ConcurrencyConflict');
      expect(httpStatusOf(e as AppError)).toBe(409);
    }
    const rows = await database.db.select().from(requestHistory).where(eq(requestHistory.requestId, req.id));
    expect(rows.filter((r) => r.event === 'SUBMIT')).toHaveLength(1);
    expect((await engine.get(req.id))!.version).toBe(2);
  });

  it('two timer runners sweeping the same due timers fire each at most once, and leave none due', async () => {
    const earlier = new Set((await database.db.select({ id: workflowTimers.id }).from(workflowTimers)).map((r) => r.id));
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await engine.start('fixturePayment', { ownerUserId: applicant.userId, facilityId: FACILITY }, applicant);
      await engine.send(r.id, { type: 'SUBMIT' }, applicant, 1);
      await engine.send(r.id, { type: 'APPROVE' }, reviewer, 2);
      ids.push(r.id);
    }
    const second = new EmbeddedEngine({ db: database.db, deps: testStoreDeps({ catalogue: fixtureCatalogue() }) });
    const later = new Date(Date.now() + 73 * 3_600_000);
    const [a, b] = await Promise.all([engine.fireDueTimers(later), second.fireDueTimers(later)]);
    // A timer whose request the other runner holds at that moment is left for the next sweep (fireDueTimers: 'busy'),
    // so both may pass one by; the next sweep fires it. Each request's payment window and its bill's own deadline are
    // due. A bill's deadline is fired, or cancelled by its request's payment expiry when that runs first (the other
    // runner had passed the bill's timer by as busy). So: none due is left, and the sweeps counted each firing once.
    const c = await engine.fireDueTimers(later);
    expect(await engine.fireDueTimers(later)).toBe(0);
    const timers = (await database.db.select().from(workflowTimers)).filter((t) => !earlier.has(t.id));
    expect(timers.filter((t) => !t.firedAt && !t.cancelledAt && t.dueAt.getTime() <= later.getTime())).toEqual([]);
    expect(a + b + c).toBe(timers.filter((t) => t.firedAt).length);
    expect(a + b + c).toBeGreaterThanOrEqual(ids.length);
    for (const id of ids) {
      const history = await engine.history(id);
      expect(history.filter((h) => h.event === 'PAYMENT_EXPIRED')).toHaveLength(1);
      const timers = await database.db.select().from(workflowTimers).where(eq(workflowTimers.requestId, id));
      expect(timers.filter((t) => t.event === 'PAYMENT_EXPIRED' && t.outcome === 'accepted')).toHaveLength(1);
    }
  });
});
