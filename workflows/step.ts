import {
  createActor,
  getNextTransitions,
  type ActorScope,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type EventObject,
  type StateValue,
} from 'xstate';
import type { Actor } from '../machines/actor';
import type { Deadline, MachineCatalogue } from './catalogue';
import type { WorkflowEvent } from './engine';
import { ANNOTATION_EVENTS } from './annotations';

/*
 * The pure part of the engine: restore a stored snapshot, compute the next one, read status, queue, deadlines and
 * effects. No I/O and no Node built-ins, so the Temporal workflow bundle runs exactly the same code as the embedded
 * engine.
 */

/** The JSON form of a snapshot that the requests table stores (children are never used by the machines). */
export interface StoredSnapshot {
  value: StateValue;
  context: Record<string, unknown>;
  status: 'active' | 'done' | 'error' | 'stopped';
  output?: unknown;
  historyValue?: Record<string, { id: string }[]>;
  [k: string]: unknown;
}

/** A database effect requested by a transition: an `effect.*` action of the machine and its resolved params. */
export interface Effect {
  type: string;
  params: Record<string, unknown>;
}

/** A copy that survives a jsonb round trip unchanged (no undefined, no functions, no Dates). */
export function toJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** The JSON text each persisted snapshot was made from (the store writes it as is instead of serialising again). */
const snapshotTexts = new WeakMap<StoredSnapshot, string>();

/** The JSON text of stored data objects (a context's `data`, never changed in place), made once per object. */
const dataTexts = new WeakMap<object, string>();
/** Stands for the data in a snapshot's text until the data's own text replaces it (checked to occur once). */
const DATA_MARK = `\u0001stored-data:${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
const DATA_MARK_TEXT = JSON.stringify(DATA_MARK);

/**
 * The snapshot's stored form: a copy that equals its jsonb round trip, and the JSON text it stands for.
 * `storedData`: the stored (JSON) form of the context's data when the snapshot still holds that very object (an event
 * that left the data alone). The copy then keeps it instead of parsing the data back (most of a snapshot's text), and
 * projections of the effects find the sections the send already parsed (machines/services/project.ts parseComplete).
 */
export function persistSnapshot(snapshot: AnyMachineSnapshot, storedData?: unknown): StoredSnapshot {
  // What xstate's getPersistedSnapshot keeps of it, without its walk of the whole context looking for actor refs to
  // replace (the machines neither invoke nor spawn, so a context holds none): history states as node ids.
  const historyValue: Record<string, { id: string }[]> = {};
  for (const [key, nodes] of Object.entries((snapshot.historyValue ?? {}) as Record<string, { id: string }[]>)) {
    if (Array.isArray(nodes)) historyValue[key] = nodes.map((n) => ({ id: n.id }));
  }
  const stored: StoredSnapshot = { value: snapshot.value, context: snapshot.context as Record<string, unknown>, status: snapshot.status, historyValue };
  if (snapshot.output !== undefined) stored.output = snapshot.output;
  const data = stored.context.data;
  if (data !== null && typeof data === 'object' && (storedData === undefined || storedData === data)) {
    // The data's text is serialised once per stored data object; the rest of the snapshot is small. The rest is
    // written with a mark where the data goes, which the data's text then replaces (the same text as JSON.stringify
    // of the whole), and the copy is parsed from the rest: its data is the stored data object itself, else a copy
    // parsed from the data's text (which it keeps for the next event that leaves the data alone).
    let dataText = dataTexts.get(data);
    if (dataText === undefined) {
      dataText = JSON.stringify(data);
      // Only stored data is never changed in place; a live object's text is not kept.
      if (storedData === data) dataTexts.set(data, dataText);
    }
    const rest = JSON.stringify({ ...stored, context: { ...stored.context, data: DATA_MARK } });
    const at = rest.indexOf(DATA_MARK_TEXT);
    // The mark is a random string no stored value should hold; should one hold it anyway, the plain way below.
    if (at >= 0 && rest.indexOf(DATA_MARK_TEXT, at + 1) < 0) {
      const copy = JSON.parse(rest) as StoredSnapshot;
      let copied = storedData as object | undefined;
      if (copied === undefined) dataTexts.set((copied = JSON.parse(dataText) as object), dataText);
      copy.context.data = copied;
      snapshotTexts.set(copy, rest.slice(0, at) + dataText + rest.slice(at + DATA_MARK_TEXT.length));
      return copy;
    }
  }
  const text = JSON.stringify(stored);
  const copy = JSON.parse(text) as StoredSnapshot;
  snapshotTexts.set(copy, text);
  return copy;
}

/** A stored snapshot as JSON text: the text persistSnapshot parsed it from (the same by construction), else serialised. */
export function snapshotText(stored: StoredSnapshot): string {
  return snapshotTexts.get(stored) ?? JSON.stringify(stored);
}

type AnyScope = ActorScope<AnyMachineSnapshot, EventObject>;
const inertScopes = new WeakMap<AnyStateMachine, AnyScope>();

/**
 * xstate's pure `transition(machine, snapshot, event)`, minus its per-call cost: xstate builds a new inert actor for
 * every call, and the Actor constructor computes the machine's initial snapshot (running the context factory without
 * input, which throws and is caught), which was the largest single cost of a transition in the engine's profile
 * (docs/performance-log.md). The inert scope is built once per machine and only its action collector is per call: the
 * machines neither invoke nor spawn actors, so nothing registers in the scope's system, and transitions are
 * synchronous, so no two calls share the collector.
 */
function inertScopeOf(machine: AnyStateMachine): AnyScope {
  let scope = inertScopes.get(machine);
  if (!scope) {
    const self = createActor(machine);
    scope = {
      self,
      defer: () => {},
      id: '',
      logger: () => {},
      sessionId: '',
      stopChild: () => {},
      system: self.system,
      emit: () => {},
      actionExecutor: () => {},
    } as unknown as AnyScope;
    inertScopes.set(machine, scope);
  }
  return scope;
}

export function machineTransition(machine: AnyStateMachine, snapshot: AnyMachineSnapshot, event: EventObject): [AnyMachineSnapshot, { type: string; params: unknown }[]] {
  const actions: { type: string; params: unknown }[] = [];
  const next = machine.transition(snapshot, event, { ...inertScopeOf(machine), actionExecutor: (a: { type: string; params: unknown }) => void actions.push(a) } as AnyScope);
  return [next, actions];
}

/**
 * xstate's `initialTransition(machine, input)` on the same reused inert scope: xstate's own builds a new actor per
 * call (and that actor computes an initial snapshot of its own first), which was most of the cost of starting a bill
 * lifecycle in the mix's profile (docs/performance-log.md).
 */
export function machineInitialTransition(machine: AnyStateMachine, input: unknown): [AnyMachineSnapshot, { type: string; params: unknown }[]] {
  const actions: { type: string; params: unknown }[] = [];
  const first = machine.getInitialSnapshot({ ...inertScopeOf(machine), actionExecutor: (a: { type: string; params: unknown }) => void actions.push(a) } as AnyScope, input);
  return [first, actions];
}

/**
 * What `machine.resolveState` computes from a state value alone (the active state nodes, the value rebuilt from them,
 * the tags, whether the configuration is final), per machine and per the value's JSON text (key order included, which
 * xstate's walk follows): a restore then only puts the row's own context, status, output and history around it. The
 * result is the same snapshot resolveState builds (the same nodes in the same order); what is shared between restores is
 * only what xstate derives from the value and never changes (node list, value, tags, all frozen). Bounded per machine.
 */
const resolvedByValue = new WeakMap<AnyStateMachine, Map<string, AnyMachineSnapshot>>();
export const RESOLVED_MAX = 256;
/** How many state values of `machine` are remembered (tests: the bound holds). */
export const resolvedCount = (machine: AnyStateMachine): number => resolvedByValue.get(machine)?.size ?? 0;
/** Counts of restores that found the value resolved (hits) and that resolved it (misses): for tests and benches. */
export const restoreCounts = { hits: 0, misses: 0 };

function resolvedOf(machine: AnyStateMachine, value: StateValue): AnyMachineSnapshot {
  let byValue = resolvedByValue.get(machine);
  if (!byValue) resolvedByValue.set(machine, (byValue = new Map()));
  const key = typeof value === 'string' ? value : JSON.stringify(value);
  let base = byValue.get(key);
  if (base) {
    restoreCounts.hits++;
    return base;
  }
  restoreCounts.misses++;
  // status left unset: resolveState answers 'done' for a final configuration, else 'active' (the row's status is used then).
  base = machine.resolveState({ value, context: {} });
  const b = base as unknown as { _nodes: unknown[]; value: StateValue };
  Object.freeze(b._nodes);
  deepFreeze(b.value);
  if (byValue.size >= RESOLVED_MAX) byValue.delete(byValue.keys().next().value!);
  byValue.set(key, base);
  return base;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/**
 * Restores a stored snapshot as `machine.resolveState` does (history states revived by node id): the resolution of its
 * state value is remembered (resolvedOf), the context is the stored one itself.
 */
export function restoreSnapshot(machine: AnyStateMachine, stored: StoredSnapshot): AnyMachineSnapshot {
  const historyValue: Record<string, ReturnType<AnyStateMachine['getStateNodeById']>[]> = {};
  for (const [key, nodes] of Object.entries(stored.historyValue ?? {})) {
    historyValue[key] = nodes.map((n) => machine.getStateNodeById(n.id));
  }
  const base = resolvedOf(machine, stored.value);
  // resolveState's fields for this row: createMachineSnapshot's shape, with a fresh children map and history.
  return {
    ...base,
    status: base.status === 'done' ? 'done' : stored.status || 'active',
    output: stored.output,
    error: undefined,
    context: stored.context || {},
    children: {},
    historyValue,
  } as AnyMachineSnapshot;
}

/** 'review.registration' for { review: 'registration' }; parallel regions joined with ','. */
export function stateValueText(value: StateValue): string {
  if (typeof value === 'string') return value;
  return Object.entries(value)
    .map(([k, v]) => (v === undefined ? k : `${k}.${stateValueText(v as StateValue)}`))
    .join(',');
}

function effectsOf(actions: { type: string; params: unknown }[]): Effect[] {
  return actions
    .filter((a) => typeof a.type === 'string' && a.type.startsWith('effect.'))
    .map((a) => ({ type: a.type, params: toJson((a.params ?? {}) as Record<string, unknown>) }));
}

/** Everything the store needs to persist a snapshot: the copies kept in columns and the deadlines to arm. */
export interface Derived {
  stored: StoredSnapshot;
  status: number;
  queue: string | null;
  stateValue: string;
  finished: boolean;
  deadlines: Deadline[];
  assigneeUserId: string | null;
}

/**
 * `stored`: the snapshot's stored form when it is already known (the one a send restored), else it is serialised
 * (`storedData`: see persistSnapshot).
 */
export function derive(catalogue: MachineCatalogue, machine: AnyStateMachine, snapshot: AnyMachineSnapshot, stored?: StoredSnapshot, storedData?: unknown, now?: Date): Derived {
  const queue = catalogue.queueOf(snapshot);
  const assignee = (snapshot.context as { assigneeUserId?: unknown }).assigneeUserId;
  return {
    stored: stored ?? persistSnapshot(snapshot, storedData),
    status: catalogue.statusOf(snapshot),
    queue,
    stateValue: stateValueText(snapshot.value as StateValue),
    finished: snapshot.status === 'done' || queue === 'final',
    deadlines: snapshot.status === 'done' ? [] : catalogue.deadlinesOf(snapshot, now),
    assigneeUserId: typeof assignee === 'string' ? assignee : null,
  };
}

export interface StartStep {
  next: Derived;
  effects: Effect[];
}

/**
 * The first snapshot of a request (initialTransition with the machine input). Its first data goes by the rules of an
 * edit: parsed by the sections' draft schemas (a refusal is ValidationFailed, nothing written).
 */
export function startStep(
  catalogue: MachineCatalogue,
  kind: string,
  machine: AnyStateMachine,
  input: Record<string, unknown>,
  now?: Date,
): { ok: true; step: StartStep; input: Record<string, unknown> } | { ok: false; refusal: Refusal } {
  const data = input.data as Record<string, unknown> | undefined;
  const parsed = catalogue.parseStartData(kind, data);
  if (!parsed.ok) return { ok: false, refusal: { code: 'ValidationFailed', issues: parsed.issues } };
  const fullInput = data === undefined ? input : { ...input, data: parsed.payload };
  const [snapshot, actions] = machineInitialTransition(machine, fullInput);
  return { ok: true, step: { next: derive(catalogue, machine, snapshot, undefined, undefined, now), effects: effectsOf(actions) }, input: fullInput };
}

export type Refusal =
  | { code: 'TransitionNotAllowed' }
  | { code: 'NotAuthorized' }
  | { code: 'ValidationFailed'; issues: { field: string; message: string; params?: Record<string, unknown> }[] };

export type SendStep =
  | {
      ok: true;
      prev: Derived;
      next: Derived;
      effects: Effect[];
      armed: Deadline[];
      cancelled: Deadline[];
      event: WorkflowEvent;
      /** Whether the transition changed the request's data (its projections, such as brand names, are then recomputed). */
      dataChanged: boolean;
    }
  | { ok: false; refusal: Refusal };

/** A deadline's identity: its state, event and name, and its computed due time (a changed date re-arms it). */
const deadlineKey = (d: Deadline) => `${d.stateId ?? ''}\u0000${d.event}\u0000${d.after}\u0000${d.computedDueAt ?? ''}`;

/**
 * Decides an event against a stored snapshot. Order of the checks: the state must take the event type at all
 * (else 409 TransitionNotAllowed), this actor must be allowed to send it now (else 403 NotAuthorized), the payload
 * must match the event's schema (else 400), and a guard that reads the payload must let it through (else 409).
 * Deadlines are diffed by (declaring state, event, after): the ones only the previous states declared are cancelled,
 * the ones only the next states declare are armed; a deadline of a state that stays active keeps running.
 */
export function sendStep(
  catalogue: MachineCatalogue,
  kind: string,
  version: number,
  machine: AnyStateMachine,
  stored: StoredSnapshot,
  event: WorkflowEvent,
  actor: Actor,
  now?: Date,
): SendStep {
  const snapshot = restoreSnapshot(machine, stored);
  if (snapshot.status !== 'active') return { ok: false, refusal: { code: 'TransitionNotAllowed' } };
  // An action the catalogue allows is one of the active states' next transitions (MachineCatalogue.mayAct), so the
  // state takes the event: the next transitions are walked again only to tell a refusal's 409 from its 403.
  const allowed = catalogue.mayAct
    ? catalogue.mayAct(kind, snapshot, actor, version, event.type)
    : catalogue.allowedActions(kind, snapshot, actor, version).some((a) => a.type === event.type);
  if (!allowed) {
    const handled = getNextTransitions(snapshot).some((t) => t.eventType === event.type);
    return { ok: false, refusal: { code: handled ? 'NotAuthorized' : 'TransitionNotAllowed' } };
  }
  // The transition runs on the parsed payload (sections parsed, defaults applied), never on the raw one.
  const parsed = catalogue.parseEvent(kind, event, snapshot.context as Record<string, unknown>, snapshot);
  if (!parsed.ok) return { ok: false, refusal: { code: 'ValidationFailed', issues: parsed.issues } };
  const full = { ...parsed.payload, type: event.type, actor };
  if (machine.getTransitionData(snapshot, full).length === 0) return { ok: false, refusal: { code: 'TransitionNotAllowed' } };
  const [nextSnapshot, actions] = machineTransition(machine, snapshot, full);
  // assign() keeps the data object unless an action replaces it. The restored snapshot holds the stored context's
  // own objects, so unchanged data is the stored (JSON) data itself.
  const data = (snapshot.context as { data?: unknown }).data;
  const dataChanged = (nextSnapshot.context as { data?: unknown }).data !== data;
  // Deadlines read the transition's clock (the one its effects read): a month-end timer falls in the month its invoice line was written.
  const prev = derive(catalogue, machine, snapshot, stored, undefined, now);
  const next = derive(catalogue, machine, nextSnapshot, undefined, !dataChanged && data === stored.context.data ? data : undefined, now);
  const before = new Set(prev.deadlines.map(deadlineKey));
  const after = new Set(next.deadlines.map(deadlineKey));
  return {
    ok: true,
    prev,
    next,
    // What the history records and a replay sends: the parsed event.
    event: { ...parsed.payload, type: event.type },
    effects: effectsOf(actions),
    dataChanged,
    armed: next.deadlines.filter((d) => !before.has(deadlineKey(d))),
    cancelled: prev.deadlines.filter((d) => !after.has(deadlineKey(d))),
  };
}

/**
 * Replays a history (the START input, then each accepted event with its actor) and returns the snapshot it leads
 * to. The crash test and audits compare it with the stored snapshot.
 */
export function replay(
  machine: AnyStateMachine,
  input: Record<string, unknown>,
  events: { event: string; payload: Record<string, unknown>; actor: Actor }[],
): StoredSnapshot {
  let [snapshot] = machineInitialTransition(machine, input);
  for (const e of events) {
    // Annotations (workflows/store.ts ANNOTATION_EVENTS) are in the history but are not machine events.
    if ((ANNOTATION_EVENTS as readonly string[]).includes(e.event)) continue;
    [snapshot] = machineTransition(machine, snapshot, { ...e.payload, type: e.event, actor: e.actor } as EventObject);
  }
  return persistSnapshot(snapshot);
}
