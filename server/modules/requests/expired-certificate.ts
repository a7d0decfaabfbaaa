import type { Db } from '../../../db/client';
import { latestCertificate } from '../facilities/certificate-rules';
import { expiredOn } from '../../../workflows/certificate-behind';
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
  // The same newest certificate as the delegation check reads (latestCertificate: the one that runs longest).
  const newest = await latestCertificate(db, facilityPublicId, ['internalHalal', 'externalHalal']);
  if (newest && expiredOn(newest, now)) {
    throw new AppError('FacilityCertificateExpired', { number: newest.number });
  }
}
