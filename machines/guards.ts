import { permissionsForFacility, type Actor } from './actor';
import { testCondition, type ConditionName } from './conditions';
import type { BaseContext, MachineEvent } from './types';

/**
 * How the acting user must relate to the request. Staff relations follow the review assignment: `reviewer` is
 * anyone allowed while nobody holds the request, and only the assignee once somebody does.
 */
export const RELATIONS = {
  applicant: 'a member (main or sub user) of the request’s facility or conformity body, holding the permission there (a sub user: if delegated to them)',
  owner: 'the user who created it',
  reviewer: 'the assignee, or anyone with the permission while unassigned',
  assignee: 'the assigned employee',
  unassigned: 'anyone with the permission while nobody is assigned',
  assigned: 'anyone with the permission while somebody is assigned',
  delegate: 'the delegated user',
  system: 'the system (payment portal callbacks and deadline timers)',
} as const;
export type Relation = keyof typeof RELATIONS;

/** Parameters of the one guard every transition uses: permission (any of), relation, routing condition. */
export interface MayParams {
  permission?: string | readonly string[];
  relation?: Relation;
  /** Routing condition(s); all must hold. */
  when?: ConditionName | readonly ConditionName[];
}

const permissionsOf = (p: MayParams): readonly string[] =>
  p.permission === undefined ? [] : typeof p.permission === 'string' ? [p.permission] : p.permission;

function related(actor: Actor, context: BaseContext, relation: Relation | undefined): boolean {
  switch (relation) {
    case undefined:
      return true;
    case 'system':
      return actor.system === true;
    case 'applicant':
      return actor.facilityIds.includes(context.facilityId);
    case 'owner':
      return actor.userId === context.ownerUserId;
    case 'reviewer':
      return context.assigneeUserId === null || context.assigneeUserId === actor.userId;
    case 'assignee':
      return context.assigneeUserId === actor.userId;
    case 'unassigned':
      return context.assigneeUserId === null;
    case 'assigned':
      return context.assigneeUserId !== null;
    case 'delegate':
      return context.delegateUserId !== undefined && actor.userId === context.delegateUserId;
  }
}

/** Permission and relation only (no routing condition): may this actor send the event at all? */
export function authorize(actor: Actor | undefined, context: BaseContext, params: MayParams): boolean {
  if (!actor) return false;
  // The system actor fires deadlines and payment callbacks only; people never send those events.
  if ((params.relation === 'system') !== (actor.system === true)) return false;
  const needed = permissionsOf(params);
  // Delegated permissions: acting as a member of the request's facility, a user holds only what that facility
  // granted them (a sub user's delegated list, the main user everything); see Actor.facilityPermissions.
  const held = params.relation === 'applicant' ? permissionsForFacility(actor, context.facilityId) : actor.permissions;
  if (needed.length > 0 && !needed.some((p) => held.includes(p))) return false;
  return related(actor, context, params.relation);
}

/** The permission that grants the event to this actor (the first listed one it holds). */
export function grantedPermission(actor: Actor, params: MayParams): string | undefined {
  const needed = permissionsOf(params);
  return needed.find((p) => actor.permissions.includes(p)) ?? needed[0];
}

/** The XState guard implementation registered as `may` in every machine's setup. */
export function mayGuard({ context, event }: { context: BaseContext; event: MachineEvent }, params: MayParams) {
  return authorize(event.actor, context, params) && conditionsOf(params).every((c) => testCondition(c, context, event));
}

export const conditionsOf = (p: MayParams): readonly ConditionName[] =>
  p.when === undefined ? [] : typeof p.when === 'string' ? [p.when] : p.when;

/** Shorthand for a transition guard object. */
export const may = (params: MayParams) => ({ type: 'may' as const, params });
