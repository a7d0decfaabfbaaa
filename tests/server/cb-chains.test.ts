import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { bills, certificates, requests } from '../../db/schema';
import { makeSaudiIban } from '../../machines/forms/facilities/formats';
import { tFor } from '../../server/i18n';
import type { Client } from '../helpers/app';
import { accept, completeDraft, send, type RequestJson } from '../helpers/requests';
import { externalCertificateData, renewalSection, shipmentData } from '../services/fixtures';
import { billsOf, certificatesOf, committeeSends, createWorld, designationOf, fireDue, fireTimer, fireWaiting, payBill, walk, type CertificateJson, type World } from '../services/walk';
import { PDF } from './facilities-harness';

/*
 * Second-order lifecycles around conformity bodies (spec 02 sections 1, 4, 5 and 8), over HTTP as a person meets them:
 * what a CB may do for foreign factories when it holds no designation, which factory a request may name, and the changes
 * an issued external certificate request asks for (set A: add products, add categories) once the CB's designation or
 * the certificate changed. Every refusal is read in both languages and leaves the request as it was.
 */
const CB = 'cb-global-halal';
const FACTORY = 'exf-anatolia-meat';
/** A foreign factory no account has certified through a request (its own account is nobody's in the demo). */
const PARANA = 'exf-parana-chicken';
const LANGS = ['ar', 'en'] as const;
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

let w: World;
let cb: Client;
/** The external certificate Global Halal CB had issued for the Parana factory, and the request that issued it (set A, 105). */
let paranaCert: CertificateJson;
let paranaRequest: string;

beforeAll(async () => {
  w = await createWorld();
  cb = w.as['cb.main'];
  const draft = await completeDraft(cb, 'externalCertificate', CB, { data: { factory: externalCertificateData(PARANA).factory } });
  const { request, steps } = await walk(w, draft.id, { applicant: 'cb.main', until: 105 });
  expect(request.status.code, JSON.stringify(steps)).toBe(105);
  paranaRequest = draft.id;
  [paranaCert] = await certificatesOf(w, cb, draft.id);
}, 240_000);
afterAll(() => w?.t.close());

const said = (lang: 'ar' | 'en', key: string, params: Record<string, unknown> = {}) => tFor(lang)(key, params);
const requestOf = async (c: Client, id: string) => (await c.get(`/api/requests/${id}`)).json() as RequestJson;
/** The request as stored: its version, status and data (what a refusal must leave as it was). */
const stored = async (id: string) => {
  const [row] = await w.t.database.db.select({ version: requests.version, status: requests.status, snapshot: requests.snapshot }).from(requests).where(eq(requests.id, id));
  return { version: row.version, status: row.status, data: (row.snapshot.context as { data?: unknown }).data };
};
const requestCount = async (facility: string) => (await w.t.database.db.select({ id: requests.id }).from(requests).where(eq(requests.facilityPublicId, facility))).length;
type Issue = { key: string; members: string[]; message: string };
const issuesOf = (body: string) => (JSON.parse(body) as { error: { validationErrors: Issue[] } }).error.validationErrors.map((i) => [i.key, i.members, i.message]);
const startCheck = async (c: Client, kind: string, facilityId: string, lang: string) =>
  (await c.get(`/api/requests/start-check?kind=${kind}&facilityId=${facilityId}&lang=${lang}`)).json() as { canStart: boolean; refusal: { code: string; message: string } | null };

describe('a conformity body that holds no designation yet serves no factory (README, choices)', () => {
  let applicant: Client;
  let newCb: string;
  beforeAll(async () => {
    // Adding a CB is immediate (spec 02 section 1): the new body is a facility of its main user, with no designation.
    const first = await w.t.login('new.applicant');
    const files = [];
    for (const category of ['commercialRegistration', 'accreditationCertificate', 'acceptanceCertificate']) {
      const up = await first.request({ method: 'POST', url: `/api/facility-attachments?category=${category}&fileName=doc.pdf&lang=en`, payload: PDF, headers: { 'content-type': 'application/pdf' } });
      files.push({ id: up.json().id as string });
    }
    const created = await first.post('/api/ConformityBody/create?lang=en', {
      nameAr: 'هيئة الخليج للحلال',
      nameEn: 'Gulf Halal Body',
      countryCode: 'AE',
      city: 'Dubai',
      address: 'Sheikh Zayed Road',
      registrationNumber: 'AE-CB-CBCHAINS',
      acceptanceNumber: '7-1077H-CB',
      notificationNumber: 'H-CB2077-7',
      certificateIssueDate: day(-30),
      certificateExpiryDate: day(700),
      iban: makeSaudiIban('10', '100000000000000077'),
      categories: ['C0', 'CI'],
      attachments: files,
    });
    expect(created.statusCode, created.body).toBe(200);
    newCb = created.json().publicId as string;
    // A fresh session carries the new facility.
    applicant = await w.t.login('new.applicant');
  }, 60_000);

  it.each(['externalCertificate', 'shipment'])('%s: the start page says why, in Arabic and English; the start is refused and makes no draft', async (kind) => {
    for (const lang of LANGS) {
      expect(await startCheck(applicant, kind, newCb, lang)).toEqual({ canStart: false, refusal: expect.objectContaining({ code: 'CbNotDesignated', message: said(lang, 'errors:CbNotDesignated') }) });
      const res = await applicant.post(`/api/requests?lang=${lang}`, { kind, facilityId: newCb, data: { factory: { facilityPublicId: PARANA } } });
      expect([res.statusCode, res.json().error.code, res.json().error.message]).toEqual([400, 'CbNotDesignated', said(lang, 'errors:CbNotDesignated')]);
    }
    expect(await requestCount(newCb)).toBe(0);
  });

  it('its own designation request is what it may start', async () => {
    expect(await startCheck(applicant, 'cbDesignation', newCb, 'en')).toEqual({ canStart: true, refusal: null });
  });
});

describe('the factory a request names is a registered foreign factory the applicant may ask for (README, choices)', () => {
  const factoryIssue = (key: string) => LANGS.map((lang) => [`validation:form.${key}`, ['factory.facilityPublicId'], said(lang, `validation:form.${key}`)]);

  it.each([
    ['an internal facility', 'inf-almarai-foods'],
    ['another conformity body', 'cb-istanbul-halal'],
    ['an id no facility has', 'exf-nowhere'],
  ])('a CB naming %s: refused at the start, at a draft save (EDIT) and at the submission, in Arabic and English; nothing stored', async (_, named) => {
    const before = await requestCount(CB);
    const starts = [];
    for (const lang of LANGS) {
      const res = await cb.post(`/api/requests?lang=${lang}`, { kind: 'externalCertificate', facilityId: CB, data: { factory: { facilityPublicId: named } } });
      expect(res.statusCode, res.body).toBe(400);
      starts.push(...issuesOf(res.body));
    }
    expect(starts).toEqual(factoryIssue('factoryNotForeign'));
    expect(await requestCount(CB)).toBe(before);

    const draft = await completeDraft(cb, 'externalCertificate', CB, { data: { factory: externalCertificateData(PARANA).factory } });
    const kept = await stored(draft.id);
    const edits = [];
    for (const lang of LANGS) {
      const res = await send(cb, draft.id, 'EDIT', draft.version, { data: { factory: externalCertificateData(named).factory } }, lang);
      expect(res.statusCode, res.body).toBe(400);
      edits.push(...issuesOf(res.body));
    }
    expect(edits).toEqual(factoryIssue('factoryNotForeign'));
    expect(await stored(draft.id)).toEqual(kept);

    // A draft that names it all the same (saved before this rule): its submission is refused, the draft kept.
    const [row] = await w.t.database.db.select({ snapshot: requests.snapshot }).from(requests).where(eq(requests.id, draft.id));
    const snapshot = structuredClone(row.snapshot) as { context: { data: Record<string, Record<string, unknown>> } };
    snapshot.context.data.factory.facilityPublicId = named;
    await w.t.database.db.update(requests).set({ snapshot: snapshot as never }).where(eq(requests.id, draft.id));
    const old = await stored(draft.id);
    const submits = [];
    for (const lang of LANGS) {
      const res = await send(cb, draft.id, 'SUBMIT', draft.version, { agreementAccepted: true }, lang);
      expect(res.statusCode, res.body).toBe(400);
      submits.push(...issuesOf(res.body));
    }
    expect(submits).toEqual(factoryIssue('factoryNotForeign'));
    expect(await stored(draft.id)).toEqual(old);
    expect((await requestOf(cb, draft.id)).status.code).toBe(100);
  });

  it('a foreign factory’s own account names only itself: an external certificate or a shipment for another factory is refused', async () => {
    const external = w.as.external;
    const before = await requestCount(FACTORY);
    const got = [];
    for (const kind of ['externalCertificate', 'shipment']) {
      for (const lang of LANGS) {
        const res = await external.post(`/api/requests?lang=${lang}`, { kind, facilityId: FACTORY, data: { factory: { facilityPublicId: 'exf-bursa-meat' } } });
        expect(res.statusCode, res.body).toBe(400);
        got.push(...issuesOf(res.body));
      }
    }
    expect(got).toEqual([...factoryIssue('factoryNotOwn'), ...factoryIssue('factoryNotOwn')]);
    expect(await requestCount(FACTORY)).toBe(before);
    // A shipment draft of its own factory, then saved naming another: refused, the draft as it was.
    const draft = await completeDraft(external, 'shipment', FACTORY, { data: shipmentData() });
    const kept = await stored(draft.id);
    const res = await send(external, draft.id, 'EDIT', draft.version, { data: { factory: { facilityPublicId: 'exf-bursa-meat' } } });
    expect([res.statusCode, issuesOf(res.body)]).toEqual([400, [factoryIssue('factoryNotOwn')[1]]]);
    expect(await stored(draft.id)).toEqual(kept);
  });

  it('a renewal names the factory that holds its certificate: another factory is refused at a save; its own is accepted', async () => {
    // The renewal window opens 60 days before expiry.
    await w.t.database.db.update(certificates).set({ expiresAt: new Date(Date.now() + 30 * 86_400_000) }).where(eq(certificates.id, paranaCert.id));
    try {
      const renewal = await cb.post('/api/requests', { kind: 'externalRenewal', facilityId: CB, certificateId: paranaCert.id });
      expect(renewal.statusCode, renewal.body).toBe(201);
      const draft = renewal.json() as RequestJson;
      const kept = await stored(draft.id);
      const edits = [];
      for (const lang of LANGS) {
        const res = await send(cb, draft.id, 'EDIT', draft.version, { data: { factory: externalCertificateData('exf-surabaya-foods').factory } }, lang);
        expect(res.statusCode, res.body).toBe(400);
        edits.push(...issuesOf(res.body));
      }
      expect(edits).toEqual(factoryIssue('factoryNotCertificateHolder'));
      expect(await stored(draft.id)).toEqual(kept);
      const own = await send(cb, draft.id, 'EDIT', draft.version, { data: { factory: externalCertificateData(PARANA).factory, renewal: renewalSection() } });
      expect(own.statusCode, own.body).toBe(200);
      await accept(cb, draft.id, 'DELETE', { confirmed: true });
    } finally {
      await w.t.database.db.update(certificates).set({ expiresAt: new Date(paranaCert.expiresAt.iso) }).where(eq(certificates.id, paranaCert.id));
    }
  });
});

describe('changes asked for on an issued external certificate (set A) obey the added-products rules', () => {
  const current = async () => requestOf(cb, paranaRequest);
  /** Sends the change in both languages; each must be refused with these issues; the request, its certificate and bills unchanged. */
  const refusedBoth = async (type: string, payload: Record<string, unknown>, expected: (lang: 'ar' | 'en') => unknown) => {
    const before = await stored(paranaRequest);
    const [certBefore] = await w.t.database.db.select().from(certificates).where(eq(certificates.id, paranaCert.id));
    const billsBefore = await w.t.database.db.select({ id: bills.id }).from(bills).where(eq(bills.requestId, paranaRequest));
    for (const lang of LANGS) {
      const res = await send(cb, paranaRequest, type, before.version, payload, lang);
      expect(res.statusCode, res.body).toBe(400);
      const body = res.json() as { error: { code: string; message: string; validationErrors?: Issue[] } };
      expect(body.error.validationErrors?.length ? body.error.validationErrors.map((i) => [i.key, i.members, i.message]) : [body.error.code, body.error.message]).toEqual(expected(lang));
    }
    expect(await stored(paranaRequest)).toEqual(before);
    expect((await w.t.database.db.select().from(certificates).where(eq(certificates.id, paranaCert.id)))[0]).toEqual(certBefore);
    expect(await w.t.database.db.select({ id: bills.id }).from(bills).where(eq(bills.requestId, paranaRequest))).toEqual(billsBefore);
    expect((await current()).status.code).toBe(105);
  };

  it('a category outside the CB’s designation, or not in the catalogue, is refused and named (spec 02 section 5)', async () => {
    const designation = await designationOf(w, CB);
    expect(designation.categories).not.toContain('K');
    await refusedBoth('ADD_CATEGORIES', { categories: ['CI', 'K', 'ZZZ'] }, (lang) => [
      ['validation:form.categoryOutsideCbDesignation', ['categories.1'], said(lang, 'validation:form.categoryOutsideCbDesignation', { category: 'K' })],
      ['validation:form.categoryUnknown', ['categories.2'], said(lang, 'validation:form.categoryUnknown', { category: 'ZZZ' })],
    ]);
  });

  it('a product outside the certificate’s categories and the CB’s designation is refused (spec 02 section 8)', async () => {
    const [beef] = externalCertificateData().products as Record<string, unknown>[];
    await refusedBoth('ADD_PRODUCTS', { products: [{ ...beef, category: 'K' }] }, (lang) => [
      ['validation:form.subCategoryNotInFacilityCertificate', ['products.0.category'], said(lang, 'validation:form.subCategoryNotInFacilityCertificate')],
      ['validation:form.productOutsideCbDesignation', ['products.0.category'], said(lang, 'validation:form.productOutsideCbDesignation')],
    ]);
  });

  it('while the CB’s designation is suspended nothing may be added; once reinstated, a category inside it is accepted (131)', async () => {
    const designation = await designationOf(w, CB);
    const [row] = await w.t.database.db.select({ number: certificates.number }).from(certificates).where(eq(certificates.id, designation.id));
    await committeeSends(w, designation.id, 'SUSPEND', 'Accreditation under review');
    try {
      await refusedBoth('ADD_CATEGORIES', { categories: ['CI'] }, (lang) => ['CbDesignationNotUsable', said(lang, 'errors:CbDesignationNotUsable', { number: row.number })]);
    } finally {
      await committeeSends(w, designation.id, 'REINSTATE', 'Accreditation confirmed');
    }
    const res = await send(cb, paranaRequest, 'ADD_CATEGORIES', (await current()).version, { categories: ['CI'] });
    expect([res.statusCode, res.json().status?.code]).toEqual([200, 131]);
    // The audit returns it to the certificate (105) for the next scenario.
    await accept(w.as.audit, paranaRequest, 'ASSIGN_TO_ME');
    await accept(w.as.audit, paranaRequest, 'RETURN', { reason: 'Not needed now' });
    expect((await current()).status.code).toBe(105);
  });

  it('while the certificate itself is suspended nothing may be added to it', async () => {
    await committeeSends(w, paranaCert.id, 'SUSPEND', 'Inspection pending');
    try {
      await refusedBoth('ADD_CATEGORIES', { categories: ['CI'] }, (lang) => ['CertificateNotValidSuspended', said(lang, 'errors:CertificateNotValidSuspended', { number: paranaCert.number })]);
    } finally {
      await committeeSends(w, paranaCert.id, 'REINSTATE', 'Inspection passed');
    }
  });
});


describe('a CB’s designation suspended between the payment and the issue of a factory’s certificate', () => {
  it('the payment the portal took is kept (103, bill paid) but no certificate is issued until the designation is reinstated; then it is (105)', async () => {
    const draft = await completeDraft(cb, 'externalCertificate', CB, { data: { factory: externalCertificateData('exf-surabaya-foods').factory } });
    expect((await walk(w, draft.id, { applicant: 'cb.main', until: 102, payBills: false })).request.status.code).toBe(102);
    const [bill] = (await billsOf(cb, draft.id)).filter((b) => b.status.code === 1);
    const designation = await designationOf(w, CB);
    // Paid at the portal while the designation is in force; the portal's callback arrives once it is suspended.
    await committeeSends(w, designation.id, 'SUSPEND', 'Accreditation under review');
    try {
      await payBill(w.t, bill.id, bill);
      await fireDue(w.t);
      await fireWaiting(w.t);
      const waiting = await requestOf(cb, draft.id);
      expect([waiting.status.code, (await billsOf(cb, draft.id)).map((b) => b.status.code)]).toEqual([103, [2]]);
      expect(await certificatesOf(w, cb, draft.id)).toEqual([]);
    } finally {
      await committeeSends(w, designation.id, 'REINSTATE', 'Accreditation confirmed');
    }
    // The waiting step is tried again (as the sweep does once its rest is over).
    await fireTimer(w.t, draft.id, 'ISSUE_CERTIFICATE');
    expect((await requestOf(cb, draft.id)).status.code).toBe(105);
    const [issued] = await certificatesOf(w, cb, draft.id);
    expect([issued.holder.publicId, issued.issuer?.publicId, issued.status.code]).toEqual(['exf-surabaya-foods', CB, 1]);
  });

  it('a CB’s shipment paid while its designation is suspended waits (1007) and is certified once the designation is reinstated (1008)', async () => {
    const draft = await completeDraft(cb, 'shipment', CB, { data: { factory: { facilityPublicId: PARANA }, slaughters: [] } });
    expect((await accept(cb, draft.id, 'SUBMIT', { agreementAccepted: true })).status.code).toBe(1007);
    const [bill] = (await billsOf(cb, draft.id)).filter((b) => b.status.code === 1);
    const designation = await designationOf(w, CB);
    await committeeSends(w, designation.id, 'SUSPEND', 'Accreditation under review');
    try {
      await payBill(w.t, bill.id, bill);
      await fireDue(w.t);
      await fireWaiting(w.t);
      expect([(await requestOf(cb, draft.id)).status.code, (await billsOf(cb, draft.id)).map((b) => b.status.code)]).toEqual([1007, [2]]);
      expect(await certificatesOf(w, cb, draft.id)).toEqual([]);
    } finally {
      await committeeSends(w, designation.id, 'REINSTATE', 'Accreditation confirmed');
    }
    await fireTimer(w.t, draft.id, 'ISSUE_CERTIFICATE');
    expect((await requestOf(cb, draft.id)).status.code).toBe(1008);
    expect((await certificatesOf(w, cb, draft.id)).map((c) => [c.kind, c.holder.publicId])).toEqual([['shipment', PARANA]]);
  });
});
