import { maySeeCertificateOf } from '../../../workflows/read-scope';
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { certificates, facilities, requests } from '../../../db/schema';
import type { Actor } from '../../../machines/actor';
import { AppError, AppErrorCode } from '../../errors';
import { toDualDate, type DualDate } from '../public/calendar';
import { publicStatusOf, type PublicCertificateStatus } from '../public/certificate-status';
import { cbCoverage } from '../requests/server-checks';
import { verificationUrl } from './qr';
import { markReading, markStandings, type MarkBasis } from './mark-state';

export type CertificateRow = typeof certificates.$inferSelect;

export interface PartyView {
  publicId: string;
  type: string;
  nameAr: string;
  nameEn: string;
  registrationNumber: string | null;
  countryCode: string;
  city: string | null;
}

export interface CertificateView {
  id: string;
  number: string;
  legacyNumber: string | null;
  /** 'internalHalal' | 'externalHalal' | 'cbDesignation' | 'halalMark' */
  kind: string;
  /**
   * Stored status code (1 active, 2 expired, 3 expiring soon, 4 suspended) and what a person sees today; for a mark,
   * `basis` says when that is read from the certificate it rests on (mark-state.ts markReading), else null.
   */
  status: { code: number; public: PublicCertificateStatus; basis: MarkBasis | null };
  holder: PartyView;
  /** The conformity body that issued an external certificate or mark; null when the Halal center issued it. */
  issuer: PartyView | null;
  scope: string | null;
  categories: string[];
  /** `deactivated` (119): the product's category is outside its issuing CB's designation now. */
  products: (CertificateRow['products'][number] & { deactivated?: true })[];
  issuedAt: DualDate;
  validFrom: DualDate;
  expiresAt: DualDate;
  verificationCode: string;
  verificationUrl: string;
  requestId: string | null;
  requestNumber: string | null;
  /** For a Halal mark: the certificate it was issued against. */
  certificate: { id: string; number: string } | null;
}

/**
 * Holders and issuers may see their certificates, a delegate only those of a service delegated to them there
 * (workflows/read-scope.ts); staff of the Halal center see all.
 */
export function maySeeCertificate(actor: Actor, cert: Pick<CertificateRow, 'kind' | 'facilityPublicId' | 'cbPublicId'>): boolean {
  return maySeeCertificateOf(actor, cert);
}

/**
 * The certificate, if this actor may see it. Someone else's certificate answers 404 like a missing one, so ids cannot
 * be probed.
 */
export async function loadCertificate(db: Db, actor: Actor, id: string): Promise<CertificateRow> {
  const [cert] = await db.select().from(certificates).where(eq(certificates.id, id));
  if (!cert || !maySeeCertificate(actor, cert)) throw new AppError(AppErrorCode.EntityNotFound);
  return cert;
}

const unknownParty = (publicId: string): PartyView => ({
  publicId,
  type: '',
  nameAr: '—',
  nameEn: '—',
  registrationNumber: null,
  countryCode: '',
  city: null,
});

/** Everything the certificate page and documents show. `publicBase` is the origin the QR code points to. */
export async function certificateView(db: Db, cert: CertificateRow, publicBase: string, now = new Date()): Promise<CertificateView> {
  const ids = [cert.facilityPublicId, ...(cert.cbPublicId ? [cert.cbPublicId] : [])];
  const parties = await db.select().from(facilities).where(inArray(facilities.publicId, ids));
  const party = (publicId: string): PartyView => {
    const f = parties.find((p) => p.publicId === publicId);
    if (!f) return unknownParty(publicId);
    return { publicId, type: f.type, nameAr: f.nameAr, nameEn: f.nameEn, registrationNumber: f.registrationNumber, countryCode: f.countryCode, city: f.city };
  };
  const mark = cert.kind === 'halalMark';
  const reading = mark ? markReading(cert, (await markStandings(db, [cert.id])).get(cert.id), now) : null;
  const [request] = cert.requestId
    ? await db.select({ number: requests.number }).from(requests).where(eq(requests.id, cert.requestId))
    : [];
  return {
    id: cert.id,
    number: cert.number,
    legacyNumber: cert.legacyNumber,
    kind: cert.kind,
    status: { code: cert.status, public: reading?.status ?? publicStatusOf(cert, now), basis: reading?.basis ?? null },
    holder: party(cert.facilityPublicId),
    issuer: cert.cbPublicId ? party(cert.cbPublicId) : null,
    scope: cert.scope,
    categories: cert.categories,
    products: await withDeactivated(db, cert),
    issuedAt: toDualDate(cert.issuedAt),
    validFrom: toDualDate(cert.validFrom),
    expiresAt: toDualDate(cert.expiresAt),
    verificationCode: cert.verificationCode,
    verificationUrl: verificationUrl(publicBase, cert.verificationCode),
    requestId: cert.requestId,
    requestNumber: request?.number ?? null,
    certificate: reading?.certificate ?? null,
  };
}

/**
 * The certificate's products, each under a category its issuing CB's designation no longer covers marked deactivated
 * (spec 02 section 4, 119), as the mark and shipment checks refuse them; a certificate the Halal center issued has none.
 */
async function withDeactivated(db: Db, cert: CertificateRow): Promise<CertificateView['products']> {
  const active = cert.products.length && cert.kind === 'externalHalal' ? await cbCoverage(db, cert.cbPublicId) : null;
  if (!active) return cert.products;
  return cert.products.map((p) => (p.category && !active.has(p.category) ? { ...p, deactivated: true as const } : p));
}

/** Whether the certificate (or mark) has its lifecycle's workflow: an id read, not the workflow itself. */
export async function hasLifecycle(db: Db, certificateId: string): Promise<boolean> {
  const [row] = await db.select({ id: requests.id }).from(requests).where(eq(requests.id, certificateId));
  return row !== undefined;
}
