import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Tx } from '../db/client';
import { HotStatement } from './hot-statements';

/** Each kind of thing people see a number of has its own series (spec: requests, bills, certificates, marks). */
export const NUMBER_SERIES = {
  request: 'request_number_seq',
  bill: 'bill_number_seq',
  certificate: 'certificate_number_seq',
  mark: 'mark_number_seq',
} as const;
export type NumberSeries = keyof typeof NUMBER_SERIES;

/** One prepared statement per series (the sequence name is part of the text, as before). */
const nextStatements = Object.fromEntries(
  Object.entries(NUMBER_SERIES).map(([series, seq]) => {
    const n = sql<string>`nextval(${seq})::text`;
    const query = new PgDialect().sqlToQuery(sql`select ${n} from (values (1)) as one(x)`);
    return [series, new HotStatement<{ n: string }>(`wf_next_${series}_number`, () => ({ toSQL: () => query }), [{ path: ['n'], field: n }])];
  }),
) as Record<NumberSeries, HotStatement<{ n: string }>>;

/** The next value of a number series. */
export async function nextSequenceValue(tx: Tx, series: NumberSeries = 'request'): Promise<number> {
  const [row] = await nextStatements[series].execute(tx, {});
  return Number(row.n);
}

/** '<prefix>-2026-000123' (requests have no prefix: '2026-000123'): the year and the series' next value. */
export async function nextNumber(tx: Tx, series: NumberSeries, now: Date, prefix?: string): Promise<string> {
  const n = `${now.getUTCFullYear()}-${String(await nextSequenceValue(tx, series)).padStart(6, '0')}`;
  return prefix ? `${prefix}-${n}` : n;
}
