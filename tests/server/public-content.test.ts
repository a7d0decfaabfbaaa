import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Client, type TestApp } from '../helpers/app';
import { newsImagePng } from '../../db/data/news-images';
import { publicPageMeta } from '../../server/modules/public/page-meta';
import { seedPublic } from '../../db/seed-public';
import { certificates, contentPages, faqItems, hsCodes, newsItems } from '../../db/schema';

let t: TestApp;
let admin: Client;
let applicant: Client;
let staff: Client;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
  applicant = await t.login('internal.main');
  staff = await t.login('registration');
}, 120_000);
afterAll(() => t?.close());

const pageEdit = (version: number, extra: Record<string, unknown> = {}) => ({
  titleAr: 'من نحن',
  titleEn: 'Who we are',
  summaryAr: 'ملخص جديد',
  summaryEn: 'A new summary',
  bodyAr: 'نص',
  bodyEn: 'Text',
  version,
  ...extra,
});
const png = () => newsImagePng('badge', [0, 0, 0], [10, 10, 10], [200, 150, 40]).toString('base64');
const newsInput = (extra: Record<string, unknown> = {}) => ({
  titleAr: 'خبر تجريبي',
  titleEn: 'Test news',
  summaryAr: 'ملخص',
  summaryEn: 'Summary',
  bodyAr: 'النص',
  bodyEn: 'The text',
  ...extra,
});

describe('content pages', () => {
  it('serves every seeded page in both languages without signing in', async () => {
    for (const key of ['home', 'about-center', 'contact-us', 'privacy', 'our-customers', 'media-center', 'user-manual', 'faq', 'hs-code', 'accredited-cb', 'verify']) {
      const res = await t.anonymous.get(`/api/public/pages/${key}`);
      expect(res.statusCode, key).toBe(200);
      const page = res.json();
      expect(page.titleAr.length, key).toBeGreaterThan(2);
      expect(page.titleEn.length, key).toBeGreaterThan(2);
      expect(page.summaryEn.length, key).toBeGreaterThan(10);
    }
  });

  it('refuses an unknown page key', async () => {
    const res = await t.anonymous.get('/api/public/pages/secret-page');
    expect(res.statusCode).toBe(400);
  });

  it('lets an administrator edit a page, and the public sees the change', async () => {
    const before = (await t.anonymous.get('/api/public/pages/about-center')).json();
    const res = await admin.put('/api/public/pages/about-center', pageEdit(before.version));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ titleEn: 'Who we are', version: before.version + 1 });
    const after = (await t.anonymous.get('/api/public/pages/about-center')).json();
    expect(after.titleAr).toBe('من نحن');
  });

  it('refuses a stale edit with 409 and leaves the page unchanged', async () => {
    const current = (await t.anonymous.get('/api/public/pages/privacy')).json();
    expect((await admin.put('/api/public/pages/privacy', pageEdit(current.version))).statusCode).toBe(200);
    const stale = await admin.put('/api/public/pages/privacy', pageEdit(current.version, { titleEn: 'Overwritten' }));
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('ConcurrencyConflict');
    expect((await t.anonymous.get('/api/public/pages/privacy')).json().titleEn).toBe('Who we are');
  });

  it('refuses edits from anyone but an administrator, and changes nothing', async () => {
    const current = (await t.anonymous.get('/api/public/pages/contact-us')).json();
    expect((await t.anonymous.put('/api/public/pages/contact-us', pageEdit(current.version))).statusCode).toBe(401);
    for (const c of [applicant, staff]) {
      const res = await c.put('/api/public/pages/contact-us', pageEdit(current.version));
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('NotAuthorized');
    }
    expect((await t.anonymous.get('/api/public/pages/contact-us')).json()).toEqual(current);
  });

  it('validates an edit: empty title, missing version', async () => {
    const res = await admin.put('/api/public/pages/faq', pageEdit(1, { titleAr: '   ' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.validationErrors[0].members).toEqual(['titleAr']);
    const { version: _v, ...noVersion } = pageEdit(1);
    expect((await admin.put('/api/public/pages/faq', noVersion)).statusCode).toBe(400);
  });

  it('gives the server-rendered title and description of a page in each language', async () => {
    const en = await publicPageMeta(t.app.db, '/hs-code', 'en');
    expect(en).toMatchObject({ title: 'HS codes | National Halal Center', lang: 'en', dir: 'ltr' });
    expect(en!.description).toMatch(/Harmonized System/);
    const ar = await publicPageMeta(t.app.db, '/accredited-cb', 'ar');
    expect(ar).toMatchObject({ title: 'جهات تقويم المطابقة المعتمدة | المركز الوطني للحلال', dir: 'rtl' });
    expect((await publicPageMeta(t.app.db, '/', 'en'))!.title).toMatch(/^National Halal Center \| /);
    expect((await publicPageMeta(t.app.db, '/verify/ABC123', 'en'))!.title).toMatch(/^Certificate verification/);
    expect(await publicPageMeta(t.app.db, '/dashboard', 'en')).toBeNull();
  });
});

describe('media center news', () => {
  it('lists news newest first, paged, with image URLs that serve PNGs', async () => {
    const first = (await t.anonymous.get('/api/public/news?pageNumber=1&pageSize=3')).json();
    expect(first.totalCount).toBeGreaterThanOrEqual(6);
    expect(first.items).toHaveLength(3);
    const dates = first.items.map((n: { publishedAt: string }) => n.publishedAt);
    expect([...dates].sort().reverse()).toEqual(dates);
    const second = (await t.anonymous.get('/api/public/news?pageNumber=2&pageSize=3')).json();
    expect(second.items[0].id).not.toBe(first.items[0].id);
    const image = await t.anonymous.get(first.items[0].imageUrl);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.subarray(1, 4).toString()).toBe('PNG');
  });

  it('refuses bad paging and unknown ids', async () => {
    expect((await t.anonymous.get('/api/public/news?pageSize=500')).statusCode).toBe(400);
    expect((await t.anonymous.get('/api/public/news?pageNumber=0')).statusCode).toBe(400);
    expect((await t.anonymous.get('/api/public/news/not-a-uuid')).statusCode).toBe(400);
    expect((await t.anonymous.get('/api/public/news/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('lets an administrator publish, edit and delete a news item with an image', async () => {
    const created = await admin.post('/api/public/news', newsInput({ imageBase64: png(), publishedAt: new Date(Date.now() + 60_000).toISOString() }));
    expect(created.statusCode).toBe(200);
    const item = created.json();
    expect(item.imageUrl).toMatch(new RegExp(`^/api/public/news/${item.id}/image`));
    expect((await t.anonymous.get('/api/public/news?pageSize=1')).json().items[0].id).toBe(item.id);

    const edited = await admin.put(`/api/public/news/${item.id}`, newsInput({ titleEn: 'Edited', imageBase64: null, version: item.version }));
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ titleEn: 'Edited', imageUrl: null, version: item.version + 1 });
    expect((await admin.put(`/api/public/news/${item.id}`, newsInput({ version: item.version }))).statusCode).toBe(409);

    expect((await admin.request({ method: 'DELETE', url: `/api/public/news/${item.id}` })).statusCode).toBe(200);
    expect((await t.anonymous.get(`/api/public/news/${item.id}`)).statusCode).toBe(404);
  });

  it('refuses an image whose bytes are not PNG, JPEG or WebP', async () => {
    const fake = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString('base64');
    const res = await admin.post('/api/public/news', newsInput({ imageBase64: fake }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('InvalidNewsImage');
  });

  it('refuses news writes from non-administrators', async () => {
    expect((await t.anonymous.post('/api/public/news', newsInput())).statusCode).toBe(401);
    expect((await applicant.post('/api/public/news', newsInput())).statusCode).toBe(403);
    const any = (await t.anonymous.get('/api/public/news?pageSize=1')).json().items[0];
    expect((await staff.request({ method: 'DELETE', url: `/api/public/news/${any.id}` })).statusCode).toBe(403);
    expect((await t.anonymous.get(`/api/public/news/${any.id}`)).statusCode).toBe(200);
  });
});

describe('FAQ', () => {
  const faqInput = { questionAr: 'سؤال؟', questionEn: 'Question?', answerAr: 'جواب', answerEn: 'Answer', sortOrder: 5 };

  it('lists the seeded questions in their order', async () => {
    const { items } = (await t.anonymous.get('/api/public/faq')).json();
    expect(items.length).toBeGreaterThanOrEqual(10);
    const orders = items.map((i: { sortOrder: number }) => i.sortOrder);
    expect([...orders].sort((a, b) => a - b)).toEqual(orders);
  });

  it('lets an administrator add, edit and delete a question', async () => {
    const created = await admin.post('/api/public/faq', faqInput);
    expect(created.statusCode).toBe(200);
    const item = created.json();
    expect((await t.anonymous.get('/api/public/faq')).json().items[0].id).toBe(item.id);
    const edited = await admin.put(`/api/public/faq/${item.id}`, { ...faqInput, answerEn: 'Better answer', version: item.version });
    expect(edited.json().answerEn).toBe('Better answer');
    expect((await admin.put(`/api/public/faq/${item.id}`, { ...faqInput, version: item.version })).statusCode).toBe(409);
    expect((await admin.request({ method: 'DELETE', url: `/api/public/faq/${item.id}` })).statusCode).toBe(200);
    expect((await admin.request({ method: 'DELETE', url: `/api/public/faq/${item.id}` })).statusCode).toBe(404);
  });

  it('validates questions and refuses non-administrators', async () => {
    const tooLong = await admin.post('/api/public/faq', { ...faqInput, questionEn: 'x'.repeat(301) });
    expect(tooLong.statusCode).toBe(400);
    expect((await applicant.post('/api/public/faq', faqInput)).statusCode).toBe(403);
  });
});

describe('the public seed', () => {
  it('runs again without duplicating anything or undoing an administrator\'s edits and deletions', async () => {
    const db = t.app.db;
    const counts = async () => ({
      pages: await db.$count(contentPages),
      faq: await db.$count(faqItems),
      hs: await db.$count(hsCodes),
      certificates: await db.$count(certificates),
    });
    const before = await counts();
    expect(before.hs).toBe(96 + 1228 + 5612);
    await db.delete(newsItems);
    await seedPublic(db);
    expect(await counts()).toEqual(before);
    expect(await db.$count(newsItems)).toBe(0);
  });
});
