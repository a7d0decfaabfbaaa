import fp from 'fastify-plugin';
import csrf from '@fastify/csrf-protection';
import { SESSION_COOKIE } from './auth';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Double-submit CSRF protection for writes authenticated by the session cookie. The web reads the token from
 * GET /api/auth/session and sends it as `x-csrf-token`. Sign-in itself is exempt: there is no session yet.
 */
export default fp(async (app) => {
  await app.register(csrf, {
    cookieKey: 'halal_csrf',
    cookieOpts: { path: '/', sameSite: 'strict', httpOnly: true, secure: 'auto' } as never,
    getToken: (req) => req.headers['x-csrf-token'] as string | undefined,
  });
  app.addHook('onRequest', (request, reply, done) => {
    const exempt = request.routeOptions.config.csrf === false;
    if (!UNSAFE.has(request.method) || exempt || !request.cookies[SESSION_COOKIE]) return done();
    app.csrfProtection(request, reply, done);
  });
});

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false exempts a cookie-authenticated write from the CSRF check (sign-in, payment callbacks). */
    csrf?: boolean;
  }
}
