import { httpStatusOf } from '../../server/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { requestHistory, requests, workflowTimers } from '../../db/schema';
import type { Actor } from '../../machines/actor';
import { AppError } from '../../server/errors';
import type { StartInput, WorkflowEngine, WorkflowEvent } from '../../workflows/engine';

/**
 * The engine contract: every adapter of WorkflowEngine must pass it. It is a function so the embedded engine runs it
 * always and the Temporal adapter runs it against a live server when TEMPORAL_ADDRESS is set.
 * The scenario names, for one machine kind, the steps the suite needs (an accepted event, refusals of each kind, a
 * state with a deadline and a way out of it), so the suite itself knows no machine.
 */
export interface ContractHarness {
  engine: WorkflowEngine;
  /** The database the engine writes (the suite inspects and tampers with rows). */
  db: Db;
  /** Fires the timers due at `at`; returns how many fired. */
  fireDueTimers(at: Date): Promise<number>;
  close(): Promise<void>;
}

export interface Step {
  event: WorkflowEvent;
  actor: Actor;
}

export interface ContractScenario {
  kind: string;
  input: StartInput;
  starter: Actor;
  /** Accepted from the initial state; changes the status. */
  accepted: Step;
  /** From the state `accepted` leads to: a second accepted event (history order). */
  second: Step;
  /** Taken by the initial state but not from this actor -> 403. */
  notAuthorized: Step;
  /** Not taken by the initial state at all -> 409. */
  notHandled: Step;
  /** From the state `accepted` leads to: a payload that fails validation -> 400 naming `field`. */
  invalidPayload: Step & { field: string };
  /** From the start, the events that reach a state declaring a deadline. */
  toDeadline: Step[];
  deadline: { event: string; durationMs: number };
  /** From that state, an event that leaves it (its timer must be cancelled). */
  leaveDeadline: Step;
}

async function refusal(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected the engine to refuse');
}

/** The state of one request in the database, to prove a refusal wrote nothing. */
async function dbState(db: Db, id: string) {
  const [row] = await db.select().from(requests).where(eq(requests.id, id));
  const history = await db.select().from(requestHistory).where(eq(requestHistory.requestId, id));
  const timers = await db.select().from(workflowTimers).where(eq(workflowTimers.requestId, id));
  return { row, history: history.length, timers };
}

async function runSteps(engine: WorkflowEngine, id: string, steps: Step[]) {
  let view = await engine.get(id);
  for (const s of steps) view = await engine.send(id, s.event, s.actor, view!.version);
  return view!;
}

export function engineContract(name: string, factory: () => Promise<ContractHarness>, scenario: ContractScenario): void {
  describe(`engine contract: ${name}`, () => {
    let h: ContractHarness;
    beforeAll(async () => {
      h = await factory();
    });
    afterAll(async () => {
      await h?.close();
    });
    const start = () => h.engine.start(scenario.kind, scenario.input, scenario.starter, { creatorName: 'Contract Tester' });

    it('start creates a request at version 1 with a START history row', async () => {
      const view = await start();
      expect(view.version).toBe(1);
      expect(view.kind).toBe(scenario.kind);
      expect(view.number).toMatch(/^\d{4}-\d{6}$/);
      expect(view.facilityId).toBe(scenario.input.facilityId);
      expect(await h.engine.get(view.id)).toEqual(view);
      const history = await h.engine.history(view.id);
      expect(history).toHaveLength(1);
      expect(history[0]).toMatchObject({ seq: 1, event: 'START', fromStatus: null, toStatus: view.status, prevHash: '' });
      expect(history[0].actor.userId).toBe(scenario.starter.userId);
    });

    it('an unknown id reads as null and sending to it is EntityNotFound', async () => {
      expect(await h.engine.get('00000000-0000-4000-8000-000000000000')).toBeNull();
      expect(await h.engine.get('not-a-uuid')).toBeNull();
      const err = await refusal(h.engine.send('00000000-0000-4000-8000-000000000000', scenario.accepted.event, scenario.accepted.actor, 1));
      expect(err.code).toBe('EntityNotFound');
    });

    it('send applies an accepted event: new status, version + 1, one history row with actor and statuses', async () => {
      const started = await start();
      const after = await h.engine.send(started.id, scenario.accepted.event, scenario.accepted.actor, started.version);
      expect(after.version).toBe(2);
      expect(after.status).not.toBe(started.status);
      const history = await h.engine.history(started.id);
      expect(history).toHaveLength(2);
      expect(history[1]).toMatchObject({
        seq: 2,
        event: scenario.accepted.event.type,
        fromStatus: started.status,
        toStatus: after.status,
        prevHash: history[0].hash,
      });
      expect(history[1].actor.userId).toBe(scenario.accepted.actor.userId);
    });

    it('a stale expectedVersion is a ConcurrencyConflict and writes nothing', async () => {
      const started = await start();
      await h.engine.send(started.id, scenario.accepted.event, scenario.accepted.actor, 1);
      const before = await dbState(h.db, started.id);
      const err = await refusal(h.engine.send(started.id, scenario.second.event, scenario.second.actor, 1));
      expect(err.code).toBe('ConcurrencyConflict');
      expect(httpStatusOf(err)).toBe(409);
      expect(await dbState(h.db, started.id)).toEqual(before);
    });

    it("admit sees the request's kind and facility before the version check; its refusal changes nothing", async () => {
      // The API refuses another facility's request through admit (404, never a 409 that would confirm it exists).
      const started = await start();
      const initial = await dbState(h.db, started.id);
      const seen: unknown[] = [];
      const refuse = (request: { kind: string; facilityId: string }) => {
        seen.push(request);
        throw new AppError('EntityNotFound');
      };
      for (const version of [started.version, started.version + 6]) {
        const err = await refusal(h.engine.send(started.id, scenario.accepted.event, scenario.accepted.actor, version, { admit: refuse }));
        expect(err.code).toBe('EntityNotFound');
      }
      const request = { kind: scenario.kind, facilityId: scenario.input.facilityId };
      expect(seen).toEqual([request, request]);
      expect(await dbState(h.db, started.id)).toEqual(initial);
      const accepted = await h.engine.send(started.id, scenario.accepted.event, scenario.accepted.actor, started.version, { admit: () => {} });
      expect(accepted.version).toBe(started.version + 1);
    });

    it('refused events (not this actor, not this state, bad payload) change nothing', async () => {
      const started = await start();
      const initial = await dbState(h.db, started.id);
      const e403 = await refusal(h.engine.send(started.id, scenario.notAuthorized.event, scenario.notAuthorized.actor, 1));
      expect([e403.code, httpStatusOf(e403)]).toEqual(['NotAuthorized', 403]);
      const e409 = await refusal(h.engine.send(started.id, scenario.notHandled.event, scenario.notHandled.actor, 1));
      expect([e409.code, httpStatusOf(e409)]).toEqual(['TransitionNotAllowed', 409]);
      expect(await dbState(h.db, started.id)).toEqual(initial);

      await h.engine.send(started.id, scenario.accepted.event, scenario.accepted.actor, 1);
      const moved = await dbState(h.db, started.id);
      const e400 = await refusal(h.engine.send(started.id, scenario.invalidPayload.event, scenario.invalidPayload.actor, 2));
      expect([e400.code, httpStatusOf(e400)]).toEqual(['ValidationFailed', 400]);
      expect(e400.details.map((d) => d.field)).toContain(scenario.invalidPayload.field);
      expect(await dbState(h.db, started.id)).toEqual(moved);
    });

    it('allowedActions lists the accepted event for its actor and not the refused one', async () => {
      const started = await start();
      const forActor = await h.engine.allowedActions(started.id, scenario.accepted.actor);
      expect(forActor.map((a) => a.type)).toContain(scenario.accepted.event.type);
      const forOther = await h.engine.allowedActions(started.id, scenario.notAuthorized.actor);
      expect(forOther.map((a) => a.type)).not.toContain(scenario.notAuthorized.event.type);
    });

    it('history is ordered and hash-chained; verify finds a tampered row', async () => {
      const started = await start();
      await runSteps(h.engine, started.id, [scenario.accepted, scenario.second]);
      const history = await h.engine.history(started.id);
      expect(history.map((r) => r.seq)).toEqual([1, 2, 3]);
      expect(history.map((r) => r.event)).toEqual(['START', scenario.accepted.event.type, scenario.second.event.type]);
      for (let i = 1; i < history.length; i++) expect(history[i].prevHash).toBe(history[i - 1].hash);
      expect(new Set(history.map((r) => r.hash)).size).toBe(3);
      expect(await h.engine.verifyHistory(started.id)).toEqual({ ok: true, rows: 3 });

      await h.db
        .update(requestHistory)
        .set({ note: 'rewritten afterwards' })
        .where(and(eq(requestHistory.requestId, started.id), eq(requestHistory.seq, 2)));
      expect(await h.engine.verifyHistory(started.id)).toEqual({ ok: false, rows: 3, firstBrokenSeq: 2, reason: 'hash' });
    });

    it('verify finds deleted newest rows through the head kept on the request', async () => {
      const started = await start();
      await runSteps(h.engine, started.id, [scenario.accepted]);
      await h.db.delete(requestHistory).where(and(eq(requestHistory.requestId, started.id), eq(requestHistory.seq, 2)));
      expect(await h.engine.verifyHistory(started.id)).toMatchObject({ ok: false, firstBrokenSeq: 2, reason: 'head' });
    });

    it('a deadline timer is armed on entry and fires exactly once when due', async () => {
      const started = await start();
      const inDeadline = await runSteps(h.engine, started.id, scenario.toDeadline);
      const armedAt = Date.now();
      const pending = await h.db
        .select()
        .from(workflowTimers)
        .where(and(eq(workflowTimers.requestId, started.id), eq(workflowTimers.event, scenario.deadline.event), isNull(workflowTimers.firedAt)));
      expect(pending).toHaveLength(1);
      expect(Math.abs(pending[0].dueAt.getTime() - (armedAt + scenario.deadline.durationMs))).toBeLessThan(60_000);

      // Not yet due: nothing happens.
      await h.fireDueTimers(new Date(pending[0].dueAt.getTime() - 1000));
      expect((await h.engine.get(started.id))!.version).toBe(inDeadline.version);

      await h.fireDueTimers(new Date(pending[0].dueAt.getTime() + 1000));
      const fired = await h.engine.get(started.id);
      expect(fired!.version).toBe(inDeadline.version + 1);
      expect(fired!.status).not.toBe(inDeadline.status);
      const history = await h.engine.history(started.id);
      const last = history.at(-1)!;
      expect(last.event).toBe(scenario.deadline.event);
      expect(last.actor.system).toBe(true);

      // Firing again (later, or from another process) does nothing.
      await h.fireDueTimers(new Date(pending[0].dueAt.getTime() + 86_400_000));
      expect(await h.engine.history(started.id)).toHaveLength(history.length);
      const [timer] = await h.db.select().from(workflowTimers).where(eq(workflowTimers.id, pending[0].id));
      expect(timer.firedAt).not.toBeNull();
      expect(timer.outcome).toBe('accepted');
    });

    it('leaving a deadline state cancels its timer, so it never fires', async () => {
      const started = await start();
      await runSteps(h.engine, started.id, scenario.toDeadline);
      const timersOfState = () =>
        h.db
          .select()
          .from(workflowTimers)
          .where(and(eq(workflowTimers.requestId, started.id), eq(workflowTimers.event, scenario.deadline.event)));
      const armed = await timersOfState();
      expect(armed).toHaveLength(1);
      await runSteps(h.engine, started.id, [scenario.leaveDeadline]);
      const [cancelled] = (await timersOfState()).filter((t) => t.id === armed[0].id);
      expect(cancelled.cancelledAt).not.toBeNull();
      await h.fireDueTimers(new Date(armed[0].dueAt.getTime() + 1000));
      const [after] = (await timersOfState()).filter((t) => t.id === armed[0].id);
      expect(after.firedAt).toBeNull();
    });
  });
}
