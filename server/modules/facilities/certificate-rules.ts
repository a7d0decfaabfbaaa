import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { certificates } from '../../../db/schema';
import { NEWEST_CERTIFICATE_FIRST } from '../../../workflows/newest-certificate';
import { expiredOn } from '../../../workflows/certificate-behind';
import { AppError } from '../../errors';
import type { FacilityRow } from './access';
import { todayInRiyadh } from './deps';
import './errors';

/** The certificate kind that qualifies each facility type (db/schema/certificates.ts). */
const QUALIFYING_KIND = {
  ConformityBody: 'cbDesignation',
  InternalFacility: 'internalHalal',
  ExternalFacility: 'externalHalal',
} as const;

/** Certificate statuses (spec 02 section 4): 1 active, 2 expired, 3 expiring soon, 4 suspended. */
const EXPIRED = 2;
const SUSPENDED = 4;

type CertificateRow = typeof certificates.$inferSelect;

/**
 * The facility's newest certificate of the kind(s): the one that runs longest (latest expiry; of two ending together,
 * the later issued). One rule for every check that reads "the" certificate of a facility holding several (the
 * delegation's "expired or suspended", the expired-certificate block, a valid certificate to start on, a CB's usable
 * designation, the certificate shown on the facility's page): by issue date, a short certificate issued after a longer
 * one that still runs would hide it.
 */
export async function latestCertificate(db: Db, facilityPublicId: string, kind: string | readonly string[]): Promise<CertificateRow | undefined> {
  const kinds = typeof kind === 'string' ? [kind] : [...kind];
  const [row] = await db
    .select()
    .from(certificates)
    .where(and(eq(certificates.facilityPublicId, facilityPublicId), inArray(certificates.kind, kinds)))
    .orderBy(...NEWEST_CERTIFICATE_FIRST)
    .limit(1);
  return row;
}

/** Expired by status or by date (a status can lag behind the date), or suspended. */
export const isExpiredOrSuspended = (c: Pick<CertificateRow, 'status' | 'expiresAt'>, now = new Date()): boolean =>
  c.status === EXPIRED || c.status === SUSPENDED || c.expiresAt.getTime() <= now.getTime();

/** The CB's acceptance/notification certificate has expired (its expiry date is before today in Riyadh). */
export const isAcceptanceCertificateExpired = (cb: Pick<FacilityRow, 'type' | 'certificateExpiryDate'>, now = new Date()): boolean =>
  cb.type === 'ConformityBody' && !!cb.certificateExpiryDate && cb.certificateExpiryDate < todayInRiyadh(now);

/**
 * Spec 02 section 4: an expired notification or acceptance certificate blocks use of the CB's services. Other
 * modules (CB requests, external requests, shipments) call this before serving a CB.
 */
export function assertCbServicesAllowed(cb: Pick<FacilityRow, 'type' | 'certificateExpiryDate'>, now = new Date()): void {
  if (isAcceptanceCertificateExpired(cb, now)) throw new AppError('AcceptanceCertificateExpired');
}

/**
 * Spec 02 section 8: a delegation cannot proceed while the delegating CB's designation certificate, or the
 * facility's Halal certificate, is expired or suspended. A facility that holds no certificate yet may delegate.
 */
export async function assertDelegationAllowed(db: Db, facility: FacilityRow, now = new Date()): Promise<void> {
  assertCbServicesAllowed(facility, now);
  const kind = QUALIFYING_KIND[facility.type as keyof typeof QUALIFYING_KIND];
  const cert = kind ? await latestCertificate(db, facility.publicId, kind) : undefined;
  if (cert && isExpiredOrSuspended(cert, now)) throw new AppError('DelegationCertificateBlocked');
}

/**
 * A conformity body serves factories (their certificates, changes, marks and shipments) only under a designation it may
 * use: spec 02 section 4 "an expired certificate cannot be used and must be renewed", read for the CB's own designation
 * as the delegation rule (section 8) reads it: its newest designation neither expired nor suspended. A CB that holds
 * none yet is not designated at all and serves no factory (spec 02 section 1: factories obtain certificates "through
 * approved bodies"; README, choices): the submission's designation check found nothing to compare with and let it
 * through. Other facilities: nothing to check.
 */
export async function assertCbDesignationUsable(db: Db, facility: FacilityRow, now = new Date()): Promise<void> {
  if (facility.type !== 'ConformityBody') return;
  const cert = await latestCertificate(db, facility.publicId, QUALIFYING_KIND.ConformityBody);
  if (!cert) throw new AppError('CbNotDesignated');
  if (isExpiredOrSuspended(cert, now)) throw new AppError('CbDesignationNotUsable', { number: cert.number });
}

/**
 * A conformity body is designated once and then renews (spec 02 section 1: the designation is issued and renewed): a
 * new designation request is refused while its newest designation (the one that runs longest) has not expired — in
 * force, or suspended, whose way out is the suspension lifted, not a second certificate. Once it has expired the CB
 * may request one again. The refusal names the certificate and says to renew it, with the renewal window's days.
 */
export async function assertCbHoldsNoDesignation(db: Db, facility: FacilityRow, renewalPromptDays: number, now = new Date()): Promise<void> {
  if (facility.type !== 'ConformityBody') return;
  const cert = await latestCertificate(db, facility.publicId, QUALIFYING_KIND.ConformityBody);
  if (cert && !expiredOn(cert, now)) throw new AppError('CbAlreadyDesignated', { number: cert.number, days: renewalPromptDays });
}

/**
 * CB-00009: a CB holding a valid designation certificate cannot be edited from its profile: its data is what the
 * certificate was issued on, and changes go through a renewal (UpdateConformityBodyForCbRenewal).
 */
export async function assertCbEditable(db: Db, cb: FacilityRow, now = new Date()): Promise<void> {
  const cert = await latestCertificate(db, cb.publicId, QUALIFYING_KIND.ConformityBody);
  if (cert && !isExpiredOrSuspended(cert, now)) throw new AppError('CB-00009');
}
