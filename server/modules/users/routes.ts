import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { facilityMembers, users } from '../../../db/schema';
import { Permissions } from '../../../machines/permissions';
import { isStaff } from '../../../machines/roles';
import { grantsOf, readOnlyRoleNames, rolesGranting } from '../../admin/role-store';
import type { Actor } from '../../../machines/actor';
import type { Db } from '../../../db/client';
import { AppError, AppErrorCode } from '../../errors';
import { ZErrorBody } from '../../schemas';

/** The user calls of spec 01 section 7, at the original portal's paths. */
const PREFIX = '/api/app/halal-user';

const ZUserInfo = z.object({
  id: z.string(),
  userName: z.string(),
  name: z.string(),
  email: z.string(),
  isAuthenticated: z.boolean(),
  roles: z.array(z.string()),
  preferredLanguage: z.string(),
});
type UserInfo = z.infer<typeof ZUserInfo>;

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody };

function info(u: typeof users.$inferSelect): UserInfo {
  return {
    id: u.id,
    userName: u.userName,
    name: u.name,
    email: u.email,
    isAuthenticated: true,
    roles: u.roles,
    preferredLanguage: u.preferredLanguage,
  };
}

/** The user and everyone who shares a facility or CB with them: the people whose names they may see. */
async function visibleUsersOf(db: Db, userId: string): Promise<Set<string>> {
  const mine = db.select({ id: facilityMembers.facilityId }).from(facilityMembers).where(eq(facilityMembers.userId, userId));
  const rows = await db.select({ userId: facilityMembers.userId }).from(facilityMembers).where(inArray(facilityMembers.facilityId, mine));
  return new Set([userId, ...rows.map((r) => r.userId)]);
}

/** Staff see any user; others only themselves and the users of their own facilities. */
async function maySee(db: Db, actor: Actor, userId: string): Promise<boolean> {
  if (isStaff(actor.permissions)) return true;
  return (await visibleUsersOf(db, actor.userId)).has(userId);
}

const usersModule: FastifyPluginAsyncZod = async (app) => {
  async function load(userId: string) {
    const [u] = await app.db.select().from(users).where(eq(users.id, userId));
    if (!u) throw new AppError(AppErrorCode.EntityNotFound);
    return u;
  }

  app.post(
    `${PREFIX}/create-update-user`,
    {
      config: { policy: 'authenticated' },
      schema: {
        tags: ['user'],
        summary: 'Sent by the web on load when signed in; records the language the user works in',
        body: z.object({ preferredLanguage: z.enum(['ar', 'en']).optional() }).nullish(),
        response: { 200: ZUserInfo, ...errors },
      },
    },
    async (request) => {
      const [u] = await app.db
        .update(users)
        .set({ preferredLanguage: request.body?.preferredLanguage ?? request.lang, updatedAt: new Date() })
        .where(eq(users.id, request.actor!.userId))
        .returning();
      return info(u);
    },
  );

  app.post(
    `${PREFIX}/get-all-users-info-by-ids`,
    {
      config: { policy: 'authenticated' },
      schema: { tags: ['user'], body: z.object({ ids: z.array(z.uuid()).max(200) }), response: { 200: z.array(ZUserInfo), ...errors } },
    },
    async (request) => {
      const { ids } = request.body;
      if (!ids.length) return [];
      const rows = await app.db.select().from(users).where(inArray(users.id, ids));
      const actor = request.actor!;
      if (isStaff(actor.permissions)) return rows.map(info);
      const visible = await visibleUsersOf(app.db, actor.userId);
      return rows.filter((r) => visible.has(r.id)).map(info);
    },
  );

  app.get(
    `${PREFIX}/get-all-users-by-permission-name`,
    {
      config: { policy: Permissions.portals.halalCenter },
      schema: {
        tags: ['user'],
        summary: 'Staff who hold a permission (the "assign to an employee" list)',
        querystring: z.object({ permission: z.string().min(1) }),
        response: { 200: z.array(ZUserInfo), ...errors },
      },
    },
    async (request) => {
      // Roles live in the database (identity screen): what they grant now, not what they granted at start-up.
      // Only people who can act on what they are handed: not a locked account, nor one of a read-only role (the
      // assignment refuses both: requests/service.ts assertEligibleAssignee).
      const [roles, readOnly] = await Promise.all([rolesGranting(app.db, request.query.permission), readOnlyRoleNames(app.db)]);
      const rows = await app.db.select().from(users);
      return rows.filter((u) => !u.lockedAt && u.roles.some((r) => roles.includes(r)) && !u.roles.some((r) => readOnly.includes(r))).map(info);
    },
  );

  app.get(
    `${PREFIX}/get-user-info`,
    { config: { policy: 'authenticated' }, schema: { tags: ['user'], response: { 200: ZUserInfo, ...errors } } },
    async (request) => info(await load(request.actor!.userId)),
  );

  app.get(
    `${PREFIX}/GetUserInfoByEmail/:email`,
    {
      config: { policy: Permissions.portals.halalCenter },
      schema: { tags: ['user'], params: z.object({ email: z.email() }), response: { 200: ZUserInfo, ...errors } },
    },
    async (request) => {
      const [u] = await app.db.select().from(users).where(eq(users.email, request.params.email.toLowerCase()));
      if (!u) throw new AppError(AppErrorCode.EntityNotFound);
      return info(u);
    },
  );

  app.get(
    `${PREFIX}/get-user-info-by-id`,
    {
      config: { policy: 'authenticated' },
      schema: { tags: ['user'], querystring: z.object({ id: z.uuid() }), response: { 200: ZUserInfo, ...errors } },
    },
    async (request) => {
      // A user the caller may not see is answered as absent, so ids cannot be probed.
      if (!(await maySee(app.db, request.actor!, request.query.id))) throw new AppError(AppErrorCode.EntityNotFound);
      return info(await load(request.query.id));
    },
  );

  app.get(
    `${PREFIX}/is-external-user-downloaded-circular`,
    {
      config: { policy: Permissions.portals.general },
      schema: { tags: ['user'], summary: 'Whether this facility user has downloaded circular 10130', response: { 200: z.boolean(), ...errors } },
    },
    async (request) => (await load(request.actor!.userId)).circularDownloaded,
  );

  app.get(
    `${PREFIX}/set-user-download-circular`,
    {
      // A GET that changes state (as the original portal): it needs the CSRF header like a write (issue 11).
      config: { policy: Permissions.portals.general, csrf: 'always' },
      schema: { tags: ['user'], summary: 'Records that the circular letter was downloaded (GET, as the original portal; needs x-csrf-token)', response: { 200: z.boolean(), ...errors } },
    },
    async (request) => {
      await app.db.update(users).set({ circularDownloaded: true }).where(eq(users.id, request.actor!.userId));
      return true;
    },
  );

  app.get(
    `${PREFIX}/is-user-granted-permission`,
    {
      config: { policy: 'authenticated' },
      schema: {
        tags: ['user'],
        querystring: z.object({ userId: z.uuid(), permission: z.string().min(1) }),
        response: { 200: z.boolean(), ...errors },
      },
    },
    async (request) => {
      const { userId, permission } = request.query;
      if (!(await maySee(app.db, request.actor!, userId))) throw new AppError(AppErrorCode.EntityNotFound);
      const u = await load(userId);
      return (await grantsOf(app.db, u.roles)).permissions.includes(permission as never);
    },
  );
};
export default usersModule;
