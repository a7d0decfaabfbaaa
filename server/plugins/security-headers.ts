import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * helmet's security headers (CSP, HSTS, frame options, ...) on every answer, computed once.
 *
 * @fastify/helmet (which this plugin replaces) called helmet(options) on every request, so each request parsed the
 * CSP directives, built the header middlewares and ran them: ~3 % of an event POST's CPU (docs/performance-log.md, HTTP fourth pass). The portal's options
 * hold no per-request value (no CSP nonce, no directive function; no route sets its own helmet options or uses
 * reply.helmet), so helmet's answer is the same for every request: it is recorded once at start, and each answer gets
 * those headers, set on the raw answer in onRequest as @fastify/helmet does.
 */
export default fp<HelmetOptions>(
  async (app, options) => {
    const set: [string, string | number | readonly string[]][] = [];
    const removed: string[] = [];
    const recorder = {
      setHeader: (name: string, value: string | number | readonly string[]) => set.push([name, value]),
      removeHeader: (name: string) => removed.push(name),
    } as unknown as ServerResponse;
    helmet(options)({} as IncomingMessage, recorder, (err) => {
      if (err) throw err;
    });
    app.addHook('onRequest', (request, reply, done) => {
      const res = reply.raw;
      for (const name of removed) res.removeHeader(name);
      for (const [name, value] of set) res.setHeader(name, value);
      done();
    });
  },
  { name: 'security-headers' },
);
