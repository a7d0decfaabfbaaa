import { mkdtempSync, readdirSync, existsSync, rmSync, writeFileSync, mkdirSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type Client, type TestApp } from '../helpers/app';
import { attachments, requests, users } from '../../db/schema';
import { FileStore } from '../../server/modules/attachments/file-store';
import { requireAttachments, sweepOrphanFiles } from '../../server/modules/attachments/service';
import { jpeg, multipartBody, pdf, png } from '../helpers/multipart';

const FACILITY = 'inf-almarai-foods';
let t: TestApp;
let dataDir: string;
let main: Client;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'halal-attachments-'));
  t = await createTestApp({ DATA_DIR: dataDir });
  main = await t.login('internal.main');
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Upload {
  name: string;
  type: string;
  content: Buffer;
}
const asPdf = (name = 'document.pdf'): Upload => ({ name, type: 'application/pdf', content: pdf() });

function upload(c: Client, file: Upload, query: Record<string, string>, lang = 'en') {
  const qs = new URLSearchParams({ facilityPublicId: FACILITY, lang, ...query });
  const { payload, headers } = multipartBody(file);
  return c.request({ method: 'POST', url: `/api/attachments?${qs}`, payload, headers });
}

/** A real draft of this facility (its files are open), or a bare row of another facility's request. */
async function newRequest(facilityPublicId = FACILITY): Promise<string> {
  if (facilityPublicId === FACILITY) {
    const res = await main.post('/api/requests', { kind: 'internalCertificate', facilityId: FACILITY });
    expect(res.statusCode).toBe(201);
    return res.json().id as string;
  }
  const [owner] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.userName, 'internal.main'));
  const [row] = await t.database.db
    .insert(requests)
    .values({
      number: `TEST-${randomUUID().slice(0, 8)}`,
      kind: 'internalCertificate',
      machineVersion: 1,
      input: {},
      snapshot: {},
      status: 0,
      stateValue: 'draft',
      version: 1,
      facilityPublicId,
      ownerUserId: owner.id,
    })
    .returning({ id: requests.id });
  return row.id;
}

const rowCount = async () => (await t.database.db.select({ id: attachments.id }).from(attachments)).length;
const storedFiles = () =>
  readdirSync(join(dataDir, 'files'))
    .filter((d) => /^[0-9a-f]{2}$/.test(d))
    .flatMap((d) => readdirSync(join(dataDir, 'files', d)).map((f) => d + f));

describe('uploading attachments', () => {
  it('stores a PDF content-addressed under DATA_DIR/files and records who uploaded what', async () => {
    const file = asPdf('شهادة السجل.pdf');
    const res = await upload(main, file, { category: 'productCatalogue' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    const sha = createHash('sha256').update(file.content).digest('hex');
    expect(body).toMatchObject({ facilityPublicId: FACILITY, category: 'productCatalogue', name: 'شهادة السجل.pdf', size: file.content.length, contentType: 'application/pdf', sha256: sha, requestId: null, locked: false });
    expect(existsSync(join(dataDir, 'files', sha.slice(0, 2), sha.slice(2)))).toBe(true);
    expect(readdirSync(join(dataDir, 'files', 'tmp'))).toEqual([]);
  });

  it('stores the same bytes once even when uploaded twice', async () => {
    const file = { name: 'catalogue.pdf', type: 'application/pdf', content: pdf(2000) };
    const a = (await upload(main, file, { category: 'productCatalogue' })).json();
    const b = (await upload(main, { ...file, name: 'catalogue-copy.pdf' }, { category: 'productCatalogue' })).json();
    expect(a.id).not.toBe(b.id);
    expect(a.sha256).toBe(b.sha256);
    expect(storedFiles().filter((s) => s === a.sha256)).toHaveLength(1);
  });

  it('strips any client path from the file name', async () => {
    const res = await upload(main, { ...asPdf(), name: 'C:\\fakepath\\report.pdf' }, { category: 'requestNote' });
    expect(res.statusCode).toBe(201);
    expect(res.json().name).toBe('report.pdf');
  });

  it('accepts a JPEG and a PNG and records their pixel size', async () => {
    const j = await upload(main, { name: 'front.jpg', type: 'image/jpeg', content: jpeg(800, 600) }, { category: 'productPhoto' });
    expect(j.statusCode).toBe(201);
    expect(j.json()).toMatchObject({ contentType: 'image/jpeg', width: 800, height: 600 });
    const p = await upload(main, { name: 'logo.png', type: 'image/png', content: png(200, 100) }, { category: 'trademarkLogo' });
    expect(p.statusCode).toBe(201);
    expect(p.json()).toMatchObject({ contentType: 'image/png', width: 200, height: 100 });
  });
});

describe('upload errors of spec 02 section 8, one code each', () => {
  async function refused(file: Upload, query: Record<string, string>, status: number, code: string, c = main) {
    const before = await rowCount();
    const filesBefore = storedFiles().length;
    const res = await upload(c, file, query);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().error.code).toBe(code);
    // Nothing of a refused upload is kept: no row, no stored file, no temporary file.
    expect(await rowCount()).toBe(before);
    expect(storedFiles().length).toBe(filesBefore);
    if (existsSync(join(dataDir, 'files', 'tmp'))) expect(readdirSync(join(dataDir, 'files', 'tmp'))).toEqual([]);
    return res.json().error.message as string;
  }

  it('content does not match the file type: a PNG sent as a .pdf with a PDF content type', async () => {
    await refused({ name: 'forged.pdf', type: 'application/pdf', content: png(10, 10) }, { category: 'report' }, 400, 'UploadContentMismatch');
  });

  it('content does not match: a PDF renamed to .jpg, and an empty file', async () => {
    await refused({ name: 'photo.jpg', type: 'image/jpeg', content: pdf() }, { category: 'productPhoto' }, 400, 'UploadContentMismatch');
    await refused({ name: 'empty.pdf', type: 'application/pdf', content: Buffer.alloc(0) }, { category: 'report' }, 400, 'UploadContentMismatch');
  });

  it('content type mismatch: a .png declared as application/pdf', async () => {
    await refused({ name: 'logo.png', type: 'application/pdf', content: png(10, 10) }, { category: 'trademarkLogo' }, 400, 'UploadContentTypeMismatch');
  });

  it('file name with two dots', async () => {
    await refused(asPdf('report.final.pdf'), { category: 'report' }, 400, 'UploadTwoDotsInName');
  });

  it('invalid file type: not PDF/PNG/JPG/JPEG, no extension, or not one the category takes', async () => {
    await refused({ name: 'virus.exe', type: 'application/octet-stream', content: Buffer.from('MZ') }, { category: 'report' }, 400, 'UploadInvalidFileType');
    await refused({ name: 'anim.gif', type: 'image/gif', content: Buffer.from('GIF89a') }, { category: 'photo' }, 400, 'UploadInvalidFileType');
    await refused({ name: 'noextension', type: 'application/pdf', content: pdf() }, { category: 'report' }, 400, 'UploadInvalidFileType');
    const message = await refused(asPdf('photo.pdf'), { category: 'productPhoto' }, 400, 'UploadInvalidFileType');
    expect(message).toContain('PNG, JPG, JPEG');
  });

  it('unknown category', async () => {
    await refused(asPdf(), { category: 'holidayPhotos' }, 400, 'UploadUnknownCategory');
  });

  it('number of files exceeds the allowed count of the category; removing one makes room', async () => {
    const first = await upload(main, asPdf('cr.pdf'), { category: 'commercialRegistrationCopy' });
    expect(first.statusCode).toBe(201);
    const message = await refused({ ...asPdf('cr2.pdf'), content: pdf(900) }, { category: 'commercialRegistrationCopy' }, 400, 'UploadTooManyFiles');
    expect(message).toContain('(1)');
    expect((await main.request({ method: 'DELETE', url: `/api/attachments/${first.json().id}` })).statusCode).toBe(204);
    expect((await upload(main, asPdf('cr2.pdf'), { category: 'commercialRegistrationCopy' })).statusCode).toBe(201);
  });

  it('counts per owner: a request has its own allowance next to the facility-level files', async () => {
    const requestId = await newRequest();
    expect((await upload(main, asPdf('license.pdf'), { category: 'industrialLicense' })).statusCode).toBe(201);
    expect((await upload(main, asPdf('license.pdf'), { category: 'industrialLicense', requestId })).statusCode).toBe(201);
    await refused({ ...asPdf('license2.pdf'), content: pdf(700) }, { category: 'industrialLicense', requestId }, 400, 'UploadTooManyFiles');
  });

  it('exceeds dimensions: a logo wider than 1024 px, a JPEG taller than allowed', async () => {
    const message = await refused({ name: 'wide.png', type: 'image/png', content: png(1025, 10) }, { category: 'trademarkLogo' }, 400, 'UploadExceedsDimensions');
    expect(message).toContain('1024 × 1024');
    await refused({ name: 'tall.jpg', type: 'image/jpeg', content: jpeg(100, 1100) }, { category: 'trademarkLogo' }, 400, 'UploadExceedsDimensions');
    expect((await upload(main, { name: 'ok.png', type: 'image/png', content: png(1024, 1024) }, { category: 'trademarkLogo' })).statusCode).toBe(201);
  });

  it('exceeds size: the category limit (trademark logo, 1 MB)', async () => {
    const big = png(10, 10, 1024 * 1024 + 100);
    const message = await refused({ name: 'heavy.png', type: 'image/png', content: big }, { category: 'trademarkLogo' }, 400, 'UploadExceedsSize');
    expect(message).toContain('1 MB');
  });

  it('unauthorized upload: a user of another facility, and staff outside a request or their categories', async () => {
    const other = await t.login('external');
    await refused(asPdf(), { category: 'report' }, 403, 'UploadUnauthorizedUpload', other);
    const staff = await t.login('audit');
    await refused(asPdf(), { category: 'report' }, 403, 'UploadUnauthorizedUpload', staff);
    const requestId = await newRequest();
    await refused(asPdf(), { category: 'commercialRegistrationCopy', requestId }, 403, 'UploadUnauthorizedUpload', staff);
    const ok = await upload(staff, asPdf('audit-report.pdf'), { category: 'report', requestId });
    expect(ok.statusCode).toBe(201);
  });

  it('a request of another facility cannot receive this facility’s files', async () => {
    const foreign = await newRequest('exf-anatolia-meat');
    await refused(asPdf(), { category: 'report', requestId: foreign }, 403, 'UploadUnauthorizedUpload');
    const missing = await upload(main, asPdf(), { category: 'report', requestId: randomUUID() });
    expect(missing.statusCode).toBe(404);
  });

  it('a form without a file part', async () => {
    const qs = new URLSearchParams({ facilityPublicId: FACILITY, category: 'report' });
    const boundary = 'xyz';
    const res = await main.request({
      method: 'POST',
      url: `/api/attachments?${qs}`,
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--${boundary}--\r\n`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('UploadNoFile');
  });

  it('answers in the caller’s language', async () => {
    const ar = await upload(main, asPdf('a.b.pdf'), { category: 'report' }, 'ar');
    expect(ar.json().error.message).toBe('يجب ألا يحتوي اسم الملف على أكثر من نقطة واحدة.');
    const en = await upload(main, asPdf('a.b.pdf'), { category: 'report' }, 'en');
    expect(en.json().error.message).toBe('The file name must not contain more than one dot.');
  });

  it('anonymous callers are refused before anything is read', async () => {
    const res = await upload(t.anonymous, asPdf(), { category: 'report' });
    expect(res.statusCode).toBe(401);
  });
});

describe('the global size limit comes from configuration', () => {
  let small: TestApp;
  let smallDir: string;
  beforeAll(async () => {
    smallDir = mkdtempSync(join(tmpdir(), 'halal-attachments-small-'));
    small = await createTestApp({ DATA_DIR: smallDir, MAX_UPLOAD_MB: '0.01' });
  });
  afterAll(async () => {
    await small?.close();
    rmSync(smallDir, { recursive: true, force: true });
  });

  it('refuses a file over MAX_UPLOAD_MB and accepts one under it', async () => {
    const c = await small.login('internal.main');
    const limit = Math.floor(0.01 * 1024 * 1024);
    const tooBig = await upload(c, { ...asPdf(), content: pdf(limit + 1) }, { category: 'report' });
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().error).toMatchObject({ code: 'UploadExceedsSize', message: 'The file exceeds the allowed size (0.01 MB).' });
    expect((await upload(c, { ...asPdf(), content: pdf(limit - 10) }, { category: 'report' })).statusCode).toBe(201);
    const limits = (await c.get('/api/attachments/limits')).json();
    expect(limits.maxUploadBytes).toBe(limit);
    expect(limits.categories.find((x: { code: string }) => x.code === 'trademarkLogo').maxBytes).toBe(limit);
  });
});

describe('downloading and listing', () => {
  let id: string;
  let content: Buffer;
  beforeAll(async () => {
    content = pdf(3000);
    id = (await upload(main, { name: 'دليل الجودة.pdf', type: 'application/pdf', content }, { category: 'qualityManual' })).json().id;
  });

  it('members of the owning facility download the exact bytes with the right headers', async () => {
    const sub = await t.login('internal.sub');
    const res = await sub.get(`/api/attachments/${id}/download`);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(content)).toBe(true);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('دليل الجودة.pdf')}`);
  });

  it('a file whose content is gone from the file store is refused with its message in the page\'s language, and the server goes on', async () => {
    const lost = pdf(2100);
    const lostId = (await upload(main, { name: 'lost.pdf', type: 'application/pdf', content: lost }, { category: 'productCatalogue' })).json().id;
    rmSync(new FileStore(dataDir).pathOf(createHash('sha256').update(lost).digest('hex')));
    for (const lang of ['ar', 'en']) {
      const res = await main.get(`/api/attachments/${lostId}/download?lang=${lang}`);
      expect(res.statusCode).toBe(404);
      const messages = { en: 'This file is on record but its content cannot be found. Please contact the National Halal Center.', ar: 'هذا الملف مسجَّل لكن محتواه غير موجود. يُرجى التواصل مع المركز الوطني للحلال.' };
      expect(res.json().error).toMatchObject({ code: 'AttachmentContentMissing', message: messages[lang as 'ar' | 'en'] });
    }
    expect((await main.get(`/api/attachments/${id}/download`)).rawPayload.equals(content)).toBe(true);
  });

  it('Halal-center staff may download', async () => {
    const staff = await t.login('registration');
    expect((await staff.get(`/api/attachments/${id}/download`)).statusCode).toBe(200);
  });

  it('a user of another facility gets the "unauthorized download" error', async () => {
    for (const userName of ['external', 'cb.main']) {
      const other = await t.login(userName);
      const res = await other.get(`/api/attachments/${id}/download?lang=en`);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toMatchObject({ code: 'UploadUnauthorizedDownload', message: 'You are not authorized to download this file.' });
      expect(res.rawPayload.includes(content.subarray(0, 20))).toBe(false);
    }
    expect((await t.anonymous.get(`/api/attachments/${id}/download`)).statusCode).toBe(401);
  });

  it('lists a facility’s files for its members only', async () => {
    const list = await main.get(`/api/attachments?facilityPublicId=${FACILITY}`);
    expect(list.statusCode).toBe(200);
    expect(list.json().map((a: { id: string }) => a.id)).toContain(id);
    const other = await t.login('external');
    expect((await other.get(`/api/attachments?facilityPublicId=${FACILITY}`)).statusCode).toBe(403);
  });
});

describe('files of a submitted request', () => {
  it('other facilities cannot remove them; a locked case document stays (submission itself: attachments-lock.test.ts)', async () => {
    const requestId = await newRequest();
    const a = (await upload(main, asPdf(), { category: 'report', requestId })).json();
    const other = await t.login('external');
    expect((await other.request({ method: 'DELETE', url: `/api/attachments/${a.id}` })).statusCode).toBe(403);
    const facilityFile = (await upload(main, asPdf('evidence.pdf'), { category: 'report' })).json();
    await t.database.db.update(attachments).set({ lockedAt: new Date() }).where(eq(attachments.id, facilityFile.id));
    const res = await main.request({ method: 'DELETE', url: `/api/attachments/${facilityFile.id}` });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('AttachmentLocked');
    expect((await main.request({ method: 'DELETE', url: `/api/attachments/${a.id}` })).statusCode).toBe(204);
  });

  it('"at least one attachment required" names each missing category', async () => {
    const requestId = await newRequest();
    await upload(main, asPdf(), { category: 'commercialRegistrationCopy', requestId });
    const err = await requireAttachments(t.database.db, requestId, ['commercialRegistrationCopy', 'industrialLicense']).catch((e) => e);
    expect(err.code).toBe('UploadAttachmentRequired');
    expect(err.details).toEqual([{ field: 'attachments.industrialLicense', message: 'form.attachmentRequired' }]);
    await upload(main, asPdf(), { category: 'industrialLicense', requestId });
    await expect(requireAttachments(t.database.db, requestId, ['commercialRegistrationCopy', 'industrialLicense'])).resolves.toBeUndefined();
  });
});

describe('the file store', () => {
  it('sweeps old files no row references, and keeps referenced and recent ones', async () => {
    const store = new FileStore(dataDir);
    const orphan = 'ab' + 'c'.repeat(62);
    mkdirSync(join(dataDir, 'files', 'ab'), { recursive: true });
    writeFileSync(store.pathOf(orphan), 'left over');
    const fresh = 'ab' + 'd'.repeat(62);
    writeFileSync(store.pathOf(fresh), 'being recorded right now');
    const old = new Date(Date.now() - 2 * 3600_000);
    utimesSync(store.pathOf(orphan), old, old);
    const referenced = storedFiles().filter((s) => s !== orphan && s !== fresh);
    for (const s of referenced) utimesSync(store.pathOf(s), old, old);

    const removed = await sweepOrphanFiles(t.database.db, store);
    expect(removed).toEqual([orphan]);
    expect(existsSync(store.pathOf(fresh))).toBe(true);
    for (const s of referenced) expect(existsSync(store.pathOf(s))).toBe(true);
  });
});
