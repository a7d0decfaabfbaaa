import { and, desc, eq, exists, ilike, isNull, not, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { ENTITY_KINDS } from '../machines/services/types';
import type { Db } from '../db/client';
import { requestHistory, requests } from '../db/schema';
import { Permissions } from '../machines/permissions';
import type { Actor } from '../machines/actor';
import { AppError, AppErrorCode } from '../lib/app-error';
import type { HistoryEntry, Page, QueueQuery, RequestSummaryView, RequestView, VerifyResult } from './engine';
import { requestsReadable } from './read-scope';
import { historyEntryOf, readHistoryRows, readRequest, verifyChain, viewOf } from './store';

/*
 * Reads shared by both engine adapters: they write the same tables, so lists and search are one set of queries.
 */

/** Staff of the Halal center see every request; anyone else only the requests of their facilities. */
export function canSee(actor: Actor, facilityId: string): boolean {
  return actor.permissions.includes(Permissions.portals.halalCenter) || actor.facilityIds.includes(facilityId);
}

/** Kinds the queue lists leave out unless asked for by kind. */

const summaryColumns = {
  id: requests.id,
  number: requests.number,
  kind: requests.kind,
  machineVersion: requests.machineVersion,
  status: requests.status,
  queue: requests.queue,
  stateValue: requests.stateValue,
  version: requests.version,
  facilityId: requests.facilityPublicId,
  ownerUserId: requests.ownerUserId,
  assigneeUserId: requests.assigneeUserId,
  creatorName: requests.creatorName,
  // viewOf's "finished": the stored snapshot's status, read in the database instead of shipping the snapshot.
  machineDone: sql<boolean>`coalesce(${requests.snapshot} ->> 'status' = 'done', false)`,
  deleted: sql<boolean>`${requests.deletedAt} is not null`,
  createdAt: requests.createdAt,
  updatedAt: requests.updatedAt,
};

/**
 * How many rows past a page's first one a list counts (product decision, docs/performance-log.md "Lists, third pass"):
 * beyond it the total reads "more than N" and the pager can still go forward, each page counting further ahead.
 */
export const COUNT_AHEAD = 1000;

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The rows a list may show: the viewer's facilities, the queue and tab, the filters. */
function listWhere(db: Db, q: QueueQuery): SQL | undefined {
  const me = q.viewer.userId;
  const staff = q.viewer.permissions.includes(Permissions.portals.halalCenter);
  const conditions: (SQL | undefined)[] = [isNull(requests.deletedAt)];
  // The viewer's facilities, and in a delegate's facility only the services delegated to them; an entity asked for by
  // kind is read as the entity is (workflows/read-scope.ts).
  if (!staff) conditions.push(requestsReadable(q.viewer, q.kind));
  // Entity lifecycles (bills, certificates, marks, delegations) are rows of the same table but not requests.
  conditions.push(q.kind ? eq(requests.kind, q.kind) : notInArray(requests.kind, [...ENTITY_KINDS]));
  const inQueue = q.queue === 'all' ? sql`${requests.queue} is distinct from 'final'` : eq(requests.queue, q.queue);
  const assignedToMe = sql`coalesce(${requests.assigneeUserId}, '') = ${me}`;
  // An applicant's own requests count as theirs; staff own nothing, they are assigned.
  const mine: SQL = staff ? assignedToMe : sql`(${assignedToMe} or ${requests.ownerUserId} = ${me})`;
  if (q.facilityId) conditions.push(eq(requests.facilityPublicId, q.facilityId));
  // The subject the request was started about (service.ts startRequest): the viewer's facilities still bound the list.
  if (q.certificateId) conditions.push(sql`${requests.snapshot} -> 'context' -> 'subject' ->> 'certificateId' = ${q.certificateId}`);
  // A draft is the state every request service names 'draft' (machines/fragments/common.ts draftState), at any depth.
  const isDraft = sql`(${requests.stateValue} = 'draft' or ${requests.stateValue} like '%.draft')`;
  if (q.tab === 'draft') {
    conditions.push(isDraft);
  } else if (q.tab === 'active') {
    conditions.push(sql`${requests.queue} is distinct from 'final'`, not(isDraft));
  } else if (q.tab === 'completed') {
    conditions.push(eq(requests.queue, 'final'));
  } else if (q.tab === 'open') {
    conditions.push(inQueue);
  } else if (q.tab === 'any') {
    // no queue condition: every request the viewer may see
  } else if (q.tab === 'waiting') {
    conditions.push(inQueue, not(mine));
  } else if (q.tab === 'mine') {
    conditions.push(inQueue, mine);
  } else if (q.queue === 'all') {
    conditions.push(eq(requests.queue, 'final'));
  } else {
    // Finished: the request was in this queue once (a history row leaves it) and is not in it now.
    conditions.push(
      sql`${requests.queue} is distinct from ${q.queue}`,
      exists(
        db
          .select({ one: sql`1` })
          .from(requestHistory)
          .where(and(eq(requestHistory.requestId, requests.id), eq(requestHistory.fromQueue, q.queue))),
      ),
    );
  }
  if (q.creatorName) conditions.push(ilike(requests.creatorName, like(q.creatorName)));
  if (q.brandName) conditions.push(ilike(requests.brandNames, like(q.brandName)));
  if (q.requestNumber) conditions.push(ilike(requests.number, like(q.requestNumber)));
  if (q.any) {
    const p = like(q.any);
    conditions.push(or(ilike(requests.number, p), ilike(requests.creatorName, p), ilike(requests.brandNames, p)));
  }
  return and(...conditions);
}

/** The list's total counted up to `limit` rows: a subquery that does not refer to an outer row. */
const countedUpTo = (where: SQL | undefined, limit: number) =>
  sql<number>`(select count(*) from (select 1 from ${requests} where ${where} limit ${limit}) as counted)`.mapWith(Number);

/**
 * A list's one statement: the page, each row carrying the total counted up to COUNT_AHEAD rows past the page's start
 * and one more (to know there are more). An exact count walks every row of the list (20,000 index entries for a busy
 * queue) and cost more than the rest of the call; as a subquery of the page it costs no round trip of its own, and
 * PostgreSQL runs it once (an InitPlan). Exported for the plans bench:http prints.
 */
export function listStatement(db: Db, q: QueueQuery) {
  const where = listWhere(db, q);
  const offset = (q.pageNumber - 1) * q.pageSize;
  // The columns of a summary only: the snapshot and input are a few kB of jsonb each, and reading, sending and parsing
  // them for every row of a page cost more than the query itself.
  const page = db
    .select({ ...summaryColumns, counted: countedUpTo(where, offset + COUNT_AHEAD + 1) })
    .from(requests)
    .where(where)
    .orderBy(desc(requests.updatedAt), desc(requests.number))
    .limit(q.pageSize)
    .offset(offset);
  return { where, offset, page };
}

export async function listRequests(db: Db, q: QueueQuery): Promise<Page<RequestSummaryView>> {
  const { where, offset, page } = listStatement(db, q);
  // Prepared (postgres.js keeps one per statement text and connection): PostgreSQL parses and plans it once, not on
  // every call; the generic plan is the same as the custom one (docs/performance-log.md, "Lists, third pass").
  const rows = await page.prepare('request_list').execute();
  const ahead = offset + COUNT_AHEAD;
  // A page past the end has no row to carry the count.
  const n = rows.length ? rows[0].counted : offset ? (await db.select({ n: countedUpTo(where, ahead + 1) }).from(sql`(select 1) as one`))[0].n : 0;
  return {
    items: rows.map(({ machineDone, counted: _, ...r }) => ({ ...r, finished: machineDone || r.queue === 'final' })),
    totalCount: Math.min(n, ahead),
    totalCapped: n > ahead,
    pageNumber: q.pageNumber,
    pageSize: q.pageSize,
  };
}

/** The reads both engine adapters serve from the same tables (the Temporal workflows write them too). */
export async function getRequestView(db: Db, id: string): Promise<RequestView | null> {
  const row = await readRequest(db, id);
  return row ? viewOf(row) : null;
}

export async function requestHistoryOf(db: Db, id: string): Promise<HistoryEntry[]> {
  return (await readHistoryRows(db, id)).map(historyEntryOf);
}

export async function verifyRequestHistory(db: Db, id: string): Promise<VerifyResult> {
  const row = await readRequest(db, id);
  if (!row) throw new AppError(AppErrorCode.EntityNotFound);
  return verifyChain(db, row);
}
