import type postgres from 'postgres';
import { PostgresJsSession, PostgresJsTransaction } from 'drizzle-orm/postgres-js';
import type { Db, Tx } from '../db/client';
import { sql as drizzleSql, type SQL } from 'drizzle-orm';

/** A query with positional parameters as a drizzle SQL (PGlite's path of sendNow). */
function sqlRaw(query: { sql: string; params: unknown[] }): SQL {
  const parts = query.sql.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  for (let i = 0; i < parts.length; i++) chunks.push(i % 2 ? drizzleSql`${query.params[Number(parts[i]) - 1]}` : drizzleSql.raw(parts[i]));
  return drizzleSql.join(chunks);
}

/*
 * A transaction that sends BEGIN with its first statement and COMMIT with its last write: two round trips fewer per
 * event on PostgreSQL (docs/performance.md, seventh pass).
 *
 * postgres.js's `begin` sends BEGIN and waits for its answer before it runs the callback, and each statement is
 * awaited before COMMIT is sent: a pair event (lock, write) took four round trips. Here a connection is reserved and
 * queries are queued on it back to back; postgres.js writes queued queries in one socket write and PostgreSQL answers
 * them in order (each with its own Sync: an error ends only its own query, and the transaction is then aborted).
 *
 * - BEGIN and `first`: the first statement must be harmless outside a transaction (a read, a row lock, a sequence
 *   draw): should BEGIN fail while the connection survives, `first` has run in autocommit and nothing else is sent —
 *   `rest` starts only once BEGIN's answer is in.
 * - `defer(write, mark)`: the transaction's last statement, not awaited by its caller. A guard and COMMIT are queued
 *   right behind it. The write must mark the transaction when it has done its work (`set_config(DEFERRED_MARK,
 *   mark, true)` on its row); the guard fails (division by zero) unless the mark is there. So whatever becomes of the
 *   write — a database error (the transaction is aborted), an error in the driver before it was sent, a row that was
 *   not there — the guard does not pass and PostgreSQL answers that COMMIT with ROLLBACK: nothing of the transaction
 *   is kept, and the write's own error is thrown (else the guard's), as when the write was awaited. One deferred
 *   write per transaction, and nothing may be sent after it. The write must already be queued on the connection when
 *   it is deferred (`sendNow`, HotStatement.send): a drizzle query is sent a few microtasks after it is awaited, which
 *   could put it behind the guard and COMMIT — and then it would run, in autocommit, after the transaction ended.
 *
 * ROLLBACK when anything else throws, the connection back to the pool in every case. No savepoints on this handle:
 * nothing on the engine's per-event path opens a nested transaction. PGlite (one connection, in-process) runs
 * `db.transaction` and awaits the deferred writes before its COMMIT.
 */

export type Defer = (write: Promise<unknown>, mark: string) => void;

/** The transaction-local setting a deferred write sets to its mark once it has done its work. */
export const DEFERRED_MARK = 'wf.deferred';

interface DrizzleSessionFields {
  client: postgres.Sql;
  dialect: ConstructorParameters<typeof PostgresJsSession>[1];
  schema: ConstructorParameters<typeof PostgresJsSession>[2];
  options: ConstructorParameters<typeof PostgresJsSession>[3];
}

/** The postgres.js session under a drizzle database, or undefined for PGlite. */
function postgresSession(db: Db): DrizzleSessionFields | undefined {
  const session = (db as unknown as { session?: unknown }).session;
  return session instanceof PostgresJsSession ? (session as unknown as DrizzleSessionFields) : undefined;
}

/**
 * Queues a statement on the transaction's connection at once (postgres.js; the logger sees it as drizzle's would), so
 * that whatever is sent after this call goes out after it. On PGlite, the query as drizzle runs it.
 */
export function sendNow(tx: Tx, query: { sql: string; params: unknown[] }): Promise<unknown> {
  const session = (tx as unknown as { _: { session: unknown } })._.session;
  // then(): a drizzle query runs again each time it is awaited; a plain promise does not.
  if (!(session instanceof PostgresJsSession)) return tx.execute(sqlRaw(query)).then((r) => r);
  const s = session as unknown as { client: postgres.Sql; logger: { logQuery(q: string, p: unknown[]): void } };
  s.logger.logQuery(query.sql, query.params);
  return s.client.unsafe(query.sql, query.params as never[], { prepare: true }).execute();
}

/** Whether `pipelinedTransaction` pipelines on this database (PostgreSQL through postgres.js). */
export const pipelines = (db: Db): boolean => postgresSession(db) !== undefined;

/** Errors that end the connection: the server's shutdown codes (57P0x), connection exceptions (08xxx), postgres.js's and the socket's. */
function connectionLost(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return /^(57P0[123]|08...)$/.test(code) || code.startsWith('CONNECTION_') || code === 'CONNECT_TIMEOUT' || /^E[A-Z]+$/.test(code);
}

/** Fails (division by zero, or 25P02 in an aborted transaction) unless the deferred write left its mark. */
const GUARD = `select 1 / coalesce(current_setting('${DEFERRED_MARK}', true) = $1, false)::int`;

export async function pipelinedTransaction<A, T>(
  db: Db,
  first: (tx: Tx) => Promise<A>,
  rest: (tx: Tx, a: A, defer: Defer) => Promise<T>,
  /** false: the plain `db.transaction` (each statement awaited), also on PostgreSQL. */
  pipeline = true,
): Promise<T> {
  const deferred: Promise<unknown>[] = [];
  let mark: string | undefined;
  const defer: Defer = (write, m) => {
    if (mark !== undefined) throw new Error('one deferred write per transaction');
    write.catch(() => {});
    deferred.push(write);
    mark = m;
  };
  const session = pipeline ? postgresSession(db) : undefined;
  if (!session) {
    return db.transaction(async (tx) => {
      const result = await rest(tx, await first(tx), defer);
      await Promise.all(deferred);
      return result;
    });
  }
  const reserved = await session.client.reserve();
  let open = false;
  // The connection was lost: postgres.js has put it back among its closed connections (to reconnect on demand); it
  // must then be neither written to (no ROLLBACK: the server ended the transaction) nor released (release would mark
  // it open), and queries still queued on it are never answered (so COMMIT is not awaited).
  let lost = false;
  try {
    // execute(): queued now. A postgres.js query is otherwise sent when first awaited, which could put the first
    // statement on the wire before BEGIN.
    const began = reserved.unsafe('begin').execute();
    const txSession = new PostgresJsSession(reserved, session.dialect, session.schema, session.options);
    // A reserved connection has no savepoints: see above.
    const tx = new PostgresJsTransaction(session.dialect, txSession as never, session.schema) as unknown as Tx;
    const firstDone = first(tx);
    firstDone.catch(() => {});
    // BEGIN's answer comes first (same connection, in order): only then may anything else be sent.
    await began;
    open = true;
    const result = await rest(tx, await firstDone, defer);
    // Behind the deferred write, in the same socket write when it is still queued.
    const guard = mark === undefined ? undefined : reserved.unsafe(GUARD, [mark], { prepare: true }).execute();
    guard?.catch(() => {});
    const commit = reserved.unsafe('commit').execute();
    commit.catch(() => {});
    open = false;
    try {
      await Promise.all(deferred);
      await guard;
    } catch (err) {
      // Had the write or the guard failed, the transaction is aborted and this COMMIT answers ROLLBACK (no error).
      if (!connectionLost(err)) await commit.catch(() => {});
      throw err;
    }
    await commit;
    return result;
  } catch (err) {
    lost = connectionLost(err);
    if (open && !lost) await reserved.unsafe('rollback').catch(() => {});
    throw err;
  } finally {
    if (!lost) reserved.release();
  }
}
