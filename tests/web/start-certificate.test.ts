import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { ChakraProvider } from '@chakra-ui/react';
import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { StartCertificate, type SubjectCertificate } from '../../web/src/routes/services/StartCertificate';
import { fullSystem } from '../../web/src/theme';
import { ZCertificate } from '../../machines/forms/records';
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
const party = (publicId: string, nameEn: string) => ({ publicId, type: 'ConformityBody', nameAr: nameEn, nameEn, registrationNumber: null, countryCode: 'MY', city: null });
// The server's answer for a CB designation (GET /api/certificates/:id), through the schema the route answers with.
const open: SubjectCertificate = ZCertificate.parse({
  id: 'c1',
  number: 'CB-2026-000123',
  legacyNumber: null,
  kind: 'cbDesignation',
  kindLabel: 'CB designation',
  status: { code: 1, public: 'active', label: 'Active', note: null },
  holder: party('cb-global-halal', 'Global Halal Conformity Body'),
  issuer: null,
  scope: null,
  categories: ['C'],
  products: [],
  issuedAt: dual('2025-04-15T21:00:00.000Z'),
  validFrom: dual('2025-04-15T21:00:00.000Z'),
  // 21:00 UTC is the next day in Riyadh: the portal's clock decides the day shown.
  expiresAt: dual('2028-04-15T21:00:00.000Z'),
  verificationCode: 'CBCODE0001',
  verificationUrl: 'https://halal.example/verify/CBCODE0001',
  requestId: null,
  requestNumber: null,
  certificate: null,
  renewal: { kind: 'cbRenewal', start: '/cba-renewal-request/$cbPublicId/$certificateId' },
  openRenewal: null,
  lifecycle: true,
});

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
