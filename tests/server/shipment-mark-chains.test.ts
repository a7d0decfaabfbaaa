import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { attachments, requests } from '../../db/schema';
import { formatAmount, markFee, shipmentFee, toGrams, withVat } from '../../machines/services/fees';
import { GROSS_TOLERANCE } from '../../machines/services/shipment';
import { riyadhDate } from '../../machines/working-days';
import { tFor } from '../../server/i18n';
import { accept, completeDraft, send, type RequestJson } from '../helpers/requests';
import { multipartBody, pdf } from '../helpers/multipart';
import { markData, renewalSection, shipmentData } from '../services/fixtures';
import { billsOf, certificatesOf, committeeSends as sendCertificateEvent, createWorld, fireDue, fireTimer, fireWaiting, money, payBill, setExpiry, walk, type CertificateJson, type DemoUser, type World } from '../services/walk';

/*
 * Shipment certificates and Halal marks through CHAINS of lifecycles over HTTP (spec 02 sections 3-5 and 9): the
 * weight and date rules at every door a shipment's data passes, a shipment drafted against a certificate that is then
 * suspended, expired or renewed, a completed shipment nothing may change, marks across their certificate's renewal and
 * expiry, and other facilities at every door. Each step reads what a person reads: status and label in both languages,
 * the bill's amounts from the settings in force, refusals in the reader's language, nothing changed by a refusal.
 */
const FACTORY = 'exf-anatolia-meat';
const FACILITY = 'inf-almarai-foods';
const DAY = 86_400_000;
let w: World;
let factoryCert: CertificateJson;
let internalCert: CertificateJson;

beforeAll(async () => {
  w = await createWorld();
  const ext = await completeDraft(w.as.external, 'externalCertificate', FACTORY);
  expect((await walk(w, ext.id, { applicant: 'external', until: 105 })).request.status.code).toBe(105);
  [factoryCert] = await certificatesOf(w, w.as.external, ext.id);
  const int = await completeDraft(w.as['internal.main'], 'internalCertificate', FACILITY);
  expect((await walk(w, int.id, { applicant: 'internal.main', until: 25, option: 'full' })).request.status.code).toBe(25);
  [internalCert] = await certificatesOf(w, w.as['internal.main'], int.id);
}, 240_000);
afterAll(() => w?.t.close());

const billed = (halalas: number) => {
  const c = withVat(halalas, w.t.app.settings.current().vatRate);
  return { amount: formatAmount(c.amount), vat: formatAmount(c.vat), total: formatAmount(c.total) };
};
const fees = () => w.t.app.settings.current().fees;
const requestOf = async (user: DemoUser, id: string, lang = 'en') => (await w.as[user].get(`/api/requests/${id}?lang=${lang}`)).json() as RequestJson;
/** The request as stored: its version and data (what a refusal must leave as it was). */
const stored = async (id: string) => {
  const [row] = await w.t.database.db.select({ version: requests.version, snapshot: requests.snapshot }).from(requests).where(eq(requests.id, id));
  return { version: row.version, data: (row.snapshot.context as { data?: unknown }).data };
};
const requestCount = async () => (await w.t.database.db.select({ id: requests.id }).from(requests).where(eq(requests.facilityPublicId, FACTORY))).length;
const productLine = (o: Record<string, unknown> = {}) => ({ ...(shipmentData().products as Record<string, unknown>[])[0], ...o });
const slaughterLine = (o: Record<string, unknown> = {}) => ({ ...(shipmentData().slaughters as Record<string, unknown>[])[0], ...o });
/** What the reader reads for a validation key, in their language. */
const said = (key: string, lang: 'ar' | 'en') => tFor(lang)(`validation:${key}`);
type Issue = { key: string; members: string[]; message: string };
const issuesOf = (body: string) => (JSON.parse(body) as { error: { validationErrors: Issue[] } }).error.validationErrors;

/** The certificate's lifecycle event, as the decision committee sends it from the certificate's page. */
const committeeSends = (certificateId: string, type: 'SUSPEND' | 'REINSTATE', reason: string) => sendCertificateEvent(w, certificateId, type, reason);

describe('weights and dates at every door (spec 02 section 5)', () => {
  const gross = productLine().grossWeight as number;
  const net = productLine().netWeight as number;
  const slaughterNet = slaughterLine().netWeight as number;
  const tomorrow = () => riyadhDate(Date.now() + DAY);
  const BROKEN = [
    ['gross below net', { products: [productLine({ grossWeight: net - 0.1 })] }, 'totalWeightAtLeastNet', 'products.0.grossWeight'],
    ['actual gross more than 10 % below gross', { products: [productLine({ actualGrossWeight: gross * (1 - GROSS_TOLERANCE) - 0.1 })] }, 'actualGrossTooLow', 'products.0.actualGrossWeight'],
    ['actual slaughter weight below its net weight', { slaughters: [slaughterLine({ actualWeight: slaughterNet - 0.1 })] }, 'actualAtLeastNet', 'slaughters.0.actualWeight'],
    ['slaughter date after today (Riyadh)', { slaughters: [slaughterLine({ slaughterDate: tomorrow() })] }, 'form.slaughterDateFuture', 'slaughters.0.slaughterDate'],
  ] as const;

  it.each(BROKEN)('%s: refused when a draft is started with it, in Arabic and English; no draft is made', async (_, data, key, member) => {
    const before = await requestCount();
    for (const lang of ['ar', 'en'] as const) {
      const res = await w.as.external.post(`/api/requests?lang=${lang}`, { kind: 'shipment', facilityId: FACTORY, data });
      expect(res.statusCode, res.body).toBe(400);
      expect(issuesOf(res.body)).toEqual([{ key: `validation:${key}`, members: [member], message: said(key, lang), params: {} }]);
    }
    expect(await requestCount()).toBe(before);
  });

  it.each(BROKEN)('%s: refused when a draft is saved (EDIT) and when smuggled into SUBMIT; the draft stays as it was', async (_, data, key, member) => {
    const draft = await completeDraft(w.as.external, 'shipment', FACTORY);
    const before = await stored(draft.id);
    for (const lang of ['ar', 'en'] as const) {
      const edit = await send(w.as.external, draft.id, 'EDIT', draft.version, { data }, lang);
      expect(edit.statusCode, edit.body).toBe(400);
      expect(issuesOf(edit.body)).toEqual([expect.objectContaining({ key: `validation:${key}`, members: [member], message: said(key, lang) })]);
    }
    // SUBMIT takes no data: a crafted payload carrying some is refused whole, nothing of it stored.
    const crafted = await send(w.as.external, draft.id, 'SUBMIT', draft.version, { agreementAccepted: true, data });
    expect(crafted.statusCode, crafted.body).toBe(400);
    expect(await stored(draft.id)).toEqual(before);
    expect((await requestOf('external', draft.id)).status).toEqual({ code: 0, label: 'Draft' });
  });

  it('accepts each rule at its limit: gross = net, actual gross exactly 10 % below gross, actual slaughter weight = net, slaughtered today (Riyadh)', async () => {
    const data = {
      products: [productLine({ grossWeight: net, actualGrossWeight: net * (1 - GROSS_TOLERANCE) })],
      slaughters: [slaughterLine({ actualWeight: slaughterNet, slaughterDate: riyadhDate(Date.now()) })],
    };
    const draft = await completeDraft(w.as.external, 'shipment', FACTORY, { data });
    const submitted = await accept(w.as.external, draft.id, 'SUBMIT', { agreementAccepted: true });
    expect(submitted.status.code).toBe(1007);
  });
});

describe('the shipment fee: 1,000 SAR per started 27 t of total net weight, excluding VAT (spec 02 section 9)', () => {
  it.each([
    ['27 t', 27_000, 1],
    ['27.001 t', 27_001, 2],
    ['54 t', 54_000, 2],
  ] as const)('%s of products (%i kg) is billed as %i started 27 t, VAT on top, on the fee preview and the bill', async (_, kg, blocks) => {
    const data = { products: [productLine({ netWeight: kg, grossWeight: kg, actualGrossWeight: kg, unit: 0 })], slaughters: [] };
    const draft = await completeDraft(w.as.external, 'shipment', FACTORY, { data });
    const expected = billed(shipmentFee(fees(), toGrams(kg, 'kg')));
    expect(shipmentFee(fees(), toGrams(kg, 'kg'))).toBe(blocks * Number(fees().shipmentPer27Tons) * 100);
    const preview = (await w.as.external.get(`/api/requests/${draft.id}/fees?lang=en`)).json() as { items: { feeKind: { code: string }; charge: Record<string, string> | null }[] };
    expect(preview.items.find((i) => i.feeKind.code === 'shipment')?.charge).toMatchObject(expected);
    await accept(w.as.external, draft.id, 'SUBMIT', { agreementAccepted: true });
    const [bill] = await billsOf(w.as.external, draft.id);
    expect([bill.feeKind.code, bill.status.code, money(bill)]).toEqual(['shipment', 1, expected]);
  });
});

describe('a shipment drafted against a valid certificate whose certificate then changes before submission', () => {
  const refusedAsNotValid = async (id: string, version: number) => {
    for (const lang of ['ar', 'en'] as const) {
      const res = await send(w.as.external, id, 'SUBMIT', version, { agreementAccepted: true }, lang);
      expect(res.statusCode, res.body).toBe(400);
      const issues = issuesOf(res.body);
      expect(issues.map((i) => [i.key, i.members])).toEqual([['validation:form.shipmentFactoryCertificateNotValid', ['factory.facilityPublicId']]]);
      expect(issues[0].message).toBe(tFor(lang)('validation:form.shipmentFactoryCertificateNotValid', { date: riyadhDate(Date.now()) }));
    }
    expect((await requestOf('external', id)).status).toEqual({ code: 0, label: 'Draft' });
    expect(await billsOf(w.as.external, id)).toEqual([]);
  };

  it('suspended: the submission is refused and the draft kept; once reinstated it goes through', async () => {
    const draft = await completeDraft(w.as.external, 'shipment', FACTORY);
    await committeeSends(factoryCert.id, 'SUSPEND', 'Audit found a breach');
    try {
      await refusedAsNotValid(draft.id, draft.version);
    } finally {
      await committeeSends(factoryCert.id, 'REINSTATE', 'Breach corrected');
    }
    expect((await accept(w.as.external, draft.id, 'SUBMIT', { agreementAccepted: true })).status.code).toBe(1007);
  });

  it('expired: refused as the service is blocked, in both languages; renewed, the same draft goes through and is billed and certified', async () => {
    const draft = await completeDraft(w.as.external, 'shipment', FACTORY);
    await setExpiry(w, factoryCert.id, -1);
    await fireTimer(w.t, factoryCert.id, 'EXPIRING_SOON');
    await fireTimer(w.t, factoryCert.id, 'CERTIFICATE_EXPIRED');
    const before = await stored(draft.id);
    for (const lang of ['ar', 'en'] as const) {
      const res = await send(w.as.external, draft.id, 'SUBMIT', draft.version, { agreementAccepted: true }, lang);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'FacilityCertificateExpired', message: tFor(lang)('errors:FacilityCertificateExpired', { number: factoryCert.number }) });
    }
    expect(await stored(draft.id)).toEqual(before);
    expect(await billsOf(w.as.external, draft.id)).toEqual([]);
    // The factory renews the expired certificate (prefilled with the products it had): the same certificate, renewed.
    const started = await w.as.external.post('/api/requests?lang=en', { kind: 'externalRenewal', facilityId: FACTORY, certificateId: factoryCert.id });
    expect(started.statusCode, started.body).toBe(201);
    const renewal = started.json() as RequestJson;
    expect((await send(w.as.external, renewal.id, 'EDIT', renewal.version, { data: { renewal: renewalSection() } })).statusCode).toBe(200);
    expect((await walk(w, renewal.id, { applicant: 'external', until: 5 })).request.status.code).toBe(5);
    const renewed = (await w.as.external.get(`/api/certificates/${factoryCert.id}?lang=en`)).json() as CertificateJson & { status: { label: string } };
    expect(renewed.status.label).toBe('Active');
    const { request, steps } = await walk(w, draft.id, { applicant: 'external', until: 1008 });
    expect(request.status.code, JSON.stringify(steps)).toBe(1008);
    const [bill] = await billsOf(w.as.external, draft.id);
    const grams = [...(shipmentData().products as { netWeight: number; unit: number }[]), ...(shipmentData().slaughters as { netWeight: number; unit: number }[])].reduce((g, l) => g + toGrams(l.netWeight, l.unit), 0);
    expect([bill.status.code, money(bill)]).toEqual([2, billed(shipmentFee(fees(), grams))]);
    const [shipment] = await certificatesOf(w, w.as.external, draft.id);
    // Its product line is named after the renewed certificate's product of the same HS code.
    expect(shipment.products.filter((p) => p.line === 'product').map((p) => p.nameEn)).toEqual(['Frozen Beef']);
    expect(renewed.products.map((p) => p.nameEn)).toContain('Frozen Beef');
  });
});

describe('a completed shipment cannot be modified or cancelled (spec 02 section 4)', () => {
  let id: string;
  let invoiceFile: string;
  beforeAll(async () => {
    const started = (await w.as.external.post('/api/requests', { kind: 'shipment', facilityId: FACTORY })).json() as RequestJson;
    const body = multipartBody({ name: 'invoice.pdf', type: 'application/pdf', content: pdf() });
    const up = await w.as.external.request({ method: 'POST', url: `/api/attachments?facilityPublicId=${FACTORY}&category=testCertificate&requestId=${started.id}`, payload: body.payload, headers: body.headers });
    invoiceFile = up.json().id as string;
    const data = { ...shipmentData(), other: { ...(shipmentData().other as object), invoices: [{ number: 'INV-1', attachmentId: invoiceFile }] } };
    await send(w.as.external, started.id, 'EDIT', started.version, { data });
    id = started.id;
    const { request, steps } = await walk(w, id, { applicant: 'external', until: 1008 });
    expect(request.status.code, JSON.stringify(steps)).toBe(1008);
  }, 60_000);

  it('offers no action, and refuses every event in the reader’s language; nothing changes', async () => {
    expect((await requestOf('external', id)).status).toEqual({ code: 1008, label: 'Completed' });
    expect((await requestOf('external', id, 'ar')).status.code).toBe(1008);
    const { version, actions } = (await w.as.external.get(`/api/requests/${id}/actions`)).json() as { version: number; actions: unknown[] };
    expect(actions).toEqual([]);
    const before = await stored(id);
    for (const [type, payload] of [
      ['EDIT', { data: { exporter: { name: 'Other Exporters' } } }],
      ['CANCEL', { reason: 'Changed our mind' }],
      ['DELETE_DRAFT', {}],
      ['SUBMIT', { agreementAccepted: true }],
    ] as const) {
      for (const lang of ['ar', 'en'] as const) {
        const res = await send(w.as.external, id, type, version, payload, lang);
        expect([type, res.statusCode]).toEqual([type, 409]);
        expect(res.json().error).toMatchObject({ code: 'TransitionNotAllowed', message: tFor(lang)('errors:TransitionNotAllowed') });
      }
    }
    expect(await stored(id)).toEqual(before);
  });

  it('takes no file and gives none up: upload (a form file or a case document) and delete refused, the files as they were', async () => {
    const files = async () => (await w.t.database.db.select({ id: attachments.id }).from(attachments).where(and(eq(attachments.requestId, id), isNull(attachments.deletedAt)))).map((r) => r.id).sort();
    const before = await files();
    for (const category of ['testCertificate', 'report', 'requestNote']) {
      const body = multipartBody({ name: `${category}.pdf`, type: 'application/pdf', content: pdf(77) });
      const res = await w.as.external.request({ method: 'POST', url: `/api/attachments?facilityPublicId=${FACTORY}&category=${category}&requestId=${id}&lang=en`, payload: body.payload, headers: body.headers });
      expect([category, res.statusCode]).toEqual([category, 409]);
    }
    const removed = await w.as.external.request({ method: 'DELETE', url: `/api/attachments/${invoiceFile}?lang=ar` });
    expect(removed.statusCode, removed.body).toBe(409);
    expect(removed.json().error.message).toBe(tFor('ar')('errors:AttachmentLocked'));
    expect(await files()).toEqual(before);
  });
});

describe('Halal marks across their certificate’s lifecycle', () => {
  const markDraft = () => completeDraft(w.as['internal.main'], 'internalHalalMark', FACILITY, { certificateId: internalCert.id });
  const tags = (markData().package as { tags: number }).tags;
  const markOf = async (id: string, lang: 'ar' | 'en') => ((await w.as['internal.main'].get(`/api/certificates/${id}?lang=${lang}`)).json() as CertificateJson & { status: { code: number; public: string; label: string } }).status;

  it('billed for the month its certificate had left, then the certificate renewed before payment: the marks end when the certificate did, as billed', async () => {
    const oldExpiry = await setExpiry(w, internalCert.id, 40);
    const mark = await markDraft();
    await accept(w.as['internal.main'], mark.id, 'SUBMIT', { agreementAccepted: true });
    const [bill] = await billsOf(w.as['internal.main'], mark.id);
    expect(money(bill)).toEqual(billed(markFee(fees(), tags, 1)));
    // The certificate is renewed while the package waits for payment.
    const started = (await w.as['internal.main'].post('/api/requests?lang=en', { kind: 'internalRenewal', facilityId: FACILITY, certificateId: internalCert.id })).json() as RequestJson;
    expect((await send(w.as['internal.main'], started.id, 'EDIT', started.version, { data: { renewal: renewalSection() } })).statusCode).toBe(200);
    expect((await walk(w, started.id, { applicant: 'internal.main', until: 25, option: 'full' })).request.status.code).toBe(25);
    const renewed = (await w.as['internal.main'].get(`/api/certificates/${internalCert.id}`)).json() as CertificateJson;
    expect(new Date(renewed.expiresAt.iso).getTime()).toBeGreaterThan(oldExpiry.getTime() + 300 * DAY);

    expect((await walk(w, mark.id, { applicant: 'internal.main', until: 1005 })).request.status.code).toBe(1005);
    const marks = await certificatesOf(w, w.as['internal.main'], mark.id);
    expect(marks.map((m) => m.expiresAt.iso)).toEqual(marks.map(() => oldExpiry.toISOString()));
    // Less than 60 days left: expiring soon, in both languages.
    for (const m of marks) {
      expect(await markOf(m.id, 'en')).toMatchObject({ public: 'expiringSoon', label: 'Expiring soon' });
      expect((await markOf(m.id, 'ar')).label).toBe(tFor('ar')('payments:certificate.status.expiringSoon'));
    }
  });
});

describe('a mark package paid while its certificate is suspended', () => {
  it('waits, paid, in "pending certificate issuance" (both languages) with no mark issued; once the certificate is reinstated its marks are issued', async () => {
    await setExpiry(w, internalCert.id, 400);
    const mark = await completeDraft(w.as['internal.main'], 'internalHalalMark', FACILITY, { certificateId: internalCert.id });
    await accept(w.as['internal.main'], mark.id, 'SUBMIT', { agreementAccepted: true });
    await committeeSends(internalCert.id, 'SUSPEND', 'Audit found a breach');
    try {
      const [bill] = await billsOf(w.as['internal.main'], mark.id);
      await payBill(w.t, bill.id, bill);
      await fireDue(w.t);
      expect((await requestOf('internal.main', mark.id)).status).toEqual({ code: 1004, label: 'Pending Certificate Issuance' });
      expect((await requestOf('internal.main', mark.id, 'ar')).status.label).toBe(tFor('ar')('status:internalHalalMark.1004'));
      expect((await billsOf(w.as['internal.main'], mark.id)).map((b) => b.status.code)).toEqual([2]);
      expect(await certificatesOf(w, w.as['internal.main'], mark.id)).toEqual([]);
    } finally {
      await committeeSends(internalCert.id, 'REINSTATE', 'Breach corrected');
    }
    await fireWaiting(w.t);
    expect((await requestOf('internal.main', mark.id)).status.code).toBe(1005);
    expect((await certificatesOf(w, w.as['internal.main'], mark.id)).map((m) => m.products[0].nameEn).sort()).toEqual(
      (markData().products as { nameEn: string }[]).map((p) => p.nameEn).sort(),
    );
  });
});

describe('another facility, and the conformity body the shipment names, at every door', () => {
  it('cannot see or act on the factory’s shipment, its certificate and bill, or the facility’s mark; nothing changes', async () => {
    const draft = await completeDraft(w.as.external, 'shipment', FACTORY);
    const completed = await completeDraft(w.as.external, 'shipment', FACTORY);
    expect((await walk(w, completed.id, { applicant: 'external', until: 1008 })).request.status.code).toBe(1008);
    const [shipmentCert] = await certificatesOf(w, w.as.external, completed.id);
    const mark = await completeDraft(w.as['internal.main'], 'internalHalalMark', FACILITY, { certificateId: internalCert.id });
    expect((await walk(w, mark.id, { applicant: 'internal.main', until: 1005 })).request.status.code).toBe(1005);
    const [issuedMark] = await certificatesOf(w, w.as['internal.main'], mark.id);
    const before = await Promise.all([draft.id, completed.id, mark.id, issuedMark.id].map(stored));

    // cb.main: the CB the shipment names as its exporter (shipmentData other.exportingCbPublicId); internal.main: another facility.
    for (const [user, requestIds, certificateIds] of [
      ['cb.main', [draft.id, completed.id, mark.id], [shipmentCert.id, issuedMark.id]],
      ['internal.main', [draft.id, completed.id], [shipmentCert.id]],
      ['external', [mark.id], [issuedMark.id]],
    ] as const) {
      const c = w.as[user as DemoUser];
      for (const id of requestIds) {
        for (const path of ['', '/actions', '/history', '/fees', '/certificate', '/people', '/deletion']) {
          const res = await c.get(`/api/requests/${id}${path}?lang=en`);
          expect([user, path, res.statusCode]).toEqual([user, path, 404]);
        }
        for (const [type, payload] of [
          ['EDIT', { data: { exporter: { name: 'Other Exporters' } } }],
          ['SUBMIT', { agreementAccepted: true }],
          ['CANCEL', { reason: 'Not ours to keep' }],
          ['DELETE_DRAFT', {}],
        ] as const) {
          const res = await send(c, id, type, 2, payload, 'ar');
          expect([user, type, res.statusCode]).toEqual([user, type, 404]);
          expect(res.json().error.message).toBe(tFor('ar')('errors:EntityNotFound'));
        }
        expect((await c.get(`/api/bills?requestId=${id}`)).json().items).toEqual([]);
        const body = multipartBody({ name: 'x.pdf', type: 'application/pdf', content: pdf(5) });
        const facility = id === mark.id ? FACILITY : FACTORY;
        const up = await c.request({ method: 'POST', url: `/api/attachments?facilityPublicId=${facility}&category=testCertificate&requestId=${id}`, payload: body.payload, headers: body.headers });
        expect([user, 'upload', up.statusCode]).toEqual([user, 'upload', 403]);
      }
      for (const id of certificateIds) {
        expect([user, (await c.get(`/api/certificates/${id}`)).statusCode]).toEqual([user, 404]);
        const res = await send(c, id, 'CANCEL', 2, { reason: 'Not ours to cancel' });
        expect([user, 'CANCEL certificate', res.statusCode]).toEqual([user, 'CANCEL certificate', 404]);
      }
    }
    expect(await Promise.all([draft.id, completed.id, mark.id, issuedMark.id].map(stored))).toEqual(before);
  });
});
