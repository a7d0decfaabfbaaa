import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { ChakraProvider } from '@chakra-ui/react';
import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SERVICES, type RequestKind } from '../../machines/services';
import { configureApi } from '../../web/src/api/client';
import { queryClient } from '../../web/src/api/query';
import { describeSchema } from '../../web/src/components/form/schema-fields';
import { messageText } from '../../web/src/components/form/validation-messages';
import { issuesToErrors, serverErrors, type Errors } from '../../web/src/components/form/wizard-errors';
import { SchemaFields } from '../../web/src/routes/services/SchemaFields';
import { runStepChecks, STEP_CHECKS } from '../../web/src/routes/services/step-checks';
import { fullSystem } from '../../web/src/theme';
import { ApiError } from '../../web/src/api/errors';
import arValidation from '../../locales/ar/validation.json';
import enValidation from '../../locales/en/validation.json';
import arRequests from '../../locales/ar/requests.json';
import enRequests from '../../locales/en/requests.json';

/*
 * A wizard step runs the server checks its section declares (the Halal-mark package within the administrator's limits,
 * the shipment's importer as the commercial registry has it) and keeps the applicant there with the message on the
 * field. The package message needs its limits ("between 8 and 400, in steps of 8"): it travels as a key with its
 * parameters and is put into words only where it is shown, in the reader's language.
 */

const i18n = i18next.createInstance();
await i18n.init({
  resources: { ar: { validation: arValidation, requests: arRequests }, en: { validation: enValidation, requests: enRequests } },
  lng: 'en',
  ns: ['validation', 'requests'],
  interpolation: { escapeValue: false },
});

const LIMITS = { minTags: 8, maxTags: 400, step: 8 };
let sent: { path: string; method: string; body: string }[];
let importerReply: Response;
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  sent = [];
  importerReply = json(200, { verified: true });
  queryClient.clear();
  vi.stubGlobal('fetch', async (request: Request) => {
    const path = new URL(request.url).pathname;
    sent.push({ path, method: request.method, body: await request.text() });
    if (path === '/api/mark-packages') return json(200, LIMITS);
    if (path === '/api/shipment-requests/importer/check') return importerReply;
    return json(404, {});
  });
  configureApi({ language: () => 'en', csrfToken: () => 'token', refreshCsrfToken: async () => {}, onProblem: () => {} });
});
afterEach(() => vi.unstubAllGlobals());

const mark = SERVICES.internalHalalMark;
const shipment = SERVICES.shipment;

/** The package step as the applicant sees it, with the errors the wizard holds. */
function packageStep(lang: 'ar' | 'en', errors: Errors): string {
  const fields = createElement(SchemaFields, {
    node: describeSchema(mark.sections.package!.complete),
    path: 'package',
    value: { tags: 12 },
    onChange: () => {},
    name: 'package',
    ctx: { section: 'package', facilityPublicId: 'f1', requestId: 'r1', fileName: () => undefined, factoryType: 'InternalFacility', readOnly: false, errors },
  });
  return renderToStaticMarkup(
    createElement(ChakraProvider, { value: fullSystem(), children: createElement(I18nextProvider, { i18n: i18n.cloneInstance({ lng: lang }) }, fields) }),
  );
}

describe('the step checks a service section declares', () => {
  it('are declared where submission checks them too, and each has a way to run on its step', () => {
    const declared: string[] = [];
    for (const kind of Object.keys(SERVICES) as RequestKind[]) {
      for (const [name, section] of Object.entries(SERVICES[kind].sections)) {
        for (const check of section.stepChecks ?? []) {
          expect(SERVICES[kind].serverChecks, `${kind}.${name}`).toContain(check);
          expect(STEP_CHECKS[check], check).toBeDefined();
          declared.push(`${kind}.${name}:${check}`);
        }
      }
    }
    expect(declared).toEqual(expect.arrayContaining(['internalHalalMark.package:markPackage', 'externalHalalMark.package:markPackage', 'shipment.importer:importerVerified']));
  });

  it('the package step refuses 12 tags (not a step of 8), the limits kept in the message until it is shown', async () => {
    const refused = await runStepChecks(mark, 'package', { products: [{}], package: { tags: 12 } });
    expect(sent.map((s) => s.path)).toEqual(['/api/mark-packages']);
    expect(refused?.errors['package.tags']).toEqual({ key: 'form.markPackageRange', params: { min: 8, max: 400, step: 8 } });
    const en = packageStep('en', refused!.errors);
    expect(en).toContain('Choose between 8 and 400 tags, in steps of 8');
    expect(en).toContain('data-testid="field-error"');
    expect(packageStep('ar', refused!.errors)).toContain('اختر بين 8 و400 ملصقًا، بزيادات قدرها 8');
  });

  it('the package step lets 16 tags for one product through', async () => {
    expect(await runStepChecks(mark, 'package', { products: [{}], package: { tags: 16 } })).toBeNull();
    expect(sent.map((s) => s.path)).toEqual(['/api/mark-packages']);
  });

  it('the importer step asks the registry check with the importer and marks each field it contradicts', async () => {
    importerReply = json(400, {
      error: {
        code: 'ValidationFailed',
        message: 'invalid',
        validationErrors: [
          { message: 'Importer name: not the registry’s', members: ['importer.name'] },
          { message: 'The CR number is not the registration’s', members: ['importer.crNumber'] },
        ],
      },
    });
    const importer = { unifiedNumber: '7001234567', name: 'Unregistered Trading Co' };
    const refused = await runStepChecks(shipment, 'importer', { importer });
    expect(sent).toEqual([{ path: '/api/shipment-requests/importer/check', method: 'POST', body: JSON.stringify(importer) }]);
    // The server's words are already in the reader's language: shown as they are (a colon is not a namespace).
    expect(refused?.errors).toEqual({ 'importer.name': 'Importer name: not the registry’s', 'importer.crNumber': 'The CR number is not the registration’s' });
    expect(messageText(i18n.t, refused!.errors['importer.name']!)).toBe('Importer name: not the registry’s');
  });

  it('the importer step lets a registry-confirmed importer through', async () => {
    expect(await runStepChecks(shipment, 'importer', { importer: { unifiedNumber: '7001234567' } })).toBeNull();
    expect(sent).toHaveLength(1);
  });

  it('a section that declares no check asks nothing', async () => {
    expect(await runStepChecks(shipment, 'exporter', { exporter: {} })).toBeNull();
    expect(await runStepChecks(mark, 'products', { products: [] })).toBeNull();
    expect(sent).toEqual([]);
  });
});

describe('the wizard’s field errors', () => {
  it('keep a rule’s parameters and the first message of each field', () => {
    const errors = issuesToErrors([
      { path: 'package.tags', message: 'form.markPackageTooSmall', params: { products: 3 } },
      { path: 'package.tags', message: 'form.markPackageRange', params: { min: 8, max: 400, step: 8 } },
      { path: 'products', message: 'productRequired' },
    ]);
    expect(errors).toEqual({ 'package.tags': { key: 'form.markPackageTooSmall', params: { products: 3 } }, products: { key: 'productRequired' } });
    expect(messageText(i18n.getFixedT('en'), errors['package.tags']!)).toBe('The package needs at least one tag per product (3)');
  });

  it('keep the server’s localized messages by field, and leave out those about no field', () => {
    const e = new ApiError(400, 'ValidationFailed', 'invalid', [
      { message: 'مطلوب', members: ['importer.name'] },
      { message: 'general', members: [] },
    ]);
    expect(serverErrors(e)).toEqual({ 'importer.name': 'مطلوب' });
  });
});
