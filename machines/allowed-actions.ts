import { getNextTransitions, initialTransition, type AnyMachineSnapshot, type AnyTransitionDefinition } from 'xstate';
import type { Actor } from './actor';
import { conditionReadsEvent, testCondition } from './conditions';
import { EVENT_DEFINITIONS, eventDefinitionOf } from './events';
import { authorize, conditionsOf, grantedPermission, type MayParams } from './guards';
import { Permissions } from './permissions';
import { getMachine } from './registry';
import { toSnapshot, type PersistedSnapshot } from './snapshot';
import { EVENT_TYPES, type BaseContext, type EventType, type MachineEvent, type MachineKind } from './types';

export interface AllowedAction {
  type: EventType;
  /** The permission (policy name) that grants it to this actor; absent for relation-only events. */
  permission?: string;
  /** The event needs a written text (spec: "reason or note is required"), in the payload field `reasonField`. */
  requiresReason: boolean;
  reasonField?: 'reason' | 'note';
  /** GRANT_DISCOUNT: every transition open to it now takes only 100 % (a bill awaiting payment is waived whole). */
  fullWaiverOnly?: true;
}

const isEventType = (t: string): t is EventType => (EVENT_TYPES as readonly string[]).includes(t);

/** The `may` guard params of a transition (every transition of these machines has one). */
export function guardParamsOf(t: AnyTransitionDefinition): MayParams | undefined {
  const g = t.guard as { type?: string; params?: MayParams } | undefined;
  return g && typeof g === 'object' && g.type === 'may' ? (g.params ?? {}) : undefined;
}

/**
 * The events this actor may send now: a candidate transition of the active states whose permission and relation
 * hold for the actor and whose context conditions hold; payload conditions (e.g. compliant or not) are left to the
 * event itself. Final snapshots allow nothing.
 */
export function allowedActionsOf(snapshot: AnyMachineSnapshot, actor: Actor, kind?: MachineKind): AllowedAction[] {
  if (snapshot.status !== 'active') return [];
  const context = snapshot.context as BaseContext;
  const out = new Map<EventType, AllowedAction>();
  const partial = new Set<EventType>();
  for (const t of getNextTransitions(snapshot)) {
    if (!isEventType(t.eventType)) continue;
    const params = openTo(t, actor, context);
    if (!params) continue;
    if (!conditionsOf(params).includes('grantsFullDiscount')) partial.add(t.eventType);
    if (out.has(t.eventType)) continue;
    const reasonField = (kind ? eventDefinitionOf(kind, t.eventType) : EVENT_DEFINITIONS[t.eventType]).reasonField;
    const permission = grantedPermission(actor, params);
    out.set(t.eventType, {
      type: t.eventType,
      ...(permission ? { permission } : {}),
      requiresReason: reasonField !== undefined,
      ...(reasonField ? { reasonField } : {}),
    });
  }
  for (const a of out.values()) if (a.type === 'GRANT_DISCOUNT' && !partial.has(a.type)) a.fullWaiverOnly = true;
  return [...out.values()];
}

/**
 * Whether allowedActionsOf(snapshot, actor) lists `type`, without building the list: the engine's check of every
 * event it is sent (the same transitions, guards and context conditions).
 */
export function mayAct(snapshot: AnyMachineSnapshot, actor: Actor, type: string): boolean {
  if (snapshot.status !== 'active' || !isEventType(type)) return false;
  const context = snapshot.context as BaseContext;
  for (const t of getNextTransitions(snapshot)) {
    if (t.eventType === type && openTo(t, actor, context)) return true;
  }
  return false;
}

/**
 * The transition's guard parameters when its permission and relation hold for the actor and its context conditions
 * hold; payload conditions (e.g. compliant or not) are left to the event itself.
 */
function openTo(t: AnyTransitionDefinition, actor: Actor, context: BaseContext): MayParams | undefined {
  const params = guardParamsOf(t);
  if (!params || !authorize(actor, context, params)) return undefined;
  return conditionsOf(params).every((c) => conditionReadsEvent(c) || testCondition(c, context, undefined)) ? params : undefined;
}

/** allowedActions for a request of `kind` (at its pinned `version`), from a live or persisted snapshot. */
export function allowedActions(
  kind: MachineKind,
  snapshot: AnyMachineSnapshot | PersistedSnapshot,
  actor: Actor,
  version?: number,
): AllowedAction[] {
  const machine = getMachine(kind, version);
  return allowedActionsOf(toSnapshot(machine, snapshot), actor, kind);
}

/**
 * Whether this exact event (actor and payload) is taken by the machine now. allowedActions answers for the event
 * type; this answers for the payload too (e.g. corrective-action decisions that leave a non-conformity undecided).
 */
export function canSend(kind: MachineKind, snapshot: AnyMachineSnapshot | PersistedSnapshot, event: MachineEvent, version?: number): boolean {
  const machine = getMachine(kind, version);
  const live = toSnapshot(machine, snapshot);
  return live.status === 'active' && machine.getTransitionData(live, event).length > 0;
}

/**
 * The permissions that let an employee work the queue the request is in now (take it, decide it): what an assignee
 * must hold, so that ASSIGN_TO_EMPLOYEE can only name someone who could do the work.
 */
export function queueWorkPermissions(kind: MachineKind, snapshot: AnyMachineSnapshot | PersistedSnapshot, version?: number): string[] {
  const live = toSnapshot(getMachine(kind, version), snapshot);
  if (live.status !== 'active') return [];
  const out = new Set<string>();
  for (const t of getNextTransitions(live)) {
    if (t.eventType !== 'ASSIGN_TO_ME' && t.eventType !== 'CANCEL_ASSIGNMENT') continue;
    const params = guardParamsOf(t);
    if (!params || (params.relation !== 'unassigned' && params.relation !== 'assignee')) continue;
    for (const p of params.permission === undefined ? [] : typeof params.permission === 'string' ? [params.permission] : params.permission) out.add(p);
  }
  return [...out];
}

/**
 * Whether a user holding these grants may work a queue whose work permissions are `needed` (queueWorkPermissions):
 * Halal-center staff (the portal's permission), not of a read-only role (refused every write), holding one of them.
 * The one rule for who may hold a request: whom ASSIGN_TO_EMPLOYEE may name, and whose assignments a role change
 * releases (server/modules/admin/release-assignments.ts).
 */
export function mayWorkQueue(grants: { permissions: readonly string[]; readOnly: boolean }, needed: readonly string[]): boolean {
  return !grants.readOnly && grants.permissions.includes(Permissions.portals.halalCenter) && needed.some((p) => grants.permissions.includes(p));
}

/**
 * Whether this actor may start a request of `kind` for the facility: the draft it would create must offer them
 * something to do. Its applicant transitions need the kind's permissions for that facility, so a sub user without
 * the delegated permission cannot start one there (and still can where it was delegated).
 */
export function mayStart(kind: MachineKind, actor: Actor, facilityId: string, data: Record<string, unknown> = {}, version?: number): boolean {
  const machine = getMachine(kind, version);
  const [draft] = initialTransition(machine, { requestId: 'new', ownerUserId: actor.userId, facilityId, data });
  return draft.status === 'active' && allowedActionsOf(draft, actor, kind).length > 0;
}
