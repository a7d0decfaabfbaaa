import { describe, expect, it } from 'vitest';
import { formatDate } from '../../web/src/lib/dates';

/** What a reader sees of a date: the portal's one formatter (web/src/lib/dates.ts). */
describe('dates as the portal shows them', () => {
  const plain = (s: string) => s.replace(/\u200f/g, '');

  it('shows the Riyadh day and time whatever the device is set to: 22:30 UTC on 29 November is 30 November, 01:30', () => {
    const late = '2026-11-29T22:30:00Z';
    expect(formatDate(late, 'en')).toBe('30 Nov 2026');
    expect(formatDate(late, 'en', 'dateTime')).toBe('30 Nov 2026, 01:30');
    expect(plain(formatDate(late, 'ar'))).toBe('30/11/2026');
    expect(formatDate(late, 'ar', 'time')).toBe('01:30');
  });

  it('shows a calendar day (a visit date, an expiry written as a day) as that day, not the day of its UTC midnight', () => {
    expect(formatDate('2026-12-01', 'en', 'full')).toBe('Tuesday, 1 December 2026');
    expect(formatDate('2026-12-01', 'ar', 'long')).toBe('1 ديسمبر 2026');
  });

  it('writes Arabic dates in the Gregorian calendar with Western digits, with the marks that keep day, month and year in Arabic order', () => {
    const shown = formatDate('2026-11-29T09:00:00Z', 'ar');
    expect(shown).toBe('29\u200f/11\u200f/2026');
    // No isolate marks: the text goes into the sentence as it is (an LTR isolate would draw it "292026/11/").
    expect(shown).not.toMatch(/[\u2066-\u2069]/);
  });
});
