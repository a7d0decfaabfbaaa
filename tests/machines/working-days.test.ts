import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isWorkingDate, requestClock, riyadhDate, runningIntervals, workingDaysBetween, type ClockStep } from '../../machines/working-days';

/** Issue 15 item 7: working days are Sunday-Thursday in Riyadh, minus configured holidays; the applicant's time pauses. */
const none = new Set<string>();
/** Riyadh midnight of a date, as an instant. */
const midnight = (date: string) => new Date(`${date}T00:00:00+03:00`);
const DAY = 86_400_000;

describe('workingDaysBetween', () => {
  it('counts a whole week as five working days, Friday and Saturday as none', () => {
    // 2026-11-22 is a Sunday.
    expect(workingDaysBetween(midnight('2026-11-22'), midnight('2026-11-29'), none)).toBe(5);
    expect(workingDaysBetween(midnight('2026-11-27'), midnight('2026-11-29'), none)).toBe(0);
    expect(isWorkingDate('2026-11-27', none)).toBe(false); // Friday
    expect(isWorkingDate('2026-11-26', none)).toBe(true); // Thursday
  });

  it('skips a configured holiday and counts half a day from noon (Riyadh time)', () => {
    expect(workingDaysBetween(midnight('2026-11-22'), midnight('2026-11-29'), new Set(['2026-11-24']))).toBe(4);
    expect(workingDaysBetween(new Date('2026-11-22T12:00:00+03:00'), midnight('2026-11-23'), none)).toBe(0.5);
    // 23:00 UTC on Thursday is already Friday in Riyadh.
    expect(workingDaysBetween(new Date('2026-11-26T21:00:00Z'), new Date('2026-11-26T23:00:00Z'), none)).toBe(0);
  });

  const instant = fc.integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2028, 0, 1) });
  const holidays = fc.uniqueArray(fc.integer({ min: 0, max: 3 * 366 }).map((d) => riyadhDate(Date.UTC(2025, 0, 1) + d * DAY)), { maxLength: 30 });

  it('never counts a Friday, a Saturday or a holiday (property)', () => {
    fc.assert(
      fc.property(instant, fc.integer({ min: 0, max: 90 * DAY }), holidays, (a, length, hs) => {
        const set = new Set(hs);
        const total = workingDaysBetween(a, a + length, set);
        // The same count, one Riyadh day at a time: a non-working day adds nothing.
        let byDay = 0;
        let start = a;
        while (start < a + length) {
          const dayEnd = Math.floor((start + 3 * 3_600_000) / DAY) * DAY + DAY - 3 * 3_600_000;
          const end = Math.min(a + length, dayEnd);
          const part = workingDaysBetween(start, end, set);
          if (!isWorkingDate(riyadhDate(start), set)) expect(part).toBe(0);
          byDay += part;
          start = end;
        }
        expect(total).toBeCloseTo(byDay, 9);
        expect(total).toBeLessThanOrEqual(length / DAY + 1e-9);
      }),
      { numRuns: 200 },
    );
  });

  it('adding a holiday never adds days, and it removes at most one day (property)', () => {
    fc.assert(
      fc.property(instant, fc.integer({ min: 0, max: 60 * DAY }), holidays, instant, (a, length, hs, extra) => {
        const before = workingDaysBetween(a, a + length, new Set(hs));
        const after = workingDaysBetween(a, a + length, new Set([...hs, riyadhDate(extra)]));
        expect(after).toBeLessThanOrEqual(before + 1e-9);
        expect(before - after).toBeLessThanOrEqual(1 + 1e-9);
      }),
      { numRuns: 200 },
    );
  });
});

describe('requestClock', () => {
  const steps: ClockStep[] = [
    { at: '2026-11-01T08:00:00+03:00', toQueue: 'applicant' }, // draft
    { at: '2026-11-01T09:00:00+03:00', toQueue: 'registration' }, // submitted, Sunday
    { at: '2026-11-03T09:00:00+03:00', toQueue: 'applicant' }, // changes requested (Tuesday): 2 days used
    { at: '2026-11-10T09:00:00+03:00', toQueue: 'audit' }, // back a week later (Tuesday)
  ];

  it('counts the center time only: the week with the applicant is paused', () => {
    const clock = requestClock('internalCertificate', steps, [], new Date('2026-11-11T09:00:00+03:00'))!;
    expect(clock).toMatchObject({ usedDays: 3, limitDays: 15, paused: false, stopped: false, overdue: false });
    const paused = requestClock('internalCertificate', steps.slice(0, 3), [], new Date('2026-11-20T09:00:00+03:00'))!;
    expect(paused).toMatchObject({ usedDays: 2, paused: true, overdue: false });
  });

  it('is overdue past 15 working days for a certificate; renewal warns from 30 and is overdue past 45', () => {
    const submitted: ClockStep[] = [{ at: '2026-11-01T00:00:00+03:00', toQueue: 'registration' }];
    // Four weeks: 20 working days.
    expect(requestClock('internalCertificate', submitted, [], new Date('2026-11-29T00:00:00+03:00'))).toMatchObject({ usedDays: 20, overdue: true });
    expect(requestClock('internalRenewal', submitted, [], new Date('2026-11-29T00:00:00+03:00'))).toMatchObject({ usedDays: 20, warning: false, overdue: false });
    expect(requestClock('internalRenewal', submitted, [], new Date('2026-12-13T00:00:00+03:00'))).toMatchObject({ usedDays: 30, warning: true, overdue: false });
    expect(requestClock('internalRenewal', submitted, [], new Date('2027-01-04T00:00:00+03:00'))).toMatchObject({ overdue: true });
    // A holiday week gives the days back.
    const eid = ['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05'];
    expect(requestClock('internalCertificate', submitted, eid, new Date('2026-11-29T00:00:00+03:00'))).toMatchObject({ usedDays: 15, overdue: false });
    expect(requestClock('shipment', submitted, [], new Date())).toBeNull();
  });

  it('stops when the request is final', () => {
    const done: ClockStep[] = [...steps, { at: '2026-11-12T09:00:00+03:00', toQueue: 'final' }];
    expect(requestClock('internalCertificate', done, [], new Date('2027-06-01T00:00:00Z'))).toMatchObject({ usedDays: 4, stopped: true });
  });

  const queue = fc.constantFrom('registration', 'audit', 'committee', 'applicant', 'payment', 'final', null);
  const history = fc.array(fc.record({ offset: fc.integer({ min: 0, max: 120 * DAY }), toQueue: queue }), { minLength: 1, maxLength: 12 });

  it('pausing never adds days: sending the request to the applicant at any point uses no more days (property)', () => {
    fc.assert(
      fc.property(history, fc.integer({ min: 0, max: 120 * DAY }), fc.integer({ min: 0, max: 40 * DAY }), (h, pauseAt, pauseFor) => {
        const base = Date.UTC(2026, 0, 1);
        const steps = h.map((s) => ({ at: new Date(base + s.offset), toQueue: s.toQueue })).sort((x, y) => +x.at - +y.at);
        const now = new Date(base + 130 * DAY);
        const before = requestClock('internalCertificate', steps, [], now)!.usedDays;
        // The queue in force at the pause's end resumes after it.
        const resumeQueue = [...steps].filter((s) => +s.at <= base + pauseAt + pauseFor).at(-1)?.toQueue ?? null;
        const withPause = [
          ...steps.filter((s) => +s.at < base + pauseAt || +s.at > base + pauseAt + pauseFor),
          { at: new Date(base + pauseAt), toQueue: 'applicant' },
          { at: new Date(base + pauseAt + pauseFor), toQueue: resumeQueue },
        ];
        const after = requestClock('internalCertificate', withPause, [], now)!.usedDays;
        expect(after).toBeLessThanOrEqual(before + 0.011);
        // A running interval never lies in the pause.
        for (const [a, b] of runningIntervals(withPause, now)) expect(b <= base + pauseAt || a >= base + pauseAt + pauseFor).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
