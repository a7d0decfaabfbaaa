import { getTableColumns, sql, type Query } from 'drizzle-orm';
import type { PgTable, SelectedFieldsOrdered } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../db/client';

/**
 * A statement of the per-event path, built once and prepared on every connection that runs it.
 *
 * drizzle's `.prepare(name)` makes a named server-side prepared statement (postgres.js parses it once per
 * connection), but a query built on `tx` inside each transaction is rebuilt from its AST every time, and building
 * (not the database) was most of the engine's CPU per event. A prepared query built on `db` cannot be reused either:
 * it runs on the pool (PostgreSQL) or waits for the open transaction (PGlite), outside the row lock. So the SQL text
 * is built once with placeholders, and each transaction asks its own session for the prepared query — what
 * `.prepare(name)` does internally, minus the rebuild.
 *
 * Placeholder values go to the driver as they are (drizzle does not encode placeholders): pass jsonb as JSON text and
 * timestamps as ISO strings.
 */
export class HotStatement<Row = unknown> {
  private query: Query | undefined;

  constructor(
    private readonly name: string,
    private readonly build: (db: Db | Tx) => { toSQL(): Query },
    /** The columns a SELECT or RETURNING maps its rows with; none for a plain write. */
    private readonly fields?: SelectedFieldsOrdered,
  ) {}

  async execute(tx: Tx, values: Record<string, unknown>): Promise<Row[]> {
    this.query ??= this.build(tx).toSQL();
    const prepared = tx._.session.prepareQuery(this.query, this.fields, this.name, true);
    const result = await prepared.execute(values);
    return (this.fields ? result : []) as Row[];
  }
}

/** The ordered field list a statement maps its result rows with: every column of `table`, or the given ones. */
export function fieldsOf(table: PgTable, only?: readonly string[]): SelectedFieldsOrdered {
  return Object.entries(getTableColumns(table))
    .filter(([key]) => !only || only.includes(key))
    .map(([key, column]) => ({ path: [key], field: column }));
}

/** `sql.placeholder` as an SQL value, accepted wherever a column value is (set, values). */
export const param = (name: string) => sql`${sql.placeholder(name)}`;
