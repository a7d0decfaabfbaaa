import { and, desc, eq, isNotNull, isNull, notInArray, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { auditLogs, requestHistory, requests, users } from '../../../db/schema';
import { ENTITY_KINDS } from '../../../machines/services/types';
import type { Actor } from '../../../machines/actor';
import { mayWorkQueue, queueWorkPermissions } from '../../../machines/allowed-actions';
import { isRequestKind } from '../../../machines/services';
import type { RoleGrants } from '../../admin/role-store';
import { AppError, AppErrorCode } from '../../errors';
import { writeAudit } from '../../admin/audit-log';
import { actorOf } from '../../plugins/auth';

/** The audit action of a lock's release (its details: the locked user, how many were released, which failed and why). */
export const RELEASE_AUDIT_ACTION = 'user.lock.release';

/** The audit action of a role change's release (details as the lock's): the requests the user's new roles cannot work. */
export const ROLES_RELEASE_AUDIT_ACTION = 'user.roles.release';

/** The event that releases a request: the one a person uses (machines/fragments/assignment.ts), so it goes where that goes. */
export const RELEASE_EVENT = 'CANCEL_ASSIGNMENT';

/** A request whose assignment could not be released: it stays assigned, named in the log, the audit row and its history. */
export interface ReleaseFailure {
  requestId: string;
  number: string | null;
  code: string;
}

export interface ReleaseOutcome {
  released: string[];
  failed: ReleaseFailure[];
}

/** An open request assigned to the user, as read for its release. */
export interface AssignedRequest {
  id: string;
  number: string | null;
  version: number;
  kind: string;
  machineVersion: number;
  snapshot: Record<string, unknown>;
}

/** Which of the user's assigned requests to release (judged again on every re-read); all of them when absent. */
export type ReleaseFilter = (request: AssignedRequest) => boolean;

/** How often one request is re-read after a concurrent event moved it on (its version) before the release gives up. */
const CONFLICT_RETRIES = 3;

/** An open request: not deleted, not final, not an entity's lifecycle (a bill or certificate has no assignee to release). */
const openRequest = and(isNull(requests.deletedAt), notInArray(requests.kind, [...ENTITY_KINDS]), sql`${requests.queue} is distinct from 'final'`);

/** The open requests a user is assigned to, with the version they were read at. */
async function assignedTo(app: FastifyInstance, userId: string, requestId?: string) {
  return app.db
    .select({ id: requests.id, number: requests.number, version: requests.version, kind: requests.kind, machineVersion: requests.machineVersion, snapshot: requests.snapshot })
    .from(requests)
    .where(and(eq(requests.assigneeUserId, userId), openRequest, ...(requestId ? [eq(requests.id, requestId)] : [])));
}

/**
 * The requests a user holding `grants` (their roles after a change) can no longer work, by the rule of whom
 * ASSIGN_TO_EMPLOYEE may name (mayWorkQueue over the queue's work permissions, machines/allowed-actions.ts): the user
 * left the Halal-center staff, took a read-only role, or holds none of the permissions of the request's queue now.
 * A request in a state with no assignment handlers (no work permissions: e.g. an older version's returned request
 * still naming its reviewer) is left alone: no rule says who works it, and no CANCEL_ASSIGNMENT could release it.
 */
export function beyondRoles(grants: RoleGrants): ReleaseFilter {
  return (r) => {
    if (!isRequestKind(r.kind)) return false;
    const needed = queueWorkPermissions(r.kind, r.snapshot as never, r.machineVersion);
    return needed.length > 0 && !mayWorkQueue(grants, needed);
  };
}

/**
 * Releases the open requests assigned to `userId` that `which` selects (all of them for a user who was just locked
 * and can never act on them again; those beyond their new roles after a role change, beyondRoles), so
 * that they return to their queue for colleagues: CANCEL_ASSIGNMENT through the engine, which clears the assignee and,
 * where the catalogue has a waiting state, moves the request back to it; the history records the release.
 *
 * The actor is the administrator who locked the user (or changed their roles), not the system actor: every released machine version refuses
 * CANCEL_ASSIGNMENT from the system (the system sends only deadlines and payment callbacks, machines/guards.ts), and a
 * new system event would exist only in new machine versions, leaving the requests already running on pinned versions
 * (all of today's) stuck. The administrator is the person whose decision releases them, and going through the
 * existing guard (a holder of the queue's AssignToOthers may cancel anyone's assignment) gives nobody a power they do
 * not hold: an administrator without that permission is refused, and the refusal is recorded like any other failure.
 *
 * Runs after the lock (role change) committed: it never fails because a request could not be released. Each request
 * is sent with the version it was read at, so a request reassigned meanwhile to someone else is left alone (re-read:
 * released only if still the user's, and still selected by `which`). A failure is never silent: it is logged, recorded in the request's history
 * (ASSIGNMENT_RELEASE_FAILED, so staff looking at it see why it is stuck) and returned for the caller's audit row;
 * locking the user again (saving their roles again) retries the ones left.
 */
export async function releaseAssignmentsOf(app: FastifyInstance, userId: string, actor: Actor, which?: ReleaseFilter): Promise<ReleaseOutcome> {
  const outcome: ReleaseOutcome = { released: [], failed: [] };
  if (!app.hasDecorator('engine')) return outcome;
  for (const first of await assignedTo(app, userId)) {
    let row: AssignedRequest | undefined = first;
    // A re-read request may have moved to a queue the user can work: then it stays theirs.
    for (let attempt = 0; row && (!which || which(row)); attempt++) {
      try {
        await app.engine.send(row.id, { type: RELEASE_EVENT }, actor, row.version);
        outcome.released.push(row.id);
        break;
      } catch (err) {
        const code = err instanceof AppError ? String(err.code) : 'Error';
        if (code === AppErrorCode.ConcurrencyConflict && attempt < CONFLICT_RETRIES) {
          [row] = await assignedTo(app, userId, row.id);
          continue;
        }
        app.log.error({ err, requestId: row.id, userId }, 'releasing the assignment of a locked user or one whose roles changed failed: the request stays assigned');
        outcome.failed.push({ requestId: row.id, number: row.number, code });
        const failed = row.id;
        // Once in the history (a retry, e.g. the sweep at every start, does not repeat the same row).
        if (!(await failureRecorded(app, failed, userId)))
          await app.engine
            .annotate(failed, { event: 'ASSIGNMENT_RELEASE_FAILED', payload: { assigneeUserId: userId, refusal: code }, note: null }, actor)
            .catch((e: unknown) => app.log.error({ err: e, requestId: failed }, 'recording a failed release in the history failed'));
        break;
      }
    }
  }
  return outcome;
}

/** Whether the request's last history row already says that releasing this assignee failed. */
async function failureRecorded(app: FastifyInstance, requestId: string, userId: string): Promise<boolean> {
  const [last] = await app.db
    .select({ event: requestHistory.event, payload: requestHistory.payload })
    .from(requestHistory)
    .where(eq(requestHistory.requestId, requestId))
    .orderBy(desc(requestHistory.seq))
    .limit(1);
  return last?.event === 'ASSIGNMENT_RELEASE_FAILED' && last.payload.assigneeUserId === userId;
}

/**
 * The releases a lock left undone (the process stopped between the lock's commit and its releases, or a release
 * failed for a passing reason): run once when the server is ready. The pending work is the data itself, an open
 * request assigned to a locked user, so nothing else has to be queued for it. Each user's releases are sent by the
 * administrator who locked them last (the audit row of the lock), as at the lock; without one (a lock written
 * outside the API) they are logged and left for staff.
 */
export async function releaseLeftAssignments(app: FastifyInstance): Promise<void> {
  if (!app.hasDecorator('engine')) return;
  for (const user of await holdersOfOpenRequests(app, isNotNull(users.lockedAt))) {
    const [lock] = await app.db
      .select({ adminId: auditLogs.userId })
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'user.lock'), sql`${auditLogs.details}->>'user' = ${user.userName}`))
      .orderBy(desc(auditLogs.at))
      .limit(1);
    const [admin] = lock?.adminId
      ? await app.db.select({ id: users.id, userName: users.userName, roles: users.roles, lockedAt: users.lockedAt }).from(users).where(eq(users.id, lock.adminId))
      : [];
    if (!admin || admin.lockedAt) {
      app.log.error({ userId: user.id }, 'a locked user still holds open requests and no active administrator locked them: release them by hand');
      continue;
    }
    await releaseAndAudit(app, user, await actorOf(app, admin.id, admin.roles), { userId: admin.id, userName: admin.userName }, { details: { resumed: true } });
  }
}

/**
 * The users matching `who` who are assigned at least one open request: the only ones a release can concern (a role
 * edit's holders, the locked users at start), so the others cost no query of their own.
 */
export function holdersOfOpenRequests(app: FastifyInstance, who: SQL | undefined) {
  return app.db
    .selectDistinct({ id: users.id, userName: users.userName, roles: users.roles })
    .from(requests)
    .innerJoin(users, sql`${users.id}::text = ${requests.assigneeUserId}`)
    .where(and(who, openRequest));
}

/**
 * Releases the user's requests (releaseAssignmentsOf; `which` of them, all by default) and records what happened in
 * the audit log as the administrator `by` (`action`: `user.lock.release` for a lock, `user.roles.release` for a role
 * change; how many were released, which failed); nothing is written when none was to be released. Returns the
 * outcome, which the lock's and the role change's answers report to the administrator.
 */
export async function releaseAndAudit(
  app: FastifyInstance,
  user: { id: string; userName: string },
  actor: Actor,
  by: { userId: string; userName: string; ip?: string },
  options: { action?: string; which?: ReleaseFilter; details?: Record<string, unknown> } = {},
): Promise<ReleaseOutcome> {
  const outcome = await releaseAssignmentsOf(app, user.id, actor, options.which);
  const { released, failed } = outcome;
  if (!released.length && !failed.length) return outcome;
  await writeAudit(app.db, {
    ...by,
    action: options.action ?? RELEASE_AUDIT_ACTION,
    outcome: failed.length ? 'failure' : 'success',
    details: { user: user.userName, released: released.length, failed, ...options.details },
  }).catch((err: unknown) => app.log.error({ err, userId: user.id, released, failed }, 'recording the release of a user’s assignments failed'));
  return outcome;
}
