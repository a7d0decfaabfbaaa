import ExcelJS from 'exceljs';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { facilityAttachments } from '../../db/schema';
import { inspectXlsx, sheetExtent, XLSX_LIMITS } from '../../server/modules/product-upload/xlsx-limits';
import { UNATTACHED_LIMITS } from '../../server/modules/facilities/attachments';
import { createTestApp, type Client, type TestApp } from '../helpers/app';
import { multipartBody, pdf } from '../helpers/multipart';
import { eq } from 'drizzle-orm';

/*
 * Issue 11, point 3: uploads cannot stall the server. The product form (.xlsx) is inspected with bounded work before
 * any spreadsheet library reads it, and read in a worker thread; /api/health stays fast meanwhile. Unattached
 * facility attachments have a per-user quota and expire.
 */

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** The stated bound: no health probe waits longer than this while a hostile upload is processed. */
const HEALTH_BOUND_MS = 500;

let t: TestApp;
let applicant: Client;
let template: Buffer;

beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'silent' });
  applicant = await t.login('internal.main');
  template = (await applicant.get('/api/product-upload/template')).rawPayload;
}, 60_000);
afterAll(() => t?.close());

/** The template with one product, and optionally one more cell far down the sheet. */
async function form(extra?: { row: number; col: number }, products = 1): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(template as unknown as ExcelJS.Buffer);
  const sheet = wb.getWorksheet('Products')!;
  for (let i = 0; i < products; i++) {
    const values = [`حليب ${i}`, `Milk ${i}`, 'المراعي', 'Almarai', '040120000000', '040120', `SFDA${String(i).padStart(13, '0')}`, 'Pasteurised', 'CI', 1000, 1050, 'ml'];
    values.forEach((v, c) => (sheet.getRow(3 + i).getCell(c + 1).value = v));
  }
  if (extra) sheet.getRow(extra.row).getCell(extra.col).value = 'x';
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const upload = (content: Buffer, lang = 'en') => {
  const { payload, headers } = multipartBody({ name: 'products.xlsx', type: XLSX, content });
  return applicant.request({ method: 'POST', url: `/api/product-upload?lang=${lang}`, payload, headers });
};

/** Runs `work` while probing /api/health every 20 ms; answers the work's result and the slowest probe. */
async function whileProbing<T>(work: () => Promise<T>): Promise<{ result: T; slowestMs: number; probes: number }> {
  let running = true;
  let slowestMs = 0;
  let probes = 0;
  const prober = (async () => {
    while (running) {
      const start = performance.now();
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(200);
      slowestMs = Math.max(slowestMs, performance.now() - start);
      probes++;
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const result = await work();
  running = false;
  await prober;
  return { result, slowestMs, probes };
}

describe('the product form is read with bounded work', () => {
  it('a sheet with one cell at row 1,048,576 is refused before any row is walked, and /api/health stays fast', async () => {
    const hostile = await form({ row: 1_048_576, col: 1 });
    expect(hostile.length).toBeLessThan(64 * 1024);
    const started = performance.now();
    expect(inspectXlsx(hostile)).toMatchObject({ ok: false, reason: 'sheetTooLarge' });
    const inspectMs = performance.now() - started;

    await upload(await form()); // the reading thread starts on first use; not what is measured
    const { result: res, slowestMs, probes } = await whileProbing(() => upload(hostile));
    console.log(`row-1,048,576 sheet (${hostile.length} bytes): inspected in ${inspectMs.toFixed(1)} ms; upload refused; ${probes} health probes, slowest ${slowestMs.toFixed(1)} ms (bound ${HEALTH_BOUND_MS} ms)`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'ProductUploadSheetTooLarge', message: expect.stringContaining(`row ${XLSX_LIMITS.maxRow}`) });
    expect(inspectMs).toBeLessThan(1_000);
    expect(slowestMs).toBeLessThan(HEALTH_BOUND_MS);
  }, 60_000);

  it('a column far to the right is refused too, in Arabic for an Arabic caller', async () => {
    const res = await upload(await form({ row: 4, col: 16_000 }), 'ar');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('ProductUploadSheetTooLarge');
    expect(res.json().error.message).toMatch(/[\u0600-\u06FF]/);
  });

  it('a zip bomb (a part inflating to 64 MB) is refused by its inflated size', async () => {
    const parts = unzipSync(new Uint8Array(template));
    parts['xl/media/padding.xml'] = strToU8(' '.repeat(64 * 1024 * 1024));
    const bomb = Buffer.from(zipSync(parts, { level: 9 }));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const { result: res, slowestMs } = await whileProbing(() => upload(bomb));
    console.log(`zip bomb ${bomb.length} bytes -> 64 MB: refused; slowest health probe ${slowestMs.toFixed(1)} ms`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('ProductUploadInflatedTooLarge');
    expect(slowestMs).toBeLessThan(HEALTH_BOUND_MS);
  }, 60_000);

  it('a full, legitimate form (1,000 products) is read off the event loop: health stays fast while it parses', async () => {
    const big = await form(undefined, 1000);
    const { result: res, slowestMs, probes } = await whileProbing(() => upload(big));
    console.log(`1,000-product form: read; ${probes} health probes, slowest ${slowestMs.toFixed(1)} ms`);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.json().count).toBe(1000);
    expect(slowestMs).toBeLessThan(HEALTH_BOUND_MS);
  }, 120_000);

  it('measures extent from the dimension and from cell references', () => {
    expect(sheetExtent('<worksheet><dimension ref="A1:XFD1048576"/></worksheet>')).toEqual({ rows: 1_048_576, columns: 16_384 });
    expect(sheetExtent('<x:row r="7"><x:c r="AB7"/></x:row>')).toEqual({ rows: 7, columns: 28 });
  });
});

describe('file names', () => {
  it('lose their bidi controls when stored and when downloaded', async () => {
    const user = await t.login('external');
    const res = await user.request({
      method: 'POST',
      url: `/api/facility-attachments?category=commercialRegistration&fileName=${encodeURIComponent('invoice\u202Efdp.pdf')}&lang=en`,
      payload: pdf(300),
      headers: { 'content-type': 'application/pdf' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().fileName).toBe('invoicefdp.pdf');
    const download = await user.get(`/api/facility-attachments/${res.json().id}`);
    expect(download.statusCode).toBe(200);
    expect(String(download.headers['content-disposition'])).not.toMatch(/%E2%80%AE|\u202E/i);
  });
});

describe('unattached facility attachments', () => {
  const send = (c: Client, i: number) =>
    c.request({
      method: 'POST',
      url: `/api/facility-attachments?category=commercialRegistration&fileName=cr-${i}.pdf&lang=en`,
      payload: pdf(200 + i),
      headers: { 'content-type': 'application/pdf' },
    });

  it(`a user may keep at most ${UNATTACHED_LIMITS.files} waiting; expired ones free the quota and cannot be attached`, async () => {
    const user = await t.login('internal.sub');
    const ids: string[] = [];
    for (let i = 0; i < UNATTACHED_LIMITS.files; i++) {
      const res = await send(user, i);
      expect(res.statusCode, res.body).toBe(200);
      ids.push(res.json().id);
    }
    const refused = await send(user, 99);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({ code: 'AttachmentQuotaExceeded', message: expect.stringContaining(`${UNATTACHED_LIMITS.hours} hours`) });

    // Another user's quota is their own.
    expect((await send(await t.login('cb.sub'), 1)).statusCode).toBe(200);

    // A day later the waiting uploads expire: their rows go, and the quota is free again.
    await t.database.db
      .update(facilityAttachments)
      .set({ createdAt: new Date(Date.now() - (UNATTACHED_LIMITS.hours + 1) * 3_600_000) })
      .where(eq(facilityAttachments.uploadedBy, (await t.database.db.select().from(facilityAttachments).where(eq(facilityAttachments.id, ids[0])))[0].uploadedBy));
    expect((await send(user, 100)).statusCode).toBe(200);
    const left = await t.database.db.select().from(facilityAttachments).where(eq(facilityAttachments.id, ids[0]));
    expect(left).toEqual([]);
  }, 60_000);
});
