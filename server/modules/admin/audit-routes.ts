import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, desc, eq, gte, ilike, lte, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { auditLogs } from '../../../db/schema';
import { Permissions } from '../../../machines/permissions';
import { errorResponses, zSearchText } from '../../schemas';
import { csvLine } from '../../admin/audit-log';

const ZFilter = z.object({
  /** Free text: user name, path, action, address or request id. */
  search: zSearchText(200),
  action: z.string().trim().max(100).optional(),
  outcome: z.enum(['success', 'failure']).optional(),
  userName: zSearchText(200),
  requestId: zSearchText(100),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});

const ZEntry = z.object({
  id: z.number(),
  at: z.string(),
  userId: z.string().nullable(),
  userName: z.string().nullable(),
  action: z.string(),
  method: z.string().nullable(),
  route: z.string().nullable(),
  path: z.string().nullable(),
  statusCode: z.number().nullable(),
  outcome: z.enum(['success', 'failure']),
  ip: z.string().nullable(),
  requestId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
});

const like = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function where(f: z.infer<typeof ZFilter>): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  if (f.search) {
    const p = like(f.search);
    parts.push(
      or(ilike(auditLogs.userName, p), ilike(auditLogs.path, p), ilike(auditLogs.action, p), ilike(auditLogs.ip, p), ilike(auditLogs.requestId, p)),
    );
  }
  if (f.action) parts.push(eq(auditLogs.action, f.action));
  if (f.outcome) parts.push(eq(auditLogs.outcome, f.outcome));
  if (f.userName) parts.push(ilike(auditLogs.userName, like(f.userName)));
  if (f.requestId) parts.push(eq(auditLogs.requestId, f.requestId));
  if (f.from) parts.push(gte(auditLogs.at, new Date(f.from)));
  if (f.to) parts.push(lte(auditLogs.at, new Date(f.to)));
  return parts.length ? and(...parts) : undefined;
}

type Row = typeof auditLogs.$inferSelect;
const present = (r: Row) => ({ ...r, at: r.at.toISOString(), details: r.details ?? null });

const CSV_COLUMNS = ['id', 'at', 'userName', 'action', 'method', 'path', 'statusCode', 'outcome', 'ip', 'requestId', 'details'] as const;
const EXPORT_LIMIT = 100_000;

/** audit-logs: search the audit log and export what a search found as CSV. */
const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/audit-logs',
    {
      config: { policy: Permissions.auditLogs.view },
      schema: {
        tags: ['admin'],
        summary: 'Searches the audit log, newest first',
        querystring: ZFilter.extend({ skipCount: z.coerce.number().int().min(0).default(0), maxResultCount: z.coerce.number().int().min(1).max(200).default(20) }),
        response: { 200: z.object({ totalCount: z.number(), items: z.array(ZEntry) }), ...errorResponses },
      },
    },
    async (request) => {
      const w = where(request.query);
      const [{ count }] = await app.db.select({ count: sql<number>`count(*)::int` }).from(auditLogs).where(w);
      const rows = await app.db
        .select()
        .from(auditLogs)
        .where(w)
        .orderBy(desc(auditLogs.at), desc(auditLogs.id))
        .limit(request.query.maxResultCount)
        .offset(request.query.skipCount);
      return { totalCount: count, items: rows.map(present) };
    },
  );

  app.get(
    '/api/admin/audit-logs/export',
    {
      config: { policy: Permissions.auditLogs.view, produces: 'text/csv' },
      schema: { tags: ['admin'], summary: 'The rows a search finds, as CSV (cells that look like formulas are neutralised)', querystring: ZFilter },
    },
    async (request, reply) => {
      const rows = await app.db.select().from(auditLogs).where(where(request.query)).orderBy(desc(auditLogs.at), desc(auditLogs.id)).limit(EXPORT_LIMIT);
      const lines = [CSV_COLUMNS.join(','), ...rows.map((r) => csvLine(CSV_COLUMNS.map((c) => r[c])))];
      const stamp = new Date().toISOString().slice(0, 10);
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="audit-log-${stamp}.csv"`);
      // A byte-order mark so that spreadsheet programs read the Arabic names as UTF-8.
      return `\uFEFF${lines.join('\r\n')}\r\n`;
    },
  );
};
export default auditRoutes;
