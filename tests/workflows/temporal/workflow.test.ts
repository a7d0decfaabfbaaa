import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { bills, certificates, requestHistory, requests, workflowTimers } from '../../../db/schema';
import { verifyChain } from '../../../workflows/store';
import {
  REQUEST_WORKFLOW_TYPE,
  machineVersionPatch,
  sendEventUpdate,
  startedUpdate,
  stateQuery,
  systemEventSignal,
  workflowIdOf,
  type RequestState,
  type TransitionOutcome,
} from '../../../workflows/temporal/shared';
import { createTestDatabase } from '../../helpers/db';
import { applicant, otherApplicant, reviewer } from '../fixtures/actors';
import { FIXTURE_KIND } from './fixtures/catalogues';
import type { TemporalStandIn } from './harness';
import { WORKFLOWS, createStandIn, eventTypes, failureOf, fixtureInput, replayStandIn, settled, testDeps } from './helpers';

/*
 * The request workflow run offline: the real bundle in the SDK's sandbox, the real activities on the test database,
 * the server's part played by the stand-in (harness/). Each scenario ends by replaying the history it wrote through
 * the real core, so what is asserted here is also what a worker would replay.
 */

let database: Database;
let standIn: TemporalStandIn;
const HOUR = 3_600_000;

beforeAll(async () => {
  database = await createTestDatabase({ seed: false });
  standIn = await createStandIn(database.db, { workflowsPath: WORKFLOWS.fixtureV2 });
});
afterAll(async () => {
  await standIn?.dispose();
  await database?.close();
});

async function startRequest(opts: Parameters<typeof fixtureInput>[1] = {}) {
  const requestId = randomUUID();
  const workflowId = workflowIdOf(requestId);
  const started = settled<TransitionOutcome>(
    await standIn.start(REQUEST_WORKFLOW_TYPE, workflowId, [fixtureInput(requestId, opts)], { name: startedUpdate.name, args: [] }),
  );
  return { requestId, workflowId, started };
}

const send = (workflowId: string, type: string, actor = applicant, expectedVersion?: number, payload: Record<string, unknown> = {}) =>
  standIn.update(workflowId, sendEventUpdate.name, { event: { type, ...payload }, actor, ...(expectedVersion !== undefined ? { expectedVersion } : {}) });

async function rowOf(requestId: string) {
  const [row] = await database.db.select().from(requests).where(eq(requests.id, requestId));
  return row;
}
const historyRows = (requestId: string) => database.db.select().from(requestHistory).where(eq(requestHistory.requestId, requestId));
const timerRows = (requestId: string) => database.db.select().from(workflowTimers).where(eq(workflowTimers.requestId, requestId));

async function expectReplays(workflowId: string, workflowsPath: string = WORKFLOWS.fixtureV2) {
  const results = await replayStandIn(standIn, workflowId, workflowsPath);
  expect(results.map((r) => r.error?.message)).toEqual(results.map(() => undefined));
}

describe('start (update-with-start)', () => {
  it('answers once the request row and its START row exist; the state query agrees with the row', async () => {
    const { requestId, workflowId, started } = await startRequest();
    expect(started).toEqual({ version: 1, status: 0, queue: 'applicant', stateValue: 'draft', finished: false });
    const row = await rowOf(requestId);
    expect(row).toMatchObject({ kind: FIXTURE_KIND, version: 1, status: 0, machineVersion: 2, creatorName: 'Khalid Al-Harbi' });
    expect(row.number).toMatch(/^\d{4}-\d{6}$/);
    const history = await historyRows(requestId);
    expect(history.map((h) => h.event)).toEqual(['START']);

    const state = await standIn.query<RequestState>(workflowId, stateQuery.name);
    expect(state).toMatchObject({ requestId, number: row.number, version: 1, machineVersion: 2, status: 0 });
    expect(state.stored).toEqual(row.snapshot);
    // The draft's retention deadline is a workflow timer and, for lists, a timer row with the same due time.
    const [timer] = await timerRows(requestId);
    expect(state.deadlines).toEqual([{ event: 'DRAFT_EXPIRED', after: 'draftRetention', dueAt: timer.dueAt.getTime() }]);
    expect(standIn.pendingTimers(workflowId).map((t) => t.dueAt)).toHaveLength(1);
    await expectReplays(workflowId);
  });

  it('an event delivered with the start is decided after the request row exists', async () => {
    const requestId = randomUUID();
    const workflowId = workflowIdOf(requestId);
    const r = await standIn.start(REQUEST_WORKFLOW_TYPE, workflowId, [fixtureInput(requestId)], {
      name: sendEventUpdate.name,
      args: [{ event: { type: 'SUBMIT' }, actor: applicant, expectedVersion: 1 }],
    });
    expect(settled<TransitionOutcome>(r)).toMatchObject({ version: 2, stateValue: 'registrationReview' });
    expect((await historyRows(requestId)).map((h) => [h.seq, h.event])).toEqual([
      [1, 'START'],
      [2, 'SUBMIT'],
    ]);
    await expectReplays(workflowId);
  });
});

describe('events as updates', () => {
  it('an accepted event is persisted before the update answers: row, hash-chained history, timers', async () => {
    const { requestId, workflowId } = await startRequest();
    const r = settled<TransitionOutcome>(await send(workflowId, 'SUBMIT', applicant, 1));
    expect(r).toMatchObject({ version: 2, status: 4, queue: 'registration' });
    const row = await rowOf(requestId);
    expect([row.version, row.status, row.stateValue]).toEqual([2, 4, 'registrationReview']);
    expect((await historyRows(requestId)).map((h) => [h.seq, h.event, h.fromStatus, h.toStatus])).toEqual([
      [1, 'START', null, 0],
      [2, 'SUBMIT', 0, 4],
    ]);
    expect(await verifyChain(database.db, row)).toEqual({ ok: true, rows: 2 });
    // Leaving the draft cancelled its retention timer, in the workflow and in the table.
    expect(standIn.pendingTimers(workflowId)).toEqual([]);
    expect((await timerRows(requestId)).map((t) => t.cancelledAt !== null)).toEqual([true]);
    expect(eventTypes(standIn.runs(workflowId)[0].events)).toContain('TIMER_CANCELED');
    await expectReplays(workflowId);
  });

  it('refused events are rejected by the validator: the update fails, nothing is written, not even workflow history', async () => {
    const { requestId, workflowId } = await startRequest();
    const rowBefore = await rowOf(requestId);
    const eventsBefore = standIn.runs(workflowId)[0].events.length;

    expect(failureOf(await send(workflowId, 'SUBMIT', applicant, 7)).type).toBe('ConcurrencyConflict');
    expect(failureOf(await send(workflowId, 'SUBMIT', otherApplicant, 1)).type).toBe('NotAuthorized');
    expect(failureOf(await send(workflowId, 'APPROVE', reviewer, 1)).type).toBe('TransitionNotAllowed');
    settled(await send(workflowId, 'SUBMIT', applicant, 1));
    const moved = await rowOf(requestId);
    const movedEvents = standIn.runs(workflowId)[0].events.length;
    const invalid = failureOf(await send(workflowId, 'RETURN', reviewer, 2, { reason: '   ' }));
    expect(invalid.type).toBe('ValidationFailed');
    expect(invalid.details?.[0]).toEqual([expect.objectContaining({ field: 'reason' })]);

    expect(rowBefore.version).toBe(1);
    expect(await rowOf(requestId)).toEqual(moved);
    expect(await historyRows(requestId)).toHaveLength(2);
    // Only the accepted SUBMIT added workflow history; the four refusals left none.
    expect(eventsBefore).toBeLessThan(movedEvents);
    expect(standIn.runs(workflowId)[0].events).toHaveLength(movedEvents);
    await expectReplays(workflowId);
  });

  it('two events validated together: the second meets the state the first left and fails, writing nothing', async () => {
    const { requestId, workflowId } = await startRequest();
    // No expectedVersion (as a system caller sends): both pass validation against the draft.
    const [first, second] = await standIn.updates(workflowId, [
      { name: sendEventUpdate.name, args: [{ event: { type: 'SUBMIT' }, actor: applicant }] },
      { name: sendEventUpdate.name, args: [{ event: { type: 'SUBMIT' }, actor: applicant }] },
    ]);
    expect(settled<TransitionOutcome>(first).version).toBe(2);
    expect(second.outcome).toBe('failed');
    expect(failureOf(second).type).toBe('TransitionNotAllowed');
    expect((await historyRows(requestId)).map((h) => h.event)).toEqual(['START', 'SUBMIT']);
    const types = eventTypes(standIn.runs(workflowId)[0].events);
    expect(types.filter((t) => t === 'WORKFLOW_EXECUTION_UPDATE_ACCEPTED')).toHaveLength(3);
    expect(types.filter((t) => t === 'WORKFLOW_EXECUTION_UPDATE_COMPLETED')).toHaveLength(3);
    await expectReplays(workflowId);
  });

  it('with an expectedVersion, an event arriving while another is being written is a ConcurrencyConflict', async () => {
    const { requestId, workflowId } = await startRequest();
    const results = await standIn.updates(
      workflowId,
      Array.from({ length: 5 }, () => ({ name: sendEventUpdate.name, args: [{ event: { type: 'SUBMIT' }, actor: applicant, expectedVersion: 1 }] })),
    );
    expect(results.map((r) => r.outcome)).toEqual(['completed', 'rejected', 'rejected', 'rejected', 'rejected']);
    for (const r of results.slice(1)) expect(failureOf(r).type).toBe('ConcurrencyConflict');
    expect(await historyRows(requestId)).toHaveLength(2);
    await expectReplays(workflowId);
  });

  it('the machine reaching a final state completes the workflow; later events find it gone', async () => {
    const { requestId, workflowId } = await startRequest({ discountPercent: 100 });
    settled(await send(workflowId, 'SUBMIT', applicant, 1));
    settled(await send(workflowId, 'APPROVE', reviewer, 2));
    expect(standIn.closed(workflowId)).toBe(true);
    expect(standIn.result(workflowId)).toMatchObject({ version: 3, status: 25, finished: true });
    expect(await database.db.select().from(certificates).where(eq(certificates.requestId, requestId))).toHaveLength(1);
    await expect(send(workflowId, 'SUBMIT', applicant, 3)).rejects.toThrow(/already completed/);
    await expectReplays(workflowId);
  });

  it('a system event signal goes through the same path; a refused one is dropped', async () => {
    const { requestId, workflowId } = await startRequest();
    await standIn.signal(workflowId, systemEventSignal.name, { event: { type: 'PAY' } });
    expect((await rowOf(requestId)).version).toBe(1);
    await standIn.signal(workflowId, systemEventSignal.name, { event: { type: 'DRAFT_EXPIRED' } });
    const row = await rowOf(requestId);
    expect([row.version, row.stateValue, row.deletedAt !== null]).toEqual([2, 'deleted', true]);
    const [last] = (await historyRows(requestId)).filter((h) => h.seq === 2);
    expect(last.actor).toMatchObject({ userId: 'system', system: true });
    await expectReplays(workflowId);
  });
});

describe('deadlines as workflow timers', () => {
  async function toPayment() {
    const req = await startRequest();
    settled(await send(req.workflowId, 'SUBMIT', applicant, 1));
    settled(await send(req.workflowId, 'APPROVE', reviewer, 2));
    return req;
  }

  it('a due payment window fires PAYMENT_EXPIRED once, as the system, through the activities', async () => {
    const { requestId, workflowId } = await toPayment();
    const [bill] = await database.db.select().from(bills).where(eq(bills.requestId, requestId));
    expect(bill.status).toBe(1);
    const pending = standIn.pendingTimers(workflowId);
    expect(pending).toHaveLength(1);
    const timerRow = (await timerRows(requestId)).find((t) => t.event === 'PAYMENT_EXPIRED')!;
    expect(timerRow.dueAt.getTime()).toBe((await standIn.query<RequestState>(workflowId, stateQuery.name)).deadlines[0].dueAt);

    // The stand-in's clock is shared by every workflow of this file, so effects are checked on this request only.
    await standIn.advance(72 * HOUR - 60_000);
    expect((await rowOf(requestId)).version).toBe(3);
    await standIn.advance(2 * 60_000);

    const row = await rowOf(requestId);
    expect([row.version, row.stateValue]).toEqual([4, 'paymentExpired']);
    const history = await historyRows(requestId);
    expect(history.filter((h) => h.event === 'PAYMENT_EXPIRED')).toHaveLength(1);
    expect(history.at(-1)!.actor).toMatchObject({ system: true });
    const [expired] = await database.db.select().from(bills).where(eq(bills.requestId, requestId));
    expect(expired.status).toBe(3);
    const fired = (await timerRows(requestId)).find((t) => t.event === 'PAYMENT_EXPIRED')!;
    expect([fired.outcome, fired.cancelledAt]).toEqual(['accepted', null]);
    expect(standIn.closed(workflowId)).toBe(true);
    await standIn.advance(30 * 24 * HOUR);
    expect(await historyRows(requestId)).toHaveLength(4);
    expect(await verifyChain(database.db, row)).toEqual({ ok: true, rows: 4 });
    await expectReplays(workflowId);
  });

  it('paying first cancels the timer: it never fires', async () => {
    const { requestId, workflowId } = await toPayment();
    settled(await send(workflowId, 'PAY', applicant, 3));
    expect(eventTypes(standIn.runs(workflowId)[0].events)).toContain('TIMER_CANCELED');
    await standIn.advance(100 * HOUR);
    expect((await historyRows(requestId)).map((h) => h.event)).toEqual(['START', 'SUBMIT', 'APPROVE', 'PAY']);
    await expectReplays(workflowId);
  });
});

describe('continue-as-new', () => {
  it('carries snapshot, version and the absolute deadline into the next run, where the deadline fires', async () => {
    const { requestId, workflowId } = await startRequest({ continueAsNewAfterEvents: 20 });
    const dueAt = (await standIn.query<RequestState>(workflowId, stateQuery.name)).deadlines[0].dueAt;
    // Each saved draft adds workflow events; past 20 the run hands over to a new one.
    for (let v = 1; standIn.runs(workflowId).length === 1; v++) {
      settled(await send(workflowId, 'SAVE', applicant, v, { data: { round: v } }));
      expect(v).toBeLessThan(10);
    }
    const [first, second] = standIn.runs(workflowId);
    expect(eventTypes(first.events).at(-1)).toBe('WORKFLOW_EXECUTION_CONTINUED_AS_NEW');
    const state = await standIn.query<RequestState>(workflowId, stateQuery.name);
    const row = await rowOf(requestId);
    expect(state).toMatchObject({ version: row.version, machineVersion: 2 });
    expect(state.stored).toEqual(row.snapshot);
    expect(state.deadlines).toEqual([{ event: 'DRAFT_EXPIRED', after: 'draftRetention', dueAt }]);
    // The continued run pins no version again: its input carries it.
    expect(eventTypes(second.events)).not.toContain('MARKER_RECORDED');

    settled(await send(workflowId, 'SAVE', applicant, row.version, { data: { round: 'after' } }));
    await standIn.advanceTo(dueAt + 1000);
    const after = await rowOf(requestId);
    expect([after.stateValue, after.deletedAt !== null]).toEqual(['deleted', true]);
    expect((await historyRows(requestId)).at(-1)!.event).toBe('DRAFT_EXPIRED');
    await expectReplays(workflowId);
  });
});

describe('machine versions pinned with patched()', () => {
  it('a worker knowing version 2 starts new requests on it (a patch marker records it); the fee waiver applies', async () => {
    const { requestId, workflowId } = await startRequest({ discountPercent: 50 });
    const types = eventTypes(standIn.runs(workflowId)[0].events);
    expect(types.slice(0, 6)).toEqual([
      'WORKFLOW_EXECUTION_STARTED',
      'WORKFLOW_TASK_SCHEDULED',
      'WORKFLOW_TASK_STARTED',
      'WORKFLOW_TASK_COMPLETED',
      'MARKER_RECORDED',
      'UPSERT_WORKFLOW_SEARCH_ATTRIBUTES',
    ]);
    expect(JSON.stringify(JSON.parse(standIn.historyJson(workflowId, 0)).events[4])).toContain(
      Buffer.from(JSON.stringify({ id: machineVersionPatch(FIXTURE_KIND, 2), deprecated: false })).toString('base64'),
    );
    settled(await send(workflowId, 'SUBMIT', applicant, 1));
    settled(await send(workflowId, 'APPROVE', reviewer, 2));
    expect((await rowOf(requestId)).stateValue).toBe('issued');
    expect(await database.db.select().from(bills).where(eq(bills.requestId, requestId))).toHaveLength(0);
    await expectReplays(workflowId);
  });

  it('a worker knowing only version 1 records no marker and takes the same request through payment', async () => {
    const v1 = await createStandIn(database.db, { workflowsPath: WORKFLOWS.fixtureV1, deps: testDeps() });
    try {
      const requestId = randomUUID();
      const workflowId = workflowIdOf(requestId);
      settled(await v1.start(REQUEST_WORKFLOW_TYPE, workflowId, [fixtureInput(requestId, { discountPercent: 50 })], { name: startedUpdate.name, args: [] }));
      settled(await v1.update(workflowId, sendEventUpdate.name, { event: { type: 'SUBMIT' }, actor: applicant, expectedVersion: 1 }));
      settled(await v1.update(workflowId, sendEventUpdate.name, { event: { type: 'APPROVE' }, actor: reviewer, expectedVersion: 2 }));
      expect(eventTypes(v1.runs(workflowId)[0].events)).not.toContain('MARKER_RECORDED');
      expect(await rowOf(requestId)).toMatchObject({ machineVersion: 1, stateValue: 'pendingPayment' });
      // The worker that knows version 2 replays this history on version 1: the missing marker keeps it there.
      const results = await replayStandIn(v1, workflowId, WORKFLOWS.fixtureV2);
      expect(results.map((r) => r.error)).toEqual([undefined]);
    } finally {
      await v1.dispose();
    }
  });
});
