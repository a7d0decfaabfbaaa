import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { ChakraProvider } from '@chakra-ui/react';
import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { StartCertificate, type SubjectCertificate } from '../../web/src/routes/services/StartCertificate';
import { fullSystem } from '../../web/src/theme';
import arRequests from '../../locales/ar/requests.json';
import enRequests from '../../locales/en/requests.json';
import arRecords from '../../locales/ar/records.json';
import enRecords from '../../locales/en/records.json';

/*
 * The start page of a service about one certificate names it (number, kind, expiry). Why a start would be refused is
 * the server's start check (GET /api/requests/start-check, internal-requests.test; cb-services.e2e reads it on the page).
 */
const i18n = i18next.createInstance();
await i18n.init({
  resources: {
    ar: { requests: arRequests, records: arRecords },
    en: { requests: enRequests, records: enRecords },
  },
  lng: 'en',
  ns: ['requests', 'records'],
  interpolation: { escapeValue: false },
});

const dual = (iso: string) => ({ iso, gregorian: iso.slice(0, 10), hijri: null });
// The server's answer for a CB designation (GET /api/certificates/:id), as far as the page reads it.
const open = {
  id: 'c1',
  number: 'CB-2026-000123',
  kind: 'cbDesignation',
  kindLabel: 'CB designation',
  // 21:00 UTC is the next day in Riyadh: the portal's clock decides the day shown.
  expiresAt: dual('2028-04-15T21:00:00.000Z'),
  renewal: { kind: 'cbRenewal', start: '/cba-renewal-request/$cbPublicId/$certificateId' },
} as unknown as SubjectCertificate;

const page = async (lang: 'ar' | 'en', c: SubjectCertificate) => {
  await i18n.changeLanguage(lang);
  const el = createElement(StartCertificate, { certificate: c });
  return renderToStaticMarkup(createElement(ChakraProvider, { value: fullSystem(), children: createElement(I18nextProvider, { i18n }, el) }));
};

describe('the start page of a service about a certificate', () => {
  it('names the certificate: its number, kind and expiry date on the portal’s clock, under a heading, in both languages', async () => {
    const en = await page('en', open);
    expect(en).toMatch(/<h2[^>]*>The certificate this request is about<\/h2>/);
    expect(en).toContain('CB-2026-000123');
    expect(en).toContain('CB designation');
    expect(en).toContain('16 Apr 2028');
    expect(en).toContain(enRecords.certificates.expiresAt);
    const ar = await page('ar', open);
    expect(ar).toContain(arRequests.start.certificateTitle);
    expect(ar).toContain(arRecords.certificates.kind);
    expect(ar).toContain('CB-2026-000123');
    expect(ar).toMatch(/16\D+04\D+2028/);
  });

});
