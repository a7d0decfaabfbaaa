import type { AnyStateMachine } from 'xstate';
import { PAYMENT_SERVICES } from './effects';
import { HALAL_MARK_CODES_READING_B } from './halal-mark';
import { statusLabel } from './labels';
import { DEFINITIONS, definitions, getDefinition } from './registry';
import { MACHINE_KINDS, type MachineKind, type Queue, type StateMeta } from './types';
import { QUEUES } from './types';

/** One status code of a lifecycle: the states showing it, their queues, and its label key. */
export interface StatusEntry {
  code: number;
  /** Dotted state paths (e.g. `audit1.decision`) that show this code; empty for an alias. */
  states: string[];
  queues: Queue[];
  /** i18next key of the label: `status:<kind>.<code>` in locales/<lang>/status.json. */
  labelKey: string;
  /** The label in both languages (from the same locale files). */
  label: { ar: string; en: string };
  /** Set when the code is another spelling of a code the machine emits (imported data only). */
  aliasOf?: number;
}

interface WalkNode {
  path: string[];
  meta?: unknown;
  tags: readonly string[] | Set<string> | string[];
  states: Record<string, WalkNode>;
}

/** Every state node of a machine except the root, in document order. */
export function stateNodesOf(machine: AnyStateMachine): WalkNode[] {
  const out: WalkNode[] = [];
  const walk = (node: WalkNode) => {
    for (const child of Object.values(node.states)) {
      out.push(child);
      walk(child);
    }
  };
  walk(machine.root as unknown as WalkNode);
  return out;
}

const labelKey = (kind: MachineKind, code: number) => `status:${kind}.${code}`;
const labelOf = (kind: MachineKind, code: number) => ({
  ar: statusLabel(kind, code, 'ar') ?? labelKey(kind, code),
  en: statusLabel(kind, code, 'en') ?? labelKey(kind, code),
});

/** The status catalogue of one machine version, derived from its states' meta (plus declared aliases). */
export function statusCatalogue(kind: MachineKind, version?: number): StatusEntry[] {
  const d = getDefinition(kind, version);
  const byCode = new Map<number, StatusEntry>();
  for (const node of stateNodesOf(d.machine)) {
    const status = (node.meta as StateMeta | undefined)?.status;
    if (typeof status !== 'number') continue;
    const entry = byCode.get(status) ?? { code: status, states: [], queues: [], labelKey: labelKey(kind, status), label: labelOf(kind, status) };
    entry.states.push(node.path.join('.'));
    for (const q of QUEUES) if ([...node.tags].includes(q) && !entry.queues.includes(q)) entry.queues.push(q);
    byCode.set(status, entry);
  }
  for (const a of d.aliases ?? [])
    byCode.set(a.code, { code: a.code, states: [], queues: [], labelKey: labelKey(kind, a.code), label: labelOf(kind, a.code), aliasOf: a.aliasOf });
  return [...byCode.values()].sort((a, b) => a.code - b.code);
}

/** Request kind codes of spec 01 section 3. */
export const REQUEST_KINDS = { 2: 'ExternalFacility', 3: 'ShipmentRequest', 4: 'HalalMarkRequest' } as const;

export interface RequestTypeEntry {
  code: number | string;
  kind: MachineKind;
  labelKey: string;
}

/**
 * The catalogues as data: status codes per lifecycle (labels in locales/<lang>/status.json), request type codes
 * (spec 02 section 3) and request kind codes (spec 01 section 3) with the machines they start (labels in
 * locales/<lang>/machines.json), payment services, and the other reading of the Halal mark codes.
 */
export const catalogues = {
  statuses: Object.fromEntries(MACHINE_KINDS.map((k) => [k, statusCatalogue(k)])) as Record<MachineKind, StatusEntry[]>,
  requestTypes: DEFINITIONS.filter((d) => d.version === definitions[d.kind].current).flatMap((d) =>
    (d.requestTypes ?? []).map((code): RequestTypeEntry => ({ code, kind: d.kind, labelKey: `machines:requestTypes.${code}` })),
  ),
  requestKinds: Object.entries(REQUEST_KINDS).map(([code, name]) => ({
    code: Number(code),
    name,
    labelKey: `machines:requestKinds.${code}`,
    kinds: DEFINITIONS.filter((d) => d.requestKind === Number(code) && d.version === definitions[d.kind].current).map((d) => d.kind),
  })),
  paymentServices: Object.entries(PAYMENT_SERVICES).map(([code, name]) => ({
    code: Number(code),
    name,
    labelKey: `machines:paymentServices.${code}`,
  })),
  halalMarkReadingB: HALAL_MARK_CODES_READING_B,
  kinds: MACHINE_KINDS.map((kind) => ({ kind, labelKey: `machines:kinds.${kind}` })),
  queues: QUEUES.map((queue) => ({ queue, labelKey: `machines:queues.${queue}` })),
};

/** The machine kind a request type code starts (201 and 1 -> internalCertificate, ...). */
export function kindOfRequestType(code: number | string): MachineKind | undefined {
  return catalogues.requestTypes.find((t) => String(t.code) === String(code))?.kind;
}
