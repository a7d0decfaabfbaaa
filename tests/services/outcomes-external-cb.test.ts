import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goodProduct } from '../forms/fixtures';
import { readPdf } from '../helpers/pdf';
import { accept, completeDraft, send, type RequestJson } from '../helpers/requests';
import { SERVICES } from '../../machines/services';
import { parsedData } from './fixtures';
import { billsOf, certificatesOf, createWorld, fireTimer, money, monthsBetween, payBill, setExpiry, walk, type BillJson, type CertificateJson, type World, lapseDesignations } from './walk';

/**
 * Issue 10 proof: the external-facility services, the shipment and the conformity-body services over HTTP, each walked
 * down its golden path by the demo users with schema-valid data, asserting every bill's amount, VAT and total, the
 * certificate's dates, products and categories, and the final status. Default fees (machines/services/fees.ts):
 * external certificate 7,500 per year, application 1,000, shipment 1,000 per started 27 t, mark 500 per tag
 * (product-year) of the package; VAT 15 %.
 */
const FACTORY = 'exf-anatolia-meat';
const CB = 'cb-global-halal';
let w: World;
/** The external certificate (2 years paid in full, the fixture's choice) the later services are about. */
let certificate: CertificateJson;
let certificateRequestId: string;

const SAR = (amount: number) => {
  const h = Math.round(amount * 100);
  const vat = Math.floor((h * 1500 + 5000) / 10000);
  const f = (x: number) => `${Math.floor(x / 100)}.${String(x % 100).padStart(2, '0')}`;
  return { amount: f(h), vat: f(vat), total: f(h + vat) };
};

/** A product of the factory that is not on its certificate yet. */
const lamb = () =>
  goodProduct({ nameAr: 'لحم ضأن مجمد', nameEn: 'Frozen Lamb', brandAr: 'اناضول', brandEn: 'Anatolia', saudiHsCode: '020430000000', globalHsCode: '020430', productNumber: 'TRX00000000000002', category: 'C0', unit: 0, netWeight: 20, grossWeight: 21 });

const certificateNow = async (id = certificate.id) => (await w.as.external.get(`/api/certificates/${id}`)).json() as CertificateJson;

beforeAll(async () => {
  w = await createWorld();
  const draft = await completeDraft(w.as.external, 'externalCertificate', FACTORY);
  certificateRequestId = draft.id;
  const { request, steps } = await walk(w, draft.id, { applicant: 'external', until: 105 });
  expect(request.status.code, JSON.stringify(steps)).toBe(105);
  [certificate] = await certificatesOf(w, w.as.external, draft.id);
}, 120_000);
afterAll(() => w?.t.close());

describe('external facility certificate (type 10, set A)', () => {
  it('bills every year of the validity at once when paid in full, and issues it for the chosen 2 years', async () => {
    const bills = await billsOf(w.as.external, certificateRequestId);
    expect(bills.map((b) => [b.service.code, b.feeKind.code, b.status.code, money(b)])).toEqual([[7, 'certificate', 2, SAR(15_000)]]);
    expect(certificate).toMatchObject({ kind: 'externalHalal', status: { code: 1 }, holder: { publicId: FACTORY } });
    expect(monthsBetween(certificate.validFrom.iso, certificate.expiresAt.iso)).toBe(24);
    expect(certificate.products.map((p) => p.nameEn)).toEqual(['Frozen Beef']);
    // Paid in full: no instalment is left to bill on an anniversary.
    expect(await billsOf(w.as.external, certificate.id)).toEqual([]);
  });

  it('108: the requested products join the certificate once the month-end invoice is paid', async () => {
    const before = await certificateNow();
    await accept(w.as.external, certificateRequestId, 'ADD_PRODUCTS', { products: [lamb()] });
    const { request } = await walk(w, certificateRequestId, { applicant: 'external', until: 128 });
    expect(request.status.code).toBe(128);
    await fireTimer(w.t, certificateRequestId, 'INVOICE_ISSUED');
    expect((await w.as.external.get(`/api/requests/${certificateRequestId}`)).json().status.code).toBe(129);
    const bulk = (await w.as.external.get(`/api/bills?facilityId=${FACTORY}&pageSize=100`)).json().items.find((b: BillJson) => b.feeKind.code === 'bulkInvoice') as BillJson;
    expect(money(bulk)).toEqual(SAR(1000));
    await payBill(w.t, bulk.id, bulk);
    expect((await w.as.external.get(`/api/requests/${certificateRequestId}`)).json().status.code).toBe(108);
    const after = await certificateNow();
    expect(after.products.map((p) => p.nameEn)).toEqual([...before.products.map((p) => p.nameEn), 'Frozen Lamb']);
  });

  it('132: the requested categories join the certificate, the earlier ones stay', async () => {
    const before = await certificateNow();
    await accept(w.as.external, certificateRequestId, 'ADD_CATEGORIES', { categories: ['CI'] });
    const { request } = await walk(w, certificateRequestId, { applicant: 'external', until: 132 });
    expect(request.status.code).toBe(132);
    const after = await certificateNow();
    expect(after.categories).toEqual([...before.categories, 'CI']);
  });
});

describe('month-end bulk invoice (spec 02 section 9)', () => {
  it("aggregates the facility's charges of the month into one bill that settles every request on it", async () => {
    // A second certificate of the same factory, then products asked for on both in the same month.
    const second = await completeDraft(w.as.external, 'externalCertificate', FACTORY);
    expect((await walk(w, second.id, { applicant: 'external', until: 105 })).request.status.code).toBe(105);
    const veal = goodProduct({ ...lamb(), nameEn: 'Frozen Mutton', nameAr: 'لحم خروف مجمد', productNumber: 'TRX00000000000004' });
    for (const id of [certificateRequestId, second.id]) {
      await accept(w.as.external, id, 'ADD_PRODUCTS', { products: [veal] });
      expect((await walk(w, id, { applicant: 'external', until: 128 })).request.status.code).toBe(128);
    }
    const bulkBills = async () =>
      ((await w.as.external.get(`/api/bills?facilityId=${FACTORY}&pageSize=100`)).json().items as BillJson[]).filter((b) => b.feeKind.code === 'bulkInvoice');
    const before = (await bulkBills()).length;
    // The month ends: each waiting request's timer fires; the first creates the bill, the second finds its line on it.
    await fireTimer(w.t, certificateRequestId, 'INVOICE_ISSUED');
    await fireTimer(w.t, second.id, 'INVOICE_ISSUED');
    const created = (await bulkBills()).slice(0, (await bulkBills()).length - before);
    expect(created).toHaveLength(1);
    expect(money(created[0])).toEqual(SAR(2000));
    for (const id of [certificateRequestId, second.id]) expect((await w.as.external.get(`/api/requests/${id}`)).json().status.code).toBe(129);
    await payBill(w.t, created[0].id, created[0]);
    for (const id of [certificateRequestId, second.id]) expect((await w.as.external.get(`/api/requests/${id}`)).json().status.code).toBe(108);
    const [secondCertificate] = await certificatesOf(w, w.as.external, second.id);
    expect(secondCertificate.products.map((p) => p.nameEn)).toEqual(['Frozen Beef', 'Frozen Mutton']);
    expect((await certificateNow()).products.map((p) => p.nameEn)).toContain('Frozen Mutton');
  });
});

describe('adding products to an external certificate (set B)', () => {
  it('bills the request and adds the products to the certificate', async () => {
    const before = await certificateNow();
    const product = goodProduct({ ...lamb(), nameEn: 'Frozen Veal', nameAr: 'لحم عجل مجمد', productNumber: 'TRX00000000000003' });
    const draft = await completeDraft(w.as.external, 'externalAddProducts', FACTORY, { certificateId: certificate.id, data: { products: [product] } });
    const { request, steps } = await walk(w, draft.id, { applicant: 'external', until: 8 });
    expect(request.status.code, JSON.stringify(steps)).toBe(8);
    const bills = await billsOf(w.as.external, draft.id);
    expect(bills.map((b) => [b.service.code, b.feeKind.code, b.status.code, money(b)])).toEqual([[7, 'addProducts', 2, SAR(1000)]]);
    expect((await certificateNow()).products.map((p) => p.nameEn)).toEqual([...before.products.map((p) => p.nameEn), 'Frozen Veal']);
  });
});

describe('external Halal mark', () => {
  it('bills the mark of a certified product and issues it within the certificate', async () => {
    const data = { products: [{ nameAr: 'لحم بقري مجمد', nameEn: 'Frozen Beef', brandAr: 'اناضول', brandEn: 'Anatolia', productNumber: 'TRX00000000000001', scope: 'Global' }], package: { tags: 16 } };
    const draft = await completeDraft(w.as.external, 'externalHalalMark', FACTORY, { certificateId: certificate.id, data });
    const { request, steps } = await walk(w, draft.id, { applicant: 'external', until: 1005 });
    expect(request.status.code, JSON.stringify(steps)).toBe(1005);
    const bills = await billsOf(w.as.external, draft.id);
    // The package of 16 tags (one used now) at 500 a tag-year; the other 15 carry over as credit.
    expect(bills.map((b) => [b.feeKind.code, b.status.code, money(b)])).toEqual([['halalMark', 2, SAR(8000)]]);
    const [mark] = await certificatesOf(w, w.as.external, draft.id);
    expect(mark).toMatchObject({ kind: 'halalMark', scope: 'Global', products: [{ nameEn: 'Frozen Beef' }] });
    expect(monthsBetween(mark.validFrom.iso, mark.expiresAt.iso)).toBe(12);
  });
});

describe('external certificate renewal (set B)', () => {
  it('bills the renewal for the chosen validity and extends the same certificate from its expiry', async () => {
    const expiry = await setExpiry(w, certificate.id, 30);
    const before = await certificateNow();
    const draft = await completeDraft(w.as.external, 'externalRenewal', FACTORY, { certificateId: certificate.id });
    const { request, steps } = await walk(w, draft.id, { applicant: 'external', until: 5 });
    expect(request.status.code, JSON.stringify(steps)).toBe(5);
    const bills = await billsOf(w.as.external, draft.id);
    expect(bills.map((b) => [b.service.code, b.feeKind.code, b.status.code, money(b)])).toEqual([[7, 'renewal', 2, SAR(15_000)]]);
    const after = await certificateNow();
    expect(after.number).toBe(before.number);
    expect(monthsBetween(expiry.toISOString(), after.expiresAt.iso)).toBe(24);
    // Categories added earlier are never removed by a renewal.
    expect(after.categories).toEqual(expect.arrayContaining(before.categories));
  });
});

describe('shipment certificate', () => {
  it('bills 1,000 SAR per started 27 t of net weight and issues the certificate once paid', async () => {
    const draft = await completeDraft(w.as.external, 'shipment', FACTORY);
    const { request, steps } = await walk(w, draft.id, { applicant: 'external', until: 1008 });
    expect(request.status.code, JSON.stringify(steps)).toBe(1008);
    const bills = await billsOf(w.as.external, draft.id);
    // 20,000 kg of products and 8 kl of slaughters: 28 t, two started blocks.
    expect(bills.map((b) => [b.feeKind.code, b.status.code, money(b)])).toEqual([['shipment', 2, SAR(2000)]]);
    const [shipmentCertificate] = await certificatesOf(w, w.as.external, draft.id);
    expect(shipmentCertificate).toMatchObject({ kind: 'shipment', status: { code: 1 }, holder: { publicId: FACTORY } });
    expect(monthsBetween(shipmentCertificate.validFrom.iso, shipmentCertificate.expiresAt.iso)).toBe(12);
  });

  it('lists the goods the request carried on the certificate and its PDF, titled a shipment certificate', async () => {
    const draft = await completeDraft(w.as.external, 'shipment', FACTORY);
    expect((await walk(w, draft.id, { applicant: 'external', until: 1008 })).request.status.code).toBe(1008);
    const [issued] = await certificatesOf(w, w.as.external, draft.id);
    const cert = (await w.as.external.get(`/api/certificates/${issued.id}`)).json() as CertificateJson;
    // The product line under the name of the factory's certified product of its HS code; the slaughter line by its cutting type.
    expect(cert.products.map((p) => [p.line, p.nameEn, p.hsCode, p.quantity, p.netWeight, p.unit])).toEqual([
      ['product', 'Frozen Beef', '020230000000', 1000, 20_000, 0],
      ['slaughter', 'Quarters', '020110000000', undefined, 8, 3],
    ]);
    expect(cert.products[0]).toMatchObject({ nameAr: 'لحم بقري مجمد' });
    const res = await w.as.external.get(`/api/certificates/${issued.id}/pdf`);
    expect(res.statusCode).toBe(200);
    const { text } = await readPdf(res.rawPayload);
    expect(text).toContain('Shipment Certificate');
    expect(text).not.toContain('Halal Certificate');
    expect(text).toContain('Frozen Beef');
    expect(text).toContain('20000 kg');
  });
});

describe('conformity-body services', () => {
  let designation: CertificateJson;
  let designationRequestId: string;

  it('CB designation (type 0): the committee issues a 3-year designation certificate with the chosen categories', async () => {
    // Asked for while the CB holds no designation in force (README, choices); its seeded one comes back after.
    const restore = await lapseDesignations(w.t.database.db, CB);
    const draft = await completeDraft(w.as['cb.main'], 'cbDesignation', CB);
    designationRequestId = draft.id;
    const { request, steps } = await walk(w, draft.id, { applicant: 'cb.main', until: 1003 }).finally(restore);
    expect(request.status.code, JSON.stringify(steps)).toBe(1003);
    [designation] = await certificatesOf(w, w.as['cb.main'], draft.id);
    expect(designation).toMatchObject({ kind: 'cbDesignation', status: { code: 1 }, holder: { publicId: CB } });
    // The request page's link: the certificate the request issued.
    expect((await w.as['cb.main'].get(`/api/requests/${draft.id}/certificate`)).json()).toEqual({ id: designation.id, number: designation.number });
    expect(monthsBetween(designation.validFrom.iso, designation.expiresAt.iso)).toBe(36);
    expect(designation.categories).toEqual(SERVICES.cbDesignation.project(parsedData('cbDesignation'), {} as never).categories);
    // Its bilingual PDF is a designation certificate, and the QR's code verifies it on the public page.
    const pdf = await w.as['cb.main'].get(`/api/certificates/${designation.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    const { text } = await readPdf(pdf.rawPayload);
    expect(text).toContain('Conformity Body Designation Certificate');
    expect(text).not.toContain('Halal Certificate');
    expect(text).toContain(designation.number);
    const code = (designation as CertificateJson & { verificationUrl: string }).verificationUrl.split('/').pop();
    const verified = await w.t.anonymous.get(`/api/public/verify/${code}?lang=en`);
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ found: true, certificate: { number: designation.number, status: 'active', kind: 'cbDesignation' } });
  });

  it('CB designation is billed: the appointment request (service 1) and the appointment (service 5), excluding VAT', async () => {
    // Version 2 of the CB machines bills both (version 1 billed nothing).
    expect(designationRequestId).toBeTruthy();
    const bills = await billsOf(w.as['cb.main'], designationRequestId);
    expect(bills.map((b) => [b.service.code, money(b)])).toEqual([
      [1, SAR(10_000)],
      [5, SAR(30_000)],
    ]);
  });

  it('adding categories (300): the audit accepts, the committee re-issues; earlier categories stay', async () => {
    const before = designation.categories;
    const draft = await completeDraft(w.as['cb.main'], 'cbAddCategories', CB, { certificateId: designation.id });
    // No certificate link while the request is open (the certificate it is about is not changed yet).
    expect((await w.as['cb.main'].get(`/api/requests/${draft.id}/certificate`)).statusCode).toBe(404);
    const { request, steps } = await walk(w, draft.id, { applicant: 'cb.main', until: 1003 });
    // Once issued, the request links the certificate it added the categories to; another facility's user sees neither.
    expect((await w.as['cb.main'].get(`/api/requests/${draft.id}/certificate`)).json()).toEqual({ id: designation.id, number: designation.number });
    expect((await w.as.external.get(`/api/requests/${draft.id}/certificate`)).statusCode).toBe(404);
    expect(request.status.code, JSON.stringify(steps)).toBe(1003);
    const after = (await w.as['cb.main'].get(`/api/certificates/${designation.id}`)).json() as CertificateJson;
    expect(after.categories).toEqual([...before, 'E']);
    expect(await billsOf(w.as['cb.main'], draft.id)).toEqual([]);
  });

  it('CB renewal (600): opens 180 days before expiry and extends the designation by 3 years from its expiry', async () => {
    const expiry = await setExpiry(w, designation.id, 150);
    const draft = await completeDraft(w.as['cb.main'], 'cbRenewal', CB, { certificateId: designation.id });
    const { request, steps } = await walk(w, draft.id, { applicant: 'cb.main', until: 1003 });
    expect(request.status.code, JSON.stringify(steps)).toBe(1003);
    const after = (await w.as['cb.main'].get(`/api/certificates/${designation.id}`)).json() as CertificateJson;
    expect(after.number).toBe(designation.number);
    expect((await w.as['cb.main'].get(`/api/requests/${draft.id}/certificate`)).json()).toEqual({ id: designation.id, number: designation.number });
    expect(monthsBetween(expiry.toISOString(), after.expiresAt.iso)).toBe(36);
    expect(after.categories).toEqual(expect.arrayContaining([...designation.categories, 'E']));
    // The renewal fee (service 5) is billed at approval; the bill states amount, VAT and total like every bill.
    const bills = await billsOf(w.as['cb.main'], draft.id);
    expect(bills.map((b) => [b.service.code, money(b)])).toEqual([[5, SAR(25_000)]]);
  });

  it('CB renewal rejected by the committee: the CB reads "renewal request rejected" in its language; nothing billed, the designation unchanged', async () => {
    const before = (await w.as['cb.main'].get(`/api/certificates/${designation.id}`)).json() as CertificateJson;
    const expiry = await setExpiry(w, designation.id, 120);
    const draft = await completeDraft(w.as['cb.main'], 'cbRenewal', CB, { certificateId: designation.id });
    const { request } = await walk(w, draft.id, { applicant: 'cb.main', until: -2, stopBefore: 'APPROVE' });
    const res = await send(w.as.committee, draft.id, 'REJECT', request.version, { reason: 'The accreditation has lapsed' });
    expect(res.statusCode, res.body).toBe(200);
    const status = async (lang: string) =>
      ((await w.as['cb.main'].get(`/api/requests/${draft.id}`, { headers: { 'accept-language': lang } })).json() as RequestJson).status;
    expect(await status('en')).toEqual({ code: 15, label: 'Renewal Request Rejected' });
    expect(await status('ar')).toEqual({ code: 15, label: 'تم رفض طلب التجديد' });
    expect(await billsOf(w.as['cb.main'], draft.id)).toEqual([]);
    const after = (await w.as['cb.main'].get(`/api/certificates/${designation.id}`)).json() as CertificateJson;
    expect(new Date(after.expiresAt.iso).getTime()).toBe(expiry.getTime());
    expect(after.categories).toEqual(before.categories);
  });
});
