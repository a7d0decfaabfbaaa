import fp from 'fastify-plugin';
import csrf from '@fastify/csrf-protection';
import { SESSION_COOKIE } from './auth';
import { secureCookies } from '../config';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Double-submit CSRF protection for writes authenticated by the session cookie. The web reads the token from
 * GET /api/auth/session and sends it as `x-csrf-token`. Sign-in itself is exempt: there is no session yet.
 */
export default fp(async (app) => {
  await app.register(csrf, {
    cookieKey: 'halal_csrf',
    // Secure in production like the session cookie: 'auto' left it off behind a TLS proxy not named in TRUST_PROXY.
    cookieOpts: { path: '/', sameSite: 'strict', httpOnly: true, secure: secureCookies(app.config) },
    getToken: (req) => req.headers['x-csrf-token'] as string | undefined,
  });
  app.addHook('onRequest', (request, reply, done) => {
    const csrf = request.routeOptions.config.csrf;
    // 'always': a GET that changes state is checked like a write, with or without a session cookie.
    if (csrf === 'always') return app.csrfProtection(request, reply, done);
    if (!UNSAFE.has(request.method) || csrf === false || !request.cookies[SESSION_COOKIE]) return done();
    app.csrfProtection(request, reply, done);
  });
});

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * false exempts a cookie-authenticated write from the CSRF check (sign-in, payment callbacks); 'always' checks
     * a route whatever its method (a GET that changes state).
     */
    csrf?: boolean | 'always';
  }
}
