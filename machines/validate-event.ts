import type { z } from 'zod';
import { EventMessage, schemaFor } from './events';
import { getMachine } from './registry';
import { stateNodesOf } from './catalogues';
import { EVENT_TYPES, MACHINE_KINDS, type EventType, type MachineKind } from './types';

/** A field error of an event payload: `message` is an i18next key (`machines:validation.*`). */
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

/**
 * Validates an event's payload for a kind. Returns the field errors (empty when valid): an unknown event type,
 * unknown fields, and each schema issue with its message key (e.g. a missing reason -> reasonRequired).
 */
export function validateEvent(kind: MachineKind, event: { type: string; [key: string]: unknown }): EventIssue[] {
  const schema = eventSchemas[kind]?.[event.type as EventType];
  if (!schema) return [{ field: 'type', message: EventMessage.unknownEvent, params: { type: event.type } }];
  const { type: _type, actor: _actor, ...payload } = event;
  const result = schema.safeParse(payload);
  if (result.success) return [];
  return result.error.issues.flatMap((issue): EventIssue[] => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => ({ field: [...path, key].join('.'), message: EventMessage.unknownField }));
    const params = issue.code === 'custom' && issue.params ? { ...issue.params } : undefined;
    return [{ field: path.join('.'), message: KEY.test(issue.message) ? issue.message : EventMessage.invalid, ...(params ? { params } : {}) }];
  });
}

/** The payload as the schema parsed it (defaults applied), or throws; for callers that validated first. */
export function parseEventPayload(kind: MachineKind, event: { type: string; [key: string]: unknown }): Record<string, unknown> {
  const schema = eventSchemas[kind]?.[event.type as EventType];
  if (!schema) throw new Error(`${kind} does not accept ${event.type}`);
  const { type: _type, actor: _actor, ...payload } = event;
  return schema.parse(payload) as Record<string, unknown>;
}
