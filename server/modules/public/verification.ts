import { eq, inArray, or } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { certificates, facilities } from '../../../db/schema';
import { toDualDate, type DualDate } from './calendar';
import { daysUntil, publicStatusOf, type PublicCertificateStatus } from './certificate-status';
import { countryNames } from './countries';
import { markReading, markStandings, type MarkBasis } from '../certificates/mark-state';

export interface PartyInfo {
  publicId: string;
  nameAr: string;
  nameEn: string;
  countryCode: string;
  countryNameAr: string;
  countryNameEn: string;
  city: string | null;
}

export interface VerifiedCertificate {
  number: string;
  legacyNumber: string | null;
  /** 'internalHalal' | 'externalHalal' | 'cbDesignation' | 'halalMark' */
  kind: string;
  status: PublicCertificateStatus;
  /**
   * For a Halal mark read from the certificate it rests on (suspended, expired, or its product no longer on it: see
   * mark-state.ts markReading), why; null otherwise. `certificateNumber` names that certificate (marks only).
   */
  basis: MarkBasis | null;
  certificateNumber: string | null;
  /** Days until expiry; negative once expired. */
  daysRemaining: number;
  scope: string | null;
  categories: string[];
  products: { nameAr: string; nameEn: string; brandAr?: string; brandEn?: string; hsCode?: string }[];
  holder: PartyInfo;
  /** The conformity body that issued an external certificate or mark; null when the Halal center issued it. */
  issuer: PartyInfo | null;
  issuedAt: DualDate;
  validFrom: DualDate;
  expiresAt: DualDate;
}

/** What a QR code may carry: the random verification code, or a certificate number typed by a person. */
export const VERIFICATION_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9\-_/.]{2,63}$/;

/**
 * Looks a certificate or Halal mark up by its verification code (from the QR) or its number. Returns null for
 * an unknown code: the page says plainly that no such certificate exists, which is also what a forged code gets.
 */
export async function verifyCertificate(db: Db, code: string, now = new Date()): Promise<VerifiedCertificate | null> {
  const [cert] = await db
    .select()
    .from(certificates)
    .where(or(eq(certificates.verificationCode, code), eq(certificates.number, code)))
    .limit(1);
  if (!cert) return null;
  const ids = [cert.facilityPublicId, ...(cert.cbPublicId ? [cert.cbPublicId] : [])];
  const parties = await db.select().from(facilities).where(inArray(facilities.publicId, ids));
  const party = (publicId: string): PartyInfo => {
    const f = parties.find((p) => p.publicId === publicId);
    // A certificate always names a facility; a missing row means it was deleted, which the page shows as unknown.
    if (!f) return { publicId, nameAr: '—', nameEn: '—', countryCode: '', countryNameAr: '', countryNameEn: '', city: null };
    return { publicId, nameAr: f.nameAr, nameEn: f.nameEn, countryCode: f.countryCode, ...countryNames(f.countryCode), city: f.city };
  };
  const reading = cert.kind === 'halalMark' ? markReading(cert, (await markStandings(db, [cert.id])).get(cert.id), now) : null;
  return {
    number: cert.number,
    legacyNumber: cert.legacyNumber,
    kind: cert.kind,
    status: reading?.status ?? publicStatusOf(cert, now),
    basis: reading?.basis ?? null,
    certificateNumber: reading?.certificate?.number ?? null,
    daysRemaining: daysUntil(cert.expiresAt, now),
    scope: cert.scope,
    categories: cert.categories,
    products: cert.products,
    holder: party(cert.facilityPublicId),
    issuer: cert.cbPublicId ? party(cert.cbPublicId) : null,
    issuedAt: toDualDate(cert.issuedAt),
    validFrom: toDualDate(cert.validFrom),
    expiresAt: toDualDate(cert.expiresAt),
  };
}
