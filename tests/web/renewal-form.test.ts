import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { ChakraProvider } from '@chakra-ui/react';
import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { checkRenewal } from '../../web/src/routes/internal-request/renewal-form';
import { TextInput } from '../../web/src/routes/requests/inputs';
import { fullSystem } from '../../web/src/theme';
import arCommon from '../../locales/ar/common.json';
import enCommon from '../../locales/en/common.json';
import arValidation from '../../locales/ar/validation.json';
import enValidation from '../../locales/en/validation.json';

/*
 * The internal renewal page checks the reason with the section schema the server uses. Its message is a key of the
 * validation namespace; the page's inputs translate in the app's default namespace, where it once showed as the bare
 * word "required". Rendered here as the page renders it, with the app's default namespace.
 */
const i18n = i18next.createInstance();
await i18n.init({
  resources: { ar: { common: arCommon, validation: arValidation }, en: { common: enCommon, validation: enValidation } },
  lng: 'en',
  ns: ['common', 'validation'],
  defaultNS: 'common',
  interpolation: { escapeValue: false },
});

const reasonField = async (lang: 'ar' | 'en', error: Parameters<typeof TextInput>[0]['error']) => {
  await i18n.changeLanguage(lang);
  const input = createElement(TextInput, { name: 'renewal.reason', label: 'reason', value: '', onChange: () => {}, error, required: true, multiline: true });
  return renderToStaticMarkup(createElement(ChakraProvider, { value: fullSystem(), children: createElement(I18nextProvider, { i18n }, input) }));
};

describe('the internal renewal page’s reason', () => {
  it('left empty is refused with the sentence a user reads, in both languages', async () => {
    const checked = checkRenewal({ reason: '', notes: '' });
    expect(checked.ok).toBe(false);
    const error = checked.ok ? undefined : checked.errors.reason;
    expect(await reasonField('en', error)).toContain(enValidation.required);
    expect(await reasonField('ar', error)).toContain(arValidation.required);
    expect(await reasonField('en', error)).not.toMatch(/>required</);
  });

  it('given is accepted as typed, and the server’s own message is shown as it came', async () => {
    expect(checkRenewal({ reason: 'Production moved to a new line', notes: '' })).toMatchObject({ ok: true, renewal: { reason: 'Production moved to a new line' } });
    expect(await reasonField('en', 'The certificate is no longer valid')).toContain('The certificate is no longer valid');
  });
});
