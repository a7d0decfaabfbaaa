import { Column, DrizzleQueryError, Param, Placeholder, SQL, getTableColumns, is, sql, type Logger, type Query } from 'drizzle-orm';
import type { PgTable, SelectedFieldsOrdered } from 'drizzle-orm/pg-core';
import { PostgresJsSession } from 'drizzle-orm/postgres-js';
import type { Sql } from 'postgres';
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
 * On postgres.js the statement goes to the transaction's driver connection directly (`unsafe(text, params,
 * { prepare: true })`, what drizzle's prepared query sends), with drizzle's logger told and its errors wrapped the
 * same way (DrizzleQueryError), and the rows mapped with the columns' own decoders: drizzle's per-call prepared-query
 * object, its tracing spans, its placeholder walk (an `is()` prototype walk per parameter) and its generic row mapper
 * were 6–7 % of a plain event's profile, 3–4.5 % of the engine's CPU per mix operation (docs/performance-log.md,
 * "Eleventh look"). PGlite takes drizzle's path.
 *
 * Placeholder values go to the driver as they are (drizzle does not encode placeholders): pass jsonb as JSON text and
 * timestamps as ISO strings.
 */
export class HotStatement<Row = unknown> {
  private query: Query | undefined;
  /** Per parameter: the placeholder it reads, with the encoder of a Param around it, or the fixed value. */
  private fill: ({ name: string; encode?: (v: unknown) => unknown } | { value: unknown })[] | undefined;
  /**
   * Per result column: its key and decoder (a column, or an SQL value's decoder), as drizzle's mapper reads them; null
   * when a field is nested or of another kind (the statement then takes drizzle's path).
   */
  private decoders: { key: string; decoder: { mapFromDriverValue(v: unknown): unknown } }[] | null | undefined;

  constructor(
    private readonly name: string,
    private readonly build: (db: Db | Tx) => { toSQL(): Query },
    /** The columns a SELECT or RETURNING maps its rows with; none for a plain write. */
    private readonly fields?: SelectedFieldsOrdered,
  ) {}

  async execute(tx: Tx, values: Record<string, unknown>): Promise<Row[]> {
    this.query ??= this.build(tx).toSQL();
    const session = tx._.session;
    if (this.decoders === undefined) this.decoders = decodersOf(this.fields);
    if (session instanceof PostgresJsSession && this.decoders) return this.executeDirect(session as unknown as { client: Sql; logger: Logger }, values, this.decoders);
    const prepared = session.prepareQuery(this.query, this.fields, this.name, true);
    const result = await prepared.execute(values);
    return (this.fields ? result : []) as Row[];
  }

  private async executeDirect(
    session: { client: Sql; logger: Logger },
    values: Record<string, unknown>,
    decoders: { key: string; decoder: { mapFromDriverValue(v: unknown): unknown } }[],
  ): Promise<Row[]> {
    const query = this.query!;
    const fill = (this.fill ??= query.params.map((p) => {
      if (is(p, Placeholder)) return { name: p.name };
      if (is(p, Param) && is(p.value, Placeholder)) {
        const encoder = p.encoder;
        return { name: (p.value as Placeholder).name, encode: (v: unknown) => encoder.mapToDriverValue(v) };
      }
      return { value: p };
    }));
    const params = new Array<unknown>(fill.length);
    for (let i = 0; i < fill.length; i++) {
      const f = fill[i];
      if ('value' in f) params[i] = f.value;
      else {
        if (!(f.name in values)) throw new Error(`No value for placeholder "${f.name}" was provided`);
        params[i] = f.encode ? f.encode(values[f.name]) : values[f.name];
      }
    }
    session.logger.logQuery(query.sql, params);
    const client = session.client;
    if (!this.fields) {
      try {
        await client.unsafe(query.sql, params as never[], { prepare: true });
      } catch (e) {
        throw new DrizzleQueryError(query.sql, params, e as Error);
      }
      return [];
    }
    let rows: unknown[][];
    try {
      rows = (await client.unsafe(query.sql, params as never[], { prepare: true }).values()) as unknown as unknown[][];
    } catch (e) {
      throw new DrizzleQueryError(query.sql, params, e as Error);
    }
    const out = new Array<Row>(rows.length);
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r];
      const mapped: Record<string, unknown> = {};
      for (let i = 0; i < decoders.length; i++) {
        const v = row[i];
        mapped[decoders[i].key] = v === null ? null : decoders[i].decoder.mapFromDriverValue(v);
      }
      out[r] = mapped as Row;
    }
    return out;
  }
}

/** drizzle's mapResultRow decoders for top-level fields: a column decodes itself, an SQL value with its decoder. */
function decodersOf(fields: SelectedFieldsOrdered | undefined): { key: string; decoder: { mapFromDriverValue(v: unknown): unknown } }[] | null {
  if (!fields) return [];
  const out: { key: string; decoder: { mapFromDriverValue(v: unknown): unknown } }[] = [];
  for (const f of fields) {
    if (f.path.length !== 1) return null;
    if (is(f.field, Column)) out.push({ key: f.path[0], decoder: f.field });
    else if (is(f.field, SQL)) out.push({ key: f.path[0], decoder: (f.field as unknown as { decoder: { mapFromDriverValue(v: unknown): unknown } }).decoder });
    else return null;
  }
  return out;
}

/** The ordered field list a statement maps its rows with: every column of `table`, or the given ones. */
export function fieldsOf(table: PgTable, only?: readonly string[]): SelectedFieldsOrdered {
  return Object.entries(getTableColumns(table))
    .filter(([key]) => !only || only.includes(key))
    .map(([key, column]) => ({ path: [key], field: column }));
}

/** `sql.placeholder` as an SQL value, accepted wherever a column value is (set, values). */
export const param = (name: string) => sql`${sql.placeholder(name)}`;
