import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, asc, desc, eq, gte, inArray, isNull, lte, notInArray, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { bills, certificates, facilities, requestHistory, requests, users } from '../../../db/schema';
import { CLOCK_LIMITS, RUNNING_QUEUES } from '../../../machines/working-days';
import { clocksFor } from '../requests/clock';
import { Permissions } from '../../../machines/permissions';
import { ENTITY_KINDS } from '../../../machines/services/types';
import { isStaff } from '../../../machines/roles';
import { AppError, AppErrorCode } from '../../errors';
import { errorResponses } from '../../schemas';
import { statusLabel } from '../requests/present';
import { certificatesReadable, recordsReadable, requestsReadable } from '../../../workflows/read-scope';

/** Weeks shown in the received / decided chart (the current week and the ones before it). */
export const DASHBOARD_WEEKS = 8;
/** Queues a request waits in at a department of the Halal center (or with the applicant, or for payment). */
const OPEN_QUEUES = ['registration', 'audit', 'committee', 'applicant', 'payment'] as const;
/** A request is decided when it reaches its final state from a reviewing department (not withdrawn or expired unpaid). */
const DECIDING_QUEUES = ['registration', 'audit', 'committee'] as const;
const DAY_MS = 86_400_000;
const LIST_LIMIT = 20;

const ZStatusCount = z.object({ kind: z.string(), code: z.number(), label: z.string(), count: z.number() });
const ZMoney = z.object({ count: z.number(), total: z.number() });

const ZStaffDashboard = z.object({
  generatedAt: z.string(),
  byQueue: z.array(z.object({ queue: z.string(), count: z.number() })),
  byStatus: z.array(ZStatusCount),
  weekly: z.array(z.object({ week: z.string(), received: z.number(), decided: z.number() })),
  bills: z.object({ paid: ZMoney, unpaid: ZMoney }),
  /** Open requests with a time limit that are past it, by their working-day clocks (machines/working-days.ts). */
  overdue: z.number().nullable(),
  /** Open requests per employee they are assigned to (the department's queues), most first. */
  byAssignee: z.array(z.object({ userId: z.string(), name: z.string(), count: z.number() })),
});

const ZFacilityDashboard = z.object({
  generatedAt: z.string(),
  expiringSoonDays: z.number(),
  facilities: z.array(z.object({ publicId: z.string(), nameAr: z.string(), nameEn: z.string() })),
  openRequests: z.object({
    count: z.number(),
    byStatus: z.array(ZStatusCount),
    items: z.array(z.object({ id: z.string(), number: z.string(), kind: z.string(), facilityId: z.string(), status: z.object({ code: z.number(), label: z.string() }) })),
  }),
  unpaidBills: ZMoney.extend({
    items: z.array(z.object({ id: z.string(), number: z.string(), facilityId: z.string(), total: z.number(), dueAt: z.string().nullable(), requestId: z.string().nullable() })),
  }),
  expiringCertificates: z.array(z.object({ id: z.string(), number: z.string(), facilityId: z.string(), expiresAt: z.string(), daysLeft: z.number() })),
});

export type StaffDashboard = z.infer<typeof ZStaffDashboard>;
export type FacilityDashboard = z.infer<typeof ZFacilityDashboard>;

/** Monday 00:00 UTC of the week `iso` falls in (PostgreSQL's date_trunc('week') uses ISO weeks too). */
function weekStart(d: Date): Date {
  const day = (d.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - day));
}

/**
 * The dashboard of spec 01 section 2, one call per audience:
 * - the host (Halal.Dashboard.Host, staff of the Halal center): queue sizes per department and per status, requests received and decided per week,
 *   bills paid and unpaid;
 * - a tenant (Halal.Dashboard.Tenant, a facility user): the open requests, unpaid bills and certificates expiring soon of their own facilities only
 *   (the facilities of their actor, as every request list is scoped: workflows/queries.ts canSee).
 */
const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  const notEntity = notInArray(requests.kind, [...ENTITY_KINDS]);
  const live = and(isNull(requests.deletedAt), notEntity);
  const open = sql`${requests.queue} is distinct from 'final'`;

  async function byStatus(t: Parameters<typeof statusLabel>[0], where: SQL | undefined) {
    const rows = await app.db
      .select({ kind: requests.kind, code: requests.status, count: sql<number>`count(*)::int` })
      .from(requests)
      .where(where)
      .groupBy(requests.kind, requests.status)
      .orderBy(desc(sql`count(*)`), asc(requests.kind), asc(requests.status));
    return rows.map((r) => ({ ...r, label: statusLabel(t, r.kind, r.code) }));
  }

  async function billTotals(where: SQL | undefined) {
    const rows = await app.db
      .select({ status: bills.status, count: sql<number>`count(*)::int`, total: sql<string>`coalesce(sum(${bills.total}), 0)` })
      .from(bills)
      .where(where)
      .groupBy(bills.status);
    const of = (status: number) => {
      const r = rows.find((x) => x.status === status);
      return { count: r?.count ?? 0, total: Number(r?.total ?? 0) };
    };
    return { paid: of(2), unpaid: of(1) };
  }

  /** Open requests of the kinds with a time limit whose clock is past it. */
  async function overdueCount(now: Date): Promise<number> {
    const timed = await app.db
      .select({ id: requests.id, kind: requests.kind })
      .from(requests)
      .where(and(live, inArray(requests.queue, [...RUNNING_QUEUES]), inArray(requests.kind, Object.keys(CLOCK_LIMITS))));
    const clocks = await clocksFor(app.db, timed, app.settingsStore.current().holidays ?? [], now);
    return [...clocks.values()].filter((c) => c?.overdue).length;
  }

  /**
   * What each employee is working on: requests in a staff queue only. A request back with the applicant or awaiting
   * payment is nobody's work (requests of earlier machine versions may still name their last reviewer there).
   */
  async function byAssignee() {
    const rows = await app.db
      .select({ userId: requests.assigneeUserId, name: users.name, count: sql<number>`count(*)::int` })
      .from(requests)
      .innerJoin(users, eq(sql`${users.id}::text`, requests.assigneeUserId))
      .where(and(live, inArray(requests.queue, [...RUNNING_QUEUES])))
      .groupBy(requests.assigneeUserId, users.name)
      .orderBy(desc(sql`count(*)`))
      .limit(20);
    return rows.map((r) => ({ userId: r.userId!, name: r.name, count: r.count }));
  }

  app.get(
    '/api/dashboard/staff',
    {
      config: { policy: Permissions.dashboard.host },
      schema: { tags: ['dashboard'], summary: 'The Halal center’s dashboard: queues, weekly throughput and bills', response: { 200: ZStaffDashboard, ...errorResponses } },
    },
    async (request) => {
      const actor = request.actor!;
      if (!isStaff(actor.permissions)) throw new AppError(AppErrorCode.NotAuthorized);
      const now = new Date();
      const queues = await app.db
        .select({ queue: requests.queue, count: sql<number>`count(*)::int` })
        .from(requests)
        .where(and(live, inArray(requests.queue, [...OPEN_QUEUES])))
        .groupBy(requests.queue);
      const byQueue = OPEN_QUEUES.map((queue) => ({ queue, count: queues.find((q) => q.queue === queue)?.count ?? 0 }));

      const first = new Date(weekStart(now).getTime() - (DASHBOARD_WEEKS - 1) * 7 * DAY_MS);
      const week = sql<string>`to_char(date_trunc('week', ${requestHistory.at} at time zone 'UTC'), 'YYYY-MM-DD')`;
      const counted = (condition: SQL) =>
        app.db
          .select({ week, count: sql<number>`count(distinct ${requestHistory.requestId})::int` })
          .from(requestHistory)
          .innerJoin(requests, eq(requests.id, requestHistory.requestId))
          .where(and(notEntity, gte(requestHistory.at, first), condition))
          .groupBy(week);
      // Received: the applicant submitted it (first and later submissions of the same week count once).
      const received = await counted(eq(requestHistory.event, 'SUBMIT'));
      const decided = await counted(and(eq(requestHistory.toQueue, 'final'), inArray(requestHistory.fromQueue, [...DECIDING_QUEUES]))!);
      const weekly = Array.from({ length: DASHBOARD_WEEKS }, (_, i) => {
        const w = new Date(first.getTime() + i * 7 * DAY_MS).toISOString().slice(0, 10);
        return { week: w, received: received.find((r) => r.week === w)?.count ?? 0, decided: decided.find((r) => r.week === w)?.count ?? 0 };
      });

      return {
        generatedAt: now.toISOString(),
        byQueue,
        byStatus: await byStatus(request.t, and(live, open)),
        weekly,
        bills: await billTotals(undefined),
        overdue: await overdueCount(now),
        byAssignee: await byAssignee(),
      };
    },
  );

  app.get(
    '/api/dashboard/facility',
    {
      config: { policy: Permissions.dashboard.tenant },
      schema: {
        tags: ['dashboard'],
        summary: 'A facility user’s dashboard: open requests, unpaid bills and certificates expiring soon, of their own facilities',
        response: { 200: ZFacilityDashboard, ...errorResponses },
      },
    },
    async (request) => {
      const actor = request.actor!;
      const mine = actor.facilityIds;
      const now = new Date();
      const expiringSoonDays = app.settings.current().expiringSoonDays;
      const empty = { generatedAt: now.toISOString(), expiringSoonDays, facilities: [], openRequests: { count: 0, byStatus: [], items: [] }, unpaidBills: { count: 0, total: 0, items: [] }, expiringCertificates: [] };
      if (!mine.length) return empty;

      const facilityRows = await app.db
        .select({ publicId: facilities.publicId, nameAr: facilities.nameAr, nameEn: facilities.nameEn })
        .from(facilities)
        .where(inArray(facilities.publicId, mine))
        .orderBy(asc(facilities.publicId));

      // Every count and list below is read by the one read rule (workflows/read-scope.ts): a delegate's only of the
      // services delegated to them in each facility.
      const openWhere = and(live, open, requestsReadable(actor));
      const statuses = await byStatus(request.t, openWhere);
      const openRows = await app.db.select().from(requests).where(openWhere).orderBy(desc(requests.updatedAt)).limit(LIST_LIMIT);

      const unpaidWhere = and(eq(bills.status, 1), recordsReadable(actor, bills.facilityPublicId, bills.requestId));
      const totals = await billTotals(unpaidWhere);
      const unpaidRows = await app.db.select().from(bills).where(unpaidWhere).orderBy(asc(bills.dueAt), asc(bills.number)).limit(LIST_LIMIT);

      const until = new Date(now.getTime() + expiringSoonDays * DAY_MS);
      const expiring = await app.db
        .select()
        .from(certificates)
        // Active (1) or already flagged expiring soon (3); suspended and expired ones are not "expiring".
        .where(and(certificatesReadable(actor, { facility: certificates.facilityPublicId, kind: certificates.kind }), inArray(certificates.status, [1, 3]), gte(certificates.expiresAt, now), lte(certificates.expiresAt, until)))
        .orderBy(asc(certificates.expiresAt))
        .limit(LIST_LIMIT);

      return {
        generatedAt: now.toISOString(),
        expiringSoonDays,
        facilities: facilityRows,
        openRequests: {
          count: statuses.reduce((n, s) => n + s.count, 0),
          byStatus: statuses,
          items: openRows.map((r) => ({ id: r.id, number: r.number, kind: r.kind, facilityId: r.facilityPublicId, status: { code: r.status, label: statusLabel(request.t, r.kind, r.status) } })),
        },
        unpaidBills: {
          ...totals.unpaid,
          items: unpaidRows.map((b) => ({ id: b.id, number: b.number, facilityId: b.facilityPublicId, total: Number(b.total), dueAt: b.dueAt?.toISOString() ?? null, requestId: b.requestId })),
        },
        expiringCertificates: expiring.map((c) => ({
          id: c.id,
          number: c.number,
          facilityId: c.facilityPublicId,
          expiresAt: c.expiresAt.toISOString(),
          daysLeft: Math.ceil((c.expiresAt.getTime() - now.getTime()) / DAY_MS),
        })),
      };
    },
  );
};
export default dashboardRoutes;
