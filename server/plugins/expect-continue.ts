import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';

const expectsContinue = new WeakSet<IncomingMessage>();

/**
 * `Expect: 100-continue` answered by the route, not by Node. Left to itself Node sends `100 Continue` the moment the
 * headers arrive, so a client (curl does this for any body over 1 MB) starts writing a body the route will refuse
 * by its Content-Length; the 413 then races the upload, and the client may see a reset connection instead of the
 * portal's message. Here the request goes through the session, CSRF and route hooks first, and `100 Continue` is
 * sent only when the body is about to be read: a refused request never has its body sent at all.
 */
export default fp(async (app) => {
  app.server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    expectsContinue.add(req);
    // Handled here, Node does not emit 'request' itself: hand the request to Fastify as any other.
    app.server.emit('request', req, res);
  });
  app.addHook('preParsing', async (request, reply, payload) => {
    if (!expectsContinue.has(request.raw)) return payload;
    expectsContinue.delete(request.raw);
    const declared = Number(request.headers['content-length']);
    // Over the route's limit: no Continue; Fastify refuses it by its Content-Length (413, BodyTooLarge) unread.
    if (!(declared > request.routeOptions.bodyLimit)) reply.raw.writeContinue();
    return payload;
  });
});
