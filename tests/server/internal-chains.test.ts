import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeDraft, send, type RequestJson } from '../helpers/requests';
import { renewalSection } from '../services/fixtures';
import { billsOf, certificatesOf, committeeSends, createWorld, money, payBill, setExpiry, walk, type CertificateJson, type World } from '../services/walk';
import { tFor } from '../../server/i18n';

/*
 * Chained lifecycles of a domestic (internal) factory's Halal certificate over the HTTP API, as its delegate and the
 * Halal center's staff drive them: the certificate issued, products added, renewed; the certificate suspended or
 * expiring while its requests are open; what each bill, the certificate and the lists then show.
 */

const FACILITY = 'inf-almarai-foods';
let w: World;
beforeAll(async () => {
  w = await createWorld({ simulatorsPort: 3342 });
}, 180_000);
afterAll(() => w?.t.close());

const locale = (lang: 'ar' | 'en', ns: string) => JSON.parse(readFileSync(join(__dirname, `../../locales/${lang}/${ns}.json`), 'utf8')) as Record<string, string>;
const LANGS = ['ar', 'en'] as const;
const said = (lang: 'ar' | 'en', code: string, params: Record<string, string>) => tFor(lang)(`errors:${code}`, params);

const applicant = () => w.as['internal.main'];
const certificateNow = async (id: string) => {
  const res = await applicant().get(`/api/certificates/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as CertificateJson;
};
const requestNow = async (id: string) => (await w.as.registration.get(`/api/requests/${id}`)).json() as RequestJson;
const actionsOf = async (id: string) => (await w.as.committee.get(`/api/requests/${id}/actions`)).json() as { version: number; actions?: { type: string }[] };

/** A certificate issued to the factory (paid in full), as the certificate page shows it. */
async function issuedCertificate(option: 'full' | 'yearly' = 'full'): Promise<CertificateJson> {
  const certified = await completeDraft(applicant(), 'internalCertificate', FACILITY);
  expect((await walk(w, certified.id, { applicant: 'internal.main', until: 25, option })).request.status.code).toBe(25);
  const [cert] = await certificatesOf(w, applicant(), certified.id);
  return cert;
}

/** The renewal of the certificate, started in its renewal window and given its reason, as the wizard does. */
async function renewalOf(certificateId: string): Promise<RequestJson> {
  const started = await applicant().post('/api/requests?lang=en', { kind: 'internalRenewal', facilityId: FACILITY, certificateId });
  expect(started.statusCode, started.body).toBe(201);
  const draft = started.json() as RequestJson;
  const edited = await send(applicant(), draft.id, 'EDIT', draft.version, { data: { renewal: renewalSection() } });
  expect(edited.statusCode, edited.body).toBe(200);
  return edited.json() as RequestJson;
}

describe('1. a certificate suspended after its renewal was submitted', () => {
  let cert: CertificateJson;
  let renewal: RequestJson;
  let expiresAt: string;

  it('the renewal reaches the renewal fee (16); the committee then suspends the certificate', async () => {
    cert = await issuedCertificate();
    expiresAt = (await setExpiry(w, cert.id, 30)).toISOString();
    renewal = await renewalOf(cert.id);
    expect((await walk(w, renewal.id, { applicant: 'internal.main', until: 16, option: 'full' })).request.status.code).toBe(16);
    await committeeSends(w, cert.id, 'SUSPEND', 'Corrective actions of the surveillance audit not closed');
    expect((await certificateNow(cert.id)).status.code).toBe(4);
  }, 300_000);

  it('the renewal fee is not taken while the certificate is suspended: paying is refused, saying why (both languages)', async () => {
    const [fee] = (await billsOf(applicant(), renewal.id)).filter((b) => b.feeKind.code === 'renewal');
    expect(fee.status.code).toBe(1);
    for (const lang of LANGS) {
      const res = await applicant().post(`/api/bills/${fee.id}/pay?lang=${lang}`, {});
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'CertificateSuspended', message: said(lang, 'CertificateSuspended', { number: cert.number }) });
    }
    expect((await billsOf(applicant(), renewal.id)).find((b) => b.id === fee.id)!.status.code).toBe(1);
    expect((await requestNow(renewal.id)).status.code).toBe(16);
  }, 300_000);

  it('paid on the portal all the same (a payment started before): the committee is not offered the issue, and sending it is refused, not a server error; nothing changes', async () => {
    const [fee] = (await billsOf(applicant(), renewal.id)).filter((b) => b.feeKind.code === 'renewal');
    await payBill(w.t, fee.id, fee);
    const before = await requestNow(renewal.id);
    expect(before.status.code).toBe(32);
    const actions = await actionsOf(renewal.id);
    expect(actions.actions?.map((a) => a.type)).not.toContain('ISSUE_CERTIFICATE');
    for (const lang of LANGS) {
      const res = await send(w.as.committee, renewal.id, 'ISSUE_CERTIFICATE', actions.version, {}, lang);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'CertificateSuspended', message: said(lang, 'CertificateSuspended', { number: cert.number }) });
    }
    const after = await requestNow(renewal.id);
    expect([after.status.code, after.version]).toEqual([32, before.version]);
    const held = await certificateNow(cert.id);
    expect([held.status.code, held.expiresAt.iso]).toEqual([4, expiresAt]);
    // The paid bill stays paid.
    expect((await billsOf(applicant(), renewal.id)).map((b) => [b.feeKind.code, b.status.code])).toEqual([
      ['application', 2],
      ['auditFees', 2],
      ['renewal', 2],
    ]);
  }, 300_000);

  it('reinstated, the committee issues it: the certificate runs three more years from its old expiry, active', async () => {
    await committeeSends(w, cert.id, 'REINSTATE', 'Corrective actions closed');
    const actions = await actionsOf(renewal.id);
    expect(actions.actions?.map((a) => a.type)).toContain('ISSUE_CERTIFICATE');
    const res = await send(w.as.committee, renewal.id, 'ISSUE_CERTIFICATE', actions.version, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status.code).toBe(25);
    const renewed = await certificateNow(cert.id);
    const expected = new Date(expiresAt);
    expected.setUTCFullYear(expected.getUTCFullYear() + 3);
    expect([renewed.status.code, renewed.expiresAt.iso, renewed.requestId]).toEqual([1, expected.toISOString(), renewal.id]);
    expect(money((await billsOf(applicant(), renewal.id)).find((b) => b.feeKind.code === 'renewal')!)).toEqual({ amount: '15000.00', vat: '2250.00', total: '17250.00' });
  }, 300_000);
});

describe('2. two added-products requests of one certificate asking for the same product', () => {
  const VALIDATION = { ar: locale('ar', 'validation') as unknown as { form: Record<string, string> }, en: locale('en', 'validation') as unknown as { form: Record<string, string> } };
  let cert: CertificateJson;
  let first: RequestJson;
  let second: RequestJson;

  it('the second is not submitted while the first, paid, waits to add the product: refused at the product, naming the first (both languages); nothing changes', async () => {
    cert = await issuedCertificate();
    first = await completeDraft(applicant(), 'internalAddProducts', FACILITY, { certificateId: cert.id });
    second = await completeDraft(applicant(), 'internalAddProducts', FACILITY, { certificateId: cert.id });
    expect((await walk(w, first.id, { applicant: 'internal.main', until: 1004 })).request.status.code).toBe(1004);
    for (const lang of LANGS) {
      const res = await send(applicant(), second.id, 'SUBMIT', second.version, { agreementAccepted: true }, lang);
      expect(res.statusCode, res.body).toBe(400);
      const issues = res.json().error.validationErrors as { key: string; message: string }[];
      expect(issues.map((i) => [i.key, i.message])).toEqual([
        ['validation:form.productAlreadyRequested', VALIDATION[lang].form.productAlreadyRequested.replace('{{number}}', first.number)],
      ]);
    }
    const after = await requestNow(second.id);
    expect([after.status.code, after.version]).toEqual([0, second.version]);
    expect(await billsOf(applicant(), second.id)).toEqual([]);
  }, 300_000);

  it('the first issued, the product is on the certificate once, billed once; the second is refused as adding nothing', async () => {
    expect((await walk(w, first.id, { applicant: 'internal.main', until: 1005 })).request.status.code).toBe(1005);
    expect((await billsOf(applicant(), first.id)).map((b) => [b.feeKind.code, b.status.code, money(b)])).toEqual([
      ['addProducts', 2, { amount: '1000.00', vat: '150.00', total: '1150.00' }],
    ]);
    expect((await certificateNow(cert.id)).products.filter((p) => p.nameEn === 'Plain Yoghurt')).toHaveLength(1);
    const res = await send(applicant(), second.id, 'SUBMIT', second.version, { agreementAccepted: true });
    expect(res.statusCode, res.body).toBe(400);
    expect((res.json().error.validationErrors as { key: string }[]).map((i) => i.key)).toEqual(['validation:form.allProductsOnCertificate']);
    expect(await billsOf(applicant(), second.id)).toEqual([]);
  }, 300_000);
});

describe('3. added products under registration review when the certificate is suspended', () => {
  let cert: CertificateJson;
  let added: RequestJson;
  const registrationActions = async () => (await w.as.registration.get(`/api/requests/${added.id}/actions`)).json() as { version: number; actions?: { type: string }[] };

  it('registration is not offered to accept it, and accepting is refused (both languages): no bill the applicant could not pay, nothing changes', async () => {
    cert = await issuedCertificate();
    added = await completeDraft(applicant(), 'internalAddProducts', FACILITY, { certificateId: cert.id });
    expect((await walk(w, added.id, { applicant: 'internal.main', until: 1002, stopBefore: 'ACCEPT' })).request.status.code).toBe(1001);
    await committeeSends(w, cert.id, 'SUSPEND', 'Corrective actions of the surveillance audit not closed');
    const before = await requestNow(added.id);
    const actions = await registrationActions();
    expect(actions.actions?.map((a) => a.type)).not.toContain('ACCEPT');
    for (const lang of LANGS) {
      const res = await send(w.as.registration, added.id, 'ACCEPT', actions.version, {}, lang);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'CertificateNotValidSuspended', message: said(lang, 'CertificateNotValidSuspended', { number: cert.number }) });
    }
    const after = await requestNow(added.id);
    expect([after.status.code, after.version]).toEqual([1001, before.version]);
    expect(await billsOf(applicant(), added.id)).toEqual([]);
  }, 300_000);

  it('reinstated, it is accepted and billed the study fee with VAT, paid, and the product joins the certificate', async () => {
    await committeeSends(w, cert.id, 'REINSTATE', 'Corrective actions closed');
    expect((await registrationActions()).actions?.map((a) => a.type)).toContain('ACCEPT');
    expect((await walk(w, added.id, { applicant: 'internal.main', until: 1005 })).request.status.code).toBe(1005);
    expect((await billsOf(applicant(), added.id)).map((b) => [b.feeKind.code, b.status.code, money(b)])).toEqual([
      ['addProducts', 2, { amount: '1000.00', vat: '150.00', total: '1150.00' }],
    ]);
    expect((await certificateNow(cert.id)).products.map((p) => p.nameEn)).toContain('Plain Yoghurt');
  }, 300_000);
});
