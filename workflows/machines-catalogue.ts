import { allowedActions, deadlinesOf, getMachine, isMachineKind, mayAct, parseEvent, parseStartData, queueOf, registry, statusOf, toSnapshot } from '../machines';
import { SERVICES, type ServiceRegistry } from '../machines/services';
import type { MachineCatalogue } from './catalogue';

function kindOf(kind: string) {
  if (!isMachineKind(kind)) throw new Error(`unknown machine kind ${kind}`);
  return kind;
}

/**
 * The production catalogue: the lifecycle machines of machines/ (registry, guards, statuses, deadlines) and the
 * service contract that validates every event. The server builds it with its configured service registry (the Halal
 * HS-code list is configuration); the Temporal workflow bundle uses the default one.
 */
export function createMachinesCatalogue(services: ServiceRegistry = SERVICES): MachineCatalogue {
  return {
    hasKind: (kind) => isMachineKind(kind),
    currentVersion: (kind) => registry[kindOf(kind)].current,
    getMachine: (kind, version) => getMachine(kindOf(kind), version),
    allowedActions: (kind, snapshot, actor, version) =>
      allowedActions(kindOf(kind), snapshot, actor, version).map(({ type, permission, requiresReason, fullWaiverOnly }) => ({
        type,
        ...(permission ? { permission } : {}),
        requiresReason,
        ...(fullWaiverOnly ? { fullWaiverOnly } : {}),
      })),
    mayAct: (kind, snapshot, actor, version, type) => mayAct(toSnapshot(getMachine(kindOf(kind), version), snapshot), actor, type),
    statusOf: (snapshot) => statusOf(snapshot),
    queueOf: (snapshot) => queueOf(snapshot),
    deadlinesOf: (snapshot, now) =>
      deadlinesOf(snapshot, now).map(({ event, after, dueAt, stateId }) => ({ event, after, stateId, ...(dueAt ? { computedDueAt: dueAt } : {}) })),
    parseEvent: (kind, event, context, snapshot) => parseEvent(kindOf(kind), event, context, services, snapshot),
    parseStartData: (kind, data) => parseStartData(kindOf(kind), data, services),
  };
}

/** The catalogue with the default service registry. */
export const machinesCatalogue: MachineCatalogue = createMachinesCatalogue();
