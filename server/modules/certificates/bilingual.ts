import type { TFunction } from 'i18next';
import { tFor, type Language } from '../../i18n';
import type { DualDate } from '../public/calendar';

/** Documents print both languages side by side, so they take both translators at once. */
export type Bilingual = Record<Language, TFunction>;

export const bilingual = (): Bilingual => ({ ar: tFor('ar'), en: tFor('en') });

const pad = (n: number) => String(n).padStart(2, '0');

/** "12/03/2025 (12/09/1446 AH)" / "12/03/2025م الموافق 12/09/1446هـ": day first, as Saudi documents write dates. */
export function formatDualDate(d: DualDate, t: TFunction): string {
  const [y, m, day] = d.gregorian.split('-');
  const gregorian = `${day}/${m}/${y}`;
  if (!d.hijri) return t('payments:certificate.document.dateGregorianOnly', { gregorian });
  const hijri = `${pad(d.hijri.day)}/${pad(d.hijri.month)}/${d.hijri.year}`;
  return t('payments:certificate.document.date', { gregorian, hijri });
}

/** "1,150.00": SAR amounts with thousands separators and two decimals, Western digits in both languages. */
export function formatSar(amount: string | number): string {
  const n = typeof amount === 'number' ? amount : Number(amount);
  return n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}
