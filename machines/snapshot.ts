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

/** What a snapshot's active state nodes declare, computed once per node list (see `declaredOf`). */
interface Declared {
  /** The meta of the active state nodes in `_nodes` order (xstate's public `getMeta`, keyed by node id). */
  metas: readonly (readonly [string, StateMeta])[];
  /** The status of the deepest active state that declares one (undefined: none does). */
  status: number | undefined;
  /** The nodes that declare deadlines, in the same order, with their declarations. */
  deadlines: readonly (readonly [string, readonly DeadlineDeclaration[]])[];
}

/**
 * The declarations of the active state nodes, remembered per `_nodes` list: a snapshot's node list is never changed
 * (xstate makes a new one per transition), and what a node declares is part of the machine (frozen). A restored
 * snapshot shares the list of every restore of the same state value (workflows/step.ts restoreSnapshot), so status,
 * queue and deadlines of a stored snapshot read one walk per state value and process; a live one, one per snapshot.
 */
const declaredByNodes = new WeakMap<object, Declared>();

function declaredOf(snapshot: AnyMachineSnapshot): Declared {
  const nodes = (snapshot as unknown as { _nodes?: unknown })._nodes;
  const key = Array.isArray(nodes) ? nodes : undefined;
  let found = key ? declaredByNodes.get(key) : undefined;
  if (found) return found;
  const metas = Object.entries(snapshot.getMeta() as Record<string, StateMeta | undefined>).map(([id, meta]) => [id, meta ?? {}] as const);
  const withStatus = metas.findLast(([, meta]) => typeof meta.status === 'number');
  found = {
    metas,
    status: withStatus?.[1].status as number | undefined,
    deadlines: metas.map(([id, meta]) => [id, deadlineList(meta)] as const).filter(([, list]) => list.length > 0),
  };
  if (key) declaredByNodes.set(key, found);
  return found;
}

/** The numeric status of the deepest active state that declares one (every resting state does). */
export function statusOf(snapshot: AnyMachineSnapshot): number {
  const status = declaredOf(snapshot).status;
  if (status === undefined) throw new Error(`state ${JSON.stringify(snapshot.value)} declares no status`);
  return status;
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
  return declaredOf(snapshot).deadlines.flatMap(([stateId, list]) =>
    list.flatMap((d) => {
      const due = computedDueAt(d.after, snapshot.context as Record<string, unknown>, now);
      if (due === null) return [];
      return [{ event: d.event, after: d.after, ...(due ? { dueAt: due.toISOString() } : {}), stateId }];
    }),
  );
}
