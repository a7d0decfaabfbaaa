import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { AppError, registerErrorStatus } from '../errors';
import type { Tx } from '../../db/client';
import { apiCallWriter, purgeAudit, writeApiCallIn, type ApiCallEntry } from './audit-log';
import './types';

registerErrorStatus({ ReadOnlyRole: 403, UserLocked: 401, UserNameTaken: 400, RoleInUse: 409, RoleNameTaken: 400, DefaultRoleKept: 400, OwnAccountNotLocked: 400 });

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Writes a read-only user may still make: signing in and out, and recording the language they read in. */
const READ_ONLY_ALLOWED = new Set(['/api/auth/login', '/api/auth/logout', '/api/app/halal-user/create-update-user']);
const HOUR = 3_600_000;
/**
 * Calls made before anyone is signed in, logged like a sign-in: their own action and the name typed (the id of a
 * sign-up, the id or e-mail of a password reset; never a password or a code).
 */
const ANONYMOUS_ACTIONS: Record<string, { action: string; typed?: string }> = {
  '/api/auth/login': { action: 'auth.login', typed: 'userName' },
  '/api/account/register/send-code': { action: 'account.register.sendCode', typed: 'nationalId' },
  '/api/account/register/resend-code': { action: 'account.register.resendCode' },
  '/api/account/register': { action: 'account.register', typed: 'nationalId' },
  '/api/account/forgot-password/send-code': { action: 'account.resetPassword.sendCode', typed: 'identifier' },
  '/api/account/forgot-password/resend-code': { action: 'account.resetPassword.resendCode' },
  '/api/account/forgot-password/reset': { action: 'account.resetPassword' },
};

const routeOf = (request: FastifyRequest) => request.routeOptions.url ?? request.url.split('?')[0];

/** The workflow request a call is about: the `:id` of /api/requests/:id/... (links the row to that history). */
function requestIdOf(request: FastifyRequest): string | null {
  const route = routeOf(request);
  const id = (request.params as Record<string, unknown> | undefined)?.id;
  return route.startsWith('/api/requests/:id') && typeof id === 'string' ? id : null;
}

/** The audit row of an API write, as answered with `statusCode`. */
function apiCallEntry(request: FastifyRequest, route: string, statusCode: number): ApiCallEntry {
  const anonymous = ANONYMOUS_ACTIONS[route];
  const typed = anonymous?.typed ? (request.body as Record<string, unknown> | undefined)?.[anonymous.typed] : undefined;
  return {
    action: anonymous ? anonymous.action : route === '/api/auth/logout' ? 'auth.logout' : 'api.write',
    userId: request.sessionUser?.id ?? null,
    userName: request.sessionUser?.userName ?? (typeof typed === 'string' ? typed.trim().toLowerCase().slice(0, 200) : null),
    method: request.method,
    route,
    path: request.url.split('?')[0].slice(0, 500),
    statusCode,
    outcome: statusCode < 400 ? 'success' : 'failure',
    ip: request.ip,
    requestId: requestIdOf(request),
    errorCode: request.auditErrorCode || null,
  };
}

/**
 * The audit log and the read-only roles (issue 15): every write through the API and every sign-in attempt is
 * written to audit_logs (who, when, what, from which address, outcome); a user holding a read-only role is refused
 * every write. Old rows are purged by the retention setting, hourly.
 *
 * When: an event the engine takes (POST /api/requests/:id/events) has its row written in the event's own
 * transaction (request.auditInEvent, passed to the engine as SendOptions.alsoWrite): never an event without its row,
 * and one commit per event instead of two. Every other call, a refused or failed event included, and an event on an
 * engine that does not call alsoWrite (Temporal), has its row written once the answer is sent (onResponse).
 */
export default fp(async (app) => {
  app.decorateRequest('auditErrorCode', undefined);
  app.decorateRequest('auditWrittenInEvent', false);
  app.decorateRequest('auditInEvent', async function (this: FastifyRequest, tx: Tx) {
    await writeApiCallIn(tx, apiCallEntry(this, routeOf(this), 200));
    this.auditWrittenInEvent = true;
  });
  const writeApiCall = apiCallWriter(app.db);

  app.addHook('onRequest', async (request) => {
    if (request.readOnly && WRITES.has(request.method) && !READ_ONLY_ALLOWED.has(routeOf(request))) {
      throw new AppError('ReadOnlyRole');
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    // A read-only user is offered no action on a request (the buttons would only be refused).
    if (request.readOnly && reply.statusCode === 200 && routeOf(request) === '/api/requests/:id/actions' && typeof payload === 'string') {
      try {
        return JSON.stringify({ ...(JSON.parse(payload) as Record<string, unknown>), actions: [] });
      } catch {
        return payload;
      }
    }
    if (reply.statusCode >= 400 && typeof payload === 'string' && routeOf(request).startsWith('/api/')) {
      try {
        const code = (JSON.parse(payload) as { error?: { code?: unknown } }).error?.code;
        if (typeof code === 'string') request.auditErrorCode = code;
      } catch {
        // not JSON: no code to keep
      }
    }
    return payload;
  });

  app.addHook('onResponse', async (request, reply) => {
    const route = routeOf(request);
    if (!WRITES.has(request.method) || !route.startsWith('/api/')) return;
    // Written with the event (auditInEvent). A failure answer after it still gets its row: the event's transaction
    // rolled back (its row with it), or, had the answer failed after the commit, the log says so too.
    if (request.auditWrittenInEvent && reply.statusCode < 400) return;
    try {
      await writeApiCall(apiCallEntry(request, route, reply.statusCode));
    } catch (err) {
      request.log.error({ err }, 'could not write the audit log');
    }
  });

  const purge = async () => {
    try {
      await purgeAudit(app.db, app.settingsStore.current().auditLogRetentionDays);
    } catch (err) {
      app.log.error({ err }, 'could not purge the audit log');
    }
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    await purge();
    timer = setInterval(() => void purge(), HOUR);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    app.settingsStore.close();
  });
});
