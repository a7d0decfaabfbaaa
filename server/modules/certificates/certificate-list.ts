import { certificatesReadable } from '../../../workflows/read-scope';
import { and, count, desc, eq, gt, gte, inArray, isNotNull, lt, lte, ne, not, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { certificates, facilities } from '../../../db/schema';
import type { Actor } from '../../../machines/actor';
import type { CertificateSummaryJson } from '../../../machines/forms/records';
import { isStaff } from '../../../machines/roles';
import { AppError, AppErrorCode } from '../../errors';
import { EXPIRING_SOON_DAYS, publicStatusOf, type PublicCertificateStatus } from '../public/certificate-status';
import type { Page } from '../../../workflows/engine';
import { canSee } from '../../../workflows/queries';
import type { CertificateRow } from './certificate-view';
import { markBasisSql, markCancelledSql, markReading, markStandings } from './mark-state';
import type { RenewalOffer } from './renewal-offer';

/**
 * One row of the certificates list (the certificate page has the rest), with its renewal offer (renewal-offer.ts): the
 * answer's shape (ZCertificateSummary) before the route labels its kind and status in the reader's language.
 */
export type CertificateSummary = Omit<CertificateSummaryJson, 'kindLabel' | 'status'> & {
  status: { code: number; public: PublicCertificateStatus };
};

export interface CertificateQuery {
  /** Any of number (or old-system number), product name, brand. */
  any?: string;
  number?: string;
  product?: string;
  brand?: string;
  status?: PublicCertificateStatus;
  /** Defaults to the certificates proper (Halal marks are listed with kind=halalMark). */
  kind?: string;
  /** One facility (or CB) the caller may see; its certificates as holder or issuer. */
  facilityId?: string;
  /** One facility (or CB) the caller may see; only the certificates it holds. */
  heldBy?: string;
  pageNumber: number;
  pageSize: number;
}

const DAY_MS = 86_400_000;
/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
const like = (text: string) => `%${text.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A product of the certificate whose `fields` (jsonb keys) match the pattern. */
const productMatches = (pattern: string, fields: readonly string[]): SQL =>
  sql`exists (select 1 from jsonb_array_elements(${certificates.products}) as p where ${sql.join(
    fields.map((f) => sql`(p->>${f}) ilike ${pattern}`),
    sql` or `,
  )})`;
const PRODUCT_FIELDS = ['nameAr', 'nameEn', 'hsCode'] as const;
const BRAND_FIELDS = ['brandAr', 'brandEn'] as const;

/**
 * The stored status and dates read as publicStatusOf (and, for a mark, markReading) reads them, in SQL, so a status
 * filter pages correctly.
 */
function statusCondition(status: PublicCertificateStatus, now: Date): SQL {
  // Code 4 of a mark is "valid soon" (its own catalogue); a cancelled mark shows cancelled whatever its dates.
  const cancelled = markCancelledSql();
  const ownSuspended = or(and(eq(certificates.status, 4), ne(certificates.kind, 'halalMark')), isNotNull(certificates.suspendedAt))!;
  const ownExpired = or(eq(certificates.status, 2), lte(certificates.expiresAt, now))!;
  // A mark's readings of the certificate it rests on, in markReading's order, after its own cancellation and expiry.
  const basis = markBasisSql(now);
  const own = and(not(cancelled), not(ownSuspended), not(ownExpired))!;
  const withdrawn = and(own, basis.productNotCertified)!;
  const certificateSuspended = and(own, not(basis.productNotCertified), basis.certificateSuspended)!;
  const certificateExpired = and(own, not(basis.productNotCertified), not(basis.certificateSuspended), basis.certificateExpired)!;
  const notYet = gt(certificates.validFrom, now);
  // Through the column's operator, so the date is mapped as the column's type (a raw Date breaks postgres.js).
  const soonLimit = new Date(now.getTime() + EXPIRING_SOON_DAYS * DAY_MS);
  const soon = lt(certificates.expiresAt, soonLimit);
  const live = and(own, not(basis.productNotCertified), not(basis.certificateSuspended), not(basis.certificateExpired))!;
  switch (status) {
    case 'cancelled':
      return cancelled;
    case 'withdrawn':
      return withdrawn;
    case 'suspended':
      return or(and(not(cancelled), ownSuspended), certificateSuspended)!;
    case 'expired':
      return or(and(not(cancelled), not(ownSuspended), ownExpired), certificateExpired)!;
    case 'validSoon':
      return and(live, notYet)!;
    case 'expiringSoon':
      return and(live, not(notYet), soon)!;
    case 'active':
      return and(live, not(notYet), gte(certificates.expiresAt, soonLimit))!;
  }
}

/**
 * A page of the certificates the actor may see, newest first: staff of the Halal center all of them, everybody else
 * those of their own facilities (as holder, or as the issuing CB). Asking for another facility's list is refused like
 * the request lists refuse it.
 */
export async function listCertificates(
  db: Db,
  actor: Actor,
  q: CertificateQuery,
  now = new Date(),
  /** The page's renewal offers, asked once for all its rows. */
  renewalOffersOf: (rows: CertificateRow[]) => Promise<(r: CertificateRow) => RenewalOffer>,
): Promise<Page<CertificateSummary>> {
  const where: SQL[] = [];
  const staff = isStaff(actor.permissions);
  for (const id of [q.facilityId, q.heldBy]) if (id && !canSee(actor, id)) throw new AppError(AppErrorCode.NotAuthorized);
  if (!staff) {
    if (!actor.facilityIds.length) return { items: [], totalCount: 0, pageNumber: q.pageNumber, pageSize: q.pageSize };
    // As holder or issuing CB, a delegate's only of the services delegated there (workflows/read-scope.ts).
    where.push(certificatesReadable(actor, { facility: certificates.facilityPublicId, cb: certificates.cbPublicId, kind: certificates.kind })!);
  }
  if (q.facilityId) where.push(or(eq(certificates.facilityPublicId, q.facilityId), eq(certificates.cbPublicId, q.facilityId))!);
  if (q.heldBy) where.push(eq(certificates.facilityPublicId, q.heldBy));
  where.push(q.kind ? eq(certificates.kind, q.kind) : ne(certificates.kind, 'halalMark'));
  if (q.number?.trim()) where.push(or(sql`${certificates.number} ilike ${like(q.number)}`, sql`${certificates.legacyNumber} ilike ${like(q.number)}`)!);
  if (q.product?.trim()) where.push(productMatches(like(q.product), PRODUCT_FIELDS));
  if (q.brand?.trim()) where.push(productMatches(like(q.brand), BRAND_FIELDS));
  if (q.any?.trim()) {
    const p = like(q.any);
    where.push(
      or(
        sql`${certificates.number} ilike ${p}`,
        sql`${certificates.legacyNumber} ilike ${p}`,
        productMatches(p, [...PRODUCT_FIELDS, ...BRAND_FIELDS]),
      )!,
    );
  }
  if (q.status) where.push(statusCondition(q.status, now));
  const cond = and(...where);
  const [{ n }] = await db.select({ n: count() }).from(certificates).where(cond);
  const rows = await db
    .select()
    .from(certificates)
    .where(cond)
    .orderBy(desc(certificates.issuedAt), desc(certificates.number))
    .limit(q.pageSize)
    .offset((q.pageNumber - 1) * q.pageSize);
  const ids = [...new Set(rows.flatMap((r) => [r.facilityPublicId, ...(r.cbPublicId ? [r.cbPublicId] : [])]))];
  const parties = ids.length
    ? await db.select({ publicId: facilities.publicId, nameAr: facilities.nameAr, nameEn: facilities.nameEn }).from(facilities).where(inArray(facilities.publicId, ids))
    : [];
  const party = (publicId: string) => parties.find((p) => p.publicId === publicId) ?? { publicId, nameAr: '—', nameEn: '—' };
  const standings = await markStandings(db, rows.filter((r) => r.kind === 'halalMark').map((r) => r.id));
  const offerOf = await renewalOffersOf(rows);
  const statusOf = (r: CertificateRow): PublicCertificateStatus => (r.kind === 'halalMark' ? markReading(r, standings.get(r.id), now).status : publicStatusOf(r, now));
  return { items: rows.map((r) => ({ ...summaryOf(r, statusOf(r), party), ...offerOf(r) })), totalCount: Number(n), pageNumber: q.pageNumber, pageSize: q.pageSize };
}

function summaryOf(r: CertificateRow, status: PublicCertificateStatus, party: (id: string) => CertificateSummary['holder']): Omit<CertificateSummary, keyof RenewalOffer> {
  const brands = new Map<string, { ar: string; en: string }>();
  for (const p of r.products) {
    const ar = p.brandAr?.trim() ?? '';
    const en = p.brandEn?.trim() ?? '';
    if (ar || en) brands.set(`${ar}|${en}`, { ar: ar || en, en: en || ar });
  }
  return {
    id: r.id,
    number: r.number,
    legacyNumber: r.legacyNumber,
    kind: r.kind,
    status: { code: r.status, public: status },
    holder: party(r.facilityPublicId),
    issuer: r.cbPublicId ? party(r.cbPublicId) : null,
    productCount: r.products.length,
    brands: [...brands.values()],
    product: r.kind === 'halalMark' && r.products[0] ? { nameAr: r.products[0].nameAr, nameEn: r.products[0].nameEn } : null,
    issuedAt: r.issuedAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
  };
}

