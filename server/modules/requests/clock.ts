import { and, asc, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../../db/client';
import { requestHistory } from '../../../db/schema';
import { CLOCK_LIMITS, requestClock, type ClockStep, type RequestClock } from '../../../machines/working-days';

/** The working-day clock of a request (issue 15 item 7); absent for kinds without a time limit. */
export const ZClock = z.object({
  usedDays: z.number(),
  limitDays: z.number(),
  warnDays: z.number().nullable(),
  paused: z.boolean(),
  stopped: z.boolean(),
  overdue: z.boolean(),
  warning: z.boolean(),
});

/**
 * The steps that move requests to another queue, in order: an event that keeps the queue (a note, an assignment) splits
 * a running interval in two without changing its length, and a busy request has thousands of them. The partial index
 * request_history_queue_moves_idx holds exactly these rows (with at and to_queue), so a list's clocks read a few index
 * entries per request instead of every history row. Exported for the plans bench:http prints.
 */
export function queueMovesOf(db: Db, requestIds: string[]) {
  return db
    .select({ requestId: requestHistory.requestId, at: requestHistory.at, toQueue: requestHistory.toQueue })
    .from(requestHistory)
    .where(and(inArray(requestHistory.requestId, requestIds), sql`${requestHistory.toQueue} is distinct from ${requestHistory.fromQueue}`))
    .orderBy(asc(requestHistory.requestId), asc(requestHistory.seq));
}

/** The clocks of several requests from their histories (one query), by request id; null for kinds without a limit. */
export async function clocksFor(db: Db, items: { id: string; kind: string }[], holidays: readonly string[], now = new Date()): Promise<Map<string, RequestClock | null>> {
  const timed = items.filter((i) => CLOCK_LIMITS[i.kind as keyof typeof CLOCK_LIMITS]);
  const out = new Map<string, RequestClock | null>(items.map((i) => [i.id, null]));
  if (!timed.length) return out;
  const rows = await queueMovesOf(db, timed.map((i) => i.id));
  const steps = new Map<string, ClockStep[]>();
  for (const r of rows) (steps.get(r.requestId) ?? steps.set(r.requestId, []).get(r.requestId)!).push({ at: r.at, toQueue: r.toQueue });
  for (const i of timed) out.set(i.id, requestClock(i.kind, steps.get(i.id) ?? [], holidays, now));
  return out;
}
