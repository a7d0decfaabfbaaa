import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { date, interval, jsonb, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { drizzleOnPglite } from '../../db/client';

/**
 * db/client.ts `drizzleOnPglite`: drizzle on PGlite without the parsers drizzle names in every query (PGlite copies
 * all of its own for such a query). The rows must be exactly what plain drizzle reads, in a query and in a
 * transaction, for the types drizzle keeps as text and for the rest.
 */
const moments = pgTable('moments', {
  id: text('id').primaryKey(),
  at: timestamp('at', { withTimezone: true, mode: 'date' }),
  atText: timestamp('at_text', { withTimezone: true, mode: 'string' }),
  local: timestamp('local', { mode: 'date' }),
  day: date('day'),
  dayDate: date('day_date', { mode: 'date' }),
  span: interval('span'),
  amount: numeric('amount'),
  data: jsonb('data'),
});

const CREATE = sql`create table moments (id text primary key, at timestamptz, at_text timestamptz, local timestamp, day date,
  day_date date, span interval, amount numeric, data jsonb)`;
const INSERT = sql`insert into moments values ('a', '2026-11-27 10:00:00.123+03', '2026-11-27 10:00:00+03', '2026-11-27 10:00',
  '2026-11-27', '2026-02-28', '1 day 02:00:00', 12.50, '{"n": 1, "s": "ش"}')`;
const RAW = sql`select '2026-11-27 10:00:00+03'::timestamptz as tz, '2026-11-27 10:00'::timestamp as ts, '2026-11-27'::date as d,
  '1 day 2 hours'::interval as i, array['2026-11-27 10:00:00+03'::timestamptz] as tza, array[1.5::numeric] as na,
  array['2026-11-27'::date] as da, array['1 hour'::interval] as ia, array['2026-11-27 10:00'::timestamp] as tsa,
  '{"a": [1, 2]}'::jsonb as j, 42::int8 as big, 7 as small, true as yes, 'نص' as words`;

describe('drizzle on PGlite without per-query parsers', () => {
  let plainClient: PGlite;
  let fastClient: PGlite;
  let plain: ReturnType<typeof drizzle>;
  let fast: Awaited<ReturnType<typeof drizzleOnPglite>>;
  const options: unknown[] = [];

  beforeAll(async () => {
    plainClient = new PGlite();
    fastClient = new PGlite();
    plain = drizzle({ client: plainClient });
    fast = await drizzleOnPglite(fastClient);
    for (const db of [plain, fast]) {
      await db.execute(CREATE);
      await db.execute(INSERT);
    }
    // What reaches PGlite from here on.
    const query = fastClient.query.bind(fastClient);
    fastClient.query = ((text: string, params?: unknown[], opts?: unknown) => {
      options.push(opts);
      return query(text, params, opts as never);
    }) as typeof fastClient.query;
  });
  afterAll(async () => {
    await plainClient.close();
    await fastClient.close();
  });

  it('reads every type as plain drizzle does', async () => {
    options.length = 0;
    expect(await fast.execute(RAW)).toEqual(await plain.execute(RAW));
    expect(await fast.select().from(moments)).toEqual(await plain.select().from(moments));
    const [row] = await fast.select().from(moments);
    expect(row!.at).toEqual(new Date('2026-11-27T07:00:00.123Z'));
    expect(row!.day).toBe('2026-11-27');
    expect(row!.span).toBe('1 day 02:00:00');
    // And PGlite was not asked to copy its parsers.
    expect(options.length).toBeGreaterThanOrEqual(3);
    for (const o of options) expect((o as { parsers?: unknown } | undefined)?.parsers).toBeUndefined();
  });

  it('reads the same inside a transaction, and writes what it is given', async () => {
    const read = (db: typeof plain) =>
      db.transaction(async (tx) => {
        await tx.update(moments).set({ atText: '2026-01-01 00:00:00+00', dayDate: new Date('2026-03-01T00:00:00Z') });
        const rows = await tx.select().from(moments);
        const raw = await tx.execute(RAW);
        return { rows, raw };
      });
    expect(await read(fast)).toEqual(await read(plain));
  });
});
