import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goodProduct } from '../forms/fixtures';
import { SERVICES } from '../../machines/services';
import { createFoodAuthority } from '../../server/adapters/food-authority';
import { AppError } from '../../server/errors';
import { startSimulators } from '../helpers/simulators';
import { completeDraft, send, type RequestJson } from '../helpers/requests';
import { externalCertificateData, shipmentData } from './fixtures';
import { billsOf, certificatesOf, createWorld, walk, type CertificateJson, type World } from './walk';

/**
 * Issue 13 items 2, 6 and 7 and issue 14's food-authority check over HTTP: the suspension rule of external certificate requests; the shipment importer's unified number is checked against the commercial registry
 * (the wizard's check button, and again at submission), the factory's certificate and the exporting CB's designation
 * must cover every line, and the fee is previewed before payment. A refusal is a 400 naming the field, in the caller's
 * language, and leaves the request as it was (still a draft, same version, no bill).
 *
 * The registry is the simulator's (server/simulators/cr-registry.ts): 1010700001 Al Nakheel is active (unified
 * 7010700001), 1010700005 Al Fajr is expired. The factory's certificate is issued in beforeAll (Frozen Beef, HS 020230,
 * category C0); cb-global-halal is designated for C0, CI, CII, CIV; cb-jakarta-halal for CII, CIV, K; the designation
 * of cb-melbourne-halal has expired (db/seed-public.ts).
 */
const FACTORY = 'exf-anatolia-meat';
let w: World;
/** The factory's external certificate (issued in beforeAll). */
let certificate: CertificateJson;

type ErrorJson = { error: { code: string; message: string; validationErrors?: { members: string[]; message: string }[] } };
const refusalsOf = (res: { json(): unknown }) => ((res.json() as ErrorJson).error.validationErrors ?? []).map((v) => ({ member: v.members[0], message: v.message }));
const read = async (id: string) => (await w.as.external.get(`/api/requests/${id}`)).json() as RequestJson;

/** Submits a shipment draft with the fixture's data changed as given; returns the answer and the request after it. */
async function submitWith(changes: Record<string, unknown>, lang = 'en') {
  const draft = await completeDraft(w.as.external, 'shipment', FACTORY, { data: changes });
  const res = await send(w.as.external, draft.id, 'SUBMIT', draft.version, { agreementAccepted: true }, lang);
  return { res, draft, after: await read(draft.id) };
}

/** The request is unchanged by a refusal: still a draft at the same version, with no bill. */
async function expectUnchanged(draft: RequestJson, after: RequestJson) {
  expect(after.status.code).toBe(0);
  expect(after.version).toBe(draft.version);
  expect(await billsOf(w.as.external, draft.id)).toEqual([]);
}

const fixture = shipmentData();
const productLine = (fixture.products as Record<string, unknown>[])[0];
const slaughterLine = (fixture.slaughters as Record<string, unknown>[])[0];
const other = fixture.other as Record<string, unknown>;

beforeAll(async () => {
  w = await createWorld();
  const draft = await completeDraft(w.as.external, 'externalCertificate', FACTORY);
  const { request, steps } = await walk(w, draft.id, { applicant: 'external', until: 105 });
  expect(request.status.code, JSON.stringify(steps)).toBe(105);
  [certificate] = await certificatesOf(w, w.as.external, draft.id);
}, 120_000);
afterAll(() => w?.t.close());

describe('the importer check button (GET /api/shipment-requests/importer/:unifiedNumber)', () => {
  it('shows what the registry holds for a known unified number, spaces allowed', async () => {
    const res = await w.as.external.get(`/api/shipment-requests/importer/${encodeURIComponent('701 070 0001')}?lang=en`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      unifiedNumber: '7010700001',
      crNumber: '1010700001',
      name: 'مصنع النخيل للتمور',
      nameEn: 'Al Nakheel Dates Factory',
      status: { code: 'Active', label: 'Active' },
      activityEn: 'Manufacture of dates and date products',
      verified: true,
      problem: null,
    });
    expect(res.json().expiryDate > new Date().toISOString().slice(0, 10)).toBe(true);
  });

  it('shows an expired registration as not verified, with the reason in the caller’s language', async () => {
    const en = (await w.as.external.get('/api/shipment-requests/importer/7010700005?lang=en')).json();
    expect(en).toMatchObject({ crNumber: '1010700005', status: { code: 'Expired' }, verified: false });
    expect(en.problem).toMatch(/expired on \d{4}-\d{2}-\d{2}/);
    const ar = (await w.as.external.get('/api/shipment-requests/importer/7010700005?lang=ar')).json();
    expect(ar.problem).toContain('انتهى السجل التجاري');
  });

  it('answers 404 for a number the registry does not know, and 400 for one that is not a unified number', async () => {
    const unknown = await w.as.external.get('/api/shipment-requests/importer/7099999999?lang=en');
    expect(unknown.statusCode).toBe(404);
    expect((unknown.json() as ErrorJson).error.message).toContain('7099999999');
    const malformed = await w.as.external.get('/api/shipment-requests/importer/1010700001?lang=en');
    expect(malformed.statusCode).toBe(400);
    expect((malformed.json() as ErrorJson).error.code).toBe('UnifiedNumberInvalid');
  });

  it('is for signed-in people who may request shipments', async () => {
    expect((await w.t.anonymous.get('/api/shipment-requests/importer/7010700001')).statusCode).toBe(401);
    expect((await w.as.registration.get('/api/shipment-requests/importer/7010700001')).statusCode).toBe(403);
  });
});

describe('the importer step (POST /api/shipment-requests/importer/check)', () => {
  const check = (body: unknown, lang = 'en', as = w.as.external) => as.post(`/api/shipment-requests/importer/check?lang=${lang}`, body);

  it('lets the registry’s importer through, and refuses a typed name with the message SUBMIT gives, on the name field', async () => {
    expect((await check(fixture.importer)).statusCode).toBe(200);
    const typed = { ...(fixture.importer as object), name: 'Manual importer' };
    const en = await check(typed);
    expect(en.statusCode).toBe(400);
    expect(refusalsOf(en)).toEqual([
      { member: 'importer.name', message: 'The importer name does not match the commercial registry: Al Nakheel Dates Factory (مصنع النخيل للتمور); press Check to fill it in from the registry' },
    ]);
    expect(refusalsOf(await check(typed, 'ar'))[0]?.message).toContain('اسم المستورد لا يطابق السجل التجاري');
  });

  it('checks the step’s own rules first, and is for signed-in people who may request shipments', async () => {
    const malformed = await check({ name: '', unifiedNumber: 'x' });
    expect(malformed.statusCode).toBe(400);
    expect(refusalsOf(malformed).map((r) => r.member)).toEqual(expect.arrayContaining(['importer.unifiedNumber']));
    expect((await w.t.anonymous.post('/api/shipment-requests/importer/check', fixture.importer)).statusCode).toBe(401);
    expect((await check(fixture.importer, 'en', w.as.registration)).statusCode).toBe(403);
  });
});

describe('importerVerified at submission', () => {
  it('a verified importer submits: the shipment awaits payment (1007)', async () => {
    const { res } = await submitWith({});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status.code).toBe(1007);
  });

  it('an unknown unified number is refused, naming the field; the request is unchanged', async () => {
    const { res, draft, after } = await submitWith({ importer: { ...(fixture.importer as object), unifiedNumber: '709 999 9999' } });
    expect(res.statusCode).toBe(400);
    expect(refusalsOf(res)).toEqual([{ member: 'importer.unifiedNumber', message: expect.stringContaining('does not know the unified number 7099999999') }]);
    await expectUnchanged(draft, after);
  });

  it('an expired registration is refused, in Arabic too', async () => {
    const { res, draft, after } = await submitWith({ importer: { ...(fixture.importer as object), crNumber: '1010700005', unifiedNumber: '7010700005' } }, 'ar');
    expect(res.statusCode).toBe(400);
    expect(refusalsOf(res)).toEqual([{ member: 'importer.unifiedNumber', message: expect.stringContaining('انتهى السجل التجاري للمستورد') }]);
    await expectUnchanged(draft, after);
  });

  it('a CR number that is not the registration of the unified number is refused', async () => {
    const { res, draft, after } = await submitWith({ importer: { ...(fixture.importer as object), crNumber: '1010700002' } });
    expect(res.statusCode).toBe(400);
    expect(refusalsOf(res)).toEqual([{ member: 'importer.crNumber', message: expect.stringContaining('1010700001') }]);
    await expectUnchanged(draft, after);
  });

  it('a made-up importer name with a valid unified number and CR is refused, naming the registry’s name, in both languages (walk1 item 8)', async () => {
    const typed = { name: 'Manual importer', crNumber: '1010700001', unifiedNumber: '7010700001' };
    const en = await submitWith({ importer: typed });
    expect(en.res.statusCode).toBe(400);
    expect(refusalsOf(en.res)).toEqual([
      { member: 'importer.name', message: 'The importer name does not match the commercial registry: Al Nakheel Dates Factory (مصنع النخيل للتمور); press Check to fill it in from the registry' },
    ]);
    await expectUnchanged(en.draft, en.after);
    const ar = await submitWith({ importer: typed }, 'ar');
    expect(refusalsOf(ar.res)).toEqual([{ member: 'importer.name', message: 'اسم المستورد لا يطابق السجل التجاري: مصنع النخيل للتمور (Al Nakheel Dates Factory)؛ اضغط زر التحقق لتعبئته من السجل' }]);
    await expectUnchanged(ar.draft, ar.after);
  });

  it('the registry’s name in either language passes, and the other fields the check filled in must be the registry’s too', async () => {
    const base = fixture.importer as Record<string, unknown>;
    // The Arabic name and Arabic labels, as the check button writes them in the Arabic interface.
    const arabic = await submitWith({ importer: { ...base, name: 'مصنع النخيل للتمور', status: 'نشط', activity: 'صناعة التمور ومنتجاتها' } });
    expect(arabic.res.statusCode, arabic.res.body).toBe(200);
    const wrong = await submitWith({ importer: { ...base, registrationExpiry: '2020-01-01', status: 'Suspended', activity: 'Meat import' } });
    expect(wrong.res.statusCode).toBe(400);
    expect(refusalsOf(wrong.res).map((r) => r.member)).toEqual(['importer.registrationExpiry', 'importer.status', 'importer.activity']);
    expect(refusalsOf(wrong.res)[1].message).toContain('Active (نشط)');
    expect(refusalsOf(wrong.res)[2].message).toContain('Manufacture of dates and date products (صناعة التمور ومنتجاتها)');
    await expectUnchanged(wrong.draft, wrong.after);
  });
});

describe('shipment cross-checks at submission (issue 13 item 7)', () => {
  it('a product the factory’s certificate does not list is refused, naming the line and its HS code', async () => {
    const chicken = { ...productLine, saudiHsCode: '020714000000', globalHsCode: '020714' };
    const { res, draft, after } = await submitWith({ products: [productLine, chicken] });
    expect(res.statusCode).toBe(400);
    expect(refusalsOf(res)).toEqual([{ member: 'products.1.saudiHsCode', message: 'Product line 2 (HS code 020714000000) is not listed on the factory’s Halal certificate' }]);
    await expectUnchanged(draft, after);
  });

  it('a slaughter whose category is not on the certificate is refused, naming the slaughter and the category', async () => {
    const { res, draft, after } = await submitWith({ slaughters: [{ ...slaughterLine, category: 'D' }] });
    expect(res.statusCode).toBe(400);
    expect(refusalsOf(res)).toEqual([{ member: 'slaughters.0.category', message: expect.stringMatching(/Anatolia Slaughterhouse.*category D/) }]);
    await expectUnchanged(draft, after);
  });

  it('a shipment dated before the factory’s certificate was issued is refused', async () => {
    const { res, draft, after } = await submitWith({ other: { ...other, billOfLading: { number: 'BL-1', date: '2025-01-15' } } });
    expect(res.statusCode).toBe(400);
    expect(refusalsOf(res)).toEqual([{ member: 'factory.facilityPublicId', message: expect.stringContaining('2025-01-15') }]);
    await expectUnchanged(draft, after);
  });

  it('an exporting CB whose designation has expired is refused', async () => {
    const { res, draft, after } = await submitWith({ other: { ...other, exportingCbPublicId: 'cb-melbourne-halal' } });
    expect(res.statusCode).toBe(400);
    expect(refusalsOf(res)).toEqual([{ member: 'other.exportingCbPublicId', message: expect.stringContaining('cb-melbourne-halal') }]);
    await expectUnchanged(draft, after);
  });

  it('a product whose category is outside the exporting CB’s designation is refused, naming the product', async () => {
    // cb-jakarta-halal covers CII, CIV, K: not C0 (Frozen Beef); the slaughter of main category C is covered through CII.
    const { res, draft, after } = await submitWith({ other: { ...other, exportingCbPublicId: 'cb-jakarta-halal' } });
    expect(res.statusCode).toBe(400);
    expect(refusalsOf(res)).toEqual([{ member: 'products.0', message: 'Frozen Beef (020230000000): category C0 is outside the exporting conformity body’s designation' }]);
    await expectUnchanged(draft, after);
  });
});

describe('shipment fee preview (GET /api/requests/:id/fees)', () => {
  const preview = async (id: string) => {
    const res = await w.as.external.get(`/api/requests/${id}/fees?lang=en`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('shows the bill the submission will create: 28 t are two started blocks of 27 t, excluding VAT', async () => {
    const draft = await completeDraft(w.as.external, 'shipment', FACTORY);
    expect(await preview(draft.id)).toEqual({
      display: 'excludingVat',
      items: [{ feeKind: { code: 'shipment', label: 'Shipment certificate fee' }, charge: { amount: '2000.00', vat: '300.00', total: '2300.00' } }],
    });
    // The preview is the bill: after submission the bill carries the same amounts.
    const submitted = await send(w.as.external, draft.id, 'SUBMIT', draft.version, { agreementAccepted: true });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const [bill] = await billsOf(w.as.external, draft.id);
    expect({ amount: bill.amount, vat: bill.vat, total: bill.total }).toEqual({ amount: '2000.00', vat: '300.00', total: '2300.00' });
  });

  it('exactly 27 t is one block; a draft without lines has no amount yet', async () => {
    const exactly = await completeDraft(w.as.external, 'shipment', FACTORY, { data: { products: [{ ...productLine, netWeight: 27_000, grossWeight: 28_000, actualGrossWeight: 27_500 }], slaughters: [] } });
    expect((await preview(exactly.id)).items[0].charge).toEqual({ amount: '1000.00', vat: '150.00', total: '1150.00' });
    const empty = await completeDraft(w.as.external, 'shipment', FACTORY, { data: { products: [], slaughters: [] } });
    expect((await preview(empty.id)).items).toEqual([{ feeKind: { code: 'shipment', label: 'Shipment certificate fee' }, charge: null }]);
  });

  it('another facility’s request has no preview for them (404)', async () => {
    const draft = await completeDraft(w.as.external, 'shipment', FACTORY);
    expect((await w.as['internal.main'].get(`/api/requests/${draft.id}/fees`)).statusCode).toBe(404);
  });
});

describe('externalFacilityNotTaken: one account’s completed certificate request holds the factory (spec 02 section 4)', () => {
  it('the account that holds it may ask again: its second certificate request for the factory is submitted (101)', async () => {
    const draft = await completeDraft(w.as.external, 'externalCertificate', FACTORY);
    const res = await send(w.as.external, draft.id, 'SUBMIT', draft.version, { agreementAccepted: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status.code).toBe(101);
  });

  it('another account (a CB acting for the factory) is told its request is suspended and may cancel it; the request is unchanged', async () => {
    const cb = w.as['cb.main'];
    const draft = await completeDraft(cb, 'externalCertificate', 'cb-global-halal', { data: { factory: externalCertificateData().factory } });
    const res = await send(cb, draft.id, 'SUBMIT', draft.version, { agreementAccepted: true });
    expect(res.statusCode).toBe(400);
    expect(refusalsOf(res)).toEqual([{ member: 'factory.facilityPublicId', message: expect.stringContaining('this request is suspended. You may exit and cancel it') }]);
    const after = (await cb.get(`/api/requests/${draft.id}`)).json() as RequestJson;
    expect([after.status.code, after.version]).toEqual([draft.status.code, draft.version]);
    // Exit and cancel: the draft can be deleted.
    const actions = (await cb.get(`/api/requests/${draft.id}/actions`)).json() as { actions: { type: string }[] };
    expect(actions.actions.map((a) => a.type)).toContain('DELETE');
  });
});

describe('foodAuthorityProducts: product data must match the food authority system (spec 02 section 5)', () => {
  /** Frozen Lamb as the food-authority simulator registers it (TRX00000000000002, HS 020430000000). */
  const lamb = (over: Record<string, unknown> = {}) =>
    goodProduct({ nameAr: 'لحم ضأن مجمد', nameEn: 'Frozen Lamb', brandAr: 'اناضول', brandEn: 'Anatolia', saudiHsCode: '020430000000', globalHsCode: '020430', productNumber: 'TRX00000000000002', category: 'C0', unit: 0, netWeight: 20, grossWeight: 21, ...over });
  const submitProducts = async (products: Record<string, unknown>[], lang = 'en') => {
    const draft = await completeDraft(w.as.external, 'externalAddProducts', FACTORY, { certificateId: certificate.id, data: { products } });
    const res = await send(w.as.external, draft.id, 'SUBMIT', draft.version, { agreementAccepted: true }, lang);
    return { res, draft, after: await read(draft.id) };
  };

  it('a product number the authority does not know is refused, naming the product', async () => {
    const { res, draft, after } = await submitProducts([lamb({ productNumber: 'TRX00000000000099' })]);
    expect(res.statusCode).toBe(400);
    expect(refusalsOf(res)).toEqual([{ member: 'products.0.productNumber', message: 'Frozen Lamb: the product number TRX00000000000099 is not registered in the food authority’s system' }]);
    await expectUnchanged(draft, after);
  });

  it('a name or an HS code that differs from the authority’s is refused, naming the product and the field', async () => {
    const { res, draft, after } = await submitProducts([lamb({ nameEn: 'Frozen Goat', saudiHsCode: '020410000000', globalHsCode: '020410' })]);
    expect(res.statusCode).toBe(400);
    expect(refusalsOf(res)).toEqual([
      { member: 'products.0.nameEn', message: 'Frozen Goat: the English name does not match the food authority’s system (Frozen Lamb)' },
      { member: 'products.0.saudiHsCode', message: 'Frozen Goat: the HS code does not match the food authority’s system (020430000000)' },
    ]);
    await expectUnchanged(draft, after);
    const ar = await submitProducts([lamb({ nameAr: 'لحم ماعز مجمد' })], 'ar');
    expect(refusalsOf(ar.res)).toEqual([{ member: 'products.0.nameAr', message: expect.stringContaining('الاسم العربي لا يطابق نظام هيئة الغذاء (لحم ضأن مجمد)') }]);
  });

  it('the external certificate request checks its products too: an unregistered number is refused at submission, naming the product (walk1 item 2)', async () => {
    const beef = (externalCertificateData().products as Record<string, unknown>[])[0];
    for (const [lang, message] of [
      ['en', 'Frozen Beef: the product number SFDA0000000000001 is not registered in the food authority’s system'],
      ['ar', 'Frozen Beef: رقم المنتج SFDA0000000000001 غير مسجل في نظام هيئة الغذاء'],
    ] as const) {
      const draft = await completeDraft(w.as.external, 'externalCertificate', FACTORY, { data: { products: [{ ...beef, productNumber: 'SFDA0000000000001' }] } });
      const res = await send(w.as.external, draft.id, 'SUBMIT', draft.version, { agreementAccepted: true }, lang);
      expect(res.statusCode, res.body).toBe(400);
      expect(refusalsOf(res)).toEqual([{ member: 'products.0.productNumber', message }]);
      // Nothing changed: still the draft (100) at its version, no bill.
      const after = await read(draft.id);
      expect([after.status.code, after.version]).toEqual([draft.status.code, draft.version]);
      expect(await billsOf(w.as.external, draft.id)).toEqual([]);
    }
  });

  it('every service whose applicant types products in runs the check (the marks choose certified products; shipment lines carry no product number)', () => {
    const typed = Object.values(SERVICES).filter((s) => 'products' in s.sections && !['internalHalalMark', 'externalHalalMark', 'shipment'].includes(s.kind));
    expect(typed.map((s) => s.kind).sort()).toEqual(['externalAddProducts', 'externalCertificate', 'externalRenewal', 'internalAddProducts', 'internalCertificate', 'internalRenewal']);
    for (const s of typed) expect(s.serverChecks, s.kind).toContain('foodAuthorityProducts');
  });

  it('the adapter speaks HTTP to the authority: a known product, an unknown one, and a refused key as “unavailable”', async () => {
    const sims = await startSimulators();
    try {
      const base = { baseUrl: `${sims.url}/simulators/foodAuthority`, timeoutMs: 2000 };
      const authority = createFoodAuthority({ ...base, apiKey: 'simulator-key' });
      expect(await authority.product('SFDA2024000000009')).toEqual({ productNumber: 'SFDA2024000000009', nameAr: 'لبن زبادي', nameEn: 'Plain Yoghurt', hsCode: '040310000000' });
      expect(await authority.product('SFDA2024000000999')).toBeNull();
      const refused = await createFoodAuthority({ ...base, apiKey: 'wrong' }).product('SFDA2024000000009').catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(AppError);
      expect((refused as AppError).code).toBe('ExternalServiceUnavailable');
    } finally {
      await sims.app.close();
    }
  });

  // Last: its request stays open, and a product one open request asks for is refused on another (productAlreadyRequested).
  it('a product registered under the same names and HS code is submitted', async () => {
    const { res } = await submitProducts([lamb()]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status.code).not.toBe(0);
  });
});

describe('withinFacilityCertificate: external add-products stay inside the certificate’s categories (spec 02 section 8)', () => {
  /** Frozen Mutton as the food-authority simulator registers it (the Frozen Lamb request above stays open); its category as given (the certificate lists C0 only). */
  const lamb = (category: string) =>
    goodProduct({ nameAr: 'لحم خروف مجمد', nameEn: 'Frozen Mutton', brandAr: 'اناضول', brandEn: 'Anatolia', saudiHsCode: '020430000000', globalHsCode: '020430', productNumber: 'TRX00000000000004', category, unit: 0, netWeight: 20, grossWeight: 21 });
  const submitProduct = async (category: string, lang = 'en') => {
    const draft = await completeDraft(w.as.external, 'externalAddProducts', FACTORY, { certificateId: certificate.id, data: { products: [lamb(category)] } });
    const res = await send(w.as.external, draft.id, 'SUBMIT', draft.version, { agreementAccepted: true }, lang);
    return { res, draft, after: await read(draft.id) };
  };

  it('a product under a category the certificate does not list (CI, within the CB’s designation) is refused in the caller’s language, nothing changed', async () => {
    for (const [lang, message] of [
      ['en', 'This sub-category is not in the facility’s certificate'],
      ['ar', 'هذه الفئة الفرعية غير مدرجة في شهادة المنشأة'],
    ] as const) {
      const { res, draft, after } = await submitProduct('CI', lang);
      expect(res.statusCode).toBe(400);
      expect(refusalsOf(res)).toEqual([{ member: 'products.0.category', message }]);
      await expectUnchanged(draft, after);
    }
    const now = (await w.as.external.get(`/api/certificates/${certificate.id}`)).json() as CertificateJson;
    expect([now.categories, now.products.map((p) => p.nameEn)]).toEqual([certificate.categories, certificate.products.map((p) => p.nameEn)]);
  });

  // Last: its request stays open.
  it('a product under a category the certificate lists (C0) is submitted', async () => {
    expect(certificate.categories).toEqual(['C0']);
    const { res } = await submitProduct('C0');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status.code).not.toBe(0);
  });
});
