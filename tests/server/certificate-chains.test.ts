import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '../../db/client';
import { certificates } from '../../db/schema';
import { productKey } from '../../machines/services';
import { certificateFee, formatAmount, markFee, toHalalas, withVat } from '../../machines/services/fees';
import { accept, completeDraft, send, type RequestJson } from '../helpers/requests';
import { issueCertificate } from '../e2e/harness/data';
import { VALID_DATA, renewalSection, addProductsData, externalCertificateData, shipmentData } from '../services/fixtures';
import { goodProduct } from '../forms/fixtures';
import { billsOf, certificatesOf, createWorld, fireTimer, money, monthsBetween, payBill, type BillJson, setExpiry, walk, type CertificateJson, type DemoUser, type World, lapseDesignations } from '../services/walk';

/**
 * Certificates through CHAINS of lifecycles over the HTTP API: once renewed, a certificate names the renewal as its
 * request (effect.renewCertificate), whose data is shaped as a renewal's; once changed, it lists more than the request
 * that issued it. Each later lifecycle started from it must still see the certificate as its page shows it. At each step
 * the test reads what a person checks: the expiry, the products and categories, the bills' amounts and VAT, the status.
 */
let w: World;
beforeAll(async () => {
  w = await createWorld();
}, 60_000);
afterAll(() => w?.t.close());

const certificateOf = async (user: DemoUser, id: string) => {
  const res = await w.as[user].get(`/api/certificates/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as CertificateJson;
};
/** A product as a person tells them apart on the certificate's page: its name under its brand. */
const nameOf = (p: { nameEn: string; brandEn?: string }) => productKey({ nameEn: p.nameEn, brandEn: p.brandEn });
const productKeys = (c: Pick<CertificateJson, 'products'>) => c.products.map(nameOf).sort();
const namesOf = (products: unknown) => (products as { nameEn: string; brandEn?: string }[]).map(nameOf);
/** A request's status as its page shows it in English. */
const statusOf = async (user: DemoUser, id: string) => ((await w.as[user].get(`/api/requests/${id}?lang=en`)).json() as RequestJson).status;
const addMonths = (d: Date, months: number) => {
  const out = new Date(d);
  out.setUTCMonth(out.getUTCMonth() + months);
  return out;
};
/** The bill amounts a fee of `halalas` gives at the VAT rate in force. */
const billed = (halalas: number) => {
  const c = withVat(halalas, w.t.app.settings.current().vatRate);
  return { amount: formatAmount(c.amount), vat: formatAmount(c.vat), total: formatAmount(c.total) };
};
const fees = () => w.t.app.settings.current().fees;

interface Renewal {
  kind: 'internalRenewal' | 'externalRenewal' | 'cbRenewal';
  applicant: DemoUser;
  facility: string;
  /** The renewal's status once the certificate is renewed. */
  renewed: number;
  /** Days left on the certificate: inside the service's renewal window. */
  daysLeft: number;
}

/**
 * Renews the certificate as its holder does: time passes to inside the window, the renewal starts prefilled, the reason
 * is written, and it walks its golden path (payment in full). Returns the renewal and the expiry it renewed from.
 */
async function renew(r: Renewal, certificateId: string): Promise<{ renewal: RequestJson; from: Date }> {
  const from = await setExpiry(w, certificateId, r.daysLeft);
  const started = await w.as[r.applicant].post('/api/requests?lang=en', { kind: r.kind, facilityId: r.facility, certificateId });
  expect(started.statusCode, started.body).toBe(201);
  const draft = started.json() as RequestJson;
  const edited = await send(w.as[r.applicant], draft.id, 'EDIT', draft.version, { data: { renewal: renewalSection() } });
  expect(edited.statusCode, edited.body).toBe(200);
  const { request, steps } = await walk(w, draft.id, { applicant: r.applicant, until: r.renewed, option: 'full' });
  expect(request.status.code, JSON.stringify(steps)).toBe(r.renewed);
  return { renewal: request, from };
}

describe('internal Halal certificate: issue, renew, renew again, add products, a Halal mark, renew once more', () => {
  const FACILITY = 'inf-almarai-foods';
  const R: Renewal = { kind: 'internalRenewal', applicant: 'internal.main', facility: FACILITY, renewed: 25, daysLeft: 30 };
  let cert: CertificateJson;
  let issuedProducts: string[];

  beforeAll(async () => {
    const certified = await completeDraft(w.as['internal.main'], 'internalCertificate', FACILITY);
    const { request, steps } = await walk(w, certified.id, { applicant: 'internal.main', until: 25, option: 'full' });
    expect(request.status.code, JSON.stringify(steps)).toBe(25);
    [cert] = await certificatesOf(w, w.as['internal.main'], certified.id);
    issuedProducts = productKeys(cert);
    expect(issuedProducts.length).toBeGreaterThan(0);
  }, 180_000);

  it('renews twice: each renewal completes, bills the chosen validity in full, and moves the expiry by it; the products stay', async () => {
    // The fixture chooses 3 years; the renewal keeps the certified request's choice (prefill).
    const years = (VALID_DATA.internalCertificate().validity as { years: number }).years;
    for (let round = 1; round <= 2; round++) {
      const { renewal, from } = await renew(R, cert.id);
      expect(await statusOf('internal.main', renewal.id)).toEqual({ code: 25, label: 'Completed, Certificate Issued' });
      const renewed = await certificateOf('internal.main', cert.id);
      expect([round, renewed.expiresAt.iso]).toEqual([round, addMonths(from, years * 12).toISOString()]);
      expect(renewed.requestId).toBe(renewal.id);
      expect(productKeys(renewed)).toEqual(issuedProducts);
      const bill = (await billsOf(w.as['internal.main'], renewal.id)).find((b) => b.feeKind.code === 'renewal');
      expect(bill && money(bill)).toEqual(billed(certificateFee(fees().internalCertificateYear, years, 'full')));
      expect(bill?.status.code).toBe(2);
    }
  }, 300_000);

  it('adds a product to the renewed certificate; the products it had stay; a product already on it is refused', async () => {
    const added = await completeDraft(w.as['internal.main'], 'internalAddProducts', FACILITY, { certificateId: cert.id });
    const { request, steps } = await walk(w, added.id, { applicant: 'internal.main', until: 1005 });
    expect(request.status.code, JSON.stringify(steps)).toBe(1005);
    const after = await certificateOf('internal.main', cert.id);
    expect(productKeys(after)).toEqual([...issuedProducts, ...namesOf(addProductsData().products)].sort());
    const [bill] = await billsOf(w.as['internal.main'], added.id);
    expect([bill.feeKind.code, bill.service.code, money(bill)]).toEqual(['addProducts', 6, billed(toHalalas(fees().application))]);

    // Again with only products the certificate lists: nothing to add (spec 02 section 4: products on it are excluded).
    const again = await completeDraft(w.as['internal.main'], 'internalAddProducts', FACILITY, { certificateId: cert.id });
    const refused = await send(w.as['internal.main'], again.id, 'SUBMIT', again.version, { agreementAccepted: true });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.validationErrors).toEqual([expect.objectContaining({ key: 'validation:form.allProductsOnCertificate', members: ['products'] })]);
  }, 180_000);

  it('issues Halal marks for products of the renewed certificate, valid one year (inside the renewed validity)', async () => {
    const mark = await completeDraft(w.as['internal.main'], 'internalHalalMark', FACILITY, { certificateId: cert.id });
    const { request, steps } = await walk(w, mark.id, { applicant: 'internal.main', until: 1005 });
    expect(request.status.code, JSON.stringify(steps)).toBe(1005);
    const marks = await certificatesOf(w, w.as['internal.main'], mark.id);
    expect(marks.map((m) => nameOf(m.products[0])).sort()).toEqual(namesOf(VALID_DATA.internalHalalMark().products).sort());
    // One year each, well inside the renewed certificate's validity (years away).
    const certificateExpiry = (await certificateOf('internal.main', cert.id)).expiresAt.iso;
    for (const m of marks) {
      expect(m.kind).toBe('halalMark');
      expect(monthsBetween(m.validFrom.iso, m.expiresAt.iso)).toBe(12);
      expect(m.expiresAt.iso < certificateExpiry).toBe(true);
    }
    // The package billed in full: its tags for a whole year each (more than a year of the certificate remains).
    const [bill] = await billsOf(w.as['internal.main'], mark.id);
    const tags = (VALID_DATA.internalHalalMark().package as { tags: number }).tags;
    expect([bill.feeKind.code, money(bill)]).toEqual(['halalMark', billed(markFee(fees(), tags, 12))]);

    // A product named as the certificate's page shows it (by name and brand, without its food-authority number).
    const shown = (await certificateOf('internal.main', cert.id)).products.map((p) => ({ nameAr: p.nameAr, nameEn: p.nameEn, brandAr: p.brandAr, brandEn: p.brandEn, scope: 'Saudi' }));
    const byName = await completeDraft(w.as['internal.main'], 'internalHalalMark', FACILITY, { certificateId: cert.id, data: { products: shown } });
    const sent = await send(w.as['internal.main'], byName.id, 'SUBMIT', byName.version, { agreementAccepted: true });
    expect(sent.statusCode, sent.body).toBe(200);
    // One it does not list is still refused.
    const other = await completeDraft(w.as['internal.main'], 'internalHalalMark', FACILITY, { certificateId: cert.id, data: { products: [{ ...shown[0], nameEn: 'Goat Cheese' }] } });
    const refused = await send(w.as['internal.main'], other.id, 'SUBMIT', other.version, { agreementAccepted: true });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.validationErrors).toEqual([expect.objectContaining({ key: 'validation:form.productNotOnCertificate', members: ['products.0'] })]);
  }, 180_000);

  it('renewed once more after products were added: the added product is still on the certificate', async () => {
    const before = productKeys(await certificateOf('internal.main', cert.id));
    const { renewal } = await renew(R, cert.id);
    const after = await certificateOf('internal.main', cert.id);
    expect(after.requestId).toBe(renewal.id);
    expect(productKeys(after)).toEqual(before);
  }, 300_000);

  it('a renewal may drop a product it was offered; the others, the product added since included, stay', async () => {
    const before = await certificateOf('internal.main', cert.id);
    const from = await setExpiry(w, cert.id, R.daysLeft);
    const draft = (await w.as['internal.main'].post('/api/requests?lang=en', { kind: R.kind, facilityId: FACILITY, certificateId: cert.id })).json() as RequestJson;
    // The bread and its brand's trademark (a brand must have products) removed in the wizard; it offered the
    // certificate's products as they stand, the yoghurt added since included.
    expect(namesOf(draft.data.products).sort()).toEqual(productKeys(before));
    const kept = (draft.data.products as { nameEn: string }[]).filter((p) => p.nameEn !== 'Sliced White Bread');
    const trademarks = (draft.data.trademarks as { nameEn: string }[]).filter((t) => t.nameEn !== 'Lusine');
    expect([kept.length, trademarks.length]).toEqual([2, 1]);
    const edited = await send(w.as['internal.main'], draft.id, 'EDIT', draft.version, { data: { renewal: renewalSection(), products: kept, trademarks } });
    expect(edited.statusCode, edited.body).toBe(200);
    const { request, steps } = await walk(w, draft.id, { applicant: 'internal.main', until: 25, option: 'full' });
    expect(request.status.code, JSON.stringify(steps)).toBe(25);
    const after = await certificateOf('internal.main', cert.id);
    expect(productKeys(after)).toEqual(productKeys(before).filter((k) => k !== 'name:lusine|sliced white bread'));
    expect(after.expiresAt.iso).toBe(addMonths(from, 36).toISOString());
  }, 300_000);
});

describe('external Halal certificate: issue, renew, renew again, add products, a shipment, renew once more', () => {
  const FACTORY = 'exf-anatolia-meat';
  const R: Renewal = { kind: 'externalRenewal', applicant: 'external', facility: FACTORY, renewed: 5, daysLeft: 30 };
  /** A product the certificate does not list yet, in its category (C0), by the product's own schema fixture. */
  const lamb = () =>
    goodProduct({ nameAr: 'لحم ضأن مجمد', nameEn: 'Frozen Lamb', brandAr: 'اناضول', brandEn: 'Anatolia', saudiHsCode: '020430000000', globalHsCode: '020430', productNumber: 'TRX00000000000002', category: 'C0', unit: 0, netWeight: 20, grossWeight: 21 });
  let cert: CertificateJson;
  let issuedProducts: string[];
  let certifiedId: string;

  beforeAll(async () => {
    const certified = await completeDraft(w.as.external, 'externalCertificate', FACTORY);
    certifiedId = certified.id;
    const { request, steps } = await walk(w, certified.id, { applicant: 'external', until: 105 });
    expect(request.status.code, JSON.stringify(steps)).toBe(105);
    [cert] = await certificatesOf(w, w.as.external, certified.id);
    issuedProducts = productKeys(cert);
    expect(issuedProducts).toEqual(namesOf(externalCertificateData().products));
  }, 180_000);

  it('renews twice: each renewal completes, bills the chosen validity by the chosen way, and moves the expiry by it; the products stay', async () => {
    const way = externalCertificateData().paymentWay as { way: 'yearly' | 'full'; validityYears: number };
    for (let round = 1; round <= 2; round++) {
      const { renewal, from } = await renew(R, cert.id);
      expect(await statusOf('external', renewal.id)).toEqual({ code: 5, label: 'Certificate Issued' });
      const renewed = await certificateOf('external', cert.id);
      expect([round, renewed.expiresAt.iso]).toEqual([round, addMonths(from, way.validityYears * 12).toISOString()]);
      expect(renewed.requestId).toBe(renewal.id);
      expect(productKeys(renewed)).toEqual(issuedProducts);
      const bills = await billsOf(w.as.external, renewal.id);
      expect(bills.map((b) => [b.service.code, b.feeKind.code, b.status.code, money(b)])).toEqual([
        [7, 'renewal', 2, billed(certificateFee(fees().externalCertificateYear, way.validityYears, way.way))],
      ]);
    }
  }, 300_000);

  it('adds a product to the renewed certificate; the products it had stay; one already on it is excluded and the user told', async () => {
    const draft = await completeDraft(w.as.external, 'externalAddProducts', FACTORY, { certificateId: cert.id, data: { products: [...(externalCertificateData().products as unknown[]), lamb()] } });
    const sent = await send(w.as.external, draft.id, 'SUBMIT', draft.version, { agreementAccepted: true });
    expect(sent.statusCode, sent.body).toBe(200);
    // Spec 02 section 4: "products already on the certificate are excluded from a new request, and the user is told".
    expect(namesOf((sent.json() as RequestJson).data.products)).toEqual(namesOf([lamb()]));
    expect(JSON.stringify((sent.json() as RequestJson).notices ?? [])).toContain('Frozen Beef');
    const { request, steps } = await walk(w, draft.id, { applicant: 'external', until: 8 });
    expect(request.status.code, JSON.stringify(steps)).toBe(8);
    const after = await certificateOf('external', cert.id);
    expect(productKeys(after)).toEqual([...issuedProducts, ...namesOf([lamb()])].sort());
    const bills = await billsOf(w.as.external, draft.id);
    expect(bills.map((b) => [b.service.code, b.feeKind.code, b.status.code, money(b)])).toEqual([[7, 'addProducts', 2, billed(toHalalas(fees().application))]]);
  }, 180_000);

  it('issues a shipment certificate for the renewed certificate’s product and the one added after the renewal', async () => {
    const fixture = shipmentData();
    const [beefLine] = fixture.products as Record<string, unknown>[];
    const lambLine = { ...beefLine, saudiHsCode: lamb().saudiHsCode, globalHsCode: lamb().globalHsCode };
    const draft = await completeDraft(w.as.external, 'shipment', FACTORY, { data: { products: [beefLine, lambLine] } });
    const { request, steps } = await walk(w, draft.id, { applicant: 'external', until: 1008 });
    expect(request.status.code, JSON.stringify(steps)).toBe(1008);
    const [shipment] = await certificatesOf(w, w.as.external, draft.id);
    expect(shipment.kind).toBe('shipment');
    // Its product lines are named after the factory's certified products of the same HS codes.
    expect(shipment.products.filter((p) => p.line === 'product').map((p) => p.nameEn)).toEqual(['Frozen Beef', 'Frozen Lamb']);
    const bills = await billsOf(w.as.external, draft.id);
    expect(bills.map((b) => [b.service.code, b.feeKind.code, b.status.code])).toEqual([[4, 'shipment', 2]]);
  }, 180_000);

  it('renewed once more after a product was added: the added product is still on the certificate', async () => {
    const before = productKeys(await certificateOf('external', cert.id));
    const { renewal } = await renew(R, cert.id);
    const after = await certificateOf('external', cert.id);
    expect(after.requestId).toBe(renewal.id);
    expect(productKeys(after)).toEqual(before);
  }, 300_000);

  it('adds a product through the renewed certificate’s first request (set A 105 -> 108): to that certificate, not to a newer one of the factory', async () => {
    // Another certificate of the same factory, issued after this one (still valid): the newest the factory holds.
    const now = new Date();
    const other = await issueCertificate(w.t.database, 'external', {
      number: 'HC-CHAIN-OTHER',
      kind: 'externalHalal',
      facilityPublicId: FACTORY,
      categories: ['C0'],
      products: [],
      verificationCode: 'CHAINOTHER234567',
      issuedAt: now,
      validFrom: now,
      expiresAt: addMonths(now, 12),
    });
    const before = productKeys(await certificateOf('external', cert.id));
    // As the food authority's system registers it (set A's added products are checked there like the wizard's).
    const veal = goodProduct({ nameAr: 'لحم عجل مجمد', nameEn: 'Frozen Veal', brandAr: 'اناضول', brandEn: 'Anatolia', saudiHsCode: '020430000000', globalHsCode: '020430', productNumber: 'TRX00000000000003', category: 'C0', unit: 0, netWeight: 20, grossWeight: 21 });
    await accept(w.as.external, certifiedId, 'ADD_PRODUCTS', { products: [veal] });
    expect((await walk(w, certifiedId, { applicant: 'external', until: 128 })).request.status.code).toBe(128);
    await fireTimer(w.t, certifiedId, 'INVOICE_ISSUED');
    // The month-end invoice (the request study fee of the change) paid on the portal.
    const bulk = ((await w.as.external.get(`/api/bills?facilityId=${FACTORY}&pageSize=100`)).json().items as BillJson[]).find((b) => b.feeKind.code === 'bulkInvoice' && b.status.code === 1)!;
    expect(money(bulk)).toEqual(billed(toHalalas(fees().application)));
    await payBill(w.t, bulk.id, bulk);
    expect(await statusOf('external', certifiedId)).toEqual({ code: 108, label: 'Certificate Products Updated' });
    expect(productKeys(await certificateOf('external', cert.id))).toEqual([...before, ...namesOf([veal])].sort());
    expect((await certificateOf('external', other)).products).toEqual([]);

    // And a category, the same way (set A 105 -> 131 -> 132): on this certificate, added to what it had.
    const categories = (await certificateOf('external', cert.id)).categories;
    await accept(w.as.external, certifiedId, 'ADD_CATEGORIES', { categories: ['CI'] });
    const added = await walk(w, certifiedId, { applicant: 'external', until: 132 });
    expect(added.request.status.code, JSON.stringify(added.steps)).toBe(132);
    expect((await certificateOf('external', cert.id)).categories).toEqual([...categories, 'CI']);
    expect((await certificateOf('external', other)).categories).toEqual(['C0']);
  }, 180_000);

  it('issues a Halal mark for a product of the renewed certificate, and for the one added after the renewal', async () => {
    // As the mark wizard takes them from the certificate (its products' food-authority numbers identify them).
    const products = [...(externalCertificateData().products as Record<string, string>[]), lamb()].map((p) => ({
      nameAr: p.nameAr,
      nameEn: p.nameEn,
      brandAr: p.brandAr,
      brandEn: p.brandEn,
      productNumber: p.productNumber,
      scope: 'Global',
    }));
    const mark = await completeDraft(w.as.external, 'externalHalalMark', FACTORY, { certificateId: cert.id, data: { products } });
    const { request, steps } = await walk(w, mark.id, { applicant: 'external', until: 1005 });
    expect(request.status.code, JSON.stringify(steps)).toBe(1005);
    const marks = await certificatesOf(w, w.as.external, mark.id);
    expect(marks.map((m) => m.products[0].nameEn).sort()).toEqual(['Frozen Beef', 'Frozen Lamb']);
  }, 180_000);
});

describe('CB designation: issue, renew, add categories', () => {
  const CB = 'cb-global-halal';
  const R: Renewal = { kind: 'cbRenewal', applicant: 'cb.main', facility: CB, renewed: 1003, daysLeft: 150 };
  let cert: CertificateJson;

  beforeAll(async () => {
    // Asked for while the CB holds no designation in force (README, choices); its seeded one comes back after.
    const restore = await lapseDesignations(w.t.database.db, CB);
    const designated = await completeDraft(w.as['cb.main'], 'cbDesignation', CB);
    const { request, steps } = await walk(w, designated.id, { applicant: 'cb.main', until: 1003 }).finally(restore);
    expect(request.status.code, JSON.stringify(steps)).toBe(1003);
    [cert] = await certificatesOf(w, w.as['cb.main'], designated.id);
  }, 180_000);

  it('renews for 3 years from the expiry, billed the renewal fee; then categories are added to the renewed designation', async () => {
    const { renewal, from } = await renew(R, cert.id);
    const renewed = await certificateOf('cb.main', cert.id);
    expect(renewed.expiresAt.iso).toBe(addMonths(from, 36).toISOString());
    expect(renewed.categories).toEqual(cert.categories);
    const bills = await billsOf(w.as['cb.main'], renewal.id);
    expect(bills.map((b) => [b.service.code, b.feeKind.code, b.status.code, money(b)])).toEqual([[5, 'renewal', 2, billed(toHalalas(fees().cbRenewal))]]);

    const added = await completeDraft(w.as['cb.main'], 'cbAddCategories', CB, { certificateId: cert.id });
    const { request, steps } = await walk(w, added.id, { applicant: 'cb.main', until: 1003 });
    expect(request.status.code, JSON.stringify(steps)).toBe(1003);
    const after = await certificateOf('cb.main', cert.id);
    expect(after.categories).toEqual([...cert.categories, 'E']);
    expect(after.expiresAt.iso).toBe(renewed.expiresAt.iso);
    expect(await billsOf(w.as['cb.main'], added.id)).toEqual([]);

    // A category it now holds cannot be asked for again (categories added earlier stay; a request must add something).
    const again = await completeDraft(w.as['cb.main'], 'cbAddCategories', CB, { certificateId: cert.id });
    const refused = await send(w.as['cb.main'], again.id, 'SUBMIT', again.version, { agreementAccepted: true });
    expect(refused.statusCode, refused.body).toBe(400);

    // Renewed again: the added category stays (categories are never removed), three more years from the expiry.
    const second = await renew(R, cert.id);
    const again2 = await certificateOf('cb.main', cert.id);
    expect(again2.categories).toEqual([...cert.categories, 'E']);
    expect(again2.expiresAt.iso).toBe(addMonths(second.from, 36).toISOString());
  }, 300_000);
});

describe('migration 0019: the request that issued each certificate', () => {
  it('is the request a certificate names unless a renewal took it over (then unknown); marks name none', async () => {
    const rows = () =>
      w.t.database.db.select({ id: certificates.id, kind: certificates.kind, requestId: certificates.requestId, issuedBy: certificates.issuedByRequestId }).from(certificates);
    const issued = await rows();
    const renewed = issued.filter((c) => c.requestId && c.issuedBy && c.requestId !== c.issuedBy);
    const own = issued.filter((c) => c.kind !== 'halalMark' && c.requestId && c.requestId === c.issuedBy);
    // This file's chains left both kinds: certificates renewed (internal, external, CB) and ones only issued (a shipment's).
    expect(renewed.length).toBeGreaterThanOrEqual(3);
    expect(own.length).toBeGreaterThanOrEqual(1);
    // As they were stored before the column.
    await w.t.database.db.update(certificates).set({ issuedByRequestId: null });
    const text = readFileSync(join(MIGRATIONS_FOLDER, '0019_issued_by_request.sql'), 'utf8');
    for (const statement of text.split('--> statement-breakpoint').filter((st) => !/^\s*ALTER TABLE/i.test(st))) await w.t.database.db.execute(sql.raw(statement));
    const after = new Map((await rows()).map((c) => [c.id, c.issuedBy]));
    for (const c of own) expect([c.kind, after.get(c.id)]).toEqual([c.kind, c.requestId]);
    for (const c of renewed) expect([c.kind, after.get(c.id)]).toEqual([c.kind, null]);
    for (const c of issued.filter((m) => m.kind === 'halalMark')) expect(after.get(c.id)).toBeNull();
  });
});
