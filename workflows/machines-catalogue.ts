import { allowedActions, deadlinesOf, getMachine, isMachineKind, queueOf, registry, statusOf, validateEvent } from '../machines';
import type { MachineCatalogue } from './catalogue';

function kindOf(kind: string) {
  if (!isMachineKind(kind)) throw new Error(`unknown machine kind ${kind}`);
  return kind;
}

/** The production catalogue: the lifecycle machines of machines/ (registry, guards, statuses, deadlines, schemas). */
export const machinesCatalogue: MachineCatalogue = {
  hasKind: (kind) => isMachineKind(kind),
  currentVersion: (kind) => registry[kindOf(kind)].current,
  getMachine: (kind, version) => getMachine(kindOf(kind), version),
  allowedActions: (kind, snapshot, actor, version) =>
    allowedActions(kindOf(kind), snapshot, actor, version).map(({ type, permission, requiresReason }) => ({
      type,
      ...(permission ? { permission } : {}),
      requiresReason,
    })),
  statusOf: (snapshot) => statusOf(snapshot),
  queueOf: (snapshot) => queueOf(snapshot),
  deadlinesOf: (snapshot) =>
    deadlinesOf(snapshot).map(({ event, after, dueAt, stateId }) => ({ event, after, stateId, ...(dueAt ? { computedDueAt: dueAt } : {}) })),
  validateEvent: (kind, event) => validateEvent(kindOf(kind), event),
};
