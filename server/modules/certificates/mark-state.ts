import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { certificates, requests } from '../../../db/schema';

/*
 * A Halal mark's own lifecycle (machines/halal-mark.ts) runs as a workflow whose id is the mark's id. Its cancelled
 * state keeps code 2 (the catalogue has no cancelled code), so "cancelled" is read from the state itself: the
 * workflow row's state value, the one source of truth for it.
 */

const CANCELLED = 'cancelled';

/** The ids among `ids` of marks whose lifecycle is in its cancelled state. */
export async function cancelledMarkIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db
    .select({ id: requests.id })
    .from(requests)
    .where(and(inArray(requests.id, [...ids]), eq(requests.kind, 'halalMark'), eq(requests.stateValue, CANCELLED)));
  return new Set(rows.map((r) => r.id));
}

/** SQL: the certificates row is a mark whose lifecycle is cancelled (for the list's status filter). */
export const markCancelledSql = (): SQL =>
  sql`exists (select 1 from ${requests} where ${requests.id} = ${certificates.id} and ${requests.kind} = 'halalMark' and ${requests.stateValue} = ${CANCELLED})`;

/** The certificate a mark was issued against (its lifecycle's start data), as id and number; null for anything else. */
export async function markCertificate(db: Db, markId: string): Promise<{ id: string; number: string } | null> {
  const [row] = await db.select({ input: requests.input }).from(requests).where(and(eq(requests.id, markId), eq(requests.kind, 'halalMark')));
  const data = (row?.input as { data?: { certificateId?: unknown } } | undefined)?.data;
  const id = typeof data?.certificateId === 'string' ? data.certificateId : null;
  if (!id) return null;
  const [cert] = await db.select({ id: certificates.id, number: certificates.number }).from(certificates).where(eq(certificates.id, id));
  return cert ?? null;
}
