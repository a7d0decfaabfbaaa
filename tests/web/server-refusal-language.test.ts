import { beforeAll, describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { apiErrorFromBody, messagesOf, refusalOf, saysOf } from '../../web/src/api/errors';
import { refusalMessages, serverErrors } from '../../web/src/components/form/wizard-errors';
import { messageText } from '../../web/src/components/form/validation-messages';
import arErrors from '../../locales/ar/errors.json';
import enErrors from '../../locales/en/errors.json';
import arValidation from '../../locales/ar/validation.json';
import enValidation from '../../locales/en/validation.json';
import arShell from '../../locales/ar/shell.json';
import enShell from '../../locales/en/shell.json';
import arForms from '../../locales/ar/forms.json';
import enForms from '../../locales/en/forms.json';

/**
 * A server refusal shown in a wizard (its banner, its fields) is said again in the reader's language after a switch:
 * the web keeps the refusal's key and parameters the server sends (server/plugins/errors.ts), not the Arabic words of
 * the request that failed.
 */
beforeAll(async () => {
  await i18next.init({
    resources: {
      ar: { errors: arErrors, validation: arValidation, shell: arShell, forms: arForms },
      en: { errors: enErrors, validation: enValidation, shell: enShell, forms: enForms },
    },
    lng: 'ar',
    defaultNS: 'shell',
    interpolation: { escapeValue: false },
  });
});

const said = (lang: 'ar' | 'en') => (m: Parameters<typeof messageText>[1]) => messageText(i18next.getFixedT(lang), m);

describe('a server refusal after a language switch', () => {
  it('the banner of a coded refusal says it in the new language with its parameters', () => {
    // The body as the server sends it for an Arabic request (tests/server/accounts-register.test.ts OtpInvalid).
    const message = arErrors.OtpInvalid.replace('{{attemptsLeft}}', '4');
    const refused = apiErrorFromBody(400, { error: { code: 'OtpInvalid', message, params: { attemptsLeft: 4 } } });
    const banner = refusalMessages(refused);
    expect(banner.map(said('ar'))).toEqual([message]);
    expect(banner.map(said('en'))).toEqual(['The verification code is incorrect (4 attempts left).']);
    expect(messagesOf(refused, i18next.getFixedT('en'))).toEqual(['The verification code is incorrect (4 attempts left).']);
  });

  it('the field errors and banner of a validation refusal say it in the new language', () => {
    const message = arValidation.maxLength.replace('{{max}}', '70');
    const refused = apiErrorFromBody(400, {
      error: { code: 'ValidationFailed', message: arErrors.ValidationFailed, validationErrors: [{ message, members: ['products.0.nameEn'], key: 'validation:maxLength', params: { max: 70 } }] },
    });
    expect(said('ar')(serverErrors(refused)['products.0.nameEn']!)).toBe(message);
    expect(said('en')(serverErrors(refused)['products.0.nameEn']!)).toBe('The maximum length is 70 characters');
    expect(refusalMessages(refused).map(said('en'))).toEqual(['The maximum length is 70 characters']);
  });

  it('a message that came without a key is shown as the server wrote it', () => {
    const refused = apiErrorFromBody(400, { error: { code: 'SomethingNew', message: 'نص من الخادم', validationErrors: [{ message: 'حقل', members: ['x'] }] } });
    expect(said('en')(serverErrors(refused).x!)).toBe('حقل');
    expect(said('en')(refusalMessages(apiErrorFromBody(409, { error: { code: 'SomethingNew', message: 'نص من الخادم' } }))[0]!)).toBe('نص من الخادم');
  });

  it('a product upload row error names its row, column and message in the new language (ProductUpload)', () => {
    // The body as the server sends it for an Arabic request (tests/server/product-upload.test.ts): the column and the
    // message are keys, so the page draws them in the language it is read in now.
    const refused = apiErrorFromBody(400, {
      error: {
        code: 'ProductUploadRowErrors',
        message: arErrors.ProductUploadRowErrors.replace('{{rows}}', '3'),
        params: { rows: '3' },
        validationErrors: [{ message: 'الصف 3، العلامة التجارية (عربي): استخدم الحروف العربية فقط', members: ['rows.3.brandAr'], key: 'validation:form.productRow', params: { row: 3, column: 'brandAr', message: 'arabicOnly' } }],
      },
    });
    expect(messagesOf(refused, i18next.getFixedT('ar'))).toEqual(['الصف 3، العلامة التجارية (عربي): استخدم الحروف العربية فقط']);
    expect(messagesOf(refused, i18next.getFixedT('en'))).toEqual(['Row 3, Brand (Arabic): Use Arabic letters only']);
  });

  it("an error screen's server message and a page's own refusal (GDPR) say their key in the new language", () => {
    const notFound = apiErrorFromBody(404, { error: { code: 'NotFound', message: arErrors.NotFound } });
    expect(said('en')(refusalOf(notFound))).toBe(enErrors.NotFound);
    const inUse = apiErrorFromBody(409, { error: { code: 'GdprAccountInUse', message: 'نص عربي', params: { requests: 2, bills: 1 } } });
    expect(saysOf(inUse).map(said('en'))).toEqual([enErrors.GdprAccountInUse.replace('{{requests}}', '2').replace('{{bills}}', '1')]);
  });
});
