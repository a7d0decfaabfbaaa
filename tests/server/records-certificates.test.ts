import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Client, type TestApp } from '../helpers/app';
import { certificates } from '../../db/schema';
import { EmbeddedEngine } from '../../workflows/embedded/embedded-engine';
import { testStoreDeps } from '../helpers/deps';

/*
 * The certificates list an applicant (and staff) searches: by number (and the old system's number), product, brand
 * and status; scoped to the caller's facilities — another facility's certificate is never listed, and asking for
 * another facility's list is refused. The certificate page offers the renewal service only inside its window.
 */

const DAY = 86_400_000;
let t: TestApp;
const ids: Record<'milk' | 'bread' | 'anatolia' | 'suspended', string> = {} as never;
let almarai: Client;
let anatolia: Client;
let cb: Client;
let staff: Client;

type NewCertificate = typeof certificates.$inferInsert;
async function insert(values: Partial<NewCertificate> & Pick<NewCertificate, 'number' | 'kind' | 'facilityPublicId' | 'verificationCode'>) {
  const issuedAt = new Date(Date.now() - 300 * DAY);
  const [row] = await t.database.db
    .insert(certificates)
    .values({ issuedAt, validFrom: issuedAt, expiresAt: new Date(Date.now() + 365 * DAY), ...values })
    .returning({ id: certificates.id });
  return row.id;
}

interface Summary {
  id: string;
  number: string;
  legacyNumber: string | null;
  status: { public: string; label: string };
  holder: { publicId: string };
  issuer: { publicId: string } | null;
  productCount: number;
  brands: { ar: string; en: string }[];
}
const list = async (c: Client, query: string) => {
  const res = await c.get(`/api/certificates?${query}`, { headers: { 'accept-language': 'en' } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: Summary[]; totalCount: number };
};
const numbers = async (c: Client, query: string) => (await list(c, query)).items.map((i) => i.number).sort();

beforeAll(async () => {
  t = await createTestApp();
  ids.milk = await insert({
    number: 'HC-REC-000001',
    legacyNumber: 'OLD-7781',
    kind: 'internalHalal',
    facilityPublicId: 'inf-almarai-foods',
    verificationCode: 'RECCODE0001',
    scope: 'إنتاج الألبان',
    products: [{ nameAr: 'حليب طازج', nameEn: 'Fresh milk', brandAr: 'المراعي', brandEn: 'Almarai', hsCode: '040120' }],
  });
  ids.bread = await insert({
    number: 'HC-REC-000002',
    kind: 'internalHalal',
    facilityPublicId: 'inf-almarai-foods',
    verificationCode: 'RECCODE0002',
    expiresAt: new Date(Date.now() + 30 * DAY),
    products: [{ nameAr: 'خبز أبيض', nameEn: 'White bread', brandAr: 'لوزين', brandEn: 'Lusine', hsCode: '190590' }],
  });
  ids.anatolia = await insert({
    number: 'HC-REC-000003',
    kind: 'externalHalal',
    facilityPublicId: 'exf-anatolia-meat',
    cbPublicId: 'cb-global-halal',
    verificationCode: 'RECCODE0003',
    products: [{ nameAr: 'نقانق بقري', nameEn: 'Beef sausages', brandAr: 'أناضول', brandEn: 'Almarai-Anadolu', hsCode: '160100' }],
  });
  ids.suspended = await insert({
    number: 'HC-REC-000004',
    kind: 'internalHalal',
    facilityPublicId: 'inf-almarai-foods',
    verificationCode: 'RECCODE0004',
    status: 4,
    suspendedAt: new Date(),
    // Ends before the milk certificate: a migrated mark stands on the facility's certificate the latest to expire (milk).
    expiresAt: new Date(Date.now() + 300 * DAY),
  });
  await insert({ number: 'HM-REC-000005', kind: 'halalMark', facilityPublicId: 'inf-almarai-foods', verificationCode: 'RECCODE0005', scope: 'Saudi' });
  [almarai, anatolia, cb, staff] = await Promise.all(['internal.main', 'external', 'cb.main', 'registration'].map((u) => t.login(u)));
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('certificates list: search', () => {
  it('lists the facility’s certificates (not its Halal marks) newest first, with holder, products and brands', async () => {
    const page = await list(almarai, '');
    expect(page.items.map((i) => i.number).sort()).toEqual(['HC-REC-000001', 'HC-REC-000002', 'HC-REC-000004']);
    const milk = page.items.find((i) => i.id === ids.milk)!;
    expect(milk).toMatchObject({ legacyNumber: 'OLD-7781', productCount: 1, brands: [{ ar: 'المراعي', en: 'Almarai' }], holder: { publicId: 'inf-almarai-foods' }, issuer: null });
    expect(await numbers(almarai, 'kind=halalMark')).toEqual(['HM-REC-000005']);
  });

  it('finds by number and by the old system’s number', async () => {
    expect(await numbers(almarai, 'number=rec-000002')).toEqual(['HC-REC-000002']);
    expect(await numbers(almarai, 'number=OLD-7781')).toEqual(['HC-REC-000001']);
    expect(await numbers(almarai, 'number=HC-NOPE')).toEqual([]);
    // Pasted from a toast or the tab title, which isolate a number with invisible direction marks (U+2066 … U+2069).
    expect(await numbers(almarai, `number=${encodeURIComponent('\u2066HC-REC-000002\u2069')}`)).toEqual(['HC-REC-000002']);
    expect(await numbers(almarai, `any=${encodeURIComponent(' \u200FOLD-7781\u200E ')}`)).toEqual(['HC-REC-000001']);
  });

  it('finds by product name in either language and by HS code', async () => {
    expect(await numbers(almarai, 'product=bread')).toEqual(['HC-REC-000002']);
    expect(await numbers(almarai, `product=${encodeURIComponent('حليب')}`)).toEqual(['HC-REC-000001']);
    expect(await numbers(almarai, 'product=190590')).toEqual(['HC-REC-000002']);
  });

  it('finds by brand in either language, and a product search does not match brands', async () => {
    expect(await numbers(almarai, 'brand=lusine')).toEqual(['HC-REC-000002']);
    expect(await numbers(almarai, `brand=${encodeURIComponent('المراعي')}`)).toEqual(['HC-REC-000001']);
    expect(await numbers(almarai, 'product=lusine')).toEqual([]);
  });

  it('finds by status as a person sees it today (expiring soon from the dates, suspended from the decision)', async () => {
    expect(await numbers(almarai, 'status=expiringSoon')).toEqual(['HC-REC-000002']);
    expect(await numbers(almarai, 'status=suspended')).toEqual(['HC-REC-000004']);
    expect(await numbers(almarai, 'status=active')).toEqual(['HC-REC-000001']);
    const soon = (await list(almarai, 'status=expiringSoon')).items[0];
    expect(soon.status).toMatchObject({ public: 'expiringSoon', label: expect.stringMatching(/expir/i) });
  });

  it('one search box finds by number, product or brand', async () => {
    expect(await numbers(almarai, 'any=OLD-77')).toEqual(['HC-REC-000001']);
    expect(await numbers(almarai, 'any=white')).toEqual(['HC-REC-000002']);
    expect(await numbers(almarai, 'any=almarai')).toEqual(['HC-REC-000001']);
  });
});

describe('certificates list: facilities are kept apart', () => {
  it('never lists another facility’s certificate, even when its brand matches the search', async () => {
    // The Anatolia certificate's brand contains "Almarai" too; the Almarai user still only gets its own.
    expect(await numbers(almarai, 'brand=almarai')).toEqual(['HC-REC-000001']);
    expect(await numbers(almarai, 'number=HC-REC-000003')).toEqual([]);
    const all = await list(almarai, 'pageSize=100');
    expect(all.items.some((i) => i.holder.publicId !== 'inf-almarai-foods')).toBe(false);
  });

  it('refuses another facility’s list (403) and answers its own', async () => {
    const res = await almarai.get('/api/certificates?facilityId=exf-anatolia-meat');
    expect(res.statusCode).toBe(403);
    expect(await numbers(almarai, 'facilityId=inf-almarai-foods')).toEqual(['HC-REC-000001', 'HC-REC-000002', 'HC-REC-000004']);
  });

  it('the external facility sees its own certificate, and the issuing CB sees it too', async () => {
    expect(await numbers(anatolia, '')).toEqual(['HC-REC-000003']);
    const forCb = await list(cb, 'facilityId=cb-global-halal&number=HC-REC');
    expect(forCb.items.map((i) => [i.number, i.issuer?.publicId])).toEqual([['HC-REC-000003', 'cb-global-halal']]);
  });

  it('heldBy lists only what the facility holds: a CB’s own certificates tab leaves out the ones it issued (walk3 D1)', async () => {
    const held = await list(cb, 'heldBy=cb-global-halal&number=HC-REC');
    expect(held.items).toEqual([]);
    expect(await numbers(anatolia, 'heldBy=exf-anatolia-meat')).toEqual(['HC-REC-000003']);
    expect((await list(anatolia, 'heldBy=exf-anatolia-meat')).items[0]).toMatchObject({ kind: 'externalHalal', issuer: { publicId: 'cb-global-halal' } });
    expect((await almarai.get('/api/certificates?heldBy=exf-anatolia-meat')).statusCode).toBe(403);
  });

  it('staff of the Halal center see every facility’s certificates and may filter by facility', async () => {
    expect(await numbers(staff, 'number=HC-REC&pageSize=100')).toEqual(['HC-REC-000001', 'HC-REC-000002', 'HC-REC-000003', 'HC-REC-000004']);
    expect(await numbers(staff, 'facilityId=exf-anatolia-meat')).toEqual(['HC-REC-000003']);
  });

  it('a signed-out caller gets nothing', async () => {
    expect((await t.anonymous.get('/api/certificates')).statusCode).toBe(401);
  });
});

describe('certificate page', () => {
  it('shows the old-system number, scope, issuer and products', async () => {
    const milk = (await almarai.get(`/api/certificates/${ids.milk}`)).json();
    expect(milk).toMatchObject({ legacyNumber: 'OLD-7781', scope: 'إنتاج الألبان', issuer: null, products: [{ nameEn: 'Fresh milk' }] });
    const ext = (await anatolia.get(`/api/certificates/${ids.anatolia}`)).json();
    expect(ext.issuer).toMatchObject({ publicId: 'cb-global-halal', nameEn: 'Global Halal Conformity Body' });
    expect((await almarai.get(`/api/certificates/${ids.anatolia}`)).statusCode).toBe(404);
  });

  it('offers the renewal service of the certificate’s kind only inside the renewal window, to the holder', async () => {
    const bread = (await almarai.get(`/api/certificates/${ids.bread}`)).json();
    expect(bread.renewal).toEqual({ kind: 'internalRenewal', start: '/internal-renewal-request/$facilityPublicId/$certificateId' });
    expect((await almarai.get(`/api/certificates/${ids.milk}`)).json().renewal).toBeNull();
    expect((await almarai.get(`/api/certificates/${ids.suspended}`)).json().renewal).toBeNull();
    expect((await staff.get(`/api/certificates/${ids.bread}`)).json().renewal).toBeNull();
  });

  it('the certificates list says the same per row: renewable inside the window, not far from expiry (crawl: renewal offered for every certificate)', async () => {
    const rows = (await list(almarai, 'heldBy=inf-almarai-foods')).items as (Summary & { renewal: unknown })[];
    const renewal = (id: string) => rows.find((r) => r.id === id)!.renewal;
    expect(renewal(ids.bread)).toEqual({ kind: 'internalRenewal', start: '/internal-renewal-request/$facilityPublicId/$certificateId' });
    expect(renewal(ids.milk)).toBeNull();
    expect(renewal(ids.suspended)).toBeNull();
    // Staff see the list but hold none of it: nothing to renew.
    expect((await list(staff, 'heldBy=inf-almarai-foods')).items.map((r) => (r as Summary & { renewal: unknown }).renewal)).toEqual([null, null, null]);
  });

  it('offers its lifecycle (actions and history) to the holder and staff, not to the issuing CB, once it has one', async () => {
    const lifecycle = async (c: Client, id: string) => (await c.get(`/api/certificates/${id}`)).json().lifecycle;
    // Written without the engine after the server started: no lifecycle yet, so the page asks for none.
    expect(await lifecycle(anatolia, ids.anatolia)).toBe(false);
    // What the next start of the server does (workflows/adopt.ts).
    await new EmbeddedEngine({ db: t.database.db, deps: testStoreDeps() }).adoptCertificates();
    expect([await lifecycle(anatolia, ids.anatolia), await lifecycle(staff, ids.anatolia), await lifecycle(cb, ids.anatolia)]).toEqual([true, true, false]);
    // Each reader the page offers it to reads it; the CB, which is not offered it, would be refused.
    expect((await anatolia.get(`/api/requests/${ids.anatolia}/history`)).statusCode).toBe(200);
    expect((await staff.get(`/api/requests/${ids.anatolia}/actions`)).statusCode).toBe(200);
    expect((await cb.get(`/api/requests/${ids.anatolia}`)).statusCode).toBe(404);
  });
});

describe('marks migrated from the old system', () => {
  it('a mark the old system cancelled (code 2 before its expiry) shows cancelled in the marks list once adopted, an active one active', async () => {
    // Written without the engine, as a migration writes them: a mark whose validity ended early (cancelled) and a live one.
    await insert({ number: 'HM-OLD-000001', kind: 'halalMark', facilityPublicId: 'inf-almarai-foods', verificationCode: 'OLDMARK00001', scope: 'Saudi', status: 2 });
    await insert({ number: 'HM-OLD-000002', kind: 'halalMark', facilityPublicId: 'inf-almarai-foods', verificationCode: 'OLDMARK00002', scope: 'Saudi', status: 1 });
    const engine = new EmbeddedEngine({ db: t.database.db, deps: testStoreDeps() });
    await engine.adoptCertificates();
    await engine.fireDueTimers(new Date());
    const rows = async (lang: string) => {
      const res = await almarai.get('/api/certificates?kind=halalMark&number=HM-OLD', { headers: { 'accept-language': lang } });
      return Object.fromEntries((res.json() as { items: Summary[] }).items.map((i) => [i.number, i.status.label]));
    };
    expect(await rows('en')).toEqual({ 'HM-OLD-000001': 'Cancelled', 'HM-OLD-000002': 'Active' });
    expect(await rows('ar')).toEqual({ 'HM-OLD-000001': 'ملغاة', 'HM-OLD-000002': 'سارية' });
    expect(await numbers(almarai, 'kind=halalMark&status=cancelled')).toEqual(['HM-OLD-000001']);
  });
});
