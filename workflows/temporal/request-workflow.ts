import {
  ApplicationFailure,
  CancellationScope,
  allHandlersFinished,
  condition,
  continueAsNew,
  isCancellation,
  log,
  patched,
  proxyActivities,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import { SYSTEM_ACTOR, type Actor } from '../../machines/actor';
import type { Deadline, MachineCatalogue } from '../catalogue';
import type { WorkflowEvent } from '../engine';
import { restoreSnapshot, sendStep, startStep, type Refusal, type SendStep } from '../step';
import type { RequestActivities } from './activities';
import {
  allowedActionsQuery,
  machineVersionPatch,
  sendEventUpdate,
  startedUpdate,
  stateQuery,
  systemEventSignal,
  type PendingDeadline,
  type RequestState,
  type RequestWorkflowInput,
  type TransitionOutcome,
} from './shared';

/*
 * One workflow per request, hosting the request's machine with the same pure functions as the embedded engine
 * (workflows/step.ts). Workflow code must be deterministic: no I/O, no Node built-ins, time only from the workflow
 * clock; the database is written by activities only (activities.ts, imported here as a type).
 */

// Every persistence call retries until the database answers (a transition must never be lost), except when the
// database and the workflow disagree (StoreDiverged), which no retry can fix.
const activities = proxyActivities<RequestActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', nonRetryableErrorTypes: ['StoreDiverged'] },
});

type AcceptedStep = Extract<SendStep, { ok: true }>;

/** The same key the step diff uses (workflows/step.ts): a deadline is its state, event and name. */
const deadlineKey = (d: Deadline): string => `${d.stateId ?? ''}\u0000${d.event}\u0000${d.after}`;

/** A refusal as the failure the caller receives: its type is the AppErrorCode, validation issues are its detail. */
function refusalFailure(refusal: Refusal | { code: 'ConcurrencyConflict' | 'EntityNotFound' }): ApplicationFailure {
  return ApplicationFailure.create({
    type: refusal.code,
    message: refusal.code,
    nonRetryable: true,
    details: refusal.code === 'ValidationFailed' ? [refusal.issues] : [],
  });
}

/**
 * The machine version a new run uses: the catalogue's current one, recorded with one `patched` marker per version
 * above 1. A history written before version N existed has no marker for N, so its replay keeps the version it started
 * with; continued runs receive the version in their input and never ask again.
 */
export function pinMachineVersion(catalogue: MachineCatalogue, kind: string): number {
  let version = 1;
  for (let v = 2; v <= catalogue.currentVersion(kind); v++) {
    if (!patched(machineVersionPatch(kind, v))) break;
    version = v;
  }
  return version;
}

const outcomeOf = (s: RequestState): TransitionOutcome => ({
  version: s.version,
  status: s.status,
  queue: s.queue,
  stateValue: s.stateValue,
  finished: s.finished,
});

/** Builds the workflow function over a catalogue: workflows.ts binds the production one, tests bind fixtures. */
export function createRequestWorkflow(catalogue: MachineCatalogue) {
  return async function requestWorkflow(input: RequestWorkflowInput): Promise<RequestState> {
    const { requestId, kind, durations } = input;
    if (!catalogue.hasKind(kind)) throw ApplicationFailure.nonRetryable(`unknown machine kind ${kind}`, 'BadRequest');
    const machineVersion = input.carried?.machineVersion ?? pinMachineVersion(catalogue, kind);
    const machine = catalogue.getMachine(kind, machineVersion);

    let state: RequestState | undefined = input.carried;
    /** Accepted events (updates, signals, fired deadlines) not yet persisted: a newer expectedVersion is coming. */
    let inFlight = 0;
    const timers = new Map<string, CancellationScope>();
    // Persistence is serialised: each transition is decided against the state its predecessor left.
    let tail: Promise<unknown> = Promise.resolve();
    const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
      const run = tail.then(fn);
      tail = run.catch(() => undefined);
      return run;
    };

    // As the store computes a timer row's due time (store.ts dueAtOf), so the workflow timer and the row agree.
    const dueAt = (d: Deadline, from: number): PendingDeadline => {
      if (d.computedDueAt) return { ...d, dueAt: Date.parse(d.computedDueAt) };
      const ms = durations[d.after];
      if (ms === undefined) throw ApplicationFailure.nonRetryable(`no duration configured for deadline '${d.after}'`, 'BadRequest');
      return { ...d, dueAt: from + ms };
    };

    const arm = (d: PendingDeadline): void => {
      const key = deadlineKey(d);
      const scope = new CancellationScope();
      timers.set(key, scope);
      scope.run(() => sleep(Math.max(1, d.dueAt - Date.now()))).then(
        () => {
          timers.delete(key);
          inFlight++;
          void exclusive(() => fireDeadline(d))
            .catch((err: unknown) => log.error('deadline not applied', { kind, id: requestId, event: d.event, error: String(err) }))
            .finally(() => inFlight--);
        },
        (err: unknown) => {
          if (!isCancellation(err)) throw err;
        },
      );
    };

    const disarm = (d: Deadline): void => {
      const key = deadlineKey(d);
      timers.get(key)?.cancel();
      timers.delete(key);
    };

    const requireState = (): RequestState => {
      if (!state) throw refusalFailure({ code: 'EntityNotFound' });
      return state;
    };

    /** Decides an event against the current state exactly as the embedded engine does. */
    const decide = (event: WorkflowEvent, actor: Actor) => {
      const current = requireState();
      if (current.stored.status !== 'active') return { ok: false as const, refusal: { code: 'TransitionNotAllowed' as const } };
      try {
        return sendStep(catalogue, kind, machineVersion, machine, current.stored, event, actor);
      } catch (err) {
        // A machine that throws is a bug: fail this event (an ApplicationFailure), not the workflow task, which would
        // only replay into the same throw.
        throw ApplicationFailure.nonRetryable(`the ${kind} machine failed on ${event.type}: ${String(err)}`, 'InternalError');
      }
    };

    /** Persists an accepted step, then moves the workflow's own state and timers to match the database. */
    const persist = async (
      step: AcceptedStep,
      event: WorkflowEvent,
      actor: Actor,
      firedDeadline?: Deadline,
    ): Promise<TransitionOutcome> => {
      const current = requireState();
      const now = Date.now();
      // Before anything is written: a deadline without a configured duration refuses the event instead.
      const armed = step.armed.map((d) => dueAt(d, now));
      await activities.recordTransition({
        requestId,
        fromVersion: current.version,
        event,
        actor,
        prev: step.prev,
        next: step.next,
        effects: step.effects,
        armed: step.armed,
        cancelled: step.cancelled,
        now,
        ...(firedDeadline ? { firedDeadline } : {}),
      });
      const gone = new Set([...step.cancelled, ...(firedDeadline ? [firedDeadline] : [])].map(deadlineKey));
      for (const d of step.cancelled) disarm(d);
      state = {
        ...current,
        version: current.version + 1,
        stored: step.next.stored,
        status: step.next.status,
        queue: step.next.queue,
        stateValue: step.next.stateValue,
        finished: step.next.finished,
        deadlines: [...current.deadlines.filter((d) => !gone.has(deadlineKey(d))), ...armed],
      };
      for (const d of armed) arm(d);
      log.info('transition', { kind, id: requestId, from: step.prev.stateValue, to: step.next.stateValue, event: event.type, actor: actor.userId });
      return outcomeOf(state);
    };

    const fireDeadline = async (d: PendingDeadline): Promise<void> => {
      const current = requireState();
      if (!current.deadlines.some((p) => deadlineKey(p) === deadlineKey(d))) return; // cancelled while queued
      const { dueAt: _dueAt, ...deadline } = d;
      const event: WorkflowEvent = { type: d.event };
      const step = decide(event, SYSTEM_ACTOR);
      if (step.ok) {
        await persist(step, step.event, SYSTEM_ACTOR, deadline);
        return;
      }
      await activities.recordDeadlineRefused({ requestId, deadline, now: Date.now() });
      state = { ...current, deadlines: current.deadlines.filter((p) => deadlineKey(p) !== deadlineKey(d)) };
      log.info('deadline refused', { kind, id: requestId, event: d.event, refusal: step.refusal.code });
    };

    // The request row is written first: enqueued before any handler exists, so every event (even one delivered with
    // the start) is decided after it, against the state it leaves.
    let ready: Promise<void> = Promise.resolve();
    if (state) {
      for (const d of state.deadlines) arm(d);
    } else {
      const start = input.start;
      if (!start) throw ApplicationFailure.nonRetryable('a new request workflow needs start input', 'BadRequest');
      let started: ReturnType<typeof startStep>;
      try {
        started = startStep(catalogue, kind, machine, { ...start.input, requestId });
      } catch (err) {
        throw ApplicationFailure.nonRetryable(`the machine refused its input: ${String(err)}`, 'BadRequest');
      }
      if (!started.ok) throw refusalFailure(started.refusal);
      const first = started.step;
      const machineInput = started.input;
      const now = Date.now();
      const deadlines = first.next.deadlines.map((d) => dueAt(d, now));
      ready = exclusive(async () => {
        const { number, version } = await activities.recordStart({
          requestId,
          kind,
          machineVersion,
          input: machineInput,
          creatorName: start.creatorName,
          actor: start.actor,
          next: first.next,
          effects: first.effects,
          now,
        });
        state = {
          requestId,
          number,
          kind,
          machineVersion,
          version,
          stored: first.next.stored,
          status: first.next.status,
          queue: first.next.queue,
          stateValue: first.next.stateValue,
          finished: first.next.finished,
          deadlines,
        };
        for (const d of deadlines) arm(d);
      });
    }

    setHandler(stateQuery, () => requireState());
    setHandler(allowedActionsQuery, (actor) => {
      if (!state || state.stored.status !== 'active') return [];
      return catalogue.allowedActions(kind, restoreSnapshot(machine, state.stored), actor, machineVersion);
    });
    setHandler(startedUpdate, async () => {
      await condition(() => state !== undefined);
      return outcomeOf(requireState());
    });
    setHandler(
      sendEventUpdate,
      async ({ event, actor, expectedVersion }) => {
        inFlight++;
        try {
          return await exclusive(async () => {
            // Decided again: an event queued behind another one meets the state that one left.
            if (expectedVersion !== undefined && expectedVersion !== requireState().version) {
              throw refusalFailure({ code: 'ConcurrencyConflict' });
            }
            const step = decide(event, actor);
            if (!step.ok) throw refusalFailure(step.refusal);
            return persist(step, step.event, actor);
          });
        } finally {
          inFlight--;
        }
      },
      {
        // A refusal here rejects the update: nothing is written, not even to the workflow history.
        validator: ({ event, actor, expectedVersion }) => {
          // Not started yet (only an event sent with the start): the handler decides once the row exists.
          if (!state) return;
          const current = state;
          // Any accepted event still being written will move the version past the one this caller saw.
          if (expectedVersion !== undefined && (expectedVersion !== current.version || inFlight > 0)) {
            throw refusalFailure({ code: 'ConcurrencyConflict' });
          }
          const step = decide(event, actor);
          if (!step.ok) throw refusalFailure(step.refusal);
        },
      },
    );
    setHandler(systemEventSignal, ({ event }) => {
      inFlight++;
      void exclusive(async () => {
        const step = decide(event, SYSTEM_ACTOR);
        if (!step.ok) {
          log.warn('system event refused', { kind, id: requestId, event: event.type, refusal: step.refusal.code });
          return;
        }
        await persist(step, step.event, SYSTEM_ACTOR);
      })
        .catch((err: unknown) => log.error('system event not applied', { kind, id: requestId, event: event.type, error: String(err) }))
        .finally(() => inFlight--);
    });

    await ready;

    const continueAsNewDue = (): boolean => {
      const info = workflowInfo();
      const limit = input.continueAsNewAfterEvents;
      return info.continueAsNewSuggested || (limit !== undefined && info.historyLength >= limit);
    };
    const done = (): boolean => requireState().stored.status !== 'active';
    await condition(() => inFlight === 0 && allHandlersFinished() && (done() || continueAsNewDue()));
    const last = requireState();
    if (done()) return last;
    // The snapshot, version and absolute deadline times carry over; the next run re-arms the remaining time.
    return continueAsNew<(input: RequestWorkflowInput) => Promise<RequestState>>({
      requestId,
      kind,
      durations,
      carried: last,
      ...(input.continueAsNewAfterEvents !== undefined ? { continueAsNewAfterEvents: input.continueAsNewAfterEvents } : {}),
    });
  };
}
