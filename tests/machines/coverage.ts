import { initialTransition, transition, type AnyMachineSnapshot, type AnyStateMachine, type StateValue } from 'xstate';
import { SYSTEM_ACTOR } from '../../machines/actor';
import {
  allowedActions,
  canSend,
  catalogues,
  deadlinesOf,
  EFFECT_NAMES,
  getMachine,
  queueOf,
  stateNodesOf,
  statusLabel,
  statusOf,
  validateEvent,
  EVENT_TYPES,
  type EventType,
  type MachineEvent,
  type MachineKind,
} from '../../machines';
import { shortestPaths, transitionIds } from './paths';

export interface Coverage {
  kind: MachineKind;
  states: string[];
  coveredStates: Set<string>;
  transitions: string[];
  coveredTransitions: Set<string>;
  paths: number;
  steps: number;
}

/** Ids of the active state nodes of a state value (the root excluded), from the machine's public node tree. */
function activeStateIds(machine: AnyStateMachine, value: StateValue): string[] {
  const out: string[] = [];
  const walk = (node: { states: Record<string, unknown> }, v: StateValue) => {
    const entries = typeof v === 'string' ? [[v, undefined] as const] : Object.entries(v);
    for (const [key, sub] of entries) {
      const child = node.states[key] as { id: string; states: Record<string, unknown> };
      out.push(child.id);
      if (sub !== undefined) walk(child, sub as StateValue);
    }
  };
  walk(machine.root as unknown as { states: Record<string, unknown> }, value);
  return out;
}

/**
 * Walks a machine with @xstate/graph: the traversal is keyed by state value, the context facts guards read, and
 * the transition that led there (source state + event + branch), so every transition ends some shortest path.
 * Each path is replayed through the public API (initialTransition/transition, allowedActions, validateEvent,
 * statusOf, queueOf, deadlinesOf) as the system under test, and the states and transitions it takes are counted.
 */
export async function walkMachine(kind: MachineKind): Promise<Coverage> {
  const machine = getMachine(kind);
  const ids = transitionIds(machine);
  const coverage: Coverage = {
    kind,
    states: stateNodesOf(machine).map((n) => (n as unknown as { id: string }).id),
    coveredStates: new Set(),
    transitions: [...ids.values()],
    coveredTransitions: new Set(),
    paths: 0,
    steps: 0,
  };
  const codes = new Set(catalogues.statuses[kind].filter((e) => e.aliasOf === undefined).map((e) => e.code));
  for (const discountPercent of [0, 100]) {
    const { input, paths } = shortestPaths(kind, discountPercent);
    for (const path of paths) {
      coverage.paths++;
      let current = initialTransition(machine, input)[0] as AnyMachineSnapshot;
      const checkState = (snapshot: AnyMachineSnapshot) => {
        const status = statusOf(snapshot);
        if (!codes.has(status)) throw new Error(`${kind}: status ${status} is not in the catalogue`);
        if (!statusLabel(kind, status, 'ar') || !statusLabel(kind, status, 'en')) throw new Error(`${kind}: no label for ${status}`);
        if (!queueOf(snapshot)) throw new Error(`${kind}: ${JSON.stringify(snapshot.value)} has no queue tag`);
        for (const d of deadlinesOf(snapshot, new Date('2026-01-15T00:00:00Z')))
          if (!allowedActions(kind, snapshot, SYSTEM_ACTOR).some((a) => a.type === d.event))
            throw new Error(`${kind}: deadline ${d.event} of ${d.stateId} is not accepted from the system`);
        for (const id of activeStateIds(machine, snapshot.value)) coverage.coveredStates.add(id);
      };
      checkState(current);
      const execute = (step: { event: MachineEvent; state: AnyMachineSnapshot }) => {
        const { event } = step;
        coverage.steps++;
        const issues = validateEvent(kind, event);
        if (issues.length) throw new Error(`${kind}: sample ${event.type} is invalid: ${JSON.stringify(issues)}`);
        if (!allowedActions(kind, current, event.actor).some((a) => a.type === event.type))
          throw new Error(`${kind}: ${event.type} missing from allowedActions in ${JSON.stringify(current.value)}`);
        if (!canSend(kind, current, event)) throw new Error(`${kind}: canSend refused ${event.type}`);
        for (const t of machine.getTransitionData(current, event)) coverage.coveredTransitions.add(ids.get(t) ?? '?');
        const [next, actions] = transition(machine, current, event);
        if (next === current) throw new Error(`${kind}: accepted ${event.type} left the snapshot unchanged`);
        for (const a of actions)
          if (a.type.startsWith('effect.') && !(EFFECT_NAMES as readonly string[]).includes(a.type))
            throw new Error(`${kind}: unknown effect ${a.type}`);
        current = next as AnyMachineSnapshot;
      };
      await path.test({
        events: Object.fromEntries(EVENT_TYPES.map((t: EventType) => [t, execute])) as never,
        states: {
          '*': (expected: AnyMachineSnapshot) => {
            if (JSON.stringify(current.value) !== JSON.stringify(expected.value))
              throw new Error(`${kind}: replay reached ${JSON.stringify(current.value)}, model ${JSON.stringify(expected.value)}`);
            checkState(current);
          },
        },
      });
    }
  }
  return coverage;
}
