import type { TFunction } from 'i18next';
import { and, asc, desc, eq, notInArray, or, sql } from 'drizzle-orm';
import { auditLogs, delegations, facilities, facilityMembers, requestHistory, requests, sessions, users } from '../../../db/schema';
import type { Db, Tx } from '../../../db/client';
import { ENTITY_KINDS } from '../../../machines/services/types';
import { UserInFacilityRole } from '../../../machines/forms/facilities/schemas';
import { statusLabel } from '../requests/present';

/** How many rows of each list an export holds at most (a person's own activity stays far below). */
const EXPORT_LIMIT = 10_000;

/**
 * The personal data the portal holds about one user, as the JSON file of a GDPR export: profile, facilities,
 * delegations naming them, their requests and actions, sign-ins and the audit entries about them — nothing of
 * another person (of the delegations they made only the facility and date; of an administrator's action on their
 * account only that it happened). `t` gives the language of the status labels.
 */
export async function collectPersonalData(db: Db | Tx, userId: string, t: TFunction): Promise<Record<string, unknown>> {
  const [u] = await db.select().from(users).where(eq(users.id, userId));
  const memberships = await db
    .select({ publicId: facilities.publicId, type: facilities.type, nameAr: facilities.nameAr, nameEn: facilities.nameEn, role: facilityMembers.role, permissions: facilityMembers.permissions, since: facilityMembers.createdAt })
    .from(facilityMembers)
    .innerJoin(facilities, eq(facilities.id, facilityMembers.facilityId))
    .where(eq(facilityMembers.userId, userId))
    .orderBy(asc(facilities.publicId));
  // Delegations that named this person: what the delegator entered about them. Of the delegations they made only
  // the facility and date: the delegate's details are another person's data.
  const received = await db
    .select({ facility: facilities.publicId, d: delegations })
    .from(delegations)
    .innerJoin(facilities, eq(facilities.id, delegations.facilityId))
    .where(eq(delegations.delegateUserId, userId));
  const made = await db
    .select({ facility: facilities.publicId, type: delegations.type, createdAt: delegations.createdAt })
    .from(delegations)
    .innerJoin(facilities, eq(facilities.id, delegations.facilityId))
    .where(eq(delegations.delegatorUserId, userId));
  const owned = await db
    .select()
    .from(requests)
    .where(and(eq(requests.ownerUserId, userId), notInArray(requests.kind, [...ENTITY_KINDS])))
    .orderBy(asc(requests.createdAt))
    .limit(EXPORT_LIMIT);
  const acted = await db
    .select({ number: requests.number, event: requestHistory.event, at: requestHistory.at })
    .from(requestHistory)
    .innerJoin(requests, eq(requests.id, requestHistory.requestId))
    .where(eq(requestHistory.actorUserId, userId))
    .orderBy(asc(requestHistory.at))
    .limit(EXPORT_LIMIT);
  const signIns = await db
    .select({ createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, revokedAt: sessions.revokedAt, revokedReason: sessions.revokedReason })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(desc(sessions.createdAt))
    .limit(EXPORT_LIMIT);
  // Audit entries about them: their own calls and sign-in attempts with their user name, and what an administrator
  // did to their account (without the administrator's name or address).
  const audit = await db
    .select()
    .from(auditLogs)
    .where(or(eq(auditLogs.userId, userId), eq(auditLogs.userName, u.userName), sql`${auditLogs.details}->>'user' = ${u.userName}`))
    .orderBy(desc(auditLogs.at))
    .limit(EXPORT_LIMIT);

  return {
    generatedAt: new Date().toISOString(),
    profile: {
      id: u.id,
      userName: u.userName,
      name: u.name,
      email: u.email,
      nationalId: u.nationalId,
      mobile: u.phone,
      preferredLanguage: u.preferredLanguage,
      roles: u.roles,
      createdAt: u.createdAt.toISOString(),
    },
    facilities: memberships.map((m) => ({ ...m, role: m.role === UserInFacilityRole.MainUser ? 'main' : 'sub', since: m.since.toISOString() })),
    delegationsNamingYou: received.map(({ facility, d }) => ({
      facility,
      firstName: d.firstName,
      lastName: d.lastName,
      nationalId: d.nationalId,
      birthDate: d.birthDate,
      mobile: d.phone,
      email: d.email,
      permissions: d.permissions,
      createdAt: d.createdAt.toISOString(),
    })),
    delegationsYouMade: made.map((d) => ({ facility: d.facility, type: d.type === 0 ? 'main' : 'sub', createdAt: d.createdAt.toISOString() })),
    requests: owned.map((r) => ({
      number: r.number,
      kind: r.kind,
      facility: r.facilityPublicId,
      status: statusLabel(t, r.kind, r.status),
      createdAt: r.createdAt.toISOString(),
      deleted: !!r.deletedAt,
    })),
    requestActions: acted.map((a) => ({ request: a.number, event: a.event, at: a.at.toISOString() })),
    sessions: signIns.map((s) => ({ ...s, createdAt: s.createdAt.toISOString(), lastSeenAt: s.lastSeenAt.toISOString(), revokedAt: s.revokedAt?.toISOString() ?? null })),
    auditEntries: audit.map((a) => {
      const theirs = a.userId === userId || (a.userId === null && a.userName === u.userName);
      return theirs
        ? { at: a.at.toISOString(), action: a.action, method: a.method, path: a.path, outcome: a.outcome, statusCode: a.statusCode, ip: a.ip }
        : { at: a.at.toISOString(), action: a.action, outcome: a.outcome, by: 'administrator' };
    }),
  };
}
