import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { ChakraProvider } from '@chakra-ui/react';
import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { StartCertificate, startRefusal, type SubjectCertificate } from '../../web/src/routes/services/StartCertificate';
import { fullSystem } from '../../web/src/theme';
import arRequests from '../../locales/ar/requests.json';
import enRequests from '../../locales/en/requests.json';
import arRecords from '../../locales/ar/records.json';
import enRecords from '../../locales/en/records.json';
import arErrors from '../../locales/ar/errors.json';
import enErrors from '../../locales/en/errors.json';

/*
 * The start page of a service about one certificate names it (number, kind, expiry) and, for a renewal the server's
 * `renewal` of the certificate does not name, says why before the click, in the words the start call would refuse
 * it with (its error key and parameters, sent as `renewalRefusal`); the page then disables "Start".
 */
const i18n = i18next.createInstance();
await i18n.init({
  resources: {
    ar: { requests: arRequests, records: arRecords, errors: arErrors },
    en: { requests: enRequests, records: enRecords, errors: enErrors },
  },
  lng: 'en',
  ns: ['requests', 'records', 'errors'],
  interpolation: { escapeValue: false },
});

const dual = (iso: string) => ({ iso, gregorian: iso.slice(0, 10), hijri: null });
// The server's answer for a CB designation 500 days from expiry (GET /api/certificates/:id), as far as the page reads it.
const far = {
  id: 'c1',
  number: 'CB-2026-000123',
  kind: 'cbDesignation',
  kindLabel: 'CB designation',
  // 21:00 UTC is the next day in Riyadh: the portal's clock decides the day shown.
  expiresAt: dual('2028-04-15T21:00:00.000Z'),
  renewal: null,
  renewalRefusal: { code: 'RenewalNotOpen', params: { days: 180, number: 'CB-2026-000123' } },
} as unknown as SubjectCertificate;
const open = { ...far, renewal: { kind: 'cbRenewal', start: '/cba-renewal-request/$cbPublicId/$certificateId' }, renewalRefusal: null } as SubjectCertificate;

const page = async (lang: 'ar' | 'en', c: SubjectCertificate, kind: 'cbRenewal' | 'cbAddCategories') => {
  await i18n.changeLanguage(lang);
  const el = createElement(StartCertificate, { certificate: c, refusal: startRefusal(kind, c) });
  return renderToStaticMarkup(createElement(ChakraProvider, { value: fullSystem(), children: createElement(I18nextProvider, { i18n }, el) }));
};

describe('the start page of a service about a certificate', () => {
  it('names the certificate: its number, kind and expiry date on the portal’s clock, under a heading, in both languages', async () => {
    const en = await page('en', open, 'cbRenewal');
    expect(en).toMatch(/<h2[^>]*>The certificate this request is about<\/h2>/);
    expect(en).toContain('CB-2026-000123');
    expect(en).toContain('CB designation');
    expect(en).toContain('16 Apr 2028');
    expect(en).toContain(enRecords.certificates.expiresAt);
    const ar = await page('ar', open, 'cbRenewal');
    expect(ar).toContain(arRequests.start.certificateTitle);
    expect(ar).toContain(arRecords.certificates.kind);
    expect(ar).toContain('CB-2026-000123');
    expect(ar).toMatch(/16\D+04\D+2028/);
  });

  it('a renewal whose window the server says is open may start: no refusal shown', async () => {
    expect(startRefusal('cbRenewal', open)).toBeNull();
    expect(await page('en', open, 'cbRenewal')).not.toContain('data-testid="start-refused"');
  });

  it('a renewal the server does not offer says why in the start call’s own words, with its parameters', async () => {
    expect(startRefusal('cbRenewal', far)).toEqual({ code: 'RenewalNotOpen', params: { days: 180, number: 'CB-2026-000123' } });
    expect(await page('en', far, 'cbRenewal')).toContain('A certificate can be renewed only when fewer than 180 days of its validity remain.');
    expect(await page('ar', far, 'cbRenewal')).toContain(arErrors.RenewalNotOpen.replace('{{days}}', '180'));
  });

  it('another service of the same certificate (added categories) is not held back by the renewal window', async () => {
    expect(startRefusal('cbAddCategories', far)).toBeNull();
    expect(await page('en', far, 'cbAddCategories')).not.toContain('data-testid="start-refused"');
  });

  it('a renewal not offered without a reason from the server is still refused (the server’s `renewal` decides)', () => {
    expect(startRefusal('cbRenewal', { ...far, renewalRefusal: null })).toEqual({ code: 'CertificateNotValid', params: { number: 'CB-2026-000123' } });
  });
});
