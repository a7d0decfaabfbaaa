import { describe, expect, it } from 'vitest';
import { hasHalalRelevantDescendant, isHalalRelevantHsCode, parseHalalHsRules } from '../../server/modules/public/halal-hs-rules';
import { toDualDate } from '../../server/modules/public/calendar';
import { publicStatusOf } from '../../server/modules/public/certificate-status';
import { answerFromFaq, type FaqEntry } from '../../server/modules/public/faq-assistant';
import { injectPageMeta } from '../../server/modules/public/page-meta';
import { testConfig } from '../../server/config';
import { parseCsv } from '../../db/seed-public';
import { FAQ_SEEDS } from '../../db/data/public-content';

describe('Halal-relevant HS codes', () => {
  const defaults = testConfig().HALAL_HS_PREFIXES;

  it('admits beef, fish, dairy and food ingredients under the default list', () => {
    for (const code of ['020130', '0302', '040120', '190230', '350300', '2202', '0201.30', '0201 30', '020130000001']) {
      expect(isHalalRelevantHsCode(defaults, code), code).toBe(true);
    }
  });

  it('refuses pork, lard, alcoholic beverages and non-food codes under the default list', () => {
    for (const code of ['020311', '020630', '150110', '160241', '220300', '220421', '220830', '870321', '010290']) {
      expect(isHalalRelevantHsCode(defaults, code), code).toBe(false);
    }
  });

  it('lets the longest prefix win, whatever the order of the list', () => {
    expect(isHalalRelevantHsCode('!0203,02', '0203')).toBe(false);
    expect(isHalalRelevantHsCode('!0203,02', '0204')).toBe(true);
    expect(isHalalRelevantHsCode('02,!0203,020319', '020319')).toBe(true);
    expect(isHalalRelevantHsCode(['02', '!0203'], '020311')).toBe(false);
    expect(isHalalRelevantHsCode(parseHalalHsRules('16'), '160100')).toBe(true);
  });

  it('treats malformed codes and an empty list as not relevant', () => {
    expect(isHalalRelevantHsCode(defaults, '')).toBe(false);
    expect(isHalalRelevantHsCode(defaults, '2')).toBe(false);
    expect(isHalalRelevantHsCode(defaults, '02AB')).toBe(false);
    expect(isHalalRelevantHsCode([], '0201')).toBe(false);
  });

  it('marks a chapter that contains eligible headings even when the chapter itself is not listed', () => {
    expect(isHalalRelevantHsCode(defaults, '35')).toBe(false);
    expect(hasHalalRelevantDescendant(defaults, '35')).toBe(true);
    expect(hasHalalRelevantDescendant(defaults, '87')).toBe(false);
  });

  it('rejects a malformed rule list, and the config refuses it at start', () => {
    expect(() => parseHalalHsRules('02,abc')).toThrow(/abc/);
    expect(() => testConfig({ HALAL_HS_PREFIXES: '02,x1' })).toThrow(/HALAL_HS_PREFIXES/);
    expect(testConfig({ HALAL_HS_PREFIXES: '04, !0408' }).HALAL_HS_PREFIXES).toBe('04, !0408');
  });
});

describe('dates in Gregorian and Umm al-Qura Hijri', () => {
  it('converts known dates (1 Ramadan 1446 = 1 March 2025)', () => {
    expect(toDualDate(new Date('2025-03-01T09:00:00Z'))).toEqual({
      iso: '2025-03-01T09:00:00.000Z',
      gregorian: '2025-03-01',
      hijri: { year: 1446, month: 9, day: 1 },
    });
    expect(toDualDate(new Date('2024-06-07T12:00:00Z')).hijri).toEqual({ year: 1445, month: 12, day: 1 });
  });

  it('uses the calendar day in Riyadh (UTC+3)', () => {
    const lateEvening = toDualDate(new Date('2025-02-28T22:30:00Z'));
    expect(lateEvening.gregorian).toBe('2025-03-01');
    expect(lateEvening.hijri).toEqual({ year: 1446, month: 9, day: 1 });
  });

  it('gives no Hijri date outside the Umm al-Qura table rather than a wrong one', () => {
    expect(toDualDate(new Date('1900-01-01T00:00:00Z')).hijri).toBeNull();
    expect(toDualDate(new Date('2090-01-01T00:00:00Z')).hijri).toBeNull();
  });
});

describe('public certificate status', () => {
  const now = new Date('2025-06-01T00:00:00Z');
  const day = 86_400_000;
  const cert = (validFromDays: number, expiresDays: number, status = 1, suspendedAt: Date | null = null) => ({
    status,
    validFrom: new Date(now.getTime() + validFromDays * day),
    expiresAt: new Date(now.getTime() + expiresDays * day),
    suspendedAt,
  });

  it('derives each status from the dates and the stored status', () => {
    expect(publicStatusOf(cert(-100, 200), now)).toBe('active');
    expect(publicStatusOf(cert(-100, 59), now)).toBe('expiringSoon');
    expect(publicStatusOf(cert(-100, 61), now)).toBe('active');
    expect(publicStatusOf(cert(-400, -1), now)).toBe('expired');
    expect(publicStatusOf(cert(-100, 200, 4), now)).toBe('suspended');
    expect(publicStatusOf(cert(-100, 200, 1, now), now)).toBe('suspended');
    expect(publicStatusOf(cert(10, 300), now)).toBe('validSoon');
  });

  it('shows a stored "active" certificate past its expiry date as expired', () => {
    expect(publicStatusOf(cert(-400, -3, 1), now)).toBe('expired');
  });
});

describe('the FAQ assistant', () => {
  const entries: FaqEntry[] = FAQ_SEEDS.map((f, i) => ({ id: String(i), ...f }));

  it('answers in English from the English FAQ', () => {
    const a = answerFromFaq(entries, 'how can I verify a certificate?', 'en');
    expect(a.question).toBe('How do I verify a Halal certificate?');
    expect(a.answer).toMatch(/QR code/);
  });

  it('answers in Arabic from the Arabic FAQ, whatever the hamza spelling', () => {
    const a = answerFromFaq(entries, 'كيف اسدد الفاتورة؟', 'ar');
    expect(a.question).toBe('كيف أسدد الفواتير؟');
    expect(answerFromFaq(entries, 'متى أجدد الشهادة المنتهية', 'ar').question).toBe('متى يمكنني تجديد شهادة الحلال؟');
  });

  it('offers suggestions instead of a wrong answer when nothing matches', () => {
    const a = answerFromFaq(entries, 'weather tomorrow', 'en');
    expect(a.answer).toBeNull();
    expect(a.suggestions.length).toBe(3);
  });
});

describe('server-rendered page meta', () => {
  const html = '<!doctype html><html lang="ar" dir="rtl"><head><meta charset="UTF-8" /><title>Portal</title></head><body></body></html>';

  it('replaces the title, adds the description and sets lang and dir', () => {
    const out = injectPageMeta(html, { title: 'HS codes | National Halal Center', description: 'Search codes', lang: 'en', dir: 'ltr' });
    expect(out).toContain('<html lang="en" dir="ltr">');
    expect(out).toContain('<title>HS codes | National Halal Center</title>');
    expect(out).toContain('<meta name="description" content="Search codes" />');
  });

  it('escapes text an administrator typed', () => {
    const out = injectPageMeta(html, { title: '<script>x</script> $& "q"', description: 'a "b" <c>', lang: 'ar', dir: 'rtl' });
    expect(out).toContain('<title>&lt;script&gt;x&lt;/script&gt; $&amp; &quot;q&quot;</title>');
    expect(out).toContain('content="a &quot;b&quot; &lt;c&gt;"');
    expect(out).not.toContain('<script>x');
  });
});

describe('CSV import', () => {
  it('reads quoted fields, doubled quotes and a BOM', () => {
    expect(parseCsv('\uFEFFa,b\r\n1,"x, ""y"""\n2,z\n')).toEqual([
      ['a', 'b'],
      ['1', 'x, "y"'],
      ['2', 'z'],
    ]);
  });
});
