import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import ar from '../../locales/ar/requests.json';

/** Arabic has six plural forms: a draft edited twice or five times must read as Arabic, not as the key. */
describe('Arabic plurals of the request history', () => {
  it('names the draft edits for every count', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'ar', resources: { ar: { requests: ar } }, interpolation: { escapeValue: false } });
    for (const count of [0, 1, 2, 3, 11, 100]) {
      const text = i18n.t('requests:history.edits', { count });
      expect(text, `count ${count}`).not.toContain('history.edits');
      expect(text).toContain('تعديل المسودة');
    }
  });
});
