import type { FastifyRequest } from 'fastify';

/**
 * The address people reach this portal at: PUBLIC_URL when configured, else the origin of the current request
 * (trustProxy is on, so X-Forwarded-Proto/Host from the proxy are honoured). Payment callbacks and QR codes use it.
 */
export function publicOrigin(request: FastifyRequest): string {
  const configured = request.server.config.PUBLIC_URL;
  return (configured ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');
}
