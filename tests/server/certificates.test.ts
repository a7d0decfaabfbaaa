import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzipSync, strFromU8 } from 'fflate';
import jsQR from 'jsqr';
import { createTestApp, type Client, type TestApp } from '../helpers/app';
import { darkShare, readPdf, renderPdf, type Raster } from '../helpers/pdf';
import { certificates } from '../../db/schema';

/*
 * The certificate documents as a person gets them: the PDF rendered to pixels by pdf.js (what a printer or viewer
 * shows), its text layer read back by pdf.js (what copy, search and screen readers get), the QR code decoded from
 * the rendered page, and the Halal-mark package unzipped and its QR decoded from the SVG geometry.
 */

const HOST = 'portal.example';
const PRODUCTS = [
  { nameAr: 'حليب طازج كامل الدسم', nameEn: 'Fresh full-fat milk', brandAr: 'المراعي', brandEn: 'Almarai', hsCode: '040120', productNumber: 'SFDA2025MILK00001' },
  { nameAr: 'لبن زبادي بالفواكه', nameEn: 'Fruit yoghurt', brandAr: 'المراعي', brandEn: 'Almarai', hsCode: '040310', productNumber: 'SFDA2025YOGH00002' },
  { nameAr: 'جبنة شيدر مطبوخة', nameEn: 'Processed cheddar cheese', brandAr: 'بوك', brandEn: 'Puck', hsCode: '040630' },
];

let t: TestApp;
const ids: Record<'internal' | 'external' | 'mark' | 'suspended' | 'long', string> = {} as never;
let internalMain: Client;

type NewCertificate = typeof certificates.$inferInsert;
async function insert(values: Partial<NewCertificate> & Pick<NewCertificate, 'number' | 'kind' | 'facilityPublicId' | 'verificationCode'>) {
  const issuedAt = new Date('2025-03-12T09:00:00Z');
  const [row] = await t.database.db
    .insert(certificates)
    .values({ issuedAt, validFrom: issuedAt, expiresAt: new Date(Date.now() + 365 * 86_400_000), ...values })
    .returning({ id: certificates.id });
  return row.id;
}

const get = (c: Client, url: string) => c.request({ method: 'GET', url, headers: { host: HOST } });

const rgba = (gray: Uint8Array) => {
  const out = new Uint8ClampedArray(gray.length * 4);
  gray.forEach((v, i) => out.set([v, v, v, 255], i * 4));
  return out;
};

const qrOf = (page: Raster) => jsQR(page.rgba, page.width, page.height)?.data;

beforeAll(async () => {
  t = await createTestApp();
  ids.internal = await insert({
    number: 'HC-2025-900001',
    kind: 'internalHalal',
    facilityPublicId: 'inf-almarai-foods',
    verificationCode: 'TESTCODE0001',
    scope: 'إنتاج وتعبئة منتجات الألبان',
    categories: ['الألبان ومنتجاتها'],
    products: PRODUCTS,
  });
  ids.external = await insert({
    number: 'HC-2025-900002',
    kind: 'externalHalal',
    facilityPublicId: 'exf-anatolia-meat',
    cbPublicId: 'cb-global-halal',
    verificationCode: 'TESTCODE0002',
  });
  ids.mark = await insert({ number: 'HM-2025-900003', kind: 'halalMark', facilityPublicId: 'inf-almarai-foods', verificationCode: 'TESTCODE0003', scope: 'Saudi' });
  ids.suspended = await insert({
    number: 'HC-2025-900004',
    kind: 'internalHalal',
    facilityPublicId: 'inf-almarai-foods',
    verificationCode: 'TESTCODE0004',
    status: 4,
    suspendedAt: new Date(),
  });
  ids.long = await insert({
    number: 'HC-2025-900005',
    kind: 'internalHalal',
    facilityPublicId: 'inf-almarai-foods',
    verificationCode: 'TESTCODE0005',
    products: Array.from({ length: 45 }, (_, i) => ({ ...PRODUCTS[i % 3], nameEn: `Product number ${i + 1}` })),
  });
  internalMain = await t.login('internal.main');
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('certificate details', () => {
  it('shows the holder, dates in both calendars and the verification URL of the QR code', async () => {
    const res = await get(internalMain, `/api/certificates/${ids.internal}?lang=en`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      number: 'HC-2025-900001',
      kind: 'internalHalal',
      kindLabel: 'Halal certificate',
      status: { code: 1, public: 'active', label: 'Active' },
      holder: { publicId: 'inf-almarai-foods', nameAr: 'مصنع المراعي للأغذية', nameEn: 'Al Marai Foods Factory' },
      issuer: null,
      issuedAt: { gregorian: '2025-03-12', hijri: { year: 1446, month: 9, day: 12 } },
      products: PRODUCTS,
      verificationUrl: `http://${HOST}/verify/TESTCODE0001`,
    });
    const ar = (await get(internalMain, `/api/certificates/${ids.suspended}?lang=ar`)).json();
    expect(ar.status).toEqual({ code: 4, public: 'suspended', label: 'موقوفة', note: null });
  });

  it('is for the holder, the issuing conformity body and staff; anyone else gets 404', async () => {
    const external = await t.login('external');
    expect((await get(external, `/api/certificates/${ids.internal}`)).statusCode).toBe(404);
    expect((await get(external, `/api/certificates/${ids.internal}/pdf`)).statusCode).toBe(404);
    expect((await get(external, `/api/certificates/${ids.mark}/mark.zip`)).statusCode).toBe(404);
    expect((await get(external, `/api/certificates/${ids.external}`)).statusCode).toBe(200);
    const cb = await t.login('cb.main');
    expect((await get(cb, `/api/certificates/${ids.external}`)).json().issuer).toMatchObject({ publicId: 'cb-global-halal' });
    expect((await get(cb, `/api/certificates/${ids.internal}`)).statusCode).toBe(404);
    const staff = await t.login('committee');
    expect((await get(staff, `/api/certificates/${ids.internal}`)).statusCode).toBe(200);
    expect((await t.anonymous.get(`/api/certificates/${ids.internal}`)).statusCode).toBe(401);
  });
});

describe('certificate PDF', () => {
  it('renders an A4 page with Arabic shaped and in logical order, both calendars, and a QR code of the verification URL', async () => {
    const res = await get(internalMain, `/api/certificates/${ids.internal}/pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain('certificate-HC-2025-900001.pdf');
    const pdf = await readPdf(res.rawPayload);
    expect(pdf.pages).toBe(1);
    expect(pdf.sizes[0].map((n) => n.toFixed(2))).toEqual(['595.28', '841.89']); // A4
    expect(pdf.fonts.some((f) => /^[A-Z]{6}\+IBMPlexSansArabic-/.test(f)), pdf.fonts.join()).toBe(true); // embedded subset

    // Pixels: an A4 page at 100 dpi, with ink on it but mostly paper.
    const [page] = await renderPdf(res.rawPayload, 100);
    expect([page.width, page.height]).toEqual([827, 1170]);
    const dark = darkShare(page);
    expect(dark).toBeGreaterThan(0.02);
    expect(dark).toBeLessThan(0.4);

    // The QR code on the rendered page opens the public verification page.
    expect(qrOf(page)).toBe(`http://${HOST}/verify/TESTCODE0001`);

    // The text layer: Arabic in logical order (ligatures included), English, numbers and dates.
    const { text } = pdf;
    for (const s of [
      'مصنع المراعي للأغذية',
      'Al Marai Foods Factory',
      'شهادة حلال',
      'Halal Certificate',
      'HC-2025-900001',
      'حليب طازج كامل الدسم',
      'Fresh full-fat milk',
      'إنتاج وتعبئة منتجات الألبان',
      '12/03/2025',
      '12/09/1446',
      'TESTCODE0001',
    ]) {
      expect(text).toContain(s);
    }
    // Each product's food-authority number under its HS code, each its own text run; the header names the column.
    const { items } = pdf;
    for (const s of ['040120', 'SFDA2025MILK00001', '040310', 'SFDA2025YOGH00002', 'Product no.', 'رقم المنتج']) expect(items.join('\n')).toContain(s);
    expect(items).toContain('SFDA2025MILK00001');
  });

  it('marks a suspended certificate across the page, and not an active one', async () => {
    /** Share of the page in the watermark's red (light, reddish pixels); the rest of the page is green, grey and black. */
    const redShare = async (pdf: Buffer) => {
      const [page] = await renderPdf(pdf, 40);
      const px = page.rgba;
      let red = 0;
      for (let i = 0; i < px.length; i += 4) if (px[i] > 200 && px[i] - px[i + 1] > 18 && px[i] - px[i + 2] > 18) red++;
      return red / (page.width * page.height);
    };
    const suspended = await get(internalMain, `/api/certificates/${ids.suspended}/pdf`);
    const active = await get(internalMain, `/api/certificates/${ids.internal}/pdf`);
    expect(await redShare(suspended.rawPayload)).toBeGreaterThan(0.01);
    expect(await redShare(active.rawPayload)).toBe(0);
    const { text } = await readPdf(suspended.rawPayload);
    expect(text).toContain('Suspended');
    expect(text).toContain('موقوفة');
  });

  it('continues a long product list on further pages and keeps every product', async () => {
    const res = await get(internalMain, `/api/certificates/${ids.long}/pdf`);
    const pages = await renderPdf(res.rawPayload, 100);
    expect(pages.length).toBeGreaterThan(1);
    // Every product, each its own text run (so "Product number 1" is not found inside "Product number 12").
    const { items } = await readPdf(res.rawPayload);
    for (let i = 1; i <= 45; i++) expect(items).toContain(`Product number ${i}`);
    expect(qrOf(pages[pages.length - 1])).toBe(`http://${HOST}/verify/TESTCODE0005`);
  });
});

/** Paints the SVG's QR path (rectangles "M x y h n v 1 h -n z" in module units) and decodes it. */
function decodeSvgQr(svg: string): string | undefined {
  const m = /<path id="qr" transform="[^"]*" fill="#000000" d="([^"]+)"\/>/.exec(svg);
  if (!m) return undefined;
  const rects = [...m[1].matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)].map((r) => r.slice(1).map(Number));
  const modules = Math.max(...rects.map(([x, , n]) => x + n));
  const px = 6;
  const quiet = 4;
  const size = (modules + 2 * quiet) * px;
  const gray = new Uint8Array(size * size).fill(255);
  for (const [x, y, n] of rects) {
    for (let yy = (y + quiet) * px; yy < (y + quiet + 1) * px; yy++) gray.fill(0, yy * size + (x + quiet) * px, yy * size + (x + quiet + n) * px);
  }
  return jsQR(rgba(gray), size, size)?.data;
}

describe('Halal mark package', () => {
  it('zips horizontal and vertical SVG marks with the number and QR code, and the guidelines PDF', async () => {
    const res = await get(internalMain, `/api/certificates/${ids.mark}/mark.zip`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toContain('halal-mark-HM-2025-900003.zip');
    const files = unzipSync(new Uint8Array(res.rawPayload));
    expect(Object.keys(files).sort()).toEqual([
      'halal-mark-HM-2025-900003-guidelines.pdf',
      'halal-mark-HM-2025-900003-horizontal.svg',
      'halal-mark-HM-2025-900003-vertical.svg',
    ]);
    for (const variant of ['horizontal', 'vertical']) {
      const svg = strFromU8(files[`halal-mark-HM-2025-900003-${variant}.svg`]);
      expect(svg).toMatch(/^<\?xml[^>]*>\s*<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      expect(svg).toContain('data-certificate-number="HM-2025-900003"');
      // Text is drawn as outlines: the file needs no font where it is printed.
      expect(svg).not.toContain('<text');
      expect(decodeSvgQr(svg)).toBe(`http://${HOST}/verify/TESTCODE0003`);
    }
    expect(strFromU8(files['halal-mark-HM-2025-900003-horizontal.svg'])).toContain('width="176" height="46"');

    const { text } = await readPdf(files['halal-mark-HM-2025-900003-guidelines.pdf']);
    expect(text).toContain('Halal mark: usage guidelines');
    expect(text).toContain('علامة الحلال');
    expect(text).toContain('إرشادات الاستخدام');
    expect(text).toContain('المنتجات المدرجة في الشهادة فقط');
    expect(text).toContain('HM-2025-900003');
  });

  it('exists only for Halal marks', async () => {
    expect((await get(internalMain, `/api/certificates/${ids.internal}/mark.zip`)).statusCode).toBe(404);
  });
});
