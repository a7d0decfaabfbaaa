import type { z } from 'zod';
import { getNextTransitions, type AnyMachineSnapshot } from 'xstate';
import { guardParamsOf } from './allowed-actions';
import { testCondition, type ConditionName } from './conditions';
import { EventMessage, schemaFor } from './events';
import { conditionsOf } from './guards';
import { getMachine } from './registry';
import { stateNodesOf } from './catalogues';
import { SERVICES, serviceOf, type ServiceRegistry } from './services';
import { checkRequestSize, parseDraftSections, validateSubmission } from './services/validate';
import { parseComplete } from './services/project';
import { formIssuesOf } from './forms/messages';
import { EVENT_TYPES, MACHINE_KINDS, type EventType, type MachineKind } from './types';

/** A field error of an event payload: `message` is an i18next key (`machines:validation.*`, or a bare `validation` key). */
export interface EventIssue {
  field: string;
  message: string;
  params?: Record<string, unknown>;
}

/** The event types a machine version accepts anywhere. */
export function eventTypesOf(kind: MachineKind, version?: number): EventType[] {
  const machine = getMachine(kind, version);
  const types = new Set<string>();
  for (const node of [machine.root, ...stateNodesOf(machine)] as unknown as { config: { on?: Record<string, unknown> } }[])
    for (const type of Object.keys(node.config.on ?? {})) types.add(type);
  return EVENT_TYPES.filter((t) => types.has(t));
}

/** Per kind, per event type it accepts: the zod schema of the payload (the event without `type` and `actor`). */
export const eventSchemas = Object.fromEntries(
  MACHINE_KINDS.map((kind) => [kind, Object.fromEntries(eventTypesOf(kind).map((t) => [t, schemaFor(kind, t)]))]),
) as Record<MachineKind, Partial<Record<EventType, z.ZodType>>>;

const KEY = /^machines:validation\.\w+$/;

function issuesOfZod(error: z.ZodError): EventIssue[] {
  return error.issues.flatMap((issue): EventIssue[] => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => ({ field: [...path, key].join('.'), message: EventMessage.unknownField }));
    const params = issue.code === 'custom' && issue.params ? { ...issue.params } : undefined;
    return [{ field: path.join('.'), message: KEY.test(issue.message) ? issue.message : EventMessage.invalid, ...(params ? { params } : {}) }];
  });
}

export type ParsedEvent = { ok: true; payload: Record<string, unknown> } | { ok: false; issues: EventIssue[] };

/**
 * The one validation of an event, shared by every door and both engine adapters (workflows/step.ts calls it inside
 * the send step). The payload must match the event's schema; then, for request kinds, the service contract:
 * - EDIT: each section is parsed by its draft schema and the PARSED value replaces the raw one (so numbers are stored
 *   as numbers); unknown sections, oversized sections and an oversized request are refused;
 * - SUBMIT and RESUBMIT: the stored data must pass the submission rules (every section complete, cross rules).
 * Returns the payload the transition must use (defaults applied, sections parsed), or every issue found.
 */
export function parseEvent(
  kind: MachineKind,
  event: { type: string; [key: string]: unknown },
  context: { data?: unknown; openNonConformities?: unknown; returnedSections?: unknown },
  services: ServiceRegistry = SERVICES,
  snapshot?: AnyMachineSnapshot,
): ParsedEvent {
  const schema = eventSchemas[kind]?.[event.type as EventType];
  if (!schema) return { ok: false, issues: [{ field: 'type', message: EventMessage.unknownEvent, params: { type: event.type } }] };
  const { type: _type, actor: _actor, ...raw } = event;
  const base = schema.safeParse(raw);
  if (!base.success) return { ok: false, issues: issuesOfZod(base.error) };
  const payload = base.data as Record<string, unknown>;
  const conditioned = snapshot ? payloadConditionIssues(snapshot, { ...payload, type: event.type }) : [];
  if (conditioned.length) return { ok: false, issues: conditioned };
  const answers = OPEN_NON_CONFORMITY_ANSWERS[event.type];
  if (answers) {
    const issues = openNonConformityIssues(answers, payload[answers.field] as { nonConformityId: string }[], context.openNonConformities);
    if (issues.length) return { ok: false, issues };
  }
  const def = serviceOf(kind, services);
  if (!def) return { ok: true, payload };
  const stored = (context.data && typeof context.data === 'object' ? context.data : {}) as Record<string, unknown>;
  const toIssues = (list: { path: string; message: string; params?: Record<string, unknown> }[]) =>
    list.map((i) => ({ field: i.path, message: i.message, ...(i.params ? { params: i.params } : {}) }));
  if (event.type === 'EDIT') {
    // A request returned by section (returnedSections, cleared on resubmission) takes edits of those sections only:
    // say which section is refused rather than "not allowed now" (the machine's guard holds the same rule).
    const returned = Array.isArray(context.returnedSections) ? (context.returnedSections as string[]) : [];
    const outside = returned.length ? Object.keys(payload.data as Record<string, unknown>).filter((k) => !returned.includes(k)) : [];
    if (outside.length) return { ok: false, issues: outside.map((k) => ({ field: k, message: EventMessage.sectionNotReturned })) };
    const parsed = parseDraftSections(def, payload.data as Record<string, unknown>);
    if (!parsed.ok) return { ok: false, issues: toIssues(parsed.issues) };
    const size = checkRequestSize({ ...stored, ...parsed.data });
    if (size.length) return { ok: false, issues: toIssues(size) };
    return { ok: true, payload: { ...payload, data: parsed.data } };
  }
  if (event.type === 'ADD_PRODUCTS' && def.sections.products) {
    // Products asked for on an issued certificate obey the products section's rules, and the parsed ones are stored.
    const r = def.sections.products.complete.safeParse(payload.products);
    if (!r.success) return { ok: false, issues: toIssues(formIssuesOf(r.error.issues, ['products'])) };
    return { ok: true, payload: { ...payload, products: r.data } };
  }
  if (event.type === 'SUBMIT' || event.type === 'RESUBMIT') {
    // Stored data, parsed once per object: the fee rule's projection of the same objects reads these results.
    const checked = validateSubmission(def, stored, parseComplete);
    if (!checked.ok) return { ok: false, issues: toIssues(checked.issues) };
  }
  return { ok: true, payload };
}

/**
 * Payload conditions a state may put on an event (`when` in its guard) that are a rule of the field, not a choice of
 * target: said as the field's own error (400) instead of the machine's bare "not allowed now" (409).
 */
const FIELD_CONDITIONS: Partial<Record<ConditionName, EventIssue>> = {
  // A bill awaiting payment is only waived whole (machines/fragments/payment.ts): a partial discount would leave a bill
  // whose amount no longer matches the request's discount.
  grantsFullDiscount: { field: 'percent', message: EventMessage.fullWaiverOnly },
};

/**
 * The field errors of a payload that every transition of its type in the current state refuses by one of
 * FIELD_CONDITIONS. Read from the machine version's own guards, so released versions need no change.
 */
export function payloadConditionIssues(snapshot: AnyMachineSnapshot, event: { type: string; [key: string]: unknown }): EventIssue[] {
  if (snapshot.status !== 'active') return [];
  const candidates = getNextTransitions(snapshot).filter((t) => t.eventType === event.type);
  if (!candidates.length) return [];
  const context = snapshot.context as Parameters<typeof testCondition>[1];
  const failing = candidates.map((t) => {
    const params = guardParamsOf(t);
    return (params ? conditionsOf(params) : []).filter((c) => FIELD_CONDITIONS[c] && !testCondition(c, context, event as never));
  });
  // Only when no transition could take it: one that may (another target) leaves the choice to the machine.
  if (failing.some((f) => f.length === 0)) return [];
  const names = [...new Set(failing.flat())];
  return names.map((c) => FIELD_CONDITIONS[c]!);
}

/** Events that answer the open non-conformities one by one: the list field, and the messages of a stray or missing answer. */
const OPEN_NON_CONFORMITY_ANSWERS: Record<string, { field: string; notOpen: string; missing: string } | undefined> = {
  SUBMIT_CORRECTIVE_ACTIONS: { field: 'actions', notOpen: EventMessage.correctiveActionNotOpen, missing: EventMessage.correctiveActionMissing },
  DECIDE_CORRECTIVE_ACTIONS: { field: 'decisions', notOpen: EventMessage.decisionNotOpen, missing: EventMessage.decisionMissing },
};

/**
 * Spec 02 section 4 step 4: the applicant answers the open non-conformities (after a rejection, only the rejected
 * ones) with corrective actions, and the auditor decides those actions: each open one once, none left out, and none
 * that is not open (an accepted finding is not answered again, nor reopened by a decision).
 */
function openNonConformityIssues(
  answers: { field: string; notOpen: string; missing: string },
  items: readonly { nonConformityId: string }[],
  openIds: unknown,
): EventIssue[] {
  const open = new Set(Array.isArray(openIds) ? (openIds as string[]) : []);
  const seen = new Set<string>();
  const issues: EventIssue[] = [];
  items.forEach((a, i) => {
    const field = `${answers.field}.${i}.nonConformityId`;
    if (!open.has(a.nonConformityId)) issues.push({ field, message: answers.notOpen });
    else if (seen.has(a.nonConformityId)) issues.push({ field, message: EventMessage.duplicateNonConformity });
    seen.add(a.nonConformityId);
  });
  if ([...open].some((id) => !seen.has(id))) issues.push({ field: answers.field, message: answers.missing });
  return issues;
}

/** The first data of a new request goes by the rules of an edit (its sections parsed by their draft schemas). */
export function parseStartData(kind: MachineKind, data: Record<string, unknown> | undefined, services: ServiceRegistry = SERVICES): ParsedEvent {
  if (!data || Object.keys(data).length === 0) return { ok: true, payload: {} };
  const def = serviceOf(kind, services);
  if (!def) return { ok: true, payload: data };
  const parsed = parseDraftSections(def, data);
  if (!parsed.ok) return { ok: false, issues: parsed.issues.map((i) => ({ field: i.path, message: i.message })) };
  return { ok: true, payload: parsed.data };
}

/**
 * The payload's own schema only (no stored data: SUBMIT's data rules are not run). For the machine tests and the docs;
 * the engine uses parseEvent with the request's context.
 */
export function validateEvent(kind: MachineKind, event: { type: string; [key: string]: unknown }): EventIssue[] {
  const schema = eventSchemas[kind]?.[event.type as EventType];
  if (!schema) return [{ field: 'type', message: EventMessage.unknownEvent, params: { type: event.type } }];
  const { type: _type, actor: _actor, ...raw } = event;
  const r = schema.safeParse(raw);
  return r.success ? [] : issuesOfZod(r.error);
}

/** The payload as the schema parsed it (defaults applied), or throws; for callers that validated first. */
export function parseEventPayload(kind: MachineKind, event: { type: string; [key: string]: unknown }): Record<string, unknown> {
  const schema = eventSchemas[kind]?.[event.type as EventType];
  if (!schema) throw new Error(`${kind} does not accept ${event.type}`);
  const { type: _type, actor: _actor, ...payload } = event;
  return schema.parse(payload) as Record<string, unknown>;
}
