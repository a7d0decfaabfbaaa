import type { FastifyRequest } from 'fastify';

/**
 * The address people reach this portal at, the only source of the links the portal hands out (SMS set-password links,
 * QR codes, payment return and callback URLs): PUBLIC_URL, which production must set (server/config.ts). Outside
 * production an unset PUBLIC_URL falls back to the request's own Host header; X-Forwarded-Host is never read, so a
 * caller cannot make the portal send a victim a link to another host.
 */
export function publicOrigin(request: FastifyRequest): string {
  const configured = request.server.config.PUBLIC_URL;
  if (configured) return configured.replace(/\/+$/, '');
  const host = request.headers.host && /^[A-Za-z0-9.:[\]-]+$/.test(request.headers.host) ? request.headers.host : `127.0.0.1:${request.server.config.PORT}`;
  return `${request.protocol}://${host}`;
}
