import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import ar from '../../locales/ar/requests.json';
import en from '../../locales/en/requests.json';
import { noticeText } from '../../web/src/routes/requests/notices';

/*
 * A walker submitted added products in Arabic and read the request page in English: the exclusion notice stayed
 * Arabic, because the page kept the text the server wrote in the submitter's language. The page keeps the message
 * key with both languages' names and writes it in the language it is read in; a notice kept in the old form (its
 * text) still shows as it was written.
 */
const i18n = i18next.createInstance();
await i18n.init({ resources: { ar: { requests: ar }, en: { requests: en } }, lng: 'ar', ns: ['requests'], interpolation: { escapeValue: false } });

const excluded = {
  key: 'requests:notices.productsExcluded',
  names: { products: [{ ar: 'حليب طازج', en: 'Fresh milk' }, { ar: 'خبز أبيض', en: 'White bread' }] },
};

describe('the notices of a submission, read in either language', () => {
  it('speak the reader’s language, with the names as that language lists them', () => {
    expect(noticeText(i18n.getFixedT('en'), 'en', excluded)).toBe('Already on the certificate and left out of this request: Fresh milk and White bread');
    expect(noticeText(i18n.getFixedT('ar'), 'ar', excluded)).toBe('مدرجة في الشهادة بالفعل واستُبعدت من هذا الطلب: حليب طازج وخبز أبيض');
  });

  it('a notice kept as text before keys still shows as written', () => {
    expect(noticeText(i18n.getFixedT('en'), 'en', 'مدرجة في الشهادة بالفعل')).toBe('مدرجة في الشهادة بالفعل');
  });
});
