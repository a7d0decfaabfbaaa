import { createRequire } from 'node:module';
import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import type { FastifyHelmetOptions } from '@fastify/helmet';

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: Error) => void) => void;
/** helmet, the one @fastify/helmet depends on (it is not a dependency of the portal's own). */
const helmet = createRequire(createRequire(import.meta.url).resolve('@fastify/helmet'))('helmet') as (options: object) => Middleware;

/**
 * helmet's security headers (CSP, HSTS, frame options, ...) on every answer, with the middleware built once.
 *
 * @fastify/helmet calls helmet(options) on every request, so each request parsed the CSP directives and built the
 * header middlewares again: 2.5 % of an event POST's CPU (docs/performance.md, HTTP fourth pass). The headers are the
 * same: helmet sets them on the raw answer in onRequest, as @fastify/helmet does. No route sets its own helmet
 * options or uses reply.helmet / CSP nonces.
 */
export default fp<FastifyHelmetOptions>(
  async (app, options) => {
    const apply = helmet(options);
    app.addHook('onRequest', (request, reply, done) =>
      apply(request.raw, reply.raw, (err) => {
        if (err) throw err;
        done();
      }),
    );
  },
  { name: 'security-headers' },
);
