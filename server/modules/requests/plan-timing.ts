import type { ValidationDetail } from '../../errors';

/**
 * Spec 02 section 5: "visit date and time at or after now". The machine's plan schema is pure and cannot know the
 * time, so the server checks it when a plan is saved or sent. Plan times are wall-clock times in Saudi Arabia
 * (UTC+3 all year, no daylight saving), whatever the server's own time zone.
 */
const RIYADH_OFFSET = '+03:00';
const PLAN_EVENTS = new Set(['SAVE_PLAN', 'SUBMIT_PLAN']);

interface PlanLike {
  visitDates?: unknown;
  timeline?: { date?: unknown; hour?: unknown; minute?: unknown; period?: unknown }[];
}

const riyadhDate = (now: Date) => new Date(now.getTime() + 3 * 3_600_000).toISOString().slice(0, 10);

export function planTimingIssues(type: string, payload: Record<string, unknown>, now: Date): ValidationDetail[] {
  if (!PLAN_EVENTS.has(type)) return [];
  const plan = payload.plan as PlanLike | undefined;
  if (!plan || typeof plan !== 'object') return [];
  const issues: ValidationDetail[] = [];
  const today = riyadhDate(now);
  if (Array.isArray(plan.visitDates)) {
    plan.visitDates.forEach((d, i) => {
      if (typeof d === 'string' && d < today) issues.push({ field: `plan.visitDates.${i}`, message: 'requests:plan.notBeforeNow' });
    });
  }
  (Array.isArray(plan.timeline) ? plan.timeline : []).forEach((item, i) => {
    const { date, hour, minute, period } = item ?? {};
    if (typeof date !== 'string' || typeof hour !== 'number' || typeof minute !== 'number') return;
    const h24 = (hour % 12) + (period === 'pm' ? 12 : 0);
    const at = new Date(`${date}T${String(h24).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00${RIYADH_OFFSET}`);
    if (!Number.isNaN(at.getTime()) && at < now) issues.push({ field: `plan.timeline.${i}`, message: 'requests:plan.notBeforeNow' });
  });
  return issues;
}
