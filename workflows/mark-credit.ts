import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { bills, certificates, markPackageCredits, requests } from '../db/schema';
import { serviceOf, type ServiceRegistry } from '../machines/services';
import { formatAmount, toHalalas } from '../machines/services/fees';
import type { RequestContext } from '../machines/types';

/*
 * Carry-over credit of Halal-mark packages (spec 02 section 9: "Packages range from N to M tags ... The balance carries
 * over as credit"; issue 14 item 2). Reading (README "Choices"):
 * - A package of T tags is priced per tag (one tag = one product's mark for the package's validity, so the fee counts
 *   the products the package covers); the products chosen now get their marks, the other tags are the package's
 *   pre-issued balance (spec 02 data model: "package, number of products, pre-issued balance").
 * - An earlier package's unused tags (tags - marks it issued) are worth what it paid per tag (its bill before credit,
 *   excluding VAT, divided by its tags). They carry over whether or not the earlier package has since expired, but only
 *   to a later package of the SAME certificate requested by the SAME facility; only a paid package whose marks were
 *   issued has a balance (an unpaid, cancelled or expired bill bought nothing).
 * - The credit is applied when the new package's bill is created, up to its amount (the bill is never below zero);
 *   what is consumed is recorded per source, so a balance is credited once. The sources' request rows are locked first
 *   (FOR UPDATE, in id order), so two packages billed at the same time cannot both consume the same balance.
 */

type Handle = Tx | Db;

const MARK_KINDS = ['internalHalalMark', 'externalHalalMark'];

export interface CreditSource {
  requestId: string;
  number: string;
  tags: number;
  unusedTags: number;
  /** Halalas still available from this package (its unused tags' value minus what later packages consumed). */
  available: number;
}

/** The earlier packages of a certificate that still have a balance, oldest first. */
export async function creditSources(
  db: Handle,
  q: { requestId: string; facilityPublicId: string; certificateId: string; lock?: boolean },
  services?: ServiceRegistry,
): Promise<CreditSource[]> {
  const candidates = db
    .select({ id: requests.id, number: requests.number, kind: requests.kind, snapshot: requests.snapshot })
    .from(requests)
    .where(
      and(
        inArray(requests.kind, MARK_KINDS),
        // Only a completed package (paid, marks issued) can be a source. Locking only those also keeps two packages
        // submitted at once from each locking the other's row while holding its own (a deadlock on PostgreSQL).
        eq(requests.stateValue, 'completed'),
        eq(requests.facilityPublicId, q.facilityPublicId),
        ne(requests.id, q.requestId),
        sql`${requests.snapshot}->'context'->'subject'->>'certificateId' = ${q.certificateId}`,
      ),
    )
    .orderBy(asc(requests.id));
  const rows = q.lock ? await candidates.for('update') : await candidates;
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const paid = await db
    .select({ requestId: bills.requestId, amount: bills.amount, credit: bills.credit })
    .from(bills)
    .where(and(inArray(bills.requestId, ids), eq(bills.feeKind, 'halalMark'), eq(bills.status, 2)));
  const issued = await db
    .select({ requestId: certificates.requestId, n: sql<number>`count(*)::int` })
    .from(certificates)
    .where(and(inArray(certificates.requestId, ids), eq(certificates.kind, 'halalMark')))
    .groupBy(certificates.requestId);
  const consumed = await db
    .select({ source: markPackageCredits.sourceRequestId, sum: sql<string>`coalesce(sum(${markPackageCredits.amount}), 0)::text` })
    .from(markPackageCredits)
    .where(inArray(markPackageCredits.sourceRequestId, ids))
    .groupBy(markPackageCredits.sourceRequestId);
  const out: CreditSource[] = [];
  for (const r of rows) {
    const bill = paid.find((b) => b.requestId === r.id);
    const marks = issued.find((i) => i.requestId === r.id)?.n ?? 0;
    if (!bill || marks === 0) continue;
    const context = ((r.snapshot as { context?: unknown }).context ?? {}) as RequestContext;
    const def = serviceOf(r.kind, services);
    const tags = def?.project(context.data ?? {}, context).marks?.tags ?? 0;
    const unusedTags = Math.max(0, tags - marks);
    if (!tags || !unusedTags) continue;
    const paidBeforeCredit = toHalalas(bill.amount) + toHalalas(bill.credit ?? '0');
    const value = Math.floor((paidBeforeCredit * unusedTags) / tags);
    const used = toHalalas(consumed.find((c) => c.source === r.id)?.sum ?? '0');
    const available = Math.max(0, value - used);
    if (available > 0) out.push({ requestId: r.id, number: r.number, tags, unusedTags, available });
  }
  return out;
}

/** The credit a bill of `base` halalas gets from `sources`: never more than the bill, never more than available. */
export function planCredit(base: number, sources: readonly CreditSource[]): { credit: number; uses: { requestId: string; amount: number }[]; left: number } {
  let due = Math.max(0, base);
  const uses: { requestId: string; amount: number }[] = [];
  for (const s of sources) {
    if (due <= 0) break;
    const amount = Math.min(due, s.available);
    if (amount > 0) uses.push({ requestId: s.requestId, amount });
    due -= amount;
  }
  const credit = uses.reduce((sum, u) => sum + u.amount, 0);
  const total = sources.reduce((sum, s) => sum + s.available, 0);
  return { credit, uses, left: total - credit };
}

/** Records what a new package's bill consumed (in the transaction that created the bill). */
export async function recordCredit(
  tx: Tx,
  q: { requestId: string; facilityPublicId: string; certificateId: string; billId: string | null; now: Date },
  uses: readonly { requestId: string; amount: number }[],
): Promise<void> {
  if (!uses.length) return;
  await tx.insert(markPackageCredits).values(
    uses.map((u) => ({
      sourceRequestId: u.requestId,
      usedByRequestId: q.requestId,
      billId: q.billId,
      certificateId: q.certificateId,
      facilityPublicId: q.facilityPublicId,
      amount: formatAmount(u.amount),
      createdAt: q.now,
    })),
  );
}
