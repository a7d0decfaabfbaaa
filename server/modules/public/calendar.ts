import { toHijri } from 'hijri-converter';

/** A date as the verification page shows it: the Gregorian ISO day and the Umm al-Qura Hijri day. */
export interface DualDate {
  /** The instant, ISO 8601. */
  iso: string;
  /** Calendar day in Saudi Arabia (UTC+3, no daylight saving), YYYY-MM-DD. */
  gregorian: string;
  /** Umm al-Qura date, or null outside the table of the converter (1356-1500 AH, about 1937-2077). */
  hijri: { year: number; month: number; day: number } | null;
}

/** Saudi Arabia keeps UTC+3 all year: the calendar day of a certificate is the day in Riyadh. */
const RIYADH_OFFSET_MS = 3 * 60 * 60 * 1000;

export function toDualDate(instant: Date): DualDate {
  const riyadh = new Date(instant.getTime() + RIYADH_OFFSET_MS);
  const gy = riyadh.getUTCFullYear();
  const gm = riyadh.getUTCMonth() + 1;
  const gd = riyadh.getUTCDate();
  const pad = (n: number) => String(n).padStart(2, '0');
  return { iso: instant.toISOString(), gregorian: `${gy}-${pad(gm)}-${pad(gd)}`, hijri: ummAlQura(gy, gm, gd) };
}

/** The converter's table covers 1937-03-14 (1 Muharram 1356) to 2077-11-16 (end of 1500); outside it yields garbage. */
function ummAlQura(gy: number, gm: number, gd: number): DualDate['hijri'] {
  const key = gy * 10_000 + gm * 100 + gd;
  if (key < 19370314 || key > 20771116) return null;
  const { hy, hm, hd } = toHijri(gy, gm, gd);
  return { year: hy, month: hm, day: hd };
}
