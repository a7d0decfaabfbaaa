import type { MachineKind, Queue } from './types';

/**
 * Working-day clocks (issue 15 item 7): how long the Halal center has had a request, in working days.
 * Working days are Sunday to Thursday in Riyadh time (UTC+3, no daylight saving), minus the holidays an
 * administrator configures (settings: `holidays`, YYYY-MM-DD). The clock runs while the request is in one of the
 * center's queues (registration, audit, committee) and is paused while it is with the applicant (the `applicant`
 * queue: changes requested, and `payment`: a bill the applicant has to pay); it stops in `final`.
 * Time is counted exactly: every running instant on a working day adds to the total, so a request that arrives at
 * noon has used half a day by midnight.
 */

const DAY_MS = 86_400_000;
/** Riyadh is UTC+3 all year. */
const RIYADH_OFFSET_MS = 3 * 3_600_000;
/** getUTCDay() of the Riyadh date: 0 Sunday .. 4 Thursday are working days. */
const WORKING_WEEKDAYS = new Set([0, 1, 2, 3, 4]);

/** The center's queues: the clock runs while the request sits in one of them. */
export const RUNNING_QUEUES: readonly Queue[] = ['registration', 'audit', 'committee'];

/** The time limits of issue 15 item 7: internal certificate processing 15 days; renewal expected 30, at most 45. */
export interface ClockLimit {
  limitDays: number;
  /** From here the clock is shown as a warning (renewal: 30 of 45). */
  warnDays?: number;
}
export const CLOCK_LIMITS: Partial<Record<MachineKind, ClockLimit>> = {
  internalCertificate: { limitDays: 15 },
  internalRenewal: { limitDays: 45, warnDays: 30 },
  externalRenewal: { limitDays: 45, warnDays: 30 },
  cbRenewal: { limitDays: 45, warnDays: 30 },
};

/** The Riyadh calendar date of an instant, YYYY-MM-DD. */
export const riyadhDate = (t: number): string => new Date(t + RIYADH_OFFSET_MS).toISOString().slice(0, 10);

/** Whether a Riyadh date (YYYY-MM-DD) is a working day: Sunday-Thursday and not a holiday. */
export function isWorkingDate(date: string, holidays: ReadonlySet<string>): boolean {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return WORKING_WEEKDAYS.has(day) && !holidays.has(date);
}

/** Working time between two instants, in days (fractional): the part of [from, to) that falls on working days. */
export function workingDaysBetween(from: Date | number, to: Date | number, holidays: ReadonlySet<string>): number {
  const a = +from;
  const b = +to;
  if (!(b > a)) return 0;
  let ms = 0;
  // Riyadh midnight (as a UTC instant) at or before `a`.
  let dayStart = Math.floor((a + RIYADH_OFFSET_MS) / DAY_MS) * DAY_MS - RIYADH_OFFSET_MS;
  for (; dayStart < b; dayStart += DAY_MS) {
    if (!isWorkingDate(riyadhDate(dayStart), holidays)) continue;
    ms += Math.min(b, dayStart + DAY_MS) - Math.max(a, dayStart);
  }
  return ms / DAY_MS;
}

/** One step of a request's history: when it happened and the queue the request went to. */
export interface ClockStep {
  at: Date | string;
  toQueue: string | null;
}

export interface RequestClock {
  /** Working days the center has used so far (two decimals). */
  usedDays: number;
  limitDays: number;
  warnDays: number | null;
  /** The request is with the applicant (or waits for their payment): the clock does not run. */
  paused: boolean;
  /** The request is finished: the clock shows the final count. */
  stopped: boolean;
  /** More working days used than the limit. */
  overdue: boolean;
  /** At or past the warning threshold (renewal: 30 days), not yet overdue. */
  warning: boolean;
}

/** The intervals during which the clock ran, from the history (ordered by time) up to `now`. */
export function runningIntervals(steps: readonly ClockStep[], now: Date): [number, number][] {
  const sorted = [...steps].map((s) => ({ at: +new Date(s.at), toQueue: s.toQueue })).sort((x, y) => x.at - y.at);
  const out: [number, number][] = [];
  sorted.forEach((s, i) => {
    if (!RUNNING_QUEUES.includes(s.toQueue as Queue)) return;
    const end = i + 1 < sorted.length ? sorted[i + 1].at : +now;
    if (end > s.at) out.push([s.at, end]);
  });
  return out;
}

/** The clock of a request of `kind` from its history, or null when the kind has no time limit. */
export function requestClock(kind: string, steps: readonly ClockStep[], holidays: readonly string[], now: Date = new Date()): RequestClock | null {
  const limit = CLOCK_LIMITS[kind as MachineKind];
  if (!limit) return null;
  const set = new Set(holidays);
  const used = runningIntervals(steps, now).reduce((sum, [a, b]) => sum + workingDaysBetween(a, b, set), 0);
  const last = [...steps].sort((x, y) => +new Date(x.at) - +new Date(y.at)).at(-1);
  const queue = last?.toQueue ?? null;
  const usedDays = Math.round(used * 100) / 100;
  const overdue = used > limit.limitDays;
  return {
    usedDays,
    limitDays: limit.limitDays,
    warnDays: limit.warnDays ?? null,
    paused: queue === 'applicant' || queue === 'payment',
    stopped: queue === 'final' || queue === null,
    overdue,
    warning: !overdue && limit.warnDays !== undefined && used >= limit.warnDays,
  };
}
