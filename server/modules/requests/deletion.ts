import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { workflowTimers } from '../../../db/schema';

/** When a draft (or stopped request) is deleted automatically: its pending DRAFT_EXPIRED timer, and the days left. */
export async function draftDeletion(db: Db, requestId: string, now = Date.now()): Promise<{ dueAt: string | null; daysLeft: number | null }> {
  const [timer] = await db
    .select({ dueAt: workflowTimers.dueAt })
    .from(workflowTimers)
    .where(and(eq(workflowTimers.requestId, requestId), eq(workflowTimers.event, 'DRAFT_EXPIRED'), isNull(workflowTimers.firedAt), isNull(workflowTimers.cancelledAt)))
    .orderBy(desc(workflowTimers.dueAt))
    .limit(1);
  if (!timer) return { dueAt: null, daysLeft: null };
  return { dueAt: timer.dueAt.toISOString(), daysLeft: Math.max(0, Math.ceil((timer.dueAt.getTime() - now) / 86_400_000)) };
}
