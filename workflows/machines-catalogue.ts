import { allowedActions } from '../machines/allowed-actions';
import { schemaFor } from '../machines/events';
import { getMachine, isMachineKind, registry } from '../machines/registry';
import { deadlinesOf, queueOf, statusOf } from '../machines/snapshot';
import { EVENT_TYPES, type EventType } from '../machines/types';
import type { EventIssue, MachineCatalogue } from './catalogue';

const isEventType = (t: string): t is EventType => (EVENT_TYPES as readonly string[]).includes(t);

/** The production catalogue: the lifecycle machines of machines/ (registry, guards, statuses, deadlines, schemas). */
export const machinesCatalogue: MachineCatalogue = {
  hasKind: (kind) => isMachineKind(kind),
  currentVersion(kind) {
    if (!isMachineKind(kind)) throw new Error(`unknown machine kind ${kind}`);
    return registry[kind].current;
  },
  getMachine(kind, version) {
    if (!isMachineKind(kind)) throw new Error(`unknown machine kind ${kind}`);
    return getMachine(kind, version);
  },
  allowedActions(kind, snapshot, actor, version) {
    if (!isMachineKind(kind)) return [];
    return allowedActions(kind, snapshot, actor, version).map(({ type, permission, requiresReason }) => ({
      type,
      ...(permission ? { permission } : {}),
      requiresReason,
    }));
  },
  statusOf: (snapshot) => statusOf(snapshot),
  queueOf: (snapshot) => queueOf(snapshot),
  deadlinesOf: (snapshot) =>
    deadlinesOf(snapshot).map(({ event, after, dueAt, stateId }) => ({ event, after, stateId, ...(dueAt ? { computedDueAt: dueAt } : {}) })),
  /** The payload (the event without type and actor) against the kind's schema of that event type. */
  validateEvent(kind, event): EventIssue[] {
    if (!isMachineKind(kind) || !isEventType(event.type)) return [{ field: 'type', message: 'machines:validation.unknownEvent' }];
    const { type, actor: _actor, ...payload } = event;
    const result = schemaFor(kind, type).safeParse(payload);
    if (result.success) return [];
    return result.error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message }));
  },
};
