import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client';

/** The next value of the shared number sequence (request, bill and certificate numbers). */
export async function nextSequenceValue(tx: Tx): Promise<number> {
  const [row] = await tx
    .select({ n: sql<string>`nextval('request_number_seq')::text` })
    .from(sql`(values (1)) as one(x)`)
    .prepare('wf_next_number')
    .execute();
  return Number(row.n);
}
