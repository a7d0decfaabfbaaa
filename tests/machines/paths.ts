import { createTestModel } from '@xstate/graph';
import { initialTransition, transition, type AnyMachineSnapshot, type AnyStateMachine, type AnyTransitionDefinition } from 'xstate';
import { getMachine, guardParamsOf, stateNodesOf, type MachineEvent, type MachineKind, type MayParams } from '../../machines';
import { eventsFor, inputFor } from './samples';

/**
 * The one way the project generates paths through a machine with @xstate/graph, used by the model-based walk
 * (coverage.ts), the HTTP replay (tests/server/*-paths.test.ts) and the testers' scripts (scripts/paths.ts).
 */

/** Every transition definition of a machine with a readable id (`<state id> <EVENT>#<index>`). */
export function transitionIds(machine: AnyStateMachine): Map<AnyTransitionDefinition, string> {
  const ids = new Map<AnyTransitionDefinition, string>();
  const nodes = [machine.root, ...stateNodesOf(machine)] as unknown as { id: string; transitions: Map<string, AnyTransitionDefinition[]> }[];
  for (const node of nodes)
    for (const [type, defs] of node.transitions) defs.forEach((d, i) => ids.set(d, `${node.id} ${type}#${i}`));
  return ids;
}

/**
 * The traversal's state key: the state value, the context facts guards read, and the transition that led there
 * (source state + event + branch), so every transition ends some shortest path.
 */
export function stateKeyOf(machine: AnyStateMachine, ids = transitionIds(machine)) {
  return (state: AnyMachineSnapshot, event: MachineEvent | undefined, prev: AnyMachineSnapshot | undefined): string => {
    const c = state.context as Record<string, unknown>;
    const via = event && prev ? machine.getTransitionData(prev, event).map((t) => ids.get(t)).join('|') : 'init';
    return JSON.stringify([
      state.value,
      state.status,
      c.assigneeUserId !== null,
      c.returnedByAudit ?? null,
      ((c.paidFees as number | undefined) ?? 0) > 0,
      ((c.discountPercent as number | undefined) ?? 0) >= 100,
      c.round ?? null,
      ((c.openNonConformities as unknown[] | undefined)?.length ?? 0) > 0,
      ((c.returnedSections as unknown[] | undefined)?.length ?? 0) > 0,
      via,
    ]);
  };
}

/** The @xstate/graph shortest paths of a machine, from the sample input with this discount. */
export function shortestPaths(kind: MachineKind, discountPercent = 0) {
  const machine = getMachine(kind);
  const serializeState = stateKeyOf(machine);
  const input = inputFor(kind, discountPercent);
  const events = eventsFor(kind, machine);
  const model = createTestModel(machine, { events, serializeState: serializeState as never });
  return { machine, input, paths: model.getShortestPaths({ input, events: events as never, serializeState: serializeState as never }) };
}

/** One step of a generated path: the event, the guard's parameters (who may send it), the transition ids it takes. */
export interface PathStep {
  event: MachineEvent;
  guard: MayParams;
  transitions: string[];
  /** The machine's snapshot after the step. */
  after: AnyMachineSnapshot;
}

/** The shortest paths as steps (the graph's internal xstate.* steps dropped), each replayed through the machine. */
export function pathSteps(kind: MachineKind, discountPercent = 0): { initial: AnyMachineSnapshot; paths: PathStep[][] } {
  const { machine, input, paths } = shortestPaths(kind, discountPercent);
  const ids = transitionIds(machine);
  const initial = initialTransition(machine, input)[0] as AnyMachineSnapshot;
  return {
    initial,
    paths: paths.map((p) => {
      let snap = initial;
      return p.steps
        .filter((s) => !s.event.type.startsWith('xstate.'))
        .map((s) => {
          const event = s.event as MachineEvent;
          const taken = machine.getTransitionData(snap, event);
          if (!taken.length) throw new Error(`${kind}: the model took ${event.type}, the machine does not in ${JSON.stringify(snap.value)}`);
          snap = transition(machine, snap, event)[0] as AnyMachineSnapshot;
          return { event, guard: guardParamsOf(taken[0]!) ?? {}, transitions: taken.map((t) => ids.get(t) ?? '?'), after: snap };
        });
    }),
  };
}

/** Paths that are not a prefix of another path (every shorter path is replayed as part of a longer one). */
export function maximalPaths<T>(paths: T[][], keyOf: (step: T) => string): T[][] {
  const keys = paths.map((p) => p.map(keyOf).join('\n'));
  return paths.filter((p, i) => p.length > 0 && !keys.some((k, j) => j !== i && k.length > keys[i]!.length && k.startsWith(`${keys[i]}\n`)));
}

/**
 * A small set of paths that together take every transition the given paths take (greedy set cover, longest gain
 * first): what an expensive replay (over HTTP) needs to cover the machine, without replaying every prefix variant.
 */
export function coveringPaths(paths: PathStep[][]): PathStep[][] {
  const left = new Set(paths.flatMap((p) => p.flatMap((s) => s.transitions)));
  const pool = [...paths];
  const chosen: PathStep[][] = [];
  while (left.size && pool.length) {
    let best = 0;
    let gain = -1;
    pool.forEach((p, i) => {
      const g = new Set(p.flatMap((s) => s.transitions).filter((t) => left.has(t))).size;
      if (g > gain || (g === gain && p.length < pool[best]!.length)) [best, gain] = [i, g];
    });
    if (gain <= 0) break;
    const [path] = pool.splice(best, 1);
    for (const t of path!.flatMap((s) => s.transitions)) left.delete(t);
    chosen.push(path!);
  }
  return chosen;
}
