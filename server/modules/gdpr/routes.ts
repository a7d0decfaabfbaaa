import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, notInArray, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { bills, delegations, facilities, facilityMembers, personalDataRequests, requests, sessions, users } from '../../../db/schema';
import { ENTITY_KINDS } from '../../../machines/services/types';
import { isStaff } from '../../../machines/roles';
import { UserInFacilityRole } from '../../../machines/forms/facilities/schemas';
import { hashPassword } from '../../../lib/password';
import { AppError, AppErrorCode, registerErrorStatus } from '../../errors';
import { ZFile, errorResponses } from '../../schemas';
import { PERSONAL_DATA } from '../../../machines/personal-data';
import { PersonalDataJobs } from './jobs';
import { writeAudit } from '../../admin/audit-log';
import { SESSION_COOKIE } from '../../plugins/auth';

registerErrorStatus({ GdprAccountInUse: 409, GdprStaffAccount: 409, GdprRequestPending: 409, GdprDataNotReady: 409, GdprNoDownloadToken: 409, GdprDownloadTokenInvalid: 403 });

declare module 'fastify' {
  interface FastifyInstance {
    /** Prepares personal-data files in the background (tests stop and start it). */
    personalDataJobs: PersonalDataJobs;
  }
}

const ANONYMOUS_NAME = 'Deleted user';
const DAY = 24 * 60 * 60 * 1000;
const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');
const nextRequestAt = (last: Date) => new Date(last.getTime() + PERSONAL_DATA.requestIntervalHours * 60 * 60 * 1000);

/**
 * GDPR (issue 15 item 4): a signed-in user asks for a copy of the personal data the portal holds about them (prepared
 * by a durable background job, jobs.ts; downloaded with a one-time token), and deletes their account where the law
 * allows. Deleting anonymises the person (name, e-mail, mobile, national id, user name)
 * but keeps the records the authority must keep (requests, their histories, bills, certificates, the audit log),
 * ends every session and is itself audited. It is refused while a facility they own has an open request or an
 * unpaid bill, and for Halal-center staff (their accounts are closed by an administrator).
 */
const gdprRoutes: FastifyPluginAsyncZod = async (app) => {
  const jobs = new PersonalDataJobs(app.db, (msg, err) => app.log.error({ err }, msg));
  app.decorate('personalDataJobs', jobs);
  app.addHook('onReady', async () => jobs.start());
  app.addHook('onClose', async () => jobs.stop());

  const ZPersonalDataRequest = z.object({
    id: z.uuid(),
    status: z.enum(['preparing', 'ready', 'expired', 'failed']),
    requestedAt: z.string(),
    readyAt: z.string().nullable(),
    /** Until when the prepared file can be downloaded. */
    availableUntil: z.string().nullable(),
  });
  const params = z.object({ id: z.uuid() });
  const mine = async (userId: string, id: string) => {
    const [row] = await app.db
      .select()
      .from(personalDataRequests)
      .where(and(eq(personalDataRequests.id, id), eq(personalDataRequests.userId, userId)));
    if (!row) throw new AppError(AppErrorCode.EntityNotFound);
    return row;
  };

  app.get(
    '/api/gdpr/requests',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags: ['gdpr'],
        summary: 'The caller’s personal-data requests, newest first, and when they may ask again',
        response: { 200: z.object({ items: z.array(ZPersonalDataRequest), nextRequestAt: z.string().nullable() }), ...errorResponses },
      },
    },
    async (request) => {
      const rows = await app.db
        .select({ id: personalDataRequests.id, status: personalDataRequests.status, requestedAt: personalDataRequests.requestedAt, readyAt: personalDataRequests.readyAt })
        .from(personalDataRequests)
        .where(eq(personalDataRequests.userId, request.sessionUser!.id))
        .orderBy(desc(personalDataRequests.requestedAt))
        .limit(50);
      const next = rows[0] ? nextRequestAt(rows[0].requestedAt) : null;
      return {
        items: rows.map((r) => ({
          id: r.id,
          status: r.status,
          requestedAt: r.requestedAt.toISOString(),
          readyAt: r.readyAt?.toISOString() ?? null,
          availableUntil: r.status === 'ready' && r.readyAt ? new Date(r.readyAt.getTime() + PERSONAL_DATA.keepDays * DAY).toISOString() : null,
        })),
        nextRequestAt: next && next > new Date() ? next.toISOString() : null,
      };
    },
  );

  app.post(
    '/api/gdpr/requests',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags: ['gdpr'],
        summary: 'Asks for a copy of the caller’s personal data; it is prepared in the background (once a day)',
        response: { 201: ZPersonalDataRequest, ...errorResponses },
      },
    },
    async (request, reply) => {
      const me = request.sessionUser!;
      const row = await app.db.transaction(async (tx) => {
        // The user row serialises two requests sent at once: only one passes the once-a-day check.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, me.id)).for('update');
        const [last] = await tx
          .select({ requestedAt: personalDataRequests.requestedAt })
          .from(personalDataRequests)
          .where(eq(personalDataRequests.userId, me.id))
          .orderBy(desc(personalDataRequests.requestedAt))
          .limit(1);
        const next = last && nextRequestAt(last.requestedAt);
        if (next && next > new Date()) throw new AppError('GdprRequestPending', { after: next.toISOString() });
        const [created] = await tx.insert(personalDataRequests).values({ userId: me.id, language: request.lang }).returning();
        return created;
      });
      void jobs.nudge();
      return reply.status(201).send({ id: row.id, status: row.status, requestedAt: row.requestedAt.toISOString(), readyAt: null, availableUntil: null });
    },
  );

  app.post(
    '/api/gdpr/requests/:id/download-token',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags: ['gdpr'],
        summary: 'A one-time token to download a prepared personal-data file (valid a few minutes)',
        params,
        response: { 200: z.object({ token: z.string(), expiresAt: z.string() }), ...errorResponses },
      },
    },
    async (request) => {
      const row = await mine(request.sessionUser!.id, request.params.id);
      if (row.status === 'preparing') throw new AppError('GdprDataNotReady');
      if (row.status !== 'ready' || !row.data) throw new AppError('GdprNoDownloadToken');
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(Date.now() + PERSONAL_DATA.tokenMinutes * 60_000);
      const updated = await app.db
        .update(personalDataRequests)
        .set({ tokenHash: sha256(token), tokenExpiresAt: expiresAt })
        .where(and(eq(personalDataRequests.id, row.id), eq(personalDataRequests.status, 'ready')))
        .returning({ id: personalDataRequests.id });
      // The file expired between the read and the write.
      if (!updated.length) throw new AppError('GdprNoDownloadToken');
      return { token, expiresAt: expiresAt.toISOString() };
    },
  );

  app.get(
    '/api/gdpr/requests/:id/file',
    {
      config: { policy: 'authenticated', produces: 'application/json' },
      schema: {
        tags: ['gdpr'],
        summary: 'The prepared personal-data file, for the holder of a download token (the token is used up)',
        params,
        querystring: z.object({ token: z.string().min(1).max(100) }),
        response: { 200: ZFile, ...errorResponses },
      },
    },
    async (request, reply) => {
      const me = request.sessionUser!;
      const row = await mine(me.id, request.params.id);
      const [used] = await app.db
        .update(personalDataRequests)
        .set({ tokenHash: null, tokenExpiresAt: null })
        .where(
          and(
            eq(personalDataRequests.id, row.id),
            eq(personalDataRequests.status, 'ready'),
            eq(personalDataRequests.tokenHash, sha256(request.query.token)),
            gt(personalDataRequests.tokenExpiresAt, new Date()),
          ),
        )
        .returning({ data: personalDataRequests.data, readyAt: personalDataRequests.readyAt });
      if (!used?.data) throw new AppError('GdprDownloadTokenInvalid');
      await writeAudit(app.db, { userId: me.id, userName: me.userName, action: 'gdpr.export', outcome: 'success', ip: request.ip, method: 'GET', route: '/api/gdpr/requests/:id/file', path: request.url.split('?')[0], statusCode: 200 });
      const stamp = (used.readyAt ?? new Date()).toISOString().slice(0, 10);
      return reply.type('application/json; charset=utf-8').header('content-disposition', `attachment; filename="my-data-${stamp}.json"`).send(used.data);
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
      // No release of assignments here (cf. the lock, server/modules/admin/release-assignments.ts): only staff are
      // assigned requests, and staff accounts cannot erase themselves. A former employee whose staff roles were taken
      // away while they still held a request is the exception: the release sweep at the next start logs it for staff.
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
        // Prepared copies of their data go with the person.
        await tx.delete(personalDataRequests).where(eq(personalDataRequests.userId, u.id));
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
// Not encapsulated: the job runner is an app decoration (tests and the shutdown reach it).
export default fp(gdprRoutes, { name: 'gdpr' });
