import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { certificates, facilities } from '../db/schema';
import { NEWEST_CERTIFICATE_FIRST } from './newest-certificate';
import { serviceOf, type ServiceRegistry } from '../machines/services';
import type { RequestContext } from '../machines/types';

/** A certificate a service may rest on now: active or expiring soon, and not past its expiry (spec 02 section 4). */
export const inForce = (c: { status: number; expiresAt: Date }, now: Date) => (c.status === 1 || c.status === 3) && c.expiresAt > now;

/** Expired: its code says so (a lifecycle's EXPIRE) or its expiry has passed though the daily sweep has not run yet. */
export const expiredOn = (c: { status: number; expiresAt: Date }, now: Date) => c.status === 2 || c.expiresAt.getTime() <= now.getTime();

const MARK_KINDS = new Set(['internalHalalMark', 'externalHalalMark']);

/**
 * The Halal certificate whose validity a request's issue rests on, and whether it is in force now: a shipment's is the
 * exporting factory's external Halal certificate (one in force if the factory holds several, else the newest; for a
 * conformity body's shipment one that body issued); a mark
 * package's is its subject certificate. Null for the requests that rest on none. Spec 02 sections 4 and 8: services
 * are blocked while the certificate is suspended or expired, so neither is paid for nor issued against it then.
 */
export async function certificateBehind(
  db: Db | Tx,
  request: { kind: string; facilityPublicId: string; context: RequestContext },
  now: Date,
  registry?: ServiceRegistry,
): Promise<{ number: string; inForce: boolean } | null> {
  if (request.kind === 'shipment') {
    const def = serviceOf(request.kind, registry);
    const factory = def?.project(request.context.data ?? {}, request.context).factoryPublicId ?? request.facilityPublicId;
    const all = await db
      .select({ number: certificates.number, status: certificates.status, expiresAt: certificates.expiresAt, cbPublicId: certificates.cbPublicId })
      .from(certificates)
      .where(and(eq(certificates.facilityPublicId, factory), eq(certificates.kind, 'externalHalal')))
      .orderBy(...NEWEST_CERTIFICATE_FIRST);
    // A conformity body's shipment rests on the certificates it issued itself (server-checks.ts exporterIssues): another
    // body's certificate in force does not carry it while its own is suspended or expired.
    const [applicant] = await db.select({ type: facilities.type }).from(facilities).where(eq(facilities.publicId, request.facilityPublicId));
    const held = applicant?.type === 'ConformityBody' ? all.filter((c) => c.cbPublicId === request.facilityPublicId) : all;
    const cert = held.find((c) => inForce(c, now)) ?? held[0];
    return cert ? { number: cert.number, inForce: inForce(cert, now) } : { number: '', inForce: false };
  }
  const id = request.context.subject?.certificateId;
  if (!MARK_KINDS.has(request.kind) || !id) return null;
  const [cert] = await db.select({ number: certificates.number, status: certificates.status, expiresAt: certificates.expiresAt }).from(certificates).where(eq(certificates.id, id));
  return cert ? { number: cert.number, inForce: inForce(cert, now) } : { number: '', inForce: false };
}
