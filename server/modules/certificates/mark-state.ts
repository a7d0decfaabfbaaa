import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { certificates, requests } from '../../../db/schema';
import { productKey } from '../../../machines/services';
import { isSuspended, publicStatusOf, type CertificateDates, type PublicCertificateStatus } from '../public/certificate-status';
import { expiredOn } from '../../../workflows/certificate-behind';

/*
 * A Halal mark's own lifecycle (machines/halal-mark.ts) runs as a workflow whose id is the mark's id. Its cancelled
 * state keeps code 2 (the catalogue has no cancelled code), so "cancelled" is read from the state itself: the
 * workflow row's state value, the one source of truth for it.
 *
 * A mark also rests on the certificate it was issued against (its lifecycle's start data, `certificateId`): the mark's
 * catalogue (spec 02: 1 active, 2 expired, 3 expiring soon, 4 valid soon) has no code for "its certificate is
 * suspended" or "its product is no longer certified", so those are a reading of the certificate at read time, never a
 * stored status of the mark (markReading): a mark whose certificate is suspended reads suspended, one whose
 * certificate expired reads expired, one whose product a renewal dropped reads withdrawn. Reinstated, the mark reads
 * by its own dates again. The lists' status filter reads the same in SQL (markStatusSql).
 */

const CANCELLED = 'cancelled';

/** Why a mark reads other than its own dates say: the certificate it rests on. */
export const MARK_BASES = ['certificateSuspended', 'certificateExpired', 'productNotCertified'] as const;
export type MarkBasis = (typeof MARK_BASES)[number];

/** What a mark's reading needs of the certificate it was issued against. */
export interface MarkStanding {
  cancelled: boolean;
  certificate: (Pick<CertificateDates, 'status' | 'expiresAt' | 'suspendedAt'> & { id: string; number: string; productKeys: Set<string> }) | null;
}

/** The ids among `ids` of marks whose lifecycle is in its cancelled state. */
export async function cancelledMarkIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db
    .select({ id: requests.id })
    .from(requests)
    .where(and(inArray(requests.id, [...ids]), eq(requests.kind, 'halalMark'), eq(requests.stateValue, CANCELLED)));
  return new Set(rows.map((r) => r.id));
}

const certificateIdOf = (input: unknown): string | null => {
  const data = (input as { data?: { certificateId?: unknown } } | undefined)?.data;
  return typeof data?.certificateId === 'string' ? data.certificateId : null;
};

/**
 * The keys a certified product is known by: its own, and its name under its brand (a mark may name it so, as the
 * certificate's page shows it: server-checks.ts productsOnCertificate).
 */
const certifiedKeys = (products: readonly { nameEn: string; brandEn?: string; productNumber?: string }[]) =>
  new Set(products.flatMap((p) => [productKey(p), productKey({ nameEn: p.nameEn, brandEn: p.brandEn })]));

/** Each mark's cancelled state and the certificate it rests on (null for a mark without one, e.g. adopted rows). */
export async function markStandings(db: Db, ids: readonly string[]): Promise<Map<string, MarkStanding>> {
  const out = new Map<string, MarkStanding>();
  if (!ids.length) return out;
  const rows = await db
    .select({ id: requests.id, input: requests.input, stateValue: requests.stateValue })
    .from(requests)
    .where(and(inArray(requests.id, [...ids]), eq(requests.kind, 'halalMark')));
  const certIds = [...new Set(rows.map((r) => certificateIdOf(r.input)).filter((id): id is string => id !== null))];
  const certs = certIds.length
    ? await db
        .select({ id: certificates.id, number: certificates.number, status: certificates.status, expiresAt: certificates.expiresAt, suspendedAt: certificates.suspendedAt, products: certificates.products })
        .from(certificates)
        .where(inArray(certificates.id, certIds))
    : [];
  for (const r of rows) {
    const c = certs.find((x) => x.id === certificateIdOf(r.input));
    out.set(r.id, {
      cancelled: r.stateValue === CANCELLED,
      certificate: c ? { id: c.id, number: c.number, status: c.status, expiresAt: c.expiresAt, suspendedAt: c.suspendedAt, productKeys: certifiedKeys(c.products) } : null,
    });
  }
  return out;
}

/**
 * What a person sees for a mark: cancelled (its own state), expired by its own dates, withdrawn when its product is no
 * longer on its certificate, suspended or expired with its certificate, else its own dates.
 */
export function markReading(
  mark: CertificateDates & { products: { nameEn: string; brandEn?: string; productNumber?: string }[] },
  standing: MarkStanding | undefined,
  now: Date,
): { status: PublicCertificateStatus; basis: MarkBasis | null; certificate: { id: string; number: string } | null } {
  const own = publicStatusOf({ ...mark, cancelled: standing?.cancelled ?? false }, now);
  const cert = standing?.certificate ?? null;
  const ref = cert ? { id: cert.id, number: cert.number } : null;
  if (!cert || own === 'cancelled' || own === 'expired') return { status: own, basis: null, certificate: ref };
  if (mark.products.length && !mark.products.every((p) => cert.productKeys.has(productKey(p)))) return { status: 'withdrawn', basis: 'productNotCertified', certificate: ref };
  if (isSuspended({ ...cert, kind: 'certificate' })) return { status: 'suspended', basis: 'certificateSuspended', certificate: ref };
  if (expiredOn(cert, now)) return { status: 'expired', basis: 'certificateExpired', certificate: ref };
  return { status: own, basis: null, certificate: ref };
}

/** SQL: the certificates row is a mark whose lifecycle is cancelled (for the list's status filter). */
export const markCancelledSql = (): SQL =>
  sql`exists (select 1 from ${requests} where ${requests.id} = ${certificates.id} and ${requests.kind} = 'halalMark' and ${requests.stateValue} = ${CANCELLED})`;

/** productKey (machines/services/project.ts) of a jsonb product, in SQL. */
const nameKeyOf = (p: SQL): SQL => sql`('name:' || lower(coalesce(${p}->>'brandEn', '')) || '|' || lower(${p}->>'nameEn'))`;
const keyOf = (p: SQL): SQL =>
  sql`(case when coalesce(${p}->>'productNumber', '') <> '' then 'number:' || upper(${p}->>'productNumber') else ${nameKeyOf(p)} end)`;

/** SQL: the certificates row is a mark whose certificate (its lifecycle's `certificateId`) matches `cond`. */
const certificateBehindSql = (cond: SQL): SQL =>
  sql`exists (select 1 from "requests" as mark_lifecycle join "certificates" as mark_certificate on mark_certificate."id"::text = mark_lifecycle."input"->'data'->>'certificateId'
    where mark_lifecycle."id" = ${certificates.id} and mark_lifecycle."kind" = 'halalMark' and ${cond})`;

/** The derived readings of markReading, in SQL, for the list's status filter (each without the order of precedence). */
export const markBasisSql = (now: Date): Record<MarkBasis, SQL> => ({
  productNotCertified: certificateBehindSql(
    sql`exists (select 1 from jsonb_array_elements(${certificates.products}) as mp where not exists (select 1 from jsonb_array_elements(mark_certificate."products") as cp where ${keyOf(sql`mp`)} in (${keyOf(sql`cp`)}, ${nameKeyOf(sql`cp`)})))`,
  ),
  certificateSuspended: certificateBehindSql(sql`(mark_certificate."status" = 4 or mark_certificate."suspended_at" is not null)`),
  certificateExpired: certificateBehindSql(sql`(mark_certificate."status" = 2 or mark_certificate."expires_at" <= ${now.toISOString()}::timestamptz)`),
});

/** The certificate a mark was issued against (its lifecycle's start data), as id and number; null for anything else. */
export async function markCertificate(db: Db, markId: string): Promise<{ id: string; number: string } | null> {
  const [row] = await db.select({ input: requests.input }).from(requests).where(and(eq(requests.id, markId), eq(requests.kind, 'halalMark')));
  const id = certificateIdOf(row?.input);
  if (!id) return null;
  const [cert] = await db.select({ id: certificates.id, number: certificates.number }).from(certificates).where(eq(certificates.id, id));
  return cert ?? null;
}
