import { isMachineSnapshot, type AnyMachineSnapshot, type AnyStateMachine, type Snapshot, type StateValue } from 'xstate';
import { computedDueAt } from './deadlines';
import { QUEUES, type DeadlineDeclaration, type DeadlineName, type EventType, type Queue, type StateMeta } from './types';

/** A persisted snapshot as stored in the requests table (machine.getPersistedSnapshot output). */
export interface PersistedSnapshot {
  value: StateValue;
  context: Record<string, unknown>;
  status?: string;
  [key: string]: unknown;
}

/** Accepts a live snapshot or a persisted one and returns a live snapshot of `machine`. */
export function toSnapshot(machine: AnyStateMachine, snapshot: AnyMachineSnapshot | PersistedSnapshot | Snapshot<unknown>): AnyMachineSnapshot {
  if (isMachineSnapshot(snapshot)) return snapshot;
  const p = snapshot as PersistedSnapshot;
  return machine.resolveState({ value: p.value, context: p.context, status: p.status as never });
}

/** The meta of the active state nodes, parents before children (xstate's public `getMeta`, keyed by node id). */
const activeMetas = (snapshot: AnyMachineSnapshot): [string, StateMeta][] =>
  Object.entries(snapshot.getMeta() as Record<string, StateMeta | undefined>).map(([id, meta]) => [id, meta ?? {}]);

/** The numeric status of the deepest active state that declares one (every resting state does). */
export function statusOf(snapshot: AnyMachineSnapshot): number {
  const found = activeMetas(snapshot)
    .reverse()
    .find(([, meta]) => typeof meta.status === 'number');
  if (!found) throw new Error(`state ${JSON.stringify(snapshot.value)} declares no status`);
  return found[1].status as number;
}

/** The deadlines a state's meta declares (one or several). */
export const deadlineList = (meta: StateMeta): readonly DeadlineDeclaration[] => (meta.deadline === undefined ? [] : Array.isArray(meta.deadline) ? meta.deadline : [meta.deadline as DeadlineDeclaration]);

/** The queue tag of the active state (registration, audit, committee, applicant, payment, final). */
export function queueOf(snapshot: AnyMachineSnapshot): Queue | null {
  return QUEUES.find((q) => snapshot.hasTag(q)) ?? null;
}

export interface ActiveDeadline {
  event: EventType;
  /** The DEADLINES entry; for `config` ones the engine adds the configured duration to the entry time. */
  after: DeadlineName;
  /** Set when the due time is computed here (immediate, month end, context dates). ISO string. */
  dueAt?: string;
  /** Id of the state that declares it: a timer belongs to that state and is cancelled when it is exited. */
  stateId: string;
}

/**
 * Deadlines declared by the active states; the engine arms one timer each on entry and cancels it on exit. An optional
 * deadline whose date is not set (no instalment left) declares nothing.
 */
export function deadlinesOf(snapshot: AnyMachineSnapshot, now: Date = new Date()): ActiveDeadline[] {
  if (snapshot.status !== 'active') return [];
  return activeMetas(snapshot).flatMap(([stateId, meta]) =>
    deadlineList(meta).flatMap((d) => {
      const due = computedDueAt(d.after, snapshot.context as Record<string, unknown>, now);
      if (due === null) return [];
      return [{ event: d.event, after: d.after, ...(due ? { dueAt: due.toISOString() } : {}), stateId }];
    }),
  );
}
