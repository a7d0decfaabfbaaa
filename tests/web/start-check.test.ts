import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { configureApi } from '../../web/src/api/client';
import { apiQuery, type ApiResponse } from '../../web/src/api/query';
import { useStartCheck } from '../../web/src/routes/services/start-check';
import arErrors from '../../locales/ar/errors.json';
import enErrors from '../../locales/en/errors.json';

/*
 * The start page (StartServicePage, every service's) says why a start would be refused through one hook: the
 * start check's refusal, in the start's words, drawn from its key when shown, so a reader who switches language reads
 * it in the new one (the answer came in the language of the call).
 */
beforeAll(async () => {
  await i18next.init({ resources: { ar: { errors: arErrors }, en: { errors: enErrors } }, lng: 'ar', interpolation: { escapeValue: false } });
  configureApi({ language: () => 'ar' });
});

type Check = ApiResponse<'/api/requests/start-check'>;
const CERTIFICATE = '2b9e0c4e-6a4f-4d3e-9a55-0c1f1a7d2e11';

/** What the hook gives a page, for an answer the server sent in Arabic, read in `lang`. */
async function shown(answer: Check, lang: 'ar' | 'en') {
  await i18next.changeLanguage(lang);
  const client = new QueryClient();
  client.setQueryData(
    apiQuery('/api/requests/start-check', { params: { query: { kind: 'internalRenewal', facilityId: 'inf-almarai-foods', certificateId: CERTIFICATE } } }).queryKey,
    answer,
  );
  let seen: ReturnType<typeof useStartCheck> | undefined;
  const Probe = () => {
    seen = useStartCheck('internalRenewal', 'inf-almarai-foods', CERTIFICATE);
    return null;
  };
  renderToStaticMarkup(createElement(QueryClientProvider, { client }, createElement(I18nextProvider, { i18n: i18next }, createElement(Probe))));
  return seen!;
}

describe('useStartCheck', () => {
  const notOpen: Check = {
    canStart: false,
    refusal: { code: 'RenewalNotOpen', message: arErrors.RenewalNotOpen.replace('{{days}}', '60'), params: { days: 60 } },
  };

  it('says a refusal in the start’s words, with its parameters, in the language of the moment', async () => {
    expect(await shown(notOpen, 'ar')).toEqual({ canStart: false, refused: arErrors.RenewalNotOpen.replace('{{days}}', '60') });
    expect(await shown(notOpen, 'en')).toEqual({ canStart: false, refused: 'A certificate can be renewed only when fewer than 60 days of its validity remain.' });
  });

  it('shows a refusal this web has no words for as the server wrote it, and nothing when the start may go ahead', async () => {
    const unknown: Check = { canStart: false, refusal: { code: 'SomethingNew', message: 'نص من الخادم' } };
    expect(await shown(unknown, 'en')).toEqual({ canStart: false, refused: 'نص من الخادم' });
    expect(await shown({ canStart: true, refusal: null }, 'en')).toEqual({ canStart: true, refused: null });
  });
});
