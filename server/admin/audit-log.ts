import { lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { auditLogs } from '../../db/schema';
import { HotStatement } from '../../workflows/hot-statements';

export type AuditEntry = Omit<typeof auditLogs.$inferInsert, 'id' | 'at'> & { at?: Date };

/** Appends one row to the audit log (inside the caller's transaction when given one). */
export async function writeAudit(db: Db | Tx, entry: AuditEntry): Promise<void> {
  await db.insert(auditLogs).values(entry);
}

/** The row of one API call (server/admin/plugin.ts): its details are the error code of a refusal, or none. */
export type ApiCallEntry = Required<Pick<AuditEntry, 'action' | 'userId' | 'userName' | 'method' | 'route' | 'path' | 'statusCode' | 'outcome' | 'ip' | 'requestId'>> & {
  errorCode: string | null;
};

/**
 * writeAudit for every API write, as one statement built once: drizzle's build of the insert was ~5 % of an event
 * POST's CPU (docs/performance-log.md, HTTP fourth pass). The same row: `details` is `{ error: code }` or null.
 */
export function apiCallWriter(db: Db): (entry: ApiCallEntry) => Promise<void> {
  const statement = apiCallInsert(db).prepare('audit_api_call');
  return async (entry) => {
    await statement.execute(entry);
  };
}

const p = (name: keyof ApiCallEntry) => sql.placeholder(name);
const apiCallInsert = (db: Db | Tx) =>
  db.insert(auditLogs).values({
    action: p('action'),
    userId: p('userId'),
    userName: p('userName'),
    method: p('method'),
    route: p('route'),
    path: p('path'),
    statusCode: p('statusCode'),
    outcome: p('outcome'),
    ip: p('ip'),
    requestId: p('requestId'),
    details: sql`case when ${p('errorCode')}::text is null then null else jsonb_build_object('error', ${p('errorCode')}::text) end`,
  });

const apiCallInTx = new HotStatement('audit_api_call_tx', apiCallInsert);

/**
 * The same row, written inside the caller's transaction (an event's: SendOptions.alsoWrite), with a statement built
 * once and prepared per connection: the row commits with the event, with no commit of its own.
 */
export async function writeApiCallIn(tx: Tx, entry: ApiCallEntry): Promise<void> {
  await apiCallInTx.execute(tx, entry);
}

/** Deletes the rows older than `days` days; returns how many went. */
export async function purgeAudit(db: Db, days: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  const gone = await db.delete(auditLogs).where(lt(auditLogs.at, cutoff)).returning({ id: auditLogs.id });
  return gone.length;
}

/** A spreadsheet opens a cell that starts with = + - @ (or a tab/CR) as a formula; a leading ' keeps it text. */
export function neutraliseCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** One CSV field: neutralised, quoted when it holds a comma, quote or line break. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = neutraliseCell(typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value));
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (fields: unknown[]): string => fields.map(csvField).join(',');
