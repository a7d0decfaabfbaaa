import { ZAuditPlan, type TAuditPlan } from '../../../../machines/events';
import type { FieldMessage } from '../../components/form/validation-messages';

/** The audit plan as the wizard edits it: one row per visit date with its time, activity and auditors. */
export interface PlanDay {
  date: string;
  hour: string;
  minute: string;
  period: 'am' | 'pm';
  activity: string;
  auditorUserIds: string[];
}

export interface Attendee {
  firstName: string;
  lastName: string;
  jobRole: string;
  phone: string;
}

export interface PlanForm {
  visitGoal: string;
  language: 'ar' | 'en';
  coordinatorName: string;
  coordinatorPhone: string;
  islamicAffairsExpert: string;
  teamLeaderUserId: string;
  technicalAuditorUserIds: string[];
  days: PlanDay[];
  attendees: Attendee[];
  changeReason: string;
  changeDescription: string;
  /** Spec 02 "Audit plan: ... notes for the decision committee" (optional). */
  notesForCommittee: string;
}

export const PLAN_STEPS = ['basic', 'dates', 'timeline', 'attendees', 'summary'] as const;
export type PlanStep = (typeof PLAN_STEPS)[number];

export const emptyDay = (): PlanDay => ({ date: '', hour: '9', minute: '0', period: 'am', activity: '', auditorUserIds: [] });

/** The wizard's form from a saved plan (a returned plan is edited, not retyped). */
export function planToForm(plan: TAuditPlan | null | undefined): PlanForm {
  if (!plan) {
    return {
      visitGoal: '',
      language: 'ar',
      coordinatorName: '',
      coordinatorPhone: '',
      islamicAffairsExpert: '',
      teamLeaderUserId: '',
      technicalAuditorUserIds: [],
      days: [emptyDay()],
      attendees: [],
      changeReason: '',
      changeDescription: '',
      notesForCommittee: '',
    };
  }
  return {
    visitGoal: plan.visitGoal,
    language: plan.language,
    coordinatorName: plan.facilityCoordinator.name,
    coordinatorPhone: plan.facilityCoordinator.phone ?? '',
    islamicAffairsExpert: plan.islamicAffairsExpert,
    teamLeaderUserId: plan.teamLeaderUserId,
    technicalAuditorUserIds: plan.technicalAuditorUserIds,
    days: plan.timeline.map((t) => ({ ...t, hour: String(t.hour), minute: String(t.minute) })),
    attendees: (plan.attendees ?? []).map((a) => ({ ...a, phone: a.phone ?? '' })),
    changeReason: '',
    changeDescription: '',
    notesForCommittee: plan.notesForCommittee ?? '',
  };
}

/** When a visit day starts, in the browser's time zone. */
export function dayStart(d: PlanDay): Date | null {
  const hour = Number(d.hour);
  const minute = Number(d.minute);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(d.date) || !Number.isInteger(hour) || !Number.isInteger(minute)) return null;
  const h24 = (hour % 12) + (d.period === 'pm' ? 12 : 0);
  const [y, m, day] = d.date.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, day, h24, minute);
}

/** Field problems of one step, as form messages (keys naming their namespace) by field name (`days.0.date`, ...). */
export function checkStep(step: PlanStep, f: PlanForm, now: Date, revising: boolean): Record<string, FieldMessage> {
  const e: Record<string, FieldMessage> = {};
  const required: FieldMessage = { key: 'machines:validation.required' };
  if (step === 'basic') {
    if (!f.visitGoal.trim()) e.visitGoal = required;
    if (!f.coordinatorName.trim()) e.coordinatorName = required;
    if (!f.islamicAffairsExpert.trim()) e.islamicAffairsExpert = required;
    if (!f.teamLeaderUserId) e.teamLeaderUserId = required;
  }
  if (step === 'dates') {
    if (f.days.length === 0) e.days = { key: 'machines:validation.visitDateRequired' };
    const seen = new Set<string>();
    f.days.forEach((d, i) => {
      const hour = Number(d.hour);
      const minute = Number(d.minute);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(d.date)) e[`days.${i}.date`] = { key: 'machines:validation.invalidDate' };
      else if (seen.has(d.date)) e[`days.${i}.date`] = { key: 'machines:validation.dateAlreadyEntered' };
      seen.add(d.date);
      if (d.hour === '' || !Number.isInteger(hour) || hour < 1 || hour > 12) e[`days.${i}.hour`] = { key: 'machines:validation.hourRange' };
      if (d.minute === '' || !Number.isInteger(minute) || minute < 0 || minute > 59) e[`days.${i}.minute`] = { key: 'machines:validation.minuteRange' };
      const start = dayStart(d);
      if (!e[`days.${i}.date`] && !e[`days.${i}.hour`] && !e[`days.${i}.minute`] && start && start < now) e[`days.${i}.date`] = { key: 'requests:plan.notBeforeNow' };
    });
  }
  if (step === 'timeline') {
    f.days.forEach((d, i) => {
      if (!d.activity.trim()) e[`days.${i}.activity`] = required;
    });
    const scheduled = new Set(f.days.flatMap((d) => d.auditorUserIds));
    if ([f.teamLeaderUserId, ...f.technicalAuditorUserIds].some((a) => !scheduled.has(a))) e.timeline = { key: 'machines:validation.allAuditorsIncluded' };
  }
  if (step === 'attendees') {
    f.attendees.forEach((a, i) => {
      if (!a.firstName.trim()) e[`attendees.${i}.firstName`] = required;
      if (!a.lastName.trim()) e[`attendees.${i}.lastName`] = required;
      if (!a.jobRole.trim()) e[`attendees.${i}.jobRole`] = required;
    });
  }
  if (step === 'summary' && revising) {
    if (!f.changeReason.trim()) e.changeReason = { key: 'machines:validation.reasonRequired' };
    if (!f.changeDescription.trim()) e.changeDescription = required;
  }
  return e;
}

/** The plan the machine takes (ZAuditPlan), from the wizard's form. */
export function formToPlan(f: PlanForm, previous: TAuditPlan | null | undefined, revising: boolean): TAuditPlan {
  const dates = [...f.days.map((d) => d.date)].sort();
  const opt = (s: string) => (s.trim() ? s.trim() : undefined);
  // Earlier changes stay on the plan; a revision adds its own with the reason.
  const earlier = previous?.changes ?? [];
  const changes = revising ? [...earlier, { reason: f.changeReason.trim(), description: f.changeDescription.trim() }] : earlier;
  return ZAuditPlan.parse({
    visitStartDate: dates[0],
    visitDays: dates.length,
    language: f.language,
    visitGoal: f.visitGoal.trim(),
    facilityCoordinator: { name: f.coordinatorName.trim(), ...(opt(f.coordinatorPhone) ? { phone: opt(f.coordinatorPhone) } : {}) },
    teamLeaderUserId: f.teamLeaderUserId,
    technicalAuditorUserIds: f.technicalAuditorUserIds.filter((id) => id !== f.teamLeaderUserId),
    islamicAffairsExpert: f.islamicAffairsExpert.trim(),
    visitDates: f.days.map((d) => d.date),
    timeline: f.days.map((d) => ({
      date: d.date,
      hour: Number(d.hour),
      minute: Number(d.minute),
      period: d.period,
      activity: d.activity.trim(),
      auditorUserIds: d.auditorUserIds,
    })),
    ...(f.attendees.length
      ? { attendees: f.attendees.map((a) => ({ firstName: a.firstName.trim(), lastName: a.lastName.trim(), jobRole: a.jobRole.trim(), ...(opt(a.phone) ? { phone: opt(a.phone) } : {}) })) }
      : {}),
    ...(changes.length ? { changes } : {}),
    ...(opt(f.notesForCommittee) ? { notesForCommittee: opt(f.notesForCommittee) } : {}),
  });
}
