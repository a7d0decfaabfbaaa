import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq, or } from 'drizzle-orm';
import { z } from 'zod';
import { errorResponses } from '../../schemas';
import { sessions, users } from '../../../db/schema';
import { isStaff } from '../../../machines/roles';
import { isPublishedPassword } from '../../../machines/forms/account';
import { verifyPasswordOrDummy } from '../../../lib/password';
import { AppError, AppErrorCode } from '../../errors';
import { SESSION_COOKIE } from '../../plugins/auth';
import { secureCookies } from '../../config';

const ZLogin = z.object({ userName: z.string().trim().min(1, 'required'), password: z.string().min(1, 'required') });

const ZSession = z.object({
  authenticated: z.boolean(),
  /** A session cookie came but the session had ended: the web shows the session-expired modal. */
  sessionExpired: z.boolean(),
  user: z
    .object({ id: z.string(), userName: z.string(), name: z.string(), email: z.string(), roles: z.array(z.string()) })
    .nullable(),
  permissions: z.array(z.string()),
  facilityIds: z.array(z.string()),
  isStaff: z.boolean(),
  /** Idle minutes (spec: sessionTime) and the warning countdown (spec: 5 units, here seconds). */
  sessionTime: z.number(),
  warningCountdown: z.number(),
  appVersion: z.string(),
  csrfToken: z.string(),
});

const auth: FastifyPluginAsyncZod = async (app) => {
  const cookieOpts = {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: secureCookies(app.config),
  };

  app.post(
    '/api/auth/login',
    {
      config: {
        policy: 'public',
        csrf: false,
        rateLimit: { max: app.config.LOGIN_RATE_LIMIT_PER_MINUTE, timeWindow: '1 minute' },
      },
      schema: { tags: ['auth'], summary: 'Sign in with the user name (or e-mail) and password; sets the session cookie', body: ZLogin, response: { 200: z.object({ ok: z.literal(true) }), ...errorResponses } },
    },
    async (request, reply) => {
      const { userName, password } = request.body;
      const [user] = await app.db
        .select()
        .from(users)
        .where(or(eq(users.userName, userName.toLowerCase()), eq(users.email, userName.toLowerCase())));
      // An unknown user name costs the same scrypt as a wrong password (no user enumeration by timing).
      if (!(await verifyPasswordOrDummy(password, user?.passwordHash)) || !user) {
        throw new AppError(AppErrorCode.InvalidCredentials);
      }
      // Demo accounts are never seeded in production, but a development start against the production database would
      // seed them: their published password opens nothing there, whatever the database holds.
      if (app.config.NODE_ENV === 'production' && isPublishedPassword(password)) {
        request.log.warn({ userName: user.userName }, 'sign-in with the published demo password refused (production)');
        throw new AppError(AppErrorCode.InvalidCredentials);
      }
      // Told only to someone who knows the password, so a lock does not reveal that an account exists.
      if (user.lockedAt) throw new AppError('UserLocked');
      const [session] = await app.db.insert(sessions).values({ userId: user.id }).returning({ id: sessions.id });
      const token = app.jwt.sign({ sid: session.id, sub: user.id }, { expiresIn: '12h' });
      reply.setCookie(SESSION_COOKIE, token, cookieOpts);
      return { ok: true as const };
    },
  );

  app.post(
    '/api/auth/logout',
    { config: { policy: 'authenticated' }, schema: { tags: ['auth'], response: { 200: z.object({ ok: z.literal(true) }) } } },
    async (request, reply) => {
      await app.db
        .update(sessions)
        .set({ revokedAt: new Date(), revokedReason: 'signed-out' })
        .where(eq(sessions.id, request.sessionUser!.sessionId));
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return { ok: true as const };
    },
  );

  app.get(
    '/api/auth/session',
    { config: { policy: 'public' }, schema: { tags: ['auth'], response: { 200: ZSession } } },
    async (request, reply) => {
      const a = request.actor;
      if (request.sessionState === 'expired') reply.clearCookie(SESSION_COOKIE, { path: '/' });
      const u = request.sessionUser;
      return {
        authenticated: !!a,
        sessionExpired: request.sessionState === 'expired',
        user: u ? { id: u.id, userName: u.userName, name: u.name, email: u.email, roles: u.roles } : null,
        permissions: a?.permissions ?? [],
        facilityIds: a?.facilityIds ?? [],
        isStaff: a ? isStaff(a.permissions) : false,
        sessionTime: app.settings.current().sessionTimeMinutes,
        warningCountdown: app.settings.current().sessionWarningCountdown,
        appVersion: app.config.APP_VERSION,
        csrfToken: reply.generateCsrf(),
      };
    },
  );
};
export default auth;
