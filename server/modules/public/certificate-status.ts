import { expiredOn } from '../../../workflows/certificate-behind';

/**
 * The status a person sees for a certificate or Halal mark at a given moment. The stored status (spec 02: 1 active,
 * 2 expired, 3 expiring soon, 4 suspended) records decisions; dates are read at request time so that "expiring
 * soon" and "expired" never go stale waiting for a timer. "withdrawn" is only ever a Halal mark's reading: its product
 * is no longer on the certificate it was issued against (server/modules/certificates/mark-state.ts markReading).
 */
export const PUBLIC_CERTIFICATE_STATUSES = ['active', 'expiringSoon', 'expired', 'suspended', 'validSoon', 'cancelled', 'withdrawn'] as const;
export type PublicCertificateStatus = (typeof PUBLIC_CERTIFICATE_STATUSES)[number];

/** Spec 02 section 9: CB and internal certificates are "expiring soon" under 60 days before expiry. */
export const EXPIRING_SOON_DAYS = 60;
const DAY_MS = 86_400_000;

export interface CertificateDates {
  status: number;
  validFrom: Date;
  expiresAt: Date;
  suspendedAt: Date | null;
  /** A Halal mark's code 4 is "valid soon", not "suspended" (machines/halal-mark.ts). */
  kind?: string;
  /** A Halal mark whose lifecycle ended in its cancelled state (its code stays 2): see cancelledMarkIds. */
  cancelled?: boolean;
}

/** Code 4 means suspended for certificates; for a Halal mark it is "valid soon", which the dates tell anyway. */
export const suspendedCode = (c: Pick<CertificateDates, 'status' | 'kind'>): boolean => c.status === 4 && c.kind !== 'halalMark';

/** Suspended: its code says so, or its suspension date is set (a lifecycle's SUSPEND writes both). */
export const isSuspended = (c: Pick<CertificateDates, 'status' | 'kind' | 'suspendedAt'>): boolean => suspendedCode(c) || Boolean(c.suspendedAt);

export function publicStatusOf(c: CertificateDates, now: Date = new Date()): PublicCertificateStatus {
  if (c.cancelled) return 'cancelled';
  if (isSuspended(c)) return 'suspended';
  if (expiredOn(c, now)) return 'expired';
  // A mark (or renewed certificate) issued ahead of its start date is "valid soon" until that date.
  if (c.validFrom.getTime() > now.getTime()) return 'validSoon';
  if (c.expiresAt.getTime() - now.getTime() < EXPIRING_SOON_DAYS * DAY_MS) return 'expiringSoon';
  return 'active';
}

/** Whole days until expiry (negative once expired), as the page's "expires in N days" line shows. */
export const daysUntil = (date: Date, now: Date = new Date()): number => Math.ceil((date.getTime() - now.getTime()) / DAY_MS);
