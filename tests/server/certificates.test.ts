import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzipSync, strFromU8 } from 'fflate';
import jsQR from 'jsqr';
import { createTestApp, type Client, type TestApp } from '../helpers/app';
import { certificates } from '../../db/schema';

/*
 * The certificate documents as a person gets them: the PDF rendered to pixels by poppler (what a printer or viewer
 * shows), its text layer read back by pdftotext (what copy, search and screen readers get), the QR code decoded from
 * the rendered page, and the Halal-mark package unzipped and its QR decoded from the SVG geometry.
 */

const HOST = 'portal.example';
const PRODUCTS = [
  { nameAr: 'حليب طازج كامل الدسم', nameEn: 'Fresh full-fat milk', brandAr: 'المراعي', brandEn: 'Almarai', hsCode: '040120' },
  { nameAr: 'لبن زبادي بالفواكه', nameEn: 'Fruit yoghurt', brandAr: 'المراعي', brandEn: 'Almarai', hsCode: '040310' },
  { nameAr: 'جبنة شيدر مطبوخة', nameEn: 'Processed cheddar cheese', brandAr: 'بوك', brandEn: 'Puck', hsCode: '040630' },
];

let t: TestApp;
let dir: string;
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
const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: 'utf8' });
/**
 * The text layer as pdftotext reads it, without the invisible embedding marks (U+202A-U+202C ...) it wraps around
 * each right-to-left and left-to-right stretch of a line.
 */
const textOf = (pdf: string) => run('pdftotext', ['-enc', 'UTF-8', pdf, '-']).replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '');

/** A PGM (P5, 8-bit) image from pdftoppm -gray: width, height and one byte per pixel. */
function readPgm(file: string): { width: number; height: number; pixels: Uint8Array } {
  const buf = readFileSync(file);
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(buf.subarray(0, 64).toString('latin1'));
  if (!header) throw new Error('not a PGM file');
  const [, w, h] = header.map(Number);
  return { width: w, height: h, pixels: buf.subarray(header[0].length) };
}

const rgba = (gray: Uint8Array) => {
  const out = new Uint8ClampedArray(gray.length * 4);
  gray.forEach((v, i) => out.set([v, v, v, 255], i * 4));
  return out;
};

/** Renders every page of a PDF to gray pixels at 100 dpi. */
function renderPages(pdf: Buffer, name: string) {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  run('pdftoppm', ['-gray', '-r', '100', file, join(dir, name)]);
  const pages = readdirSync(dir).filter((f) => f.startsWith(`${name}-`) && f.endsWith('.pgm')).sort();
  return { file, pages: pages.map((p) => readPgm(join(dir, p))) };
}

beforeAll(async () => {
  t = await createTestApp();
  dir = mkdtempSync(join(tmpdir(), 'certificates-'));
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
  if (dir) rmSync(dir, { recursive: true, force: true });
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
    expect(ar.status).toEqual({ code: 4, public: 'suspended', label: 'موقوفة' });
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
    const { file, pages } = renderPages(res.rawPayload, 'internal');

    const info = run('pdfinfo', [file]);
    expect(info).toMatch(/Pages:\s+1\n/);
    expect(info).toMatch(/Page size:\s+595\.28 x 841\.89 pts \(A4\)/);
    expect(run('pdffonts', [file])).toContain('IBMPlexSansArabic');

    // Pixels: an A4 page at 100 dpi, with ink on it but mostly paper.
    const [page] = pages;
    expect([page.width, page.height]).toEqual([827, 1170]);
    const dark = page.pixels.reduce((n, v) => n + (v < 128 ? 1 : 0), 0) / page.pixels.length;
    expect(dark).toBeGreaterThan(0.02);
    expect(dark).toBeLessThan(0.4);

    // The QR code on the rendered page opens the public verification page.
    const qr = jsQR(rgba(page.pixels), page.width, page.height);
    expect(qr?.data).toBe(`http://${HOST}/verify/TESTCODE0001`);

    // The text layer: Arabic in logical order (ligatures included), English, numbers and dates.
    const text = textOf(file);
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
  });

  it('marks a suspended certificate across the page, and not an active one', async () => {
    /** Share of the page in the watermark's red (light, reddish pixels); the rest of the page is green, grey and black. */
    const redShare = (pdf: Buffer, name: string) => {
      const file = join(dir, `${name}.pdf`);
      writeFileSync(file, pdf);
      run('pdftoppm', ['-r', '40', '-singlefile', file, join(dir, name)]);
      const buf = readFileSync(join(dir, `${name}.ppm`));
      const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(buf.subarray(0, 64).toString('latin1'))!;
      const px = buf.subarray(header[0].length);
      let red = 0;
      for (let i = 0; i < px.length; i += 3) if (px[i] > 200 && px[i] - px[i + 1] > 18 && px[i] - px[i + 2] > 18) red++;
      return red / (px.length / 3);
    };
    const suspended = await get(internalMain, `/api/certificates/${ids.suspended}/pdf`);
    const active = await get(internalMain, `/api/certificates/${ids.internal}/pdf`);
    expect(redShare(suspended.rawPayload, 'suspended-colour')).toBeGreaterThan(0.01);
    expect(redShare(active.rawPayload, 'active-colour')).toBe(0);
    const { file } = renderPages(suspended.rawPayload, 'suspended');
    const text = textOf(file);
    expect(text).toContain('Suspended');
    expect(text).toContain('موقوفة');
  });

  it('continues a long product list on further pages and keeps every product', async () => {
    const res = await get(internalMain, `/api/certificates/${ids.long}/pdf`);
    const { file, pages } = renderPages(res.rawPayload, 'long');
    expect(pages.length).toBeGreaterThan(1);
    const text = textOf(file);
    for (let i = 1; i <= 45; i++) expect(text).toContain(`Product number ${i}\n`);
    const last = pages[pages.length - 1];
    expect(jsQR(rgba(last.pixels), last.width, last.height)?.data).toBe(`http://${HOST}/verify/TESTCODE0005`);
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

    const pdf = join(dir, 'guidelines.pdf');
    writeFileSync(pdf, files['halal-mark-HM-2025-900003-guidelines.pdf']);
    const text = textOf(pdf);
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
