import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificates, requests } from '../../db/schema';
import { formatAmount, markFee, withVat } from '../../machines/services/fees';
import { accept, completeDraft, send, type RequestJson } from '../helpers/requests';
import { markData } from '../services/fixtures';
import { billsOf, createWorld, fireDue, money, setExpiry, type DemoUser, type World } from '../services/walk';
import { tFor } from '../../server/i18n';

/*
 * Two edges of the Halal-mark fee (spec 02 section 9: "Validity one year, but never beyond the facility certificate:
 * when less remains, the mark gets the remaining months and a different fee"):
 * 1. A certificate with less than a whole month left would price the package at 0 months (0.00 SAR, a bill waiting for
 *    a payment that makes no sense). The package is refused at every door instead — the start page's check, the start
 *    (the draft), the submission — with "renew the certificate first" in Arabic and English, and nothing is written.
 * 2. While the package's bill awaits payment, staff may only waive it whole (GRANT_DISCOUNT 100 %): a smaller
 *    percentage is refused as a 400 on the `percent` field saying so (both languages), not a bare 409, and changes
 *    nothing; the actions answer tells the form so. 100 % still waives the bill and the marks are issued.
 */

const FACILITY = 'inf-almarai-foods';
const DAY = 86_400_000;
let w: World;
let shortCert: { id: string; number: string };
let monthCert: { id: string; number: string };

const locale = (lang: 'ar' | 'en', ns: string) => JSON.parse(readFileSync(join(__dirname, `../../locales/${lang}/${ns}.json`), 'utf8'));
const MACHINES = { ar: locale('ar', 'machines').validation, en: locale('en', 'machines').validation } as Record<'ar' | 'en', Record<string, string>>;
const LANGS = ['ar', 'en'] as const;
const underAMonth = (lang: 'ar' | 'en', number: string) => tFor(lang)('errors:CertificateUnderAMonth', { number });

const products = () =>
  (markData().products as { nameAr: string; nameEn: string; brandAr: string; brandEn: string; productNumber: string }[]).map(({ nameAr, nameEn, brandAr, brandEn, productNumber }) => ({
    nameAr,
    nameEn,
    brandAr,
    brandEn,
    productNumber,
  }));
async function certificate(number: string, code: string, daysLeft: number) {
  const issuedAt = new Date(Date.now() - 300 * DAY);
  const [row] = await w.t.database.db
    .insert(certificates)
    .values({ number, kind: 'internalHalal', facilityPublicId: FACILITY, verificationCode: code, issuedAt, validFrom: issuedAt, expiresAt: new Date(Date.now() + daysLeft * DAY), products: products() })
    .returning({ id: certificates.id, number: certificates.number });
  return row;
}

const applicant = () => w.as['internal.main'];
const markRequests = async () => (await w.t.database.db.select({ id: requests.id }).from(requests).where(and(eq(requests.kind, 'internalHalalMark'), eq(requests.facilityPublicId, FACILITY)))).length;
async function fileOf(id: string) {
  const [row] = await w.t.database.db.select({ version: requests.version, status: requests.status, state: requests.stateValue, snapshot: requests.snapshot }).from(requests).where(eq(requests.id, id));
  const history = (await w.as.registration.get(`/api/requests/${id}/history`)).json().items as { seq: number; event: string; hash: string }[];
  const bills = await billsOf(w.as.registration, id);
  return {
    version: row.version,
    status: row.status,
    state: row.state,
    discountPercent: (row.snapshot.context as { discountPercent?: number }).discountPercent,
    history: history.map((h) => [h.seq, h.event, h.hash]),
    bills: bills.map((b) => [b.id, b.status.code, money(b)]),
  };
}
const submit = (r: RequestJson, lang: 'ar' | 'en' = 'en') => send(applicant(), r.id, 'SUBMIT', r.version, { agreementAccepted: true }, lang);

beforeAll(async () => {
  w = await createWorld();
  shortCert = await certificate('HC-SHORT-000001', 'SHORTCERT001', 20);
  // 45 days: one whole month left (the fee counts whole months).
  monthCert = await certificate('HC-MONTH-000001', 'MONTHCERT001', 45);
}, 120_000);
afterAll(() => w?.t.close());

describe('a Halal-mark package on a certificate with less than a month left', () => {
  it('the start page is told to renew first, in Arabic and English', async () => {
    for (const lang of LANGS) {
      const res = await applicant().get(`/api/requests/start-check?kind=internalHalalMark&facilityId=${FACILITY}&certificateId=${shortCert.id}&lang=${lang}`, {
        headers: { 'accept-language': lang },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ canStart: false, refusal: { code: 'CertificateUnderAMonth', message: underAMonth(lang, shortCert.number) } });
    }
    expect(underAMonth('en', 'X')).toContain('Renew the certificate first');
    expect(underAMonth('ar', 'X')).toContain('جدِّد الشهادة أولاً');
    const ok = await applicant().get(`/api/requests/start-check?kind=internalHalalMark&facilityId=${FACILITY}&certificateId=${monthCert.id}`);
    expect(ok.json()).toEqual({ canStart: true, refusal: null });
  });

  it('the same for a foreign factory’s package (external mark): refused at the start, in both languages', async () => {
    const issuedAt = new Date(Date.now() - 300 * DAY);
    const [ext] = await w.t.database.db
      .insert(certificates)
      .values({ number: 'EC-SHORT-000001', kind: 'externalHalal', facilityPublicId: 'exf-anatolia-meat', verificationCode: 'SHORTEXT0001', issuedAt, validFrom: issuedAt, expiresAt: new Date(Date.now() + 20 * DAY), products: products() })
      .returning({ id: certificates.id, number: certificates.number });
    for (const lang of LANGS) {
      const res = await w.as.external.post('/api/requests', { kind: 'externalHalalMark', facilityId: 'exf-anatolia-meat', certificateId: ext.id }, { headers: { 'accept-language': lang } });
      expect(res.statusCode, res.body).toBe(400);
      expect([res.json().error.code, res.json().error.message]).toEqual(['CertificateUnderAMonth', underAMonth(lang, ext.number)]);
    }
  });

  it('no draft is started (400, both languages), nothing written', async () => {
    const before = await markRequests();
    for (const lang of LANGS) {
      const res = await applicant().post('/api/requests', { kind: 'internalHalalMark', facilityId: FACILITY, certificateId: shortCert.id }, { headers: { 'accept-language': lang } });
      expect(res.statusCode, res.body).toBe(400);
      expect([res.json().error.code, res.json().error.message]).toEqual(['CertificateUnderAMonth', underAMonth(lang, shortCert.number)]);
    }
    expect(await markRequests()).toBe(before);
  });

  it('a draft whose certificate has meanwhile come under a month is not submitted (400, both languages): no bill, nothing changed; renewed, it is billed for its months', async () => {
    const draft = await completeDraft(applicant(), 'internalHalalMark', FACILITY, { certificateId: monthCert.id, data: { ...markData(), package: { tags: 16 } } });
    await setExpiry(w, monthCert.id, 20);
    const before = await fileOf(draft.id);
    for (const lang of LANGS) {
      const res = await submit(draft, lang);
      expect(res.statusCode, res.body).toBe(400);
      expect([res.json().error.code, res.json().error.message]).toEqual(['CertificateUnderAMonth', underAMonth(lang, monthCert.number)]);
    }
    expect(await fileOf(draft.id)).toEqual(before);
    expect(before.bills).toEqual([]);
    // With a whole month left again, the same draft is billed one month of 16 tags (never 0.00).
    await setExpiry(w, monthCert.id, 45);
    expect((await submit(draft)).statusCode).toBe(200);
    const c = withVat(markFee(w.t.app.settings.current().fees, 16, 1), w.t.app.settings.current().vatRate);
    expect(c.amount).toBeGreaterThan(0);
    expect((await billsOf(applicant(), draft.id)).map((b) => [b.status.code, money(b)])).toEqual([
      [1, { amount: formatAmount(c.amount), vat: formatAmount(c.vat), total: formatAmount(c.total) }],
    ]);
  }, 120_000);
});

describe('a discount while the package’s bill awaits payment', () => {
  let id: string;
  const STAFF: DemoUser[] = ['registration', 'audit', 'committee'];
  const actions = async (u: DemoUser) => ((await w.as[u].get(`/api/requests/${id}/actions`)).json().actions as { type: string; fullWaiverOnly?: boolean }[]).filter((a) => a.type === 'GRANT_DISCOUNT');
  let staff: DemoUser;

  beforeAll(async () => {
    await setExpiry(w, monthCert.id, 400);
    const draft = await completeDraft(applicant(), 'internalHalalMark', FACILITY, { certificateId: monthCert.id, data: { ...markData(), package: { tags: 16 } } });
    expect((await submit(draft)).statusCode).toBe(200);
    id = draft.id;
    const offered: DemoUser[] = [];
    for (const u of STAFF) if ((await actions(u)).length) offered.push(u);
    expect(offered.length).toBeGreaterThan(0);
    staff = offered[0];
  }, 120_000);

  it('the actions answer says only a full waiver is possible', async () => {
    expect(await actions(staff)).toEqual([expect.objectContaining({ type: 'GRANT_DISCOUNT', requiresReason: true, fullWaiverOnly: true })]);
  });

  it('a 25 % discount is a 400 on the percent field saying only a full waiver is possible (ar, en), and changes nothing', async () => {
    const before = await fileOf(id);
    expect(before.bills).toHaveLength(1);
    expect(before.bills[0][1]).toBe(1);
    for (const lang of LANGS) {
      const res = await send(w.as[staff], id, 'GRANT_DISCOUNT', before.version, { percent: 25, reason: 'Small family business' }, lang);
      expect(res.statusCode, res.body).toBe(400);
      const err = res.json().error as { code: string; validationErrors: { members: string[]; message: string }[] };
      expect(err.code).toBe('ValidationFailed');
      expect(err.validationErrors).toEqual([expect.objectContaining({ members: ['percent'], message: MACHINES[lang].fullWaiverOnly })]);
    }
    expect(MACHINES.en.fullWaiverOnly).toContain('only a full waiver (100 %)');
    expect(await fileOf(id)).toEqual(before);
  });

  it('a 100 % waiver is taken: the bill is cancelled and the marks are issued', async () => {
    const before = await fileOf(id);
    await accept(w.as[staff], id, 'GRANT_DISCOUNT', { percent: 100, reason: 'Charity: free of charge' });
    const after = await fileOf(id);
    expect(after.discountPercent).toBe(100);
    expect(after.bills).toEqual([[before.bills[0][0], 4, before.bills[0][2]]]);
    await fireDue(w.t);
    expect((await applicant().get(`/api/requests/${id}?lang=en`)).json().status.code).toBe(1005);
  });
});
