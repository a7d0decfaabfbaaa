import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { certificates, requests } from '../../db/schema';
import { SERVICES, validateStep } from '../../machines/services';
import { riyadhDate } from '../../machines/working-days';
import { tFor } from '../../server/i18n';
import { accept, completeDraft, send } from '../helpers/requests';
import { goodProduct } from '../forms/fixtures';
import { shipmentData } from '../services/fixtures';
import { billsOf, certificatesOf, createWorld, walk, type CertificateJson, type World } from '../services/walk';

/*
 * A bug hunt on the foreign factory's side (external certificates, shipments, external Halal marks), each found bug
 * pinned by what the user would see: the foreign factory's certificate is walked as its own account does it, then
 * shipments and mark packages are sent through the doors a person (or a crafted client) uses. Every refusal is read in
 * Arabic and English and leaves the request as it was.
 */
const FACTORY = 'exf-anatolia-meat';
const DAY = 86_400_000;
const LANGS = ['ar', 'en'] as const;
let w: World;
let factoryCert: CertificateJson;

/** A second product the factory's certificate lists (added as an add-products request would), for packages of two. */
const LAMB = { nameAr: 'لحم ضأن مبرد', nameEn: 'Chilled Lamb', brandAr: 'اناضول', brandEn: 'Anatolia', productNumber: 'TRX00000000000003', hsCode: '020410000000', globalHsCode: '020410', category: 'C0' };

beforeAll(async () => {
  w = await createWorld();
  const ext = await completeDraft(w.as.external, 'externalCertificate', FACTORY);
  expect((await walk(w, ext.id, { applicant: 'external', until: 105 })).request.status.code).toBe(105);
  [factoryCert] = await certificatesOf(w, w.as.external, ext.id);
  await w.t.database.db.update(certificates).set({ products: [...factoryCert.products, LAMB] }).where(eq(certificates.id, factoryCert.id));
}, 240_000);
afterAll(() => w?.t.close());

type Issue = { key: string; members: string[]; message: string };
const issuesOf = (body: string) => (JSON.parse(body) as { error: { validationErrors: Issue[] } }).error.validationErrors;
const said = (key: string, lang: 'ar' | 'en') => tFor(lang)(`validation:${key}`);
const stored = async (id: string) => {
  const [row] = await w.t.database.db.select({ version: requests.version, status: requests.status, snapshot: requests.snapshot }).from(requests).where(eq(requests.id, id));
  return { version: row.version, status: row.status, data: (row.snapshot.context as { data?: unknown }).data };
};
const requestCount = async (kind: string) => (await w.t.database.db.select({ id: requests.id }).from(requests).where(and(eq(requests.kind, kind), eq(requests.facilityPublicId, FACTORY)))).length;

/** A mark-package line for a product of the factory's certificate, as the wizard sends it. */
const markLine = (p: { nameAr: string; nameEn: string; brandAr?: string; brandEn?: string; productNumber?: string }, scope: 'Saudi' | 'Global') => ({
  nameAr: p.nameAr,
  nameEn: p.nameEn,
  brandAr: p.brandAr,
  brandEn: p.brandEn,
  productNumber: p.productNumber,
  scope,
});
const beef = () => factoryCert.products[0];
const markDraft = (products: unknown[], tags = 8) =>
  completeDraft(w.as.external, 'externalHalalMark', FACTORY, { certificateId: factoryCert.id, data: { products, package: { tags } } });

describe('bug 1: a mark package naming the same product twice (spec 02 section 1 "marks per product", section 5 "product already added is rejected")', () => {
  it('is refused at submission in Arabic and English, naming the second line; no bill, the draft as it was', async () => {
    // The same product again, even under the other scope: one product, one mark.
    const draft = await markDraft([markLine(beef(), 'Saudi'), markLine(beef(), 'Global')]);
    const before = await stored(draft.id);
    for (const lang of LANGS) {
      const res = await send(w.as.external, draft.id, 'SUBMIT', draft.version, { agreementAccepted: true }, lang);
      expect(res.statusCode, res.body).toBe(400);
      expect(issuesOf(res.body)).toEqual([expect.objectContaining({ key: 'validation:productExists', members: ['products.1.nameEn'], message: said('productExists', lang) })]);
    }
    expect(await stored(draft.id)).toEqual(before);
    expect(await billsOf(w.as.external, draft.id)).toEqual([]);
  });

  it('the products step of the wizard (the same service declaration) says so before submission', () => {
    const issues = validateStep(SERVICES.externalHalalMark, 'products', { products: [markLine(beef(), 'Saudi'), markLine(beef(), 'Saudi')] });
    expect(issues).toEqual([{ path: 'products.1.nameEn', message: 'productExists' }]);
  });

  it('two different products go through: one mark each, and the bill names two products', async () => {
    const draft = await markDraft([markLine(beef(), 'Saudi'), markLine(LAMB, 'Saudi')]);
    const { request } = await walk(w, draft.id, { applicant: 'external', until: 1005 });
    expect(request.status.code).toBe(1005);
    const marks = await certificatesOf(w, w.as.external, draft.id);
    expect(marks.map((m) => m.products[0].nameEn).sort()).toEqual(['Chilled Lamb', 'Frozen Beef']);
    const [bill] = await billsOf(w.as.external, draft.id);
    expect(bill).toMatchObject({ productCount: 2, status: { code: 2 } });
  });
});

describe('bug 2: a package mixing Saudi and Global products (spec 02 section 3 "a Halal mark issued by a CB has scope Saudi or Global")', () => {
  it('issues each product its own scope: the mark page and the public verification read it', async () => {
    const draft = await markDraft([markLine(beef(), 'Saudi'), markLine(LAMB, 'Global')]);
    expect((await walk(w, draft.id, { applicant: 'external', until: 1005 })).request.status.code).toBe(1005);
    const marks = await certificatesOf(w, w.as.external, draft.id);
    expect(Object.fromEntries(marks.map((m) => [m.products[0].nameEn, m.scope]))).toEqual({ 'Frozen Beef': 'Saudi', 'Chilled Lamb': 'Global' });
    const lamb = marks.find((m) => m.products[0].nameEn === 'Chilled Lamb')!;
    const [row] = await w.t.database.db.select({ code: certificates.verificationCode }).from(certificates).where(eq(certificates.id, lamb.id));
    const page = await w.t.app.inject({ method: 'GET', url: `/api/public/verify/${row.code}?lang=en` });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toContain('Global');
    expect(page.body).not.toContain('Saudi');
  });
});

const productLine = (o: Record<string, unknown> = {}) => ({ ...(shipmentData().products as Record<string, unknown>[])[0], ...o });
const today = () => riyadhDate(Date.now());
const dayFrom = (days: number) => riyadhDate(Date.now() + days * DAY);

describe('bug 3: a shipment of goods not yet made or already expired (README, choices; as the slaughter date, spec 02 section 5)', () => {
  const BROKEN = [
    ['produced after today', { productionDate: dayFrom(30), expiryDate: dayFrom(400) }, 'form.productionDateFuture', 'products.0.productionDate'],
    ['expired before today', { productionDate: '2024-01-01', expiryDate: dayFrom(-1) }, 'form.goodsExpired', 'products.0.expiryDate'],
  ] as const;

  it.each(BROKEN)('%s: no draft is started with it (400, Arabic and English)', async (_, dates, key, member) => {
    const before = await requestCount('shipment');
    for (const lang of LANGS) {
      const res = await w.as.external.post(`/api/requests?lang=${lang}`, { kind: 'shipment', facilityId: FACTORY, data: { products: [productLine(dates)] } });
      expect(res.statusCode, res.body).toBe(400);
      expect(issuesOf(res.body)).toEqual([expect.objectContaining({ key: `validation:${key}`, members: [member], message: said(key, lang) })]);
    }
    expect(await requestCount('shipment')).toBe(before);
  });

  it.each(BROKEN)('%s: a draft is not saved with it (EDIT, both languages) nor submitted; it stays a draft, unbilled', async (_, dates, key, member) => {
    const draft = await completeDraft(w.as.external, 'shipment', FACTORY);
    const before = await stored(draft.id);
    for (const lang of LANGS) {
      const res = await send(w.as.external, draft.id, 'EDIT', draft.version, { data: { products: [productLine(dates)] } }, lang);
      expect(res.statusCode, res.body).toBe(400);
      expect(issuesOf(res.body)).toEqual([expect.objectContaining({ key: `validation:${key}`, members: [member], message: said(key, lang) })]);
    }
    expect(await stored(draft.id)).toEqual(before);
    expect(await billsOf(w.as.external, draft.id)).toEqual([]);
  });

  it('a draft saved while its goods were in date is refused at submission once they have expired', async () => {
    const draft = await completeDraft(w.as.external, 'shipment', FACTORY);
    // Time passes: the stored line's expiry is now yesterday (as a draft kept past its goods' date).
    const [row] = await w.t.database.db.select({ snapshot: requests.snapshot }).from(requests).where(eq(requests.id, draft.id));
    const context = row.snapshot.context as { data: { products: Record<string, unknown>[] } };
    context.data.products[0].expiryDate = dayFrom(-1);
    // A new version, so the engine reads the row rather than the snapshot it last wrote.
    await w.t.database.db.update(requests).set({ snapshot: row.snapshot, version: draft.version + 1 }).where(eq(requests.id, draft.id));
    const res = await send(w.as.external, draft.id, 'SUBMIT', draft.version + 1, { agreementAccepted: true }, 'ar');
    expect(res.statusCode, res.body).toBe(400);
    expect(issuesOf(res.body)).toEqual([expect.objectContaining({ key: 'validation:form.goodsExpired', members: ['products.0.expiryDate'], message: said('form.goodsExpired', 'ar') })]);
    expect(await billsOf(w.as.external, draft.id)).toEqual([]);
  });

  it('accepts goods produced today and expiring today (the rules at their limit): submitted and billed', async () => {
    const draft = await completeDraft(w.as.external, 'shipment', FACTORY, { data: { products: [productLine({ productionDate: today(), expiryDate: today() })] } });
    const submitted = await accept(w.as.external, draft.id, 'SUBMIT', { agreementAccepted: true });
    expect(submitted.status.code).toBe(1007);
    expect(await billsOf(w.as.external, draft.id)).toHaveLength(1);
  });
});

describe('bug 4: two add-products requests for the same product, submitted together (a paid bill that adds nothing)', () => {
  // A product the food authority knows (server/simulators/food-authority.ts), new to the factory's certificate.
  const frozenLamb = () =>
    goodProduct({ nameAr: 'لحم ضأن مجمد', nameEn: 'Frozen Lamb', brandAr: 'اناضول', brandEn: 'Anatolia', saudiHsCode: '020430000000', globalHsCode: '020430', productNumber: 'TRX00000000000002', category: 'C0', unit: 0, netWeight: 20, grossWeight: 21 });
  const addDraft = () => completeDraft(w.as.external, 'externalAddProducts', FACTORY, { certificateId: factoryCert.id, data: { products: [frozenLamb()] } });
  const actionsOf = async (user: 'registration' | 'external', id: string) => ((await w.as[user].get(`/api/requests/${id}/actions`)).json() as { version: number; actions: { type: string }[] });
  const productsOnCertificate = async () => ((await w.as.external.get(`/api/certificates/${factoryCert.id}`)).json() as CertificateJson).products.map((p) => p.nameEn).sort();
  let first: { id: string };
  let second: { id: string };
  let third: { id: string };

  beforeAll(async () => {
    [first, second, third] = [await addDraft(), await addDraft(), await addDraft()];
    for (const r of [first, second, third]) await accept(w.as.external, r.id, 'SUBMIT', { agreementAccepted: true });
    // The third is accepted by registration (its bill awaits payment) before the first is paid.
    expect((await walk(w, third.id, { applicant: 'external', until: 2, payBills: false })).request.status.code).toBe(2);
    expect((await walk(w, first.id, { applicant: 'external', until: 8 })).request.status.code).toBe(8);
    expect(await productsOnCertificate()).toContain('Frozen Lamb');
  }, 120_000);

  it('registration is not offered ACCEPT on the second, and sending it is refused in Arabic and English: no bill, still under review', async () => {
    await accept(w.as.registration, second.id, 'ASSIGN_TO_ME');
    const offered = await actionsOf('registration', second.id);
    expect(offered.actions.map((a) => a.type)).not.toContain('ACCEPT');
    expect(offered.actions.map((a) => a.type)).toContain('RETURN');
    for (const lang of LANGS) {
      const res = await send(w.as.registration, second.id, 'ACCEPT', offered.version, {}, lang);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().error.message).toBe(tFor(lang)('errors:NothingLeftToAdd', { number: factoryCert.number }));
    }
    expect((await stored(second.id)).version).toBe(offered.version);
    expect(await billsOf(w.as.external, second.id)).toEqual([]);
  });

  it('the third’s bill cannot be paid (409, both languages): it stays unpaid and the certificate unchanged; the applicant cancels it', async () => {
    const [bill] = await billsOf(w.as.external, third.id);
    expect(bill.status.code).toBe(1);
    const before = await productsOnCertificate();
    for (const lang of LANGS) {
      const res = await w.as.external.post(`/api/bills/${bill.id}/pay?lang=${lang}`, {});
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().error.message).toBe(tFor(lang)('errors:NothingLeftToAdd', { number: factoryCert.number }));
    }
    expect((await billsOf(w.as.external, third.id))[0].status.code).toBe(1);
    expect(await productsOnCertificate()).toEqual(before);
    const cancelled = await accept(w.as.external, third.id, 'CANCEL');
    expect(cancelled.status.code).toBe(0);
    expect((await billsOf(w.as.external, third.id))[0].status.code).toBe(4);
  });
});
