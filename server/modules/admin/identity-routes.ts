import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { and, asc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { chosenPassword } from '../../../machines/forms/account';
import { roles, sessions, users } from '../../../db/schema';
import { ALL_PERMISSIONS, Permissions } from '../../../machines/permissions';
import { ROLE_NAME_PATTERN } from '../../../machines/default-roles';
import { hashPassword } from '../../../lib/password';
import { AppError, AppErrorCode } from '../../errors';
import { errorResponses, zSearchText } from '../../schemas';
import { writeAudit } from '../../admin/audit-log';
import type { Tx } from '../../../db/client';
import { grantsOf, type RoleGrants } from '../../admin/role-store';
import { beyondRoles, holdersOfOpenRequests, releaseAndAudit, releaseLeftAssignments, ROLES_RELEASE_AUDIT_ACTION, type ReleaseOutcome } from './release-assignments';

const MANAGE = Permissions.admin.manage;

const ZUser = z.object({
  id: z.string(),
  userName: z.string(),
  name: z.string(),
  email: z.string(),
  roles: z.array(z.string()),
  locked: z.boolean(),
  createdAt: z.string(),
});
/**
 * A lock's or role change's answer: the user, and how many of their open requests went back to their queue
 * (`released`) and how many could not (`failed`: still assigned, recorded in their history and the audit log).
 */
const ZReleaseCounts = z.object({ released: z.number().int(), failed: z.number().int() });
const ZUserReleased = ZUser.extend({ release: ZReleaseCounts.optional() });
const releaseCounts = ({ released, failed }: ReleaseOutcome) => ({ released: released.length, failed: failed.length });
const ZRole = z.object({
  name: z.string(),
  permissions: z.array(z.string()),
  readOnly: z.boolean(),
  isDefault: z.boolean(),
  userCount: z.number(),
});

// The rule every other door applies to a chosen password, staff accounts included.
const ZPassword = chosenPassword('admin:identity.passwordRule');
const ZRoleNames = z.array(z.string().min(1).max(50)).max(20);
const ZPermissionNames = z.array(z.enum(ALL_PERMISSIONS as unknown as [string, ...string[]])).max(500);

const presentUser = (u: typeof users.$inferSelect) => ({
  id: u.id,
  userName: u.userName,
  name: u.name,
  email: u.email,
  roles: u.roles,
  locked: !!u.lockedAt,
  createdAt: u.createdAt.toISOString(),
});

/** A temporary password an administrator hands over (letters and digits, 14 characters). */
function temporaryPassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(12);
  const body = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  return `${body}a7`;
}

/**
 * identity: Halal-center staff and the roles (permission names) they hold. Every change is audited with its old and
 * new value and applies from the affected user's next request (the auth plugin reads roles per request).
 */
const identityRoutes: FastifyPluginAsyncZod = async (app) => {
  const who = (request: FastifyRequest) => ({ userId: request.sessionUser!.id, userName: request.sessionUser!.userName, ip: request.ip });
  const audit = (tx: Tx, request: FastifyRequest, action: string, details: Record<string, unknown>) =>
    writeAudit(tx, { ...who(request), action, outcome: 'success', details });
  // Releases a lock left undone (release-assignments.ts); never stops the server from starting.
  app.addHook('onReady', async () => {
    await releaseLeftAssignments(app).catch((err: unknown) => app.log.error({ err }, 'releasing the requests of locked users failed; retried at the next start'));
  });

  async function assertRolesExist(tx: Tx, names: string[]) {
    if (!names.length) return;
    const found = await tx.select({ name: roles.name }).from(roles).where(inArray(roles.name, names));
    const missing = names.filter((n) => !found.some((f) => f.name === n));
    if (missing.length) throw new AppError(AppErrorCode.ValidationFailed, {}, [{ field: 'roles', message: 'admin:identity.unknownRole', params: { roles: missing.join(', ') } }]);
  }
  async function loadUser(tx: Tx, id: string) {
    const [u] = await tx.select().from(users).where(eq(users.id, id)).for('update');
    if (!u) throw new AppError(AppErrorCode.EntityNotFound);
    return u;
  }

  app.get(
    '/api/identity/users',
    {
      config: { policy: MANAGE },
      schema: {
        tags: ['identity'],
        querystring: z.object({
          search: zSearchText(200),
          staffOnly: z.enum(['true', 'false']).default('true'),
          skipCount: z.coerce.number().int().min(0).default(0),
          maxResultCount: z.coerce.number().int().min(1).max(200).default(20),
        }),
        response: { 200: z.object({ totalCount: z.number(), items: z.array(ZUser) }), ...errorResponses },
      },
    },
    async (request) => {
      const { search, staffOnly, skipCount, maxResultCount } = request.query;
      const parts: (SQL | undefined)[] = [];
      if (search) {
        const p = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        parts.push(or(ilike(users.userName, p), ilike(users.name, p), ilike(users.email, p)));
      }
      // Halal-center staff: everyone who is not (only) a facility applicant.
      if (staffOnly === 'true') parts.push(sql`not (${users.roles} @> '["applicant"]'::jsonb)`);
      const w = parts.length ? and(...parts) : undefined;
      const [{ count }] = await app.db.select({ count: sql<number>`count(*)::int` }).from(users).where(w);
      const rows = await app.db.select().from(users).where(w).orderBy(asc(users.userName)).limit(maxResultCount).offset(skipCount);
      return { totalCount: count, items: rows.map(presentUser) };
    },
  );

  app.post(
    '/api/identity/users',
    {
      config: { policy: MANAGE },
      schema: {
        tags: ['identity'],
        summary: 'Creates a Halal-center staff user with the given roles and initial password',
        body: z.object({
          userName: z.string().trim().toLowerCase().regex(/^[a-z0-9._-]{3,50}$/, 'admin:identity.userNameRule'),
          name: z.string().trim().min(2).max(200),
          email: z.email().trim().toLowerCase(),
          password: ZPassword,
          roles: ZRoleNames.min(1),
        }),
        response: { 200: ZUser, ...errorResponses },
      },
    },
    async (request) => {
      const b = request.body;
      return app.db.transaction(async (tx) => {
        await assertRolesExist(tx, b.roles);
        const taken = await tx.select({ id: users.id }).from(users).where(or(eq(users.userName, b.userName), eq(users.email, b.email)));
        if (taken.length) throw new AppError('UserNameTaken');
        const [u] = await tx
          .insert(users)
          .values({ userName: b.userName, name: b.name, email: b.email, roles: b.roles, passwordHash: await hashPassword(b.password) })
          .returning();
        await audit(tx, request, 'user.create', { user: u.userName, roles: { old: null, new: u.roles } });
        return presentUser(u);
      });
    },
  );

  app.put(
    '/api/identity/users/:id/roles',
    {
      config: { policy: MANAGE },
      schema: {
        tags: ['identity'],
        summary: 'Sets the roles of a user; their open requests the new roles cannot work go back to their queues (release: how many, and how many could not)',
        params: z.object({ id: z.uuid() }),
        body: z.object({ roles: ZRoleNames }),
        response: { 200: ZUserReleased, ...errorResponses },
      },
    },
    async (request) => {
      const user = await app.db.transaction(async (tx) => {
        const u = await loadUser(tx, request.params.id);
        await assertRolesExist(tx, request.body.roles);
        const [next] = await tx.update(users).set({ roles: request.body.roles, updatedAt: new Date() }).where(eq(users.id, u.id)).returning();
        await audit(tx, request, 'user.roles', { user: u.userName, roles: { old: u.roles, new: next.roles } });
        return next;
      });
      // After the change committed: the requests assigned to the user that their roles no longer let them work (the
      // rule of whom ASSIGN_TO_EMPLOYEE may name) go back to their queues, as at a lock (release-assignments.ts).
      const outcome = await releaseAndAudit(app, user, request.actor!, who(request), { action: ROLES_RELEASE_AUDIT_ACTION, which: beyondRoles(await grantsOf(app.db, user.roles)) });
      return { ...presentUser(user), release: releaseCounts(outcome) };
    },
  );

  for (const lock of [true, false]) {
    app.post(
      `/api/identity/users/:id/${lock ? 'lock' : 'unlock'}`,
      {
        config: { policy: MANAGE },
        schema: {
          tags: ['identity'],
          summary: lock
            ? 'Locks a user: no sign-in, their open sessions end, and their open requests go back to their queues (release: how many, and how many could not)'
            : 'Unlocks a user',
          params: z.object({ id: z.uuid() }),
          response: { 200: ZUserReleased, ...errorResponses },
        },
      },
      async (request) => {
        const user = await app.db.transaction(async (tx) => {
          const u = await loadUser(tx, request.params.id);
          // An administrator who locked themselves out would leave nobody to unlock them.
          if (lock && u.id === request.sessionUser!.id) throw new AppError('OwnAccountNotLocked');
          const [next] = await tx.update(users).set({ lockedAt: lock ? new Date() : null, updatedAt: new Date() }).where(eq(users.id, u.id)).returning();
          if (lock) {
            await tx.update(sessions).set({ revokedAt: new Date(), revokedReason: 'locked' }).where(and(eq(sessions.userId, u.id), isNull(sessions.revokedAt)));
          }
          await audit(tx, request, lock ? 'user.lock' : 'user.unlock', { user: u.userName, locked: { old: !!u.lockedAt, new: lock } });
          return next;
        });
        // After the lock committed (it never fails because of them): the requests assigned to the locked user go back
        // to their queues, each through its machine, by the administrator who locked them (release-assignments.ts).
        if (!lock) return presentUser(user);
        return { ...presentUser(user), release: releaseCounts(await releaseAndAudit(app, user, request.actor!, who(request))) };
      },
    );
  }

  app.post(
    '/api/identity/users/:id/reset-password',
    {
      config: { policy: MANAGE },
      schema: {
        tags: ['identity'],
        summary: 'Sets a new temporary password (shown once) and ends the user’s sessions',
        params: z.object({ id: z.uuid() }),
        response: { 200: z.object({ password: z.string() }), ...errorResponses },
      },
    },
    async (request) =>
      app.db.transaction(async (tx) => {
        const u = await loadUser(tx, request.params.id);
        const password = temporaryPassword();
        await tx.update(users).set({ passwordHash: await hashPassword(password), updatedAt: new Date() }).where(eq(users.id, u.id));
        await tx.update(sessions).set({ revokedAt: new Date(), revokedReason: 'password-reset' }).where(and(eq(sessions.userId, u.id), isNull(sessions.revokedAt)));
        await audit(tx, request, 'user.password-reset', { user: u.userName });
        return { password };
      }),
  );

  app.get(
    '/api/identity/permissions',
    { config: { policy: MANAGE }, schema: { tags: ['identity'], response: { 200: z.array(z.string()), ...errorResponses } } },
    async () => [...ALL_PERMISSIONS],
  );

  async function listRoles(tx: Tx | typeof app.db) {
    const rows = await tx.select().from(roles).orderBy(asc(roles.name));
    const holders = await tx.select({ roles: users.roles }).from(users);
    return rows.map((r) => ({
      name: r.name,
      permissions: [...r.permissions].sort(),
      readOnly: r.readOnly,
      isDefault: r.isDefault,
      userCount: holders.filter((h) => h.roles.includes(r.name)).length,
    }));
  }

  app.get(
    '/api/identity/roles',
    { config: { policy: MANAGE }, schema: { tags: ['identity'], response: { 200: z.array(ZRole), ...errorResponses } } },
    async () => listRoles(app.db),
  );

  app.post(
    '/api/identity/roles',
    {
      config: { policy: MANAGE },
      schema: {
        tags: ['identity'],
        body: z.object({ name: z.string().trim().regex(ROLE_NAME_PATTERN, 'admin:identity.roleNameRule'), permissions: ZPermissionNames, readOnly: z.boolean().default(false) }),
        response: { 200: ZRole, ...errorResponses },
      },
    },
    async (request) =>
      app.db.transaction(async (tx) => {
        const b = request.body;
        const [existing] = await tx.select().from(roles).where(eq(roles.name, b.name));
        if (existing) throw new AppError('RoleNameTaken');
        const permissions = [...new Set(b.permissions)].sort();
        await tx.insert(roles).values({ name: b.name, permissions, readOnly: b.readOnly });
        await audit(tx, request, 'role.create', { role: b.name, permissions: { old: null, new: permissions }, readOnly: { old: null, new: b.readOnly } });
        return { name: b.name, permissions, readOnly: b.readOnly, isDefault: false, userCount: 0 };
      }),
  );

  app.put(
    '/api/identity/roles/:name',
    {
      config: { policy: MANAGE },
      schema: {
        tags: ['identity'],
        summary:
          'Sets the permission names a role grants; holders get them on their next request, and their open requests the role no longer lets them work go back to their queues (release: how many, and how many could not)',
        params: z.object({ name: z.string().max(50) }),
        body: z.object({ permissions: ZPermissionNames, readOnly: z.boolean() }),
        response: { 200: ZRole.extend({ release: ZReleaseCounts }), ...errorResponses },
      },
    },
    async (request) => {
      const role = await app.db.transaction(async (tx) => {
        const [r] = await tx.select().from(roles).where(eq(roles.name, request.params.name)).for('update');
        if (!r) throw new AppError(AppErrorCode.EntityNotFound);
        const permissions = [...new Set(request.body.permissions)].sort();
        await tx.update(roles).set({ permissions, readOnly: request.body.readOnly, updatedAt: new Date() }).where(eq(roles.name, r.name));
        const added = permissions.filter((p) => !r.permissions.includes(p));
        const removed = r.permissions.filter((p) => !permissions.includes(p));
        await audit(tx, request, 'role.change', {
          role: r.name,
          added,
          removed,
          permissions: { old: [...r.permissions].sort(), new: permissions },
          readOnly: { old: r.readOnly, new: request.body.readOnly },
        });
        return (await listRoles(tx)).find((x) => x.name === r.name)!;
      });
      // After the change committed, as at a user's role change: each active holder's open requests that their roles,
      // as they now grant, no longer let them work go back to their queues (release-assignments.ts). Only holders
      // with an open request are read, and what a set of roles grants is read once for all who hold that set.
      const holders = await holdersOfOpenRequests(app, and(sql`${users.roles} @> ${JSON.stringify([role.name])}::jsonb`, isNull(users.lockedAt)));
      const grantsBySet = new Map<string, Promise<RoleGrants>>();
      const grantsOfSet = (roleNames: string[]) => {
        const key = JSON.stringify([...roleNames].sort());
        if (!grantsBySet.has(key)) grantsBySet.set(key, grantsOf(app.db, roleNames));
        return grantsBySet.get(key)!;
      };
      const release = { released: 0, failed: 0 };
      for (const holder of holders) {
        const counts = releaseCounts(
          await releaseAndAudit(app, holder, request.actor!, who(request), { action: ROLES_RELEASE_AUDIT_ACTION, which: beyondRoles(await grantsOfSet(holder.roles)), details: { role: role.name } }),
        );
        release.released += counts.released;
        release.failed += counts.failed;
      }
      return { ...role, release };
    },
  );

  app.delete(
    '/api/identity/roles/:name',
    {
      config: { policy: MANAGE },
      schema: { tags: ['identity'], params: z.object({ name: z.string().max(50) }), response: { 200: z.object({ ok: z.literal(true) }), ...errorResponses } },
    },
    async (request) =>
      app.db.transaction(async (tx) => {
        const [r] = await tx.select().from(roles).where(eq(roles.name, request.params.name)).for('update');
        if (!r) throw new AppError(AppErrorCode.EntityNotFound);
        if (r.isDefault) throw new AppError('DefaultRoleKept');
        const holders = await tx.select({ id: users.id }).from(users).where(sql`${users.roles} @> ${JSON.stringify([r.name])}::jsonb`);
        if (holders.length) throw new AppError('RoleInUse', { count: holders.length });
        await tx.delete(roles).where(eq(roles.name, r.name));
        await audit(tx, request, 'role.delete', { role: r.name, permissions: { old: r.permissions, new: null } });
        return { ok: true as const };
      }),
  );
};
export default identityRoutes;
