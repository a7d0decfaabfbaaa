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
  /**
   * Per facility or CB (public id), the permissions this user holds there (see memberPermissions): the main user
   * all of the role's, a sub user only those delegated to them. Absent on actors built without memberships (the
   * system actor, history rows written before delegated permissions were enforced): then `permissions` count.
   */
  facilityPermissions?: Record<string, string[]>;
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

/**
 * A member's permissions in one facility (spec 02 section 6: "Main delegate has all permissions. Sub delegate has
 * all except delegation"): the main user holds every permission of their roles; a sub user the delegated ones,
 * and only those their roles grant (a delegation cannot give more than the role has).
 */
export function memberPermissions(isMainUser: boolean, delegated: readonly string[], rolePermissions: readonly string[]): string[] {
  return isMainUser ? [...rolePermissions] : rolePermissions.filter((p) => delegated.includes(p));
}

/** The permissions the actor holds for one facility: the delegated ones where known, else the role's. */
export function permissionsForFacility(actor: Actor, facilityId: string): readonly string[] {
  if (!actor.facilityPermissions) return actor.permissions;
  return actor.facilityPermissions[facilityId] ?? [];
}

/** True when the actor holds, for this facility, at least one of the permissions. */
export function holdsForFacility(actor: Actor, facilityId: string, anyOf: string | readonly string[]): boolean {
  const held = permissionsForFacility(actor, facilityId);
  return (typeof anyOf === 'string' ? [anyOf] : anyOf).some((p) => held.includes(p));
}
