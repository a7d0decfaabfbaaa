import { describe, expect, it } from 'vitest';
import { planTimingIssues } from '../../server/modules/requests/plan-timing';

// 2026-11-22 10:00 in Riyadh (07:00 UTC).
const now = new Date('2026-11-22T07:00:00Z');
const plan = (visitDates: string[], timeline: { date: string; hour: number; minute: number; period: 'am' | 'pm' }[]) => ({
  plan: { visitDates, timeline },
});

describe('audit plan visit dates and times at or after now (Riyadh time)', () => {
  it('accepts today later than now and future dates', () => {
    expect(planTimingIssues('SUBMIT_PLAN', plan(['2026-11-22', '2026-11-23'], [{ date: '2026-11-22', hour: 10, minute: 30, period: 'am' }]), now)).toEqual([]);
  });

  it('refuses a past visit date and a time earlier today, naming the field', () => {
    const issues = planTimingIssues('SAVE_PLAN', plan(['2026-11-21'], [{ date: '2026-11-22', hour: 9, minute: 59, period: 'am' }]), now);
    expect(issues.map((i) => i.field)).toEqual(['plan.visitDates.0', 'plan.timeline.0']);
    expect(issues[0].message).toBe('requests:plan.notBeforeNow');
  });

  it('reads 12 am as midnight and 12 pm as noon', () => {
    expect(planTimingIssues('SUBMIT_PLAN', plan(['2026-11-22'], [{ date: '2026-11-22', hour: 12, minute: 0, period: 'pm' }]), now)).toEqual([]);
    expect(planTimingIssues('SUBMIT_PLAN', plan(['2026-11-22'], [{ date: '2026-11-22', hour: 12, minute: 0, period: 'am' }]), now)).toHaveLength(1);
  });

  it('leaves other events alone', () => {
    expect(planTimingIssues('RETURN', plan(['2020-01-01'], []), now)).toEqual([]);
  });
});
