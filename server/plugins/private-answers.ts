import fp from 'fastify-plugin';

/**
 * `Cache-Control: no-store` on every private answer, so no browser, proxy or CDN keeps a copy of a session, request,
 * history, bill, certificate, file, facility or user: every /api answer of a route that is not public, every answer
 * to a signed-in caller, and everything under /api/auth (the session answer carries the CSRF token). Public answers
 * to anonymous callers (the public site's content, HS codes) keep whatever caching they set.
 */
export default fp(async (app) => {
  app.addHook('onSend', async (request, reply, payload) => {
    const url = request.url;
    if (!url.startsWith('/api/')) return payload;
    const policy = request.routeOptions.config?.policy;
    const isPrivate = policy !== 'public' || request.sessionUser != null || url.startsWith('/api/auth/');
    if (isPrivate) reply.header('cache-control', 'no-store');
    return payload;
  });
});
