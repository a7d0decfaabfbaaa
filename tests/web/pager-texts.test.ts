import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import ar from '../../locales/ar/common.json';
import en from '../../locales/en/common.json';
import { pagerTexts } from '../../web/src/components/DataTable';

/** A list whose total the server capped (QueuePage.totalCapped) reads "more than N" in both languages. */
describe('pager texts', () => {
  const texts = async (lng: 'ar' | 'en', totalCapped: boolean) => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng, resources: { ar: { common: ar }, en: { common: en } }, interpolation: { escapeValue: false } });
    return pagerTexts(i18n.t, { page: 2, pageSize: 20, total: 1020, totalCapped });
  };

  it('says "more than" the capped total, and that the last page counted may not be the last', async () => {
    expect(await texts('en', true)).toEqual({ total: 'Records: more than 1020', pageOf: 'Page 2 of 51 or more' });
    expect(await texts('ar', true)).toEqual({ total: 'عدد السجلات: أكثر من 1020', pageOf: 'صفحة 2 من 51 أو أكثر' });
  });

  it('gives an exact total as it is', async () => {
    expect(await texts('en', false)).toEqual({ total: 'Records: 1020', pageOf: 'Page 2 of 51' });
    expect(await texts('ar', false)).toEqual({ total: 'عدد السجلات: 1020', pageOf: 'صفحة 2 من 51' });
  });
});
