import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AnyStateMachine } from 'xstate';
import { Permissions } from '../machines/permissions';
import { GENERAL_READINGS } from '../machines/readings';
import { serviceOf } from '../machines/services';
import { serviceContractLines } from '../machines/services/readings';
import { deadlineList } from '../machines/snapshot';
import {
  DEADLINES,
  EFFECT_NAMES,
  DEFINITIONS,
  RELATIONS,
  definitions,
  guardParamsOf,
  stateNodesOf,
  statusCatalogue,
  statusLabel,
  translate,
  type MachineDefinition,
  type MayParams,
  type StateMeta,
} from '../machines';

/**
 * Generates docs/machines/*.md from the machines: per machine the status table (code, state, labels, queue, events
 * with permission, timers), a Mermaid state diagram, the effects and the readings of the spec. `npm run
 * docs:machines` writes them; tests/machines/docs.test.ts fails when the committed files are stale.
 */

export const DOCS_DIR = fileURLToPath(new URL('../docs/machines', import.meta.url));

interface Node {
  id: string;
  key: string;
  path: string[];
  type: string;
  meta?: StateMeta;
  tags: Set<string>;
  parent?: Node;
  entry: unknown[];
  transitions: Map<string, Transition[]>;
  states: Record<string, Node>;
}
interface Transition {
  eventType: string;
  target?: Node[];
  guard?: unknown;
  actions: unknown[];
}

const pathOf = (n: Node) => n.path.join('.');
const cell = (s: string) => s.replaceAll('|', '\\|').replaceAll('\n', ' ');
const QUEUE_TAGS = ['registration', 'audit', 'committee', 'applicant', 'payment', 'final'];

function effectNames(actions: unknown[]): string[] {
  return actions
    .map((a) => (typeof a === 'string' ? a : (a as { type?: unknown }).type))
    .filter((t): t is string => typeof t === 'string' && t.startsWith('effect.'));
}

/** The service prefix (e.g. `InternalFacilityRequestService.`) most permissions of a machine share; stripped in tables. */
let servicePrefix = '';

function commonServicePrefix(nodes: Node[]): string {
  const counts = new Map<string, number>();
  for (const n of nodes)
    for (const list of n.transitions.values())
      for (const t of list)
        for (const p of [guardParamsOf(t as never)?.permission ?? []].flat()) {
          const prefix = `${p.split('.')[0]}.`;
          counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
        }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? '';
}

const shortPermission = (p: string) => (servicePrefix && p.startsWith(servicePrefix) ? p.slice(servicePrefix.length) : p);

function describeGuard(params: MayParams | undefined): string {
  if (!params) return '';
  const parts: string[] = [];
  if (params.permission) parts.push([params.permission].flat().map(shortPermission).join(' or '));
  if (params.relation) parts.push(params.relation);
  const when = params.when === undefined ? [] : [params.when].flat();
  if (when.length) parts.push(`when ${when.join(' and ')}`);
  return parts.join('; ');
}

function describeTransition(t: Transition, from: Node): string {
  const guard = describeGuard(guardParamsOf(t as never));
  const target = t.target?.length ? t.target.map(pathOf).join(', ') : '(stays)';
  const effects = effectNames(t.actions);
  const own = from.transitions.get(t.eventType)?.includes(t) ? '' : ` (from ${pathOf(parentWith(from, t) ?? from)})`;
  return `**${t.eventType}** → ${target}${guard ? ` [${guard}]` : ''}${effects.length ? ` {${effects.join(', ')}}` : ''}${own}`;
}

function parentWith(node: Node, t: Transition): Node | undefined {
  for (let n: Node | undefined = node; n; n = n.parent) if (n.transitions.get(t.eventType)?.includes(t)) return n;
  return undefined;
}

/** The staff note every open state accepts (machines/fragments/common.ts withStaffNotes): listed once per machine. */
const isStaffNote = (t: Transition) =>
  t.eventType === 'ADD_NOTE' && !t.target?.length && guardParamsOf(t as never)?.permission === Permissions.portals.halalCenter;

/** Transitions of a resting state: its own and its ancestors', without the staff note. */
function transitionsOf(node: Node): Transition[] {
  const out: Transition[] = [];
  for (let n: Node | undefined = node; n; n = n.parent) for (const list of n.transitions.values()) out.push(...list);
  return out.filter((t) => !isStaffNote(t));
}

const isResting = (n: Node) => n.type === 'atomic' || n.type === 'final';

function statusTable(d: MachineDefinition, nodes: Node[]): string[] {
  const lines = [
    '| Code | State | العربية | English | Queue | Events [permission; relation; condition] → target {effects} | Timer | On entry |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const n of nodes.filter(isResting)) {
    const code = n.meta?.status ?? NaN;
    const queue = [...n.tags].filter((t) => QUEUE_TAGS.includes(t)).join(', ');
    const events = n.type === 'final' ? 'none (final)' : transitionsOf(n).map((t) => describeTransition(t, n)).join('<br>');
    const deadline = (n.meta ? deadlineList(n.meta) : []).map((d) => `${d.event} after \`${d.after}\``).join('<br>');
    const entry = [n, ...ancestorsEnteredWith(n)].flatMap((x) => effectNames(x.entry));
    lines.push(
      `| ${code} | \`${pathOf(n)}\` | ${cell(statusLabel(d.kind, code, 'ar') ?? '')} | ${cell(statusLabel(d.kind, code, 'en') ?? '')} | ${queue} | ${cell(events)} | ${deadline} | ${entry.join(', ')} |`,
    );
  }
  for (const a of d.aliases ?? [])
    lines.push(
      `| ${a.code} | alias of ${a.aliasOf} | ${cell(statusLabel(d.kind, a.code, 'ar') ?? '')} | ${cell(statusLabel(d.kind, a.code, 'en') ?? '')} |  | ${cell(a.why)} |  |  |`,
    );
  return lines;
}

/** Compound ancestors whose entry runs when this state is entered as their initial child (shown with it). */
function ancestorsEnteredWith(n: Node): Node[] {
  const out: Node[] = [];
  for (let child = n, p = n.parent; p?.parent; child = p, p = p.parent) {
    if ((p as unknown as { config: { initial?: string } }).config.initial !== child.key) break;
    out.push(p);
  }
  return out;
}

/** Resting states a transition target enters (a compound target enters its initial states). */
function restingTargets(target: Node): Node[] {
  if (isResting(target)) return [target];
  const initial = (target as unknown as { config: { initial?: string } }).config.initial;
  return initial ? restingTargets(target.states[initial]) : [];
}

function mermaid(machine: AnyStateMachine, nodes: Node[]): string[] {
  const id = (n: Node) => pathOf(n).replaceAll('.', '_');
  const lines = ['```mermaid', 'stateDiagram-v2', '  direction LR'];
  for (const n of nodes.filter(isResting)) lines.push(`  state "${n.meta?.status} ${pathOf(n)}" as ${id(n)}`);
  const root = machine.root as unknown as Node;
  const initial = restingTargets(root.states[(root as unknown as { config: { initial: string } }).config.initial]);
  for (const n of initial) lines.push(`  [*] --> ${id(n)}`);
  const edges = new Set<string>();
  for (const n of nodes.filter(isResting)) {
    for (const t of transitionsOf(n)) {
      for (const target of (t.target ?? []).flatMap(restingTargets)) edges.add(`  ${id(n)} --> ${id(target)}: ${t.eventType}`);
    }
    if (n.type === 'final') edges.add(`  ${id(n)} --> [*]`);
  }
  lines.push(...edges, '```');
  return lines;
}

function effectsSection(nodes: Node[]): string[] {
  const uses = new Map<string, Set<string>>();
  const add = (effect: string, where: string) => uses.set(effect, (uses.get(effect) ?? new Set()).add(where));
  for (const n of nodes) {
    for (const e of effectNames(n.entry)) add(e, `entering \`${pathOf(n)}\``);
    for (const list of n.transitions.values())
      for (const t of list) for (const e of effectNames(t.actions)) add(e, `${t.eventType} in \`${pathOf(n)}\``);
  }
  if (!uses.size) return ['None.'];
  return [...uses.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([e, where]) => `- \`${e}\`: ${[...where].join('; ')}`);
}

function timersSection(nodes: Node[]): string[] {
  const names = new Set(nodes.flatMap((n) => (n.meta ? deadlineList(n.meta).map((d) => d.after) : [])));
  if (!names.size) return ['None.'];
  return [...names].sort().map((name) => `- \`${name}\`: ${DEADLINES[name].description}`);
}

/** The service contract a request kind declares (machines/services); entity lifecycles have none. */
function serviceSection(kind: string): string[] {
  const def = serviceOf(kind);
  return def ? ['## Service contract', '', ...serviceContractLines(def), ''] : [];
}

export function renderMachineDoc(d: MachineDefinition): string {
  const machine = d.machine;
  const nodes = stateNodesOf(machine) as unknown as Node[];
  const root = machine.root as unknown as Node;
  const staffNotes = nodes.some((n) => [...n.transitions.values()].flat().some(isStaffNote));
  const transitionCount = [root, ...nodes].reduce((n, node) => n + [...node.transitions.values()].flat().length, 0);
  const versions = Object.keys(definitions[d.kind].versions).join(', ');
  servicePrefix = commonServicePrefix([root, ...nodes]);
  const lines = [
    `<!-- Generated by \`npm run docs:machines\` from machines/. Do not edit by hand. -->`,
    `# ${d.title} (\`${d.kind}\`, version ${d.version})`,
    '',
    `${translate(`machines:kinds.${d.kind}`, 'ar')} — ${translate(`machines:kinds.${d.kind}`, 'en')}`,
    '',
    `- Catalogue: ${d.catalogue}`,
    ...(d.requestTypes?.length ? [`- Request types: ${d.requestTypes.map((c) => `\`${c}\``).join(', ')}`] : []),
    ...(d.requestKind !== undefined ? [`- Request kind: \`${d.requestKind}\``] : []),
    `- Versions in the registry: ${versions} (current ${definitions[d.kind].current})`,
    `- ${nodes.length} states, ${transitionCount} transitions`,
    '',
    '## Statuses, events and timers',
    '',
    ...(servicePrefix ? [`Permission names below omit their common prefix \`${servicePrefix}\`.`, ''] : []),
    ...statusTable(d, nodes),
    '',
    ...(staffNotes
      ? [
          `Every state that is not final also accepts **ADD_NOTE** → (stays) [${Permissions.portals.halalCenter}]: a staff note, recorded in the history.`,
          '',
        ]
      : []),
    'Relations: ' + Object.entries(RELATIONS).map(([k, v]) => `\`${k}\` = ${v}`).join('; ') + '.',
    '',
    '## Diagram',
    '',
    ...mermaid(machine, nodes),
    '',
    '## Effects',
    '',
    ...effectsSection(nodes),
    '',
    '## Timers',
    '',
    ...timersSection(nodes),
    '',
    ...serviceSection(d.kind),
    '## Readings of the spec',
    '',
    ...d.readings.map((r) => `- ${r}`),
    '',
  ];
  return lines.join('\n');
}

export function renderIndex(): string {
  const current = DEFINITIONS.filter((d) => d.version === definitions[d.kind].current);
  const lines = [
    `<!-- Generated by \`npm run docs:machines\` from machines/. Do not edit by hand. -->`,
    '# Lifecycle machines',
    '',
    'Every certification lifecycle is an XState machine in `machines/`; these pages are generated from them.',
    '',
    '## Readings shared by every machine',
    '',
    ...GENERAL_READINGS.map((r) => `- ${r}`),
    '',
    '## Deadlines',
    '',
    '| Name | Due | Rule |',
    '|---|---|---|',
    ...Object.entries(DEADLINES).map(([name, rule]) => `| \`${name}\` | ${rule.description} | ${rule.kind === 'config' ? `configuration \`${rule.config}\`` : rule.kind} |`),
    '',
    '## Effects',
    '',
    EFFECT_NAMES.map((e) => `\`${e}\``).join(', ') + ' (params in machines/effects.ts).',
    '',
    '## Machines',
    '',
    '| Machine | Kind | Version | Catalogue | Codes | Request types |',
    '|---|---|---|---|---|---|',
    ...current.map((d) => {
      const codes = statusCatalogue(d.kind).map((e) => e.code).join(', ');
      return `| [${d.title}](${d.kind}.md) | \`${d.kind}\` | ${d.version} | ${d.catalogue} | ${codes} | ${(d.requestTypes ?? []).join(', ')} |`;
    }),
    '',
  ];
  return lines.join('\n');
}

/** File name -> content of every generated doc. */
export function renderAll(): Map<string, string> {
  const files = new Map<string, string>([['README.md', renderIndex()]]);
  for (const d of DEFINITIONS) if (d.version === definitions[d.kind].current) files.set(`${d.kind}.md`, renderMachineDoc(d));
  return files;
}

/** The committed files, to compare with renderAll(). */
export function readCommitted(): Map<string, string> {
  const files = new Map<string, string>();
  for (const f of readdirSync(DOCS_DIR).filter((f) => f.endsWith('.md'))) files.set(f, readFileSync(join(DOCS_DIR, f), 'utf8'));
  return files;
}

function main() {
  rmSync(DOCS_DIR, { recursive: true, force: true });
  mkdirSync(DOCS_DIR, { recursive: true });
  const files = renderAll();
  for (const [name, content] of files) writeFileSync(join(DOCS_DIR, name), content);
  console.log(`docs:machines wrote ${files.size} files to docs/machines`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
