import { useTranslation } from 'react-i18next';
import type { DualDate } from './public-api';

/**
 * Picks the Arabic or English variant of a bilingual record for the UI language:
 * `const l = useLocalized(); l(page.titleAr, page.titleEn)`.
 */
export function useLocalized() {
  const { i18n } = useTranslation();
  const ar = i18n.language === 'ar';
  return <T,>(arValue: T, enValue: T): T => (ar ? arValue : enValue);
}

/** "12 Ramadan 1446 AH" / "12 رمضان 1446 هـ" from the server's Umm al-Qura date; '' when there is none. */
export function useHijriFormatter() {
  const { t } = useTranslation('public');
  return (d: DualDate) => (d.hijri ? t('hijriDate', { day: d.hijri.day, month: t(`hijriMonths.${d.hijri.month}`), year: d.hijri.year }) : '');
}
