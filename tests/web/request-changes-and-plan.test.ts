import { describe, expect, it } from 'vitest';
import { baselineAtLastReturn, ChangeState, listChanges } from '../../web/src/routes/requests/data-changes';
import type { HistoryItem } from '../../web/src/routes/requests/requests-api';
import { collapseEdits } from '../../web/src/routes/requests/HistoryTimeline';
import { checkStep, emptyDay, formToPlan, planToForm, type PlanForm } from '../../web/src/routes/audit/plan-form';

/** The reviewer's change highlighting (spec 01 section 3) and the audit plan wizard's rules (issue 5). */
const entry = (seq: number, event: string, payload: Record<string, unknown> = {}): HistoryItem => ({
  seq,
  event,
  payload,
  actor: { userId: 'u', name: 'U', system: false },
  note: null,
  from: null,
  to: { code: 0, label: '' },
  hash: '',
  at: '2026-01-01T00:00:00Z',
});

describe('change highlighting', () => {
  const history = [
    entry(1, 'START', { data: { products: [{ n: 'milk' }] } }),
    entry(2, 'EDIT', { data: { products: [{ n: 'milk' }, { n: 'laban' }], factory: { name: 'A' } } }),
    entry(3, 'RETURN', { reason: 'fix', sections: ['products'] }),
    entry(4, 'EDIT', { data: { products: [{ n: 'milk 2' }] } }),
    entry(5, 'RESUBMIT'),
  ];

  it('rebuilds the data as it was at the last return from START and the EDITs before it', () => {
    expect(baselineAtLastReturn(history)).toEqual({ products: [{ n: 'milk' }, { n: 'laban' }], factory: { name: 'A' } });
    expect(baselineAtLastReturn(history.slice(0, 2))).toBeNull();
  });

  it('marks modified, added and deleted list items', () => {
    const changes = listChanges([{ n: 'milk' }, { n: 'laban' }], [{ n: 'milk 2' }]);
    expect(changes.map((c) => c.state)).toEqual([ChangeState.Modified, ChangeState.Deleted]);
    expect(listChanges([{ n: 'a' }], [{ n: 'a' }, { n: 'b' }]).map((c) => c.state)).toEqual([ChangeState.Unchanged, ChangeState.Added]);
    expect(listChanges(undefined, [{ n: 'a' }]).map((c) => c.state)).toEqual([ChangeState.Unchanged]);
  });
});

describe('audit plan wizard rules', () => {
  const now = new Date(2026, 0, 10, 12, 0);
  const form = (patch: Partial<PlanForm> = {}): PlanForm => ({
    ...planToForm(null),
    visitGoal: 'Audit',
    coordinatorName: 'Saad',
    islamicAffairsExpert: 'Sheikh',
    teamLeaderUserId: 'leader',
    technicalAuditorUserIds: ['auditor'],
    days: [{ ...emptyDay(), date: '2026-01-11', activity: 'Opening', auditorUserIds: ['leader', 'auditor'] }],
    ...patch,
  });

  it('needs at least one date, no date twice, hour 1-12, minute 0-59 and a start at or after now', () => {
    expect(checkStep('dates', form(), now, false)).toEqual({});
    expect(checkStep('dates', form({ days: [] }), now, false)).toEqual({ days: { key: 'machines:validation.visitDateRequired' } });
    const d = form().days[0]!;
    expect(checkStep('dates', form({ days: [d, d] }), now, false)['days.1.date']).toEqual({ key: 'machines:validation.dateAlreadyEntered' });
    expect(checkStep('dates', form({ days: [{ ...d, hour: '13' }] }), now, false)['days.0.hour']).toEqual({ key: 'machines:validation.hourRange' });
    expect(checkStep('dates', form({ days: [{ ...d, hour: '0' }] }), now, false)['days.0.hour']).toEqual({ key: 'machines:validation.hourRange' });
    expect(checkStep('dates', form({ days: [{ ...d, minute: '60' }] }), now, false)['days.0.minute']).toEqual({ key: 'machines:validation.minuteRange' });
    expect(checkStep('dates', form({ days: [{ ...d, date: '2026-01-10', hour: '11', period: 'am' }] }), now, false)['days.0.date']).toEqual({ key: 'requests:plan.notBeforeNow' });
    expect(checkStep('dates', form({ days: [{ ...d, date: '2026-01-10', hour: '1', period: 'pm' }] }), now, false)).toEqual({});
  });

  it('needs every auditor in the timeline, and a reason when a returned plan is revised', () => {
    const d = form().days[0]!;
    expect(checkStep('timeline', form({ days: [{ ...d, auditorUserIds: ['leader'] }] }), now, false).timeline).toEqual({ key: 'machines:validation.allAuditorsIncluded' });
    expect(checkStep('summary', form(), now, true).changeReason).toEqual({ key: 'machines:validation.reasonRequired' });
    expect(checkStep('summary', form({ changeReason: 'Facility asked', changeDescription: 'Moved' }), now, true)).toEqual({});
  });

  it('builds the plan the machine takes, keeping earlier changes and adding a revision', () => {
    const plan = formToPlan(form(), null, false);
    expect(plan).toMatchObject({ visitStartDate: '2026-01-11', visitDays: 1, teamLeaderUserId: 'leader', technicalAuditorUserIds: ['auditor'] });
    const revised = formToPlan(form({ changeReason: 'Facility asked', changeDescription: 'Moved' }), plan, true);
    expect(revised.changes).toEqual([{ reason: 'Facility asked', description: 'Moved' }]);
    expect(formToPlan(form(), revised, false).changes).toEqual(revised.changes);
  });
});

describe('history: draft saves of one sitting are one entry', () => {
  const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 8, minutes)).toISOString();
  const edit = (seq: number, minutes: number, userId = 'u'): HistoryItem => ({ ...entry(seq, 'EDIT'), actor: { userId, name: userId, system: false }, at: at(minutes) });

  it('collapses consecutive saves by the same person, keeping the count and the last time', () => {
    const items = [entry(1, 'START'), edit(2, 1), edit(3, 5), edit(4, 20), entry(5, 'SUBMIT')];
    const shown = collapseEdits(items);
    expect(shown.map((h) => [h.event, h.count])).toEqual([
      ['START', 1],
      ['EDIT', 3],
      ['SUBMIT', 1],
    ]);
    expect(shown[1]!.at).toBe(at(20));
  });

  it('keeps saves apart when another person saved in between, or after a long pause', () => {
    expect(collapseEdits([edit(1, 1), edit(2, 2, 'other'), edit(3, 3)]).map((h) => h.count)).toEqual([1, 1, 1]);
    expect(collapseEdits([edit(1, 0), { ...edit(2, 0), at: new Date(Date.UTC(2026, 0, 1, 10, 0)).toISOString() }]).map((h) => h.count)).toEqual([1, 1]);
  });
});
