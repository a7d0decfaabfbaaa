import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import type { Database } from '../../../db/client';
import { bills, requestHistory, requests, workflowTimers } from '../../../db/schema';
import { SYSTEM_ACTOR } from '../../../machines/actor';
import { sendStep, startStep, type StoredSnapshot } from '../../../workflows/step';
import { verifyChain } from '../../../workflows/store';
import type { RecordTransitionArgs, RequestActivities } from '../../../workflows/temporal/activities';
import { createTestDatabase, testDbKind } from '../../helpers/db';
import { FACILITY, applicant, reviewer } from '../fixtures/actors';
import { FIXTURE_KIND, versionedCatalogue } from './fixtures/catalogues';
import { activitiesFor, testDeps } from './helpers';

/*
 * The activities alone, as a worker runs them (MockActivityEnvironment gives them an activity context), against the
 * test database: they persist what the workflow decided, in the embedded engine's tables, and are safe to retry.
 */

let database: Database;
let acts: RequestActivities;
const catalogue = versionedCatalogue(1);
const machine = catalogue.getMachine(FIXTURE_KIND, 1);
const T0 = Date.UTC(2026, 2, 1, 9, 0, 0);

beforeAll(async () => {
  database = await createTestDatabase({ seed: false });
  acts = activitiesFor(database.db);
});
afterAll(() => database?.close());

function run<A extends unknown[], R>(fn: (...args: A) => Promise<R>, ...args: A): Promise<R> {
  // The environment logs an activity's failure as the worker would; the tests assert on it instead.
  return new MockActivityEnvironment({ activityType: fn.name }, { logger: new DefaultLogger('ERROR') }).run(fn, ...args);
}

async function started() {
  const requestId = randomUUID();
  const input = { ownerUserId: applicant.userId, facilityId: FACILITY, requestId };
  const started = startStep(catalogue, FIXTURE_KIND, machine, input);
  if (!started.ok) throw new Error('fixture start refused');
  const first = started.step;
  const res = await run(acts.recordStart, {
    requestId,
    kind: FIXTURE_KIND,
    machineVersion: 1,
    input,
    creatorName: 'Khalid Al-Harbi',
    actor: applicant,
    next: first.next,
    effects: first.effects,
    now: T0,
  });
  return { requestId, stored: first.next.stored, ...res };
}

async function row(requestId: string) {
  const [r] = await database.db.select().from(requests).where(eq(requests.id, requestId));
  return r;
}

/** What the workflow would pass for an event decided against `stored` at `fromVersion`. */
function transition(requestId: string, stored: StoredSnapshot, fromVersion: number, event: { type: string; [k: string]: unknown }, actor = applicant, now = T0 + 60_000): RecordTransitionArgs {
  const step = sendStep(catalogue, FIXTURE_KIND, 1, machine, stored, event, actor);
  if (!step.ok) throw new Error(`fixture refused ${event.type}: ${step.refusal.code}`);
  return { requestId, fromVersion, event, actor, prev: step.prev, next: step.next, effects: step.effects, armed: step.armed, cancelled: step.cancelled, now };
}

describe(`activities on ${testDbKind}`, () => {
  it('recordStart writes the row, the START row and the draft timer at the workflow time; a retry changes nothing', async () => {
    const s = await started();
    expect(s.version).toBe(1);
    expect(s.number).toMatch(/^\d{4}-\d{6}$/);
    const r = await row(s.requestId);
    expect(r).toMatchObject({ kind: FIXTURE_KIND, machineVersion: 1, status: 0, version: 1, facilityPublicId: FACILITY, ownerUserId: applicant.userId });
    expect(r.createdAt.getTime()).toBe(T0);
    const timers = await database.db.select().from(workflowTimers).where(eq(workflowTimers.requestId, s.requestId));
    expect(timers.map((t) => [t.event, t.dueAt.getTime()])).toEqual([['DRAFT_EXPIRED', T0 + testDeps().durations().draftRetention]]);

    const input = { ownerUserId: applicant.userId, facilityId: FACILITY, requestId: s.requestId };
    const again = await run(acts.recordStart, {
      requestId: s.requestId,
      kind: FIXTURE_KIND,
      machineVersion: 1,
      input,
      creatorName: 'Khalid Al-Harbi',
      actor: applicant,
      next: (() => {
        const r = startStep(catalogue, FIXTURE_KIND, machine, input);
        if (!r.ok) throw new Error('fixture start refused');
        return r.step.next;
      })(),
      effects: [],
      now: T0 + 5_000,
    });
    expect(again).toEqual({ number: s.number, version: 1 });
    expect(await database.db.select().from(requestHistory).where(eq(requestHistory.requestId, s.requestId))).toHaveLength(1);
  });

  it('recordTransition writes row, chained history, effects and timer changes; a retry of a committed attempt is a no-op', async () => {
    const s = await started();
    const submit = transition(s.requestId, s.stored, 1, { type: 'SUBMIT' });
    expect(await run(acts.recordTransition, submit)).toEqual({ version: 2 });
    expect(await run(acts.recordTransition, submit)).toEqual({ version: 2 });
    const approve = transition(s.requestId, submit.next.stored, 2, { type: 'APPROVE' }, reviewer);
    expect(await run(acts.recordTransition, approve)).toEqual({ version: 3 });

    const r = await row(s.requestId);
    expect([r.version, r.stateValue, r.status]).toEqual([3, 'pendingPayment', 16]);
    const history = await database.db.select().from(requestHistory).where(eq(requestHistory.requestId, s.requestId));
    expect(history.map((h) => h.event).sort()).toEqual(['APPROVE', 'START', 'SUBMIT']);
    expect(await verifyChain(database.db, r)).toEqual({ ok: true, rows: 3 });
    expect(await database.db.select().from(bills).where(eq(bills.requestId, s.requestId))).toHaveLength(1);
    const timers = await database.db.select().from(workflowTimers).where(eq(workflowTimers.requestId, s.requestId));
    const payment = timers.find((t) => t.event === 'PAYMENT_EXPIRED')!;
    expect(payment.dueAt.getTime()).toBe(approve.now + testDeps().durations().paymentWindow);
    expect(timers.find((t) => t.event === 'DRAFT_EXPIRED')!.cancelledAt).not.toBeNull();
  });

  it('a version the workflow did not expect is StoreDiverged, non-retryable, and writes nothing', async () => {
    const s = await started();
    const stale = transition(s.requestId, s.stored, 5, { type: 'SUBMIT' });
    const err = await run(acts.recordTransition, stale).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect([(err as ApplicationFailure).type, (err as ApplicationFailure).nonRetryable]).toEqual(['StoreDiverged', true]);
    expect((await row(s.requestId)).version).toBe(1);
  });

  it('a fired deadline marks its timer row fired (accepted) in the transition; a refused one marks it refused', async () => {
    const s = await started();
    const submit = transition(s.requestId, s.stored, 1, { type: 'SUBMIT' });
    await run(acts.recordTransition, submit);
    const approve = transition(s.requestId, submit.next.stored, 2, { type: 'APPROVE' }, reviewer);
    await run(acts.recordTransition, approve);
    const deadline = { event: 'PAYMENT_EXPIRED', after: 'paymentWindow' };
    const expire = transition(s.requestId, approve.next.stored, 3, { type: 'PAYMENT_EXPIRED' }, SYSTEM_ACTOR, approve.now + 72 * 3_600_000);
    await run(acts.recordTransition, { ...expire, firedDeadline: deadline });
    const timers = await database.db.select().from(workflowTimers).where(eq(workflowTimers.requestId, s.requestId));
    const fired = timers.find((t) => t.event === 'PAYMENT_EXPIRED')!;
    expect([fired.outcome, fired.firedAt?.getTime(), fired.cancelledAt]).toEqual(['accepted', expire.now, null]);
    const [bill] = await database.db.select().from(bills).where(eq(bills.requestId, s.requestId));
    expect(bill.status).toBe(3);

    const other = await started();
    await run(acts.recordDeadlineRefused, { requestId: other.requestId, deadline: { event: 'DRAFT_EXPIRED', after: 'draftRetention' }, now: T0 + 1 });
    const [draft] = await database.db.select().from(workflowTimers).where(eq(workflowTimers.requestId, other.requestId));
    expect(draft.outcome).toBe('refused');
    expect((await row(other.requestId)).version).toBe(1);
  });
});
