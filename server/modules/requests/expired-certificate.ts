import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { certificates } from '../../../db/schema';
import { AppError, registerErrorStatus } from '../../errors';

// 400 like the other certificate refusals of a start, so the start page reads it as an answer (start-check), not an error.
registerErrorStatus({ FacilityCertificateExpired: 400 });

/** Requests an expired certificate does not block: renewing it is the way out. */
const RENEWALS = new Set(['internalRenewal', 'externalRenewal', 'cbRenewal']);

/**
 * Spec 02 section 4: "an expired [internal] certificate blocks issuing certificates and other services until
 * renewed". A facility is blocked when its newest Halal certificate has expired (by date or status) and none is valid.
 */
export async function assertNotBlockedByExpiredCertificate(db: Db, facilityPublicId: string, kind: string, now = new Date()) {
  if (RENEWALS.has(kind)) return;
  const [newest] = await db
    .select({ number: certificates.number, status: certificates.status, expiresAt: certificates.expiresAt })
    .from(certificates)
    .where(and(eq(certificates.facilityPublicId, facilityPublicId), inArray(certificates.kind, ['internalHalal', 'externalHalal'])))
    .orderBy(desc(certificates.expiresAt))
    .limit(1);
  if (newest && (newest.status === 2 || newest.expiresAt <= now)) {
    throw new AppError('FacilityCertificateExpired', { number: newest.number });
  }
}
