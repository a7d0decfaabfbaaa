import { and, eq, or } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { facilities, facilityMembers } from '../../../db/schema';
import { memberPermissions, type Actor } from '../../../machines/actor';
import { FACILITY_ACCESS } from '../../../machines/forms/facilities/permissions';
import { AppError, AppErrorCode } from '../../errors';
import { UserInFacilityRole, type FacilityType } from '../../../machines/forms/facilities/schemas';
import './errors';

export type FacilityRow = typeof facilities.$inferSelect;
export type MemberRow = typeof facilityMembers.$inferSelect;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A facility by its public id or its uuid (the original portal's calls use both), of the given types. */
export async function findFacility(db: Db, idOrPublicId: string, types?: readonly FacilityType[]): Promise<FacilityRow | undefined> {
  const where = UUID_RE.test(idOrPublicId)
    ? or(eq(facilities.id, idOrPublicId), eq(facilities.publicId, idOrPublicId))
    : eq(facilities.publicId, idOrPublicId);
  const [row] = await db.select().from(facilities).where(where).limit(1);
  if (!row || (types && !types.includes(row.type as FacilityType))) return undefined;
  return row;
}

export async function membershipOf(db: Db, facilityId: string, userId: string): Promise<MemberRow | undefined> {
  const [m] = await db
    .select()
    .from(facilityMembers)
    .where(and(eq(facilityMembers.facilityId, facilityId), eq(facilityMembers.userId, userId)));
  return m;
}

export interface MemberContext {
  facility: FacilityRow;
  membership: MemberRow;
  isMainUser: boolean;
  /** What the caller holds in this facility (the main user all of the role's, a sub user the delegated ones). */
  permissions: string[];
}

/**
 * The facility, provided the caller is one of its users and holds, for it, the permission to see it (and
 * `permission`, any of, when given: the delegated permissions are enforced per facility, 403 FacilityPermissionMissing).
 * A user of another facility gets 404 NotFacilityMember, the same answer as for a facility that does not exist, so
 * ids cannot be probed.
 */
export async function requireMember(
  db: Db,
  actor: Actor,
  idOrPublicId: string,
  opts: { types?: readonly FacilityType[]; mainUser?: boolean; permission?: string | readonly string[] } = {},
): Promise<MemberContext> {
  const facility = await findFacility(db, idOrPublicId, opts.types);
  const membership = facility ? await membershipOf(db, facility.id, actor.userId) : undefined;
  if (!facility || !membership) throw new AppError('NotFacilityMember');
  const isMainUser = membership.role === UserInFacilityRole.MainUser;
  if (opts.mainUser && !isMainUser) throw new AppError('NotMainUser');
  const permissions = memberPermissions(isMainUser, membership.permissions, actor.permissions);
  const needed = [FACILITY_ACCESS[facility.type as FacilityType].view, ...(opts.permission === undefined ? [] : [opts.permission].flat())];
  if (!permissions.includes(needed[0]) || (needed.length > 1 && !needed.slice(1).some((p) => permissions.includes(p)))) {
    throw new AppError('FacilityPermissionMissing');
  }
  return { facility, membership, isMainUser, permissions };
}

/** For Halal-center calls: any facility, or 404. */
export async function requireFacility(db: Db, idOrPublicId: string, types?: readonly FacilityType[]): Promise<FacilityRow> {
  const facility = await findFacility(db, idOrPublicId, types);
  if (!facility) throw new AppError(AppErrorCode.EntityNotFound);
  return facility;
}
