import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull, notInArray, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { auditLogs, bills, delegations, facilities, facilityMembers, requestHistory, requests, sessions, users } from '../../../db/schema';
import { ENTITY_KINDS } from '../../../machines/services/types';
import { isStaff } from '../../../machines/roles';
import { UserInFacilityRole } from '../../../machines/forms/facilities/schemas';
import { hashPassword } from '../../../lib/password';
import { AppError, registerErrorStatus } from '../../errors';
import { errorResponses } from '../../schemas';
import { writeAudit } from '../../admin/audit-log';
import { SESSION_COOKIE } from '../../plugins/auth';
import { statusLabel } from '../requests/present';

registerErrorStatus({ GdprAccountInUse: 409, GdprStaffAccount: 409 });

/** How many rows of each list an export holds at most (a person's own activity stays far below). */
const EXPORT_LIMIT = 10_000;
const ANONYMOUS_NAME = 'Deleted user';

/**
 * GDPR (issue 15 item 4): a signed-in user downloads the personal data the portal holds about them, and deletes
 * their account where the law allows. Deleting anonymises the person (name, e-mail, mobile, national id, user name)
 * but keeps the records the authority must keep (requests, their histories, bills, certificates, the audit log),
 * ends every session and is itself audited. It is refused while a facility they own has an open request or an
 * unpaid bill, and for Halal-center staff (their accounts are closed by an administrator).
 */
const gdprRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/gdpr/export',
    {
      config: { policy: 'authenticated', produces: 'application/json' },
      schema: { tags: ['gdpr'], summary: 'The caller’s personal data as one JSON file (profile, facilities, requests, sign-ins, audit entries)' },
    },
    async (request, reply) => {
      const me = request.sessionUser!;
      const [u] = await app.db.select().from(users).where(eq(users.id, me.id));
      const memberships = await app.db
        .select({ publicId: facilities.publicId, type: facilities.type, nameAr: facilities.nameAr, nameEn: facilities.nameEn, role: facilityMembers.role, permissions: facilityMembers.permissions, since: facilityMembers.createdAt })
        .from(facilityMembers)
        .innerJoin(facilities, eq(facilities.id, facilityMembers.facilityId))
        .where(eq(facilityMembers.userId, me.id))
        .orderBy(asc(facilities.publicId));
      // Delegations that named this person: what the delegator entered about them. Of the delegations they made only
      // the facility and date: the delegate's details are another person's data.
      const received = await app.db
        .select({ facility: facilities.publicId, d: delegations })
        .from(delegations)
        .innerJoin(facilities, eq(facilities.id, delegations.facilityId))
        .where(eq(delegations.delegateUserId, me.id));
      const made = await app.db
        .select({ facility: facilities.publicId, type: delegations.type, createdAt: delegations.createdAt })
        .from(delegations)
        .innerJoin(facilities, eq(facilities.id, delegations.facilityId))
        .where(eq(delegations.delegatorUserId, me.id));
      const owned = await app.db
        .select()
        .from(requests)
        .where(and(eq(requests.ownerUserId, me.id), notInArray(requests.kind, [...ENTITY_KINDS])))
        .orderBy(asc(requests.createdAt))
        .limit(EXPORT_LIMIT);
      const acted = await app.db
        .select({ number: requests.number, event: requestHistory.event, at: requestHistory.at })
        .from(requestHistory)
        .innerJoin(requests, eq(requests.id, requestHistory.requestId))
        .where(eq(requestHistory.actorUserId, me.id))
        .orderBy(asc(requestHistory.at))
        .limit(EXPORT_LIMIT);
      const signIns = await app.db
        .select({ createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, revokedAt: sessions.revokedAt, revokedReason: sessions.revokedReason })
        .from(sessions)
        .where(eq(sessions.userId, me.id))
        .orderBy(desc(sessions.createdAt))
        .limit(EXPORT_LIMIT);
      // Audit entries about them: their own calls and sign-in attempts with their user name, and what an administrator
      // did to their account (without the administrator's name or address).
      const audit = await app.db
        .select()
        .from(auditLogs)
        .where(or(eq(auditLogs.userId, me.id), eq(auditLogs.userName, me.userName), sql`${auditLogs.details}->>'user' = ${me.userName}`))
        .orderBy(desc(auditLogs.at))
        .limit(EXPORT_LIMIT);

      const data = {
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
          status: statusLabel(request.t, r.kind, r.status),
          createdAt: r.createdAt.toISOString(),
          deleted: !!r.deletedAt,
        })),
        requestActions: acted.map((a) => ({ request: a.number, event: a.event, at: a.at.toISOString() })),
        sessions: signIns.map((s) => ({ ...s, createdAt: s.createdAt.toISOString(), lastSeenAt: s.lastSeenAt.toISOString(), revokedAt: s.revokedAt?.toISOString() ?? null })),
        auditEntries: audit.map((a) => {
          const theirs = a.userId === me.id || (a.userId === null && a.userName === me.userName);
          return theirs
            ? { at: a.at.toISOString(), action: a.action, method: a.method, path: a.path, outcome: a.outcome, statusCode: a.statusCode, ip: a.ip }
            : { at: a.at.toISOString(), action: a.action, outcome: a.outcome, by: 'administrator' };
        }),
      };
      await writeAudit(app.db, { userId: me.id, userName: me.userName, action: 'gdpr.export', outcome: 'success', ip: request.ip, method: 'GET', route: '/api/gdpr/export', path: '/api/gdpr/export', statusCode: 200 });
      const stamp = data.generatedAt.slice(0, 10);
      reply.header('content-type', 'application/json; charset=utf-8').header('content-disposition', `attachment; filename="my-data-${stamp}.json"`);
      return JSON.stringify(data, null, 2);
    },
  );

  app.post(
    '/api/gdpr/delete-account',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags: ['gdpr'],
        summary: 'Deletes (anonymises) the caller’s account, ends their sessions; refused while their facilities have open requests or unpaid bills',
        body: z.object({ confirm: z.literal(true) }),
        response: { 200: z.object({ ok: z.literal(true) }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const me = request.sessionUser!;
      if (isStaff(request.actor!.permissions)) throw new AppError('GdprStaffAccount');
      const anonymousUserName = `deleted-${randomBytes(6).toString('hex')}`;
      await app.db.transaction(async (tx) => {
        const [u] = await tx.select().from(users).where(eq(users.id, me.id)).for('update');
        const ownedFacilities = await tx
          .select({ publicId: facilities.publicId })
          .from(facilityMembers)
          .innerJoin(facilities, eq(facilities.id, facilityMembers.facilityId))
          .where(and(eq(facilityMembers.userId, me.id), eq(facilityMembers.role, UserInFacilityRole.MainUser)));
        const ids = ownedFacilities.map((f) => f.publicId);
        const [openRequests] = await tx
          .select({ count: sql<number>`count(*)::int` })
          .from(requests)
          .where(
            and(
              isNull(requests.deletedAt),
              notInArray(requests.kind, [...ENTITY_KINDS]),
              sql`${requests.queue} is distinct from 'final'`,
              ids.length ? or(inArray(requests.facilityPublicId, ids), eq(requests.ownerUserId, me.id)) : eq(requests.ownerUserId, me.id),
            ),
          );
        const [unpaid] = ids.length
          ? await tx.select({ count: sql<number>`count(*)::int` }).from(bills).where(and(eq(bills.status, 1), inArray(bills.facilityPublicId, ids)))
          : [{ count: 0 }];
        if (openRequests.count || unpaid.count) throw new AppError('GdprAccountInUse', { requests: openRequests.count, bills: unpaid.count });

        const now = new Date();
        await tx
          .update(users)
          .set({
            userName: anonymousUserName,
            email: `${anonymousUserName}@deleted.invalid`,
            name: ANONYMOUS_NAME,
            nationalId: null,
            phone: null,
            roles: [],
            // Nobody knows this password: the account can never sign in again (and it is locked besides).
            passwordHash: await hashPassword(randomBytes(32).toString('hex')),
            lockedAt: now,
            updatedAt: now,
          })
          .where(eq(users.id, u.id));
        await tx
          .update(delegations)
          .set({ firstName: ANONYMOUS_NAME, lastName: '', nationalId: 'deleted', phone: '', email: `${anonymousUserName}@deleted.invalid`, birthDate: '1900-01-01' })
          .where(eq(delegations.delegateUserId, u.id));
        await tx.update(requests).set({ creatorName: ANONYMOUS_NAME }).where(eq(requests.ownerUserId, u.id));
        await tx.update(sessions).set({ revokedAt: now, revokedReason: 'account-deleted' }).where(and(eq(sessions.userId, u.id), isNull(sessions.revokedAt)));
        await writeAudit(tx, {
          userId: u.id,
          userName: anonymousUserName,
          action: 'gdpr.delete',
          outcome: 'success',
          ip: request.ip,
          details: { facilitiesKept: ids, requestsKept: (await tx.select({ id: requests.id }).from(requests).where(eq(requests.ownerUserId, u.id))).length },
        });
      });
      // The write's own audit row (server/admin/plugin.ts) names the anonymous user, not the deleted one.
      request.sessionUser = { ...me, userName: anonymousUserName, name: ANONYMOUS_NAME, email: '' };
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return { ok: true as const };
    },
  );
};
export default gdprRoutes;
