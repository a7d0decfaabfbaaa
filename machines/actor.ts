/**
 * Who sends an event. The server builds it from the session; the timer runner uses SYSTEM_ACTOR.
 * Guards read permissions (policy names) and relations (facilityIds, userId against the request's owner/assignee).
 */
export interface Actor {
  userId: string;
  /** Role names (see machines/roles.ts); informative, guards check permissions. */
  roles: string[];
  permissions: string[];
  /** Public ids of the facilities and conformity bodies this user is a member of. */
  facilityIds: string[];
  /** True for the system actor that fires deadlines; never for a person. */
  system?: boolean;
}

export const SYSTEM_ACTOR: Actor = Object.freeze({
  userId: 'system',
  roles: ['system'],
  permissions: [],
  facilityIds: [],
  system: true,
}) as Actor;

export const hasPermission = (actor: Actor, permission: string): boolean => actor.permissions.includes(permission);
