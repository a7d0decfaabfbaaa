import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client';

/** Each kind of thing people see a number of has its own series (spec: requests, bills, certificates, marks). */
export const NUMBER_SERIES = {
  request: 'request_number_seq',
  bill: 'bill_number_seq',
  certificate: 'certificate_number_seq',
  mark: 'mark_number_seq',
} as const;
export type NumberSeries = keyof typeof NUMBER_SERIES;

/** The next value of a number series. */
export async function nextSequenceValue(tx: Tx, series: NumberSeries = 'request'): Promise<number> {
  const [row] = await tx
    .select({ n: sql<string>`nextval(${NUMBER_SERIES[series]})::text` })
    .from(sql`(values (1)) as one(x)`)
    .prepare(`wf_next_${series}_number`)
    .execute();
  return Number(row.n);
}

/** '<prefix>-2026-000123' (requests have no prefix: '2026-000123'): the year and the series' next value. */
export async function nextNumber(tx: Tx, series: NumberSeries, now: Date, prefix?: string): Promise<string> {
  const n = `${now.getUTCFullYear()}-${String(await nextSequenceValue(tx, series)).padStart(6, '0')}`;
  return prefix ? `${prefix}-${n}` : n;
}
