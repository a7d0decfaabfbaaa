import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app';
import { DEMO_VERIFICATION_CODES } from '../../db/seed-public';
import { checkProductHsCode } from '../../server/modules/public/hs-codes';
import { parseHalalHsRules } from '../../server/modules/public/halal-hs-rules';
import { RECAPTCHA_TOKEN_HEADER } from '../../server/modules/public/chat-routes';

/** A free TCP port: the reCAPTCHA adapter calls the simulator over HTTP on the server's own port. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

let t: TestApp;
beforeAll(async () => {
  const port = await freePort();
  t = await createTestApp({ SIMULATORS: 'true', PORT: String(port) });
  await t.app.listen({ port, host: '127.0.0.1' });
}, 120_000);
afterAll(() => t?.close());

const get = (url: string) => t.anonymous.get(url);

describe('HS codes', () => {
  it('imports the whole HS 2022 nomenclature: 21 sections, 96 chapters, 1228 headings, 5612 sub-headings', async () => {
    const tree = (await get('/api/public/hs-codes/tree')).json();
    expect(tree.items).toHaveLength(21);
    for (const [level, n] of [
      [2, 96],
      [4, 1228],
      [6, 5612],
    ]) {
      expect((await get(`/api/public/hs-codes/count?level=${level}`)).json().count, `level ${level}`).toBe(n);
    }
  });

  it('searches by code prefix, with dots allowed, and counts the matches', async () => {
    const res = (await get('/api/public/hs-codes?q=0201')).json();
    expect(res.items.map((i: { code: string }) => i.code)).toEqual(['0201', '020110', '020120', '020130']);
    expect(res.totalCount).toBe(4);
    expect(res.items.every((i: { halal: boolean }) => i.halal)).toBe(true);
    expect((await get('/api/public/hs-codes?q=0201.10')).json().items[0].code).toBe('020110');
  });

  it('searches by words (all must appear) and the count narrows as words are added', async () => {
    const one = (await get('/api/public/hs-codes/count?q=bovine')).json().count;
    const two = (await get('/api/public/hs-codes/count?q=bovine%20frozen')).json().count;
    expect(one).toBeGreaterThan(two);
    expect(two).toBeGreaterThan(0);
    const items = (await get('/api/public/hs-codes?q=bovine%20frozen&pageSize=100')).json().items;
    for (const i of items) {
      expect(i.descriptionEn.toLowerCase()).toContain('bovine');
      expect(i.descriptionEn.toLowerCase()).toContain('frozen');
    }
  });

  it('finds chapters by their Arabic names, with or without hamza', async () => {
    const a = (await get(`/api/public/hs-codes?q=${encodeURIComponent('ألبان')}`)).json();
    const b = (await get(`/api/public/hs-codes?q=${encodeURIComponent('البان')}`)).json();
    expect(a.items.map((i: { code: string }) => i.code)).toContain('04');
    expect(b.totalCount).toBe(a.totalCount);
  });

  it('flags pork as not Halal-eligible and filters on the flag', async () => {
    const pork = (await get('/api/public/hs-codes?q=0203')).json();
    expect(pork.totalCount).toBeGreaterThan(0);
    expect(pork.halalCount).toBe(0);
    const all = (await get('/api/public/hs-codes/count?q=02')).json();
    const halal = (await get('/api/public/hs-codes/count?q=02&halalOnly=true')).json();
    expect(halal.count).toBe(all.halalCount);
    expect(halal.count).toBeLessThan(all.count);
  });

  it('treats LIKE wildcards typed by a visitor literally', async () => {
    expect((await get('/api/public/hs-codes/count?q=%25%25')).json().count).toBe(0);
    expect((await get('/api/public/hs-codes/count?q=_')).json().count).toBe(0);
    const percent = (await get('/api/public/hs-codes?q=80%25&pageSize=100')).json();
    expect(percent.totalCount).toBeGreaterThan(0);
    for (const i of percent.items) expect(i.descriptionEn).toContain('80%');
  });

  it('walks the tree: section -> chapters -> headings -> sub-headings', async () => {
    const sections = (await get('/api/public/hs-codes/tree')).json().items;
    expect(sections[0]).toMatchObject({ code: 'I', level: 0, nameAr: 'حيوانات حية؛ منتجات المملكة الحيوانية', childCount: 5 });
    expect(sections[0].containsHalal).toBe(true);
    expect(sections.find((s: { code: string }) => s.code === 'XVII').containsHalal).toBe(false);
    const chapters = (await get('/api/public/hs-codes/tree?parent=I')).json().items;
    expect(chapters.map((c: { code: string }) => c.code)).toEqual(['01', '02', '03', '04', '05']);
    const headings = (await get('/api/public/hs-codes/tree?parent=02')).json().items;
    expect(headings[0]).toMatchObject({ code: '0201', level: 4, halal: true, childCount: 3 });
    expect(headings.find((h: { code: string }) => h.code === '0203').halal).toBe(false);
    const subs = (await get('/api/public/hs-codes/tree?parent=0201')).json().items;
    expect(subs.map((c: { code: string }) => c.code)).toEqual(['020110', '020120', '020130']);
  });

  it('refuses a malformed or unknown tree parent', async () => {
    expect((await get('/api/public/hs-codes/tree?parent=abc')).statusCode).toBe(400);
    expect((await get('/api/public/hs-codes/tree?parent=XXX')).statusCode).toBe(404);
    expect((await get('/api/public/hs-codes/tree?parent=77')).statusCode).toBe(404);
  });

  it('shows one code with its path', async () => {
    const res = (await get('/api/public/hs-codes/020130')).json();
    expect(res).toMatchObject({ code: '020130', halal: true, section: { code: 'I' } });
    expect(res.ancestors.map((a: { code: string }) => a.code)).toEqual(['02', '0201']);
    expect((await get('/api/public/hs-codes/999999')).statusCode).toBe(404);
    expect((await get('/api/public/hs-codes/02x')).statusCode).toBe(400);
  });

  it('validates a product HS code for the request forms', async () => {
    const rules = parseHalalHsRules(t.app.config.HALAL_HS_PREFIXES);
    expect(await checkProductHsCode(t.app.db, rules, '0201.30.000001')).toEqual({ ok: true, code: '020130000001', baseCode: '020130' });
    expect(await checkProductHsCode(t.app.db, rules, '02013')).toMatchObject({ ok: false, reason: 'format' });
    expect(await checkProductHsCode(t.app.db, rules, '020199')).toMatchObject({ ok: false, reason: 'unknown' });
    expect(await checkProductHsCode(t.app.db, rules, '020311')).toMatchObject({ ok: false, reason: 'notHalal' });
    expect(await checkProductHsCode(t.app.db, rules, '870321')).toMatchObject({ ok: false, reason: 'notHalal' });
  });

  it('refuses bad query parameters', async () => {
    expect((await get('/api/public/hs-codes?level=3')).statusCode).toBe(400);
    expect((await get(`/api/public/hs-codes?q=${'x'.repeat(101)}`)).statusCode).toBe(400);
    expect((await get('/api/public/hs-codes?halalOnly=yes')).statusCode).toBe(400);
  });
});

describe('accredited conformity bodies', () => {
  it('lists designated CBs with the status of their designation certificate', async () => {
    const res = (await get('/api/public/conformity-bodies?pageSize=100')).json();
    expect(res.totalCount).toBe(8);
    const byId = Object.fromEntries(res.items.map((c: { publicId: string }) => [c.publicId, c]));
    expect(byId['cb-global-halal'].certificate).toMatchObject({ status: 'active', number: 'HC-CB-000012' });
    expect(byId['cb-sao-paulo-halal'].certificate.status).toBe('expiringSoon');
    expect(byId['cb-melbourne-halal'].certificate.status).toBe('expired');
    expect(byId['cb-penang-halal'].certificate.status).toBe('suspended');
    expect(byId['cb-global-halal']).toMatchObject({ countryCode: 'MY', countryNameAr: 'ماليزيا', countryNameEn: 'Malaysia' });
    expect(byId['cb-global-halal'].certificate.expiresAt.hijri).not.toBeNull();
  });

  it('filters by country, name (either language) and category', async () => {
    const tr = (await get('/api/public/conformity-bodies?country=TR')).json();
    expect(tr.items.map((c: { publicId: string }) => c.publicId)).toEqual(['cb-istanbul-halal']);
    const my = (await get('/api/public/conformity-bodies?country=my')).json();
    expect(my.totalCount).toBe(2);
    const byEnglish = (await get('/api/public/conformity-bodies?name=jakarta')).json();
    expect(byEnglish.items[0].publicId).toBe('cb-jakarta-halal');
    const byArabic = (await get(`/api/public/conformity-bodies?name=${encodeURIComponent('ملبورن')}`)).json();
    expect(byArabic.items[0].publicId).toBe('cb-melbourne-halal');
    const k = (await get('/api/public/conformity-bodies?category=K')).json();
    expect(k.items.map((c: { publicId: string }) => c.publicId).sort()).toEqual(['cb-jakarta-halal', 'cb-penang-halal']);
    const none = (await get('/api/public/conformity-bodies?country=BR&category=K')).json();
    expect(none).toEqual({ totalCount: 0, items: [] });
    const active = (await get('/api/public/conformity-bodies?status=active')).json();
    expect(active.items.every((c: { certificate: { status: string } }) => c.certificate.status === 'active')).toBe(true);
  });

  it('lists them in the order of the names the reader sees, and the filter\'s countries likewise', async () => {
    const names = async (lang: string, field: 'nameAr' | 'nameEn') =>
      ((await get(`/api/public/conformity-bodies?pageSize=100&lang=${lang}`)).json().items as Record<string, string>[]).map((c) => c[field]);
    expect((await names('en', 'nameEn')).slice(0, 3)).toEqual(['European Halal Control Office', 'Global Halal Conformity Body', 'Istanbul Halal Accreditation Institute']);
    // By the English names, Istanbul (هيئة إسطنبول) would come third in Arabic too.
    expect(await names('ar', 'nameAr')).toEqual([
      'المكتب الأوروبي لمراقبة الحلال',
      'الهيئة العالمية لتقييم المطابقة الحلال',
      'سلطة ملبورن للحلال',
      'مؤسسة جاكرتا لضمان الحلال',
      'مجلس بينانغ للتحقق من الحلال',
      'مركز ساو باولو لخدمات الحلال',
      'هيئة إسطنبول لاعتماد الحلال',
      'هيئة كراتشي لتصديق الحلال',
    ]);
    const countries = async (lang: string) => ((await get(`/api/public/conformity-bodies/filters?lang=${lang}`)).json().countries as { code: string }[]).map((c) => c.code);
    expect(await countries('en')).toEqual(['AU', 'BR', 'FR', 'ID', 'MY', 'PK', 'TR']);
    // أستراليا، البرازيل، إندونيسيا، باكستان، تركيا، فرنسا، ماليزيا
    expect(await countries('ar')).toEqual(['AU', 'BR', 'ID', 'PK', 'TR', 'FR', 'MY']);
  });

  it('pages the list', async () => {
    const p1 = (await get('/api/public/conformity-bodies?pageSize=3&pageNumber=1')).json();
    const p3 = (await get('/api/public/conformity-bodies?pageSize=3&pageNumber=3')).json();
    expect(p1.items).toHaveLength(3);
    expect(p3.items).toHaveLength(2);
    expect(p3.totalCount).toBe(8);
  });

  it('offers the countries and categories that occur, for the filters', async () => {
    const f = (await get('/api/public/conformity-bodies/filters')).json();
    expect(f.countries.map((c: { code: string }) => c.code).sort()).toEqual(['AU', 'BR', 'FR', 'ID', 'MY', 'PK', 'TR']);
    expect(f.categories).toContain('C0');
  });

  it('refuses a malformed country or status', async () => {
    expect((await get('/api/public/conformity-bodies?country=Turkey')).statusCode).toBe(400);
    expect((await get('/api/public/conformity-bodies?status=valid')).statusCode).toBe(400);
  });
});

describe('certificate verification', () => {
  const verify = async (code: string) => (await get(`/api/public/verify/${encodeURIComponent(code)}`)).json();

  it('shows an active certificate: number, holder, scope, products and dates in both calendars', async () => {
    const { found, certificate: c } = await verify(DEMO_VERIFICATION_CODES.active);
    expect(found).toBe(true);
    expect(c).toMatchObject({
      number: 'HC-INT-2025-000118',
      kind: 'internalHalal',
      status: 'active',
      scope: 'Production of dairy products',
      holder: { nameEn: 'Najd Dairy Company', nameAr: 'شركة نجد للألبان', countryNameEn: 'Saudi Arabia' },
      issuer: null,
    });
    expect(c.products).toHaveLength(3);
    expect(c.issuedAt.gregorian).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(c.expiresAt.hijri.year).toBeGreaterThan(1440);
    expect(c.daysRemaining).toBeGreaterThan(60);
  });

  it('gives each status: expiring soon, expired, suspended, a mark in force and one valid soon', async () => {
    const soon = (await verify(DEMO_VERIFICATION_CODES.expiringSoon)).certificate;
    expect(soon).toMatchObject({ status: 'expiringSoon', issuer: { nameEn: 'Istanbul Halal Accreditation Institute' } });
    expect(soon.daysRemaining).toBeLessThan(60);
    expect((await verify(DEMO_VERIFICATION_CODES.expired)).certificate).toMatchObject({ status: 'expired', legacyNumber: 'HLL-1443-0057' });
    expect((await verify(DEMO_VERIFICATION_CODES.suspended)).certificate.status).toBe('suspended');
    expect((await verify(DEMO_VERIFICATION_CODES.mark)).certificate).toMatchObject({ kind: 'halalMark', status: 'active', scope: 'Saudi' });
    expect((await verify(DEMO_VERIFICATION_CODES.markValidSoon)).certificate.status).toBe('validSoon');
  });

  it('finds a certificate by its printed number too', async () => {
    expect((await verify('HC-EXT-2024-004271')).certificate.status).toBe('expiringSoon');
  });

  it('says plainly that an unknown or forged code does not exist', async () => {
    const res = await get('/api/public/verify/FORGED1234');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ found: false, certificate: null });
    // Near misses of a real code are unknown too.
    expect((await verify(DEMO_VERIFICATION_CODES.active.toLowerCase())).found).toBe(false);
  });

  it('refuses a malformed code', async () => {
    expect((await get('/api/public/verify/%3Cscript%3E')).statusCode).toBe(400);
    expect((await get(`/api/public/verify/${'A'.repeat(80)}`)).statusCode).toBe(400);
  });
});

describe('our customers', () => {
  it('lists facilities with a valid Halal certificate only', async () => {
    const res = (await get('/api/public/customers')).json();
    const ids = res.items.map((c: { publicId: string }) => c.publicId).sort();
    expect(ids).toEqual(['exf-bursa-meat', 'exf-surabaya-foods', 'inf-ahsa-dates', 'inf-najd-dairy']);
    expect(res.items.every((c: { type: string }) => c.type !== 'ConformityBody')).toBe(true);
  });

  it('lists them in the order of the names the reader sees', async () => {
    const names = async (lang: string, field: 'nameAr' | 'nameEn') =>
      ((await get(`/api/public/customers?lang=${lang}`)).json().items as Record<string, string>[]).map((c) => c[field]);
    expect(await names('en', 'nameEn')).toEqual(['Al-Ahsa Dates Factory', 'Bursa Processed Meat Co.', 'Najd Dairy Company', 'Surabaya Foods']);
    // By the English names, مصنع الأحساء would come first in Arabic too.
    expect(await names('ar', 'nameAr')).toEqual(['سورابايا للأغذية', 'شركة بورصة للحوم المصنعة', 'شركة نجد للألبان', 'مصنع الأحساء للتمور']);
  });
});

describe('the chat assistant', () => {
  const token = async () => (await t.anonymous.get('/simulators/recaptcha/token')).json().token as string;
  const ask = async (message: string, headers: Record<string, string>, lang = 'en') =>
    t.anonymous.post(`/api/public/chat?lang=${lang}`, { message }, { headers });

  it('requires a reCAPTCHA token header', async () => {
    const res = await ask('how do I pay?', {});
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('RecaptchaRequired');
    expect((await t.anonymous.get('/api/public/chat/welcome')).statusCode).toBe(400);
  });

  it('refuses a forged token', async () => {
    const res = await ask('how do I pay?', { [RECAPTCHA_TOKEN_HEADER]: 'simulator-fail' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('RecaptchaInvalid');
  });

  it('answers from the FAQ in the caller language, reusing one token for several calls', async () => {
    const headers = { [RECAPTCHA_TOKEN_HEADER]: await token() };
    const welcome = await t.anonymous.get('/api/public/chat/welcome?lang=ar', { headers });
    expect(welcome.statusCode).toBe(200);
    expect(welcome.json().greeting).toMatch(/مرحباً/);
    expect(welcome.json().suggestions.length).toBeGreaterThan(0);

    const en = (await ask('How do I pay an invoice?', headers, 'en')).json();
    expect(en).toMatchObject({ matched: true, question: 'How do I pay invoices?' });
    expect(en.answer).toMatch(/payment portal/);
    const ar = (await ask('كيف أتحقق من الشهادة؟', headers, 'ar')).json();
    expect(ar).toMatchObject({ matched: true, question: 'كيف أتحقق من صحة شهادة حلال؟' });
  });

  it('says it has no answer rather than guessing', async () => {
    const headers = { [RECAPTCHA_TOKEN_HEADER]: await token() };
    const res = (await ask('what is the weather in Riyadh', headers)).json();
    expect(res).toMatchObject({ matched: false, faqId: null });
    expect(res.answer).toMatch(/could not find/);
  });

  it('limits a message to 70 characters', async () => {
    const headers = { [RECAPTCHA_TOKEN_HEADER]: await token() };
    expect((await ask('x'.repeat(70), headers)).statusCode).toBe(200);
    const long = await ask('x'.repeat(71), headers);
    expect(long.statusCode).toBe(400);
    expect(long.json().error.code).toBe('ValidationFailed');
    expect((await ask('   ', headers)).statusCode).toBe(400);
  });
});
