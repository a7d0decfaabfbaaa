import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { authEpoch, facilities, facilityMembers, roles as roleTable, sessions, users } from '../../db/schema';
import { grantsOf } from '../admin/role-store';
import { memberPermissions, type Actor } from '../../machines/actor';
import { UserInFacilityRole } from '../../machines/forms/facilities/schemas';
import { AppError, AppErrorCode } from '../errors';
import type { RoutePolicy, SessionUser } from '../types';

export const SESSION_COOKIE = 'halal_session';
/** How stale lastSeenAt may get before a request refreshes it (keeps reads from writing on every call). */
const TOUCH_AFTER_MS = 15_000;

interface TokenPayload {
  sid: string;
  sub: string;
}

/**
 * Builds the actor of a user: role permissions, the facilities and CBs they are a member of, and what they hold in
 * each (Actor.facilityPermissions: the main user all of the role's, a sub user the delegated ones).
 */
export async function actorOf(app: { db: import('../../db/client').Db }, userId: string, roles: string[]): Promise<Actor> {
  return (await actorAndGrants(app, userId, roles)).actor;
}

/** The actor, and whether one of the user's roles is read-only (role permissions come from the roles table). */
async function actorAndGrants(app: { db: import('../../db/client').Db }, userId: string, roles: string[]): Promise<{ actor: Actor; readOnly: boolean }> {
  const rows = await app.db
    .select({ publicId: facilities.publicId, role: facilityMembers.role, delegated: facilityMembers.permissions })
    .from(facilityMembers)
    .innerJoin(facilities, eq(facilities.id, facilityMembers.facilityId))
    .where(eq(facilityMembers.userId, userId));
  return actorFrom(userId, roles, rows, await grantsOf(app.db, roles));
}

type Membership = { publicId: string; role: number; delegated: string[] };

function actorFrom(userId: string, roles: string[], rows: Membership[], grants: { permissions: Actor['permissions']; readOnly: boolean }) {
  const { permissions, readOnly } = grants;
  const facilityPermissions = Object.fromEntries(
    rows.map((r) => [r.publicId, memberPermissions(r.role === UserInFacilityRole.MainUser, r.delegated, permissions)]),
  );
  return { actor: { userId, roles, permissions, facilityIds: rows.map((r) => r.publicId), facilityPermissions }, readOnly };
}

/** jsonb built in a query: postgres.js hands it over as text, PGlite parsed. */
const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);

/*
 * The memberships and the role grants of the session's user, read in the session's own statement: every signed-in
 * request runs it, and three round trips in a row were the largest part of a small request's time
 * (docs/performance-log.md). Same rows and same rules as actorAndGrants.
 */
const membershipsOfUser = sql<Membership[]>`(
  select coalesce(jsonb_agg(jsonb_build_object('publicId', ${facilities.publicId}, 'role', ${facilityMembers.role}, 'delegated', ${facilityMembers.permissions})), '[]'::jsonb)
  from ${facilityMembers} inner join ${facilities} on ${facilities.id} = ${facilityMembers.facilityId}
  where ${facilityMembers.userId} = ${users.id})`.mapWith((v) => json(v) as Membership[]);
type RoleGrant = { permissions: string[]; readOnly: boolean };
const grantsOfUser = sql<RoleGrant[]>`(
  select coalesce(jsonb_agg(jsonb_build_object('permissions', ${roleTable.permissions}, 'readOnly', ${roleTable.readOnly})), '[]'::jsonb)
  from ${roleTable} where ${roleTable.name} in (select jsonb_array_elements_text(${users.roles})))`.mapWith((v) => json(v) as RoleGrant[]);

/** The identity epoch, read in the session's statement so that both come from one snapshot. */
const epochOfIdentities = sql<number | null>`(select ${authEpoch.value} from ${authEpoch} where ${authEpoch.id} = 1)`.mapWith((v) =>
  v === null ? null : Number(v),
);

/** True when the actor satisfies the policy (see RoutePolicy). */
export function satisfies(actor: Actor | null, policy: RoutePolicy): boolean {
  if (policy === 'public') return true;
  if (!actor) return false;
  if (policy === 'authenticated') return true;
  const anyOf = typeof policy === 'string' ? [policy] : policy;
  return anyOf.some((p) => actor.permissions.includes(p));
}

/**
 * Sessions: a JWT in an httpOnly SameSite cookie names a server-side session row. The row makes sign-out and idle
 * expiry real revocations: a copied token stops working the moment its row is revoked.
 */
export default fp(async (app) => {
  // The idle time is a business setting: an administrator's change applies from the next request.
  const idleMs = () => app.settings.current().sessionTimeMinutes * 60_000;

  app.decorateRequest('actor', null);
  app.decorateRequest('readOnly', false);
  app.decorateRequest('sessionUser', null);
  app.decorateRequest('sessionState', 'none');

  // Built once: every signed-in request runs it, and building the query from drizzle's AST on each call was a few
  // per cent of an event POST's CPU (docs/performance-log.md, HTTP third pass).
  const sessionStatement = app.db
    .select({ session: sessions, user: users, memberships: membershipsOfUser, grants: grantsOfUser, epoch: epochOfIdentities })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sql.placeholder('sid')), isNull(sessions.revokedAt)))
    .prepare('auth_session');
  const epochStatement = app.db.select({ value: authEpoch.value }).from(authEpoch).where(eq(authEpoch.id, 1)).prepare('auth_epoch');
  type SessionRow = Awaited<ReturnType<typeof sessionStatement.execute>>[number];
  /*
   * Each session's row as last read, with the identity epoch it was read at (db/schema/identity.ts authEpoch). While
   * the epoch has not moved and the remembered last use is more recent than both the touch interval and the idle
   * limit, a fresh read would give the same identity and lead to the same decision (no touch, no expiry), so the
   * request reads only the epoch: one small statement instead of the session's joins, and a revocation, a lock, a
   * membership or a role change still takes effect at the next request on every server (docs/performance-log.md, "The
   * event POST: the bench's client, and the session read against an identity epoch"). Bounded; the oldest goes first.
   */
  const remembered = new Map<string, SessionRow>();
  const REMEMBERED_MAX = 10_000;
  const remember = (row: SessionRow) => {
    remembered.delete(row.session.id);
    if (row.epoch === null) return;
    if (remembered.size >= REMEMBERED_MAX) remembered.delete(remembered.keys().next().value!);
    remembered.set(row.session.id, row);
  };
  async function readSession(sid: string, now: number): Promise<SessionRow | undefined> {
    const known = remembered.get(sid);
    if (known && now - known.session.lastSeenAt.getTime() <= Math.min(TOUCH_AFTER_MS, idleMs())) {
      const [current] = await epochStatement.execute();
      if (current?.value === known.epoch) return known;
    }
    const [row] = await sessionStatement.execute({ sid });
    return row;
  }

  async function loadSession(request: FastifyRequest): Promise<'none' | 'expired' | 'ok'> {
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return 'none';
    let payload: TokenPayload;
    try {
      payload = app.jwt.verify<TokenPayload>(token);
    } catch {
      return 'expired';
    }
    const now = Date.now();
    const row = await readSession(payload.sid, now);
    // A user an administrator locked loses their sessions at the next request.
    if (!row || row.user.lockedAt) {
      remembered.delete(payload.sid);
      return 'expired';
    }
    const idle = now - row.session.lastSeenAt.getTime();
    if (idle > idleMs()) {
      await app.db
        .update(sessions)
        .set({ revokedAt: new Date(), revokedReason: 'idle' })
        .where(eq(sessions.id, row.session.id));
      remembered.delete(row.session.id);
      return 'expired';
    }
    if (idle > TOUCH_AFTER_MS) {
      const lastSeenAt = new Date(now);
      await app.db.update(sessions).set({ lastSeenAt }).where(eq(sessions.id, row.session.id));
      remember({ ...row, session: { ...row.session, lastSeenAt } });
    } else if (remembered.get(row.session.id) !== row) remember(row);
    const u = row.user;
    const sessionUser: SessionUser = {
      id: u.id,
      userName: u.userName,
      name: u.name,
      email: u.email,
      roles: u.roles,
      sessionId: row.session.id,
    };
    request.sessionUser = sessionUser;
    const permissions = new Set<string>();
    for (const g of row.grants) for (const p of g.permissions) permissions.add(p);
    const grants = { permissions: [...permissions].sort() as Actor['permissions'], readOnly: row.grants.some((g) => g.readOnly) };
    const { actor, readOnly } = actorFrom(u.id, u.roles, row.memberships, grants);
    request.actor = actor;
    request.readOnly = readOnly;
    return 'ok';
  }

  // onRequest runs before body validation, so an anonymous caller gets 401 rather than a 400 about its body.
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const policy = request.routeOptions.config.policy;
    const state = await loadSession(request);
    request.sessionState = state;
    if (policy === undefined || policy === 'public') return;
    if (state === 'expired') {
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      throw new AppError(AppErrorCode.SessionExpired);
    }
    if (!request.actor) throw new AppError(AppErrorCode.NotAuthenticated);
    if (!satisfies(request.actor, policy)) throw new AppError(AppErrorCode.NotAuthorized);
  });
});
