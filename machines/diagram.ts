import type { MachineKind, StateMeta } from './types';
import { getDefinition } from './registry';
import { stateNodesOf } from './catalogues';

/**
 * The status graph of a machine (issue 15, auditors): one node per status code, one edge per pair of statuses some
 * event moves between, laid out in columns by distance from the initial status. Generated from the machine itself,
 * so the diagram can never disagree with what the engine runs.
 */
export interface DiagramNode {
  code: number;
  /** The machine states that show this status. */
  states: string[];
  /** Column: the fewest events from the initial status (unreachable statuses go last). */
  column: number;
  /** Row within the column. */
  row: number;
}
export interface DiagramEdge {
  from: number;
  to: number;
  events: string[];
}
export interface StatusGraph {
  initial: number;
  nodes: DiagramNode[];
  edges: DiagramEdge[];
}

interface Node {
  path: string[];
  meta?: StateMeta;
  states: Record<string, Node>;
  transitions: Map<string, { target?: Node[] }[]>;
  initial?: { target?: Node[] };
}

const statusOfNode = (n: Node) => (n.meta as StateMeta | undefined)?.status;

/** The statuses a node shows: its own, or those of its descendants. */
function statusesWithin(n: Node): number[] {
  const own = statusOfNode(n);
  if (typeof own === 'number') return [own];
  return Object.values(n.states).flatMap(statusesWithin);
}

/** The status a transition into `n` lands on: its own, else the one its initial child chain reaches. */
function landingStatus(n: Node): number | undefined {
  for (let node: Node | undefined = n; node; node = node.initial?.target?.[0]) {
    const s = statusOfNode(node);
    if (typeof s === 'number') return s;
  }
  return statusesWithin(n)[0];
}

export function statusGraph(kind: MachineKind, version?: number): StatusGraph {
  const machine = getDefinition(kind, version).machine;
  const root = machine.root as unknown as Node;
  const nodes = stateNodesOf(machine) as unknown as Node[];
  const byCode = new Map<number, string[]>();
  for (const n of nodes) {
    const s = statusOfNode(n);
    if (typeof s === 'number') byCode.set(s, [...(byCode.get(s) ?? []), n.path.join('.')]);
  }
  const edges = new Map<string, DiagramEdge>();
  for (const n of nodes) {
    for (const [event, transitions] of n.transitions) {
      if (event.startsWith('xstate.')) continue;
      for (const t of transitions) {
        for (const target of t.target ?? []) {
          const to = landingStatus(target);
          if (to === undefined) continue;
          for (const from of statusesWithin(n)) {
            if (from === to) continue;
            const key = `${from}>${to}`;
            const e = edges.get(key) ?? { from, to, events: [] };
            if (!e.events.includes(event)) e.events.push(event);
            edges.set(key, e);
          }
        }
      }
    }
  }
  const initial = landingStatus(root) ?? [...byCode.keys()][0];
  // Breadth-first columns from the initial status.
  const column = new Map<number, number>([[initial, 0]]);
  const queue = [initial];
  while (queue.length) {
    const at = queue.shift()!;
    for (const e of edges.values()) {
      if (e.from === at && !column.has(e.to)) {
        column.set(e.to, column.get(at)! + 1);
        queue.push(e.to);
      }
    }
  }
  const last = Math.max(0, ...column.values()) + 1;
  const rows = new Map<number, number>();
  const out: DiagramNode[] = [...byCode.keys()]
    .sort((a, b) => (column.get(a) ?? last) - (column.get(b) ?? last) || a - b)
    .map((code) => {
      const c = column.get(code) ?? last;
      const row = rows.get(c) ?? 0;
      rows.set(c, row + 1);
      return { code, states: byCode.get(code)!, column: c, row };
    });
  return { initial, nodes: out, edges: [...edges.values()].sort((a, b) => a.from - b.from || a.to - b.to) };
}
