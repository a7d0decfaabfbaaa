import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { workflowTimers } from '../../db/schema';
import { goodProduct } from '../forms/fixtures';
import { completeDraft, send, type RequestJson } from '../helpers/requests';
import { addProductsData, internalCertificateData, markData } from './fixtures';
import { billsOf, certificatesOf, createWorld, fireTimer, money, monthsBetween, setExpiry, walk, type CertificateJson, type World } from './walk';

/**
 * Issue 10 proof: the internal facility services over HTTP, each walked down its golden path by the demo users with
 * schema-valid data (tests/services/fixtures.ts), asserting what the applicant reads: every bill's amount, VAT and
 * total, the certificate's dates, products and categories, and the final status. Fees are the configured defaults
 * (machines/services/fees.ts): application 1,000 SAR, audit 2,500 per auditor per day, internal certificate 5,000 per
 * year, Halal mark 500 per tag (product-year) of the package; VAT 15 %.
 */
const FACILITY = 'inf-almarai-foods';
let w: World;
/** The internal certificate (3 years, paid yearly) that the renewal, the added products and the marks are about. */
let certificate: CertificateJson;
let certificateRequestId: string;

beforeAll(async () => {
  w = await createWorld();
  const draft = await completeDraft(w.as['internal.main'], 'internalCertificate', FACILITY);
  certificateRequestId = draft.id;
  const { request } = await walk(w, draft.id, { applicant: 'internal.main', until: 25, option: 'yearly' });
  expect(request.status.code).toBe(25);
  [certificate] = await certificatesOf(w, w.as['internal.main'], draft.id);
}, 120_000);
afterAll(() => w?.t.close());

const pendingTimers = (workflowId: string, event: string) =>
  w.t.database.db
    .select()
    .from(workflowTimers)
    .where(and(eq(workflowTimers.requestId, workflowId), eq(workflowTimers.event, event), isNull(workflowTimers.firedAt), isNull(workflowTimers.cancelledAt)));

const SAR = (amount: number) => {
  const h = Math.round(amount * 100);
  const vat = Math.floor((h * 1500 + 5000) / 10000);
  const f = (x: number) => `${Math.floor(x / 100)}.${String(x % 100).padStart(2, '0')}`;
  return { amount: f(h), vat: f(vat), total: f(h + vat) };
};

describe('internal facility certificate (201)', () => {
  it('bills the application, the audit of the agreed plan and one year of the certificate, and issues it for the chosen 3 years', async () => {
    const bills = await billsOf(w.as['internal.main'], certificateRequestId);
    expect(bills.map((b) => [b.service.code, b.feeKind.code, b.status.code])).toEqual([
      [6, 'application', 2],
      [8, 'auditFees', 2],
      [6, 'certificate', 2],
    ]);
    // Application 1,000; audit: 3 auditors (team leader, technical auditor, Islamic affairs expert) x 2 days x 2,500;
    // certificate paid yearly: one year of 5,000 now.
    expect(bills.map(money)).toEqual([SAR(1000), SAR(15_000), SAR(5000)]);

    expect(certificate).toMatchObject({ kind: 'internalHalal', status: { code: 1 }, holder: { publicId: FACILITY }, issuer: null });
    expect(monthsBetween(certificate.validFrom.iso, certificate.expiresAt.iso)).toBe(36);
    expect(certificate.products.map((p) => p.nameEn)).toEqual(['Fresh Full Fat Milk', 'Sliced White Bread']);
    // The fixture chose main category C with sub-categories CI and CIV.
    const chosen = (internalCertificateData().categories as { subCategories: string[] }[])[0].subCategories;
    expect(certificate.categories).toEqual(chosen);
  });
});

describe('yearly instalments', () => {
  it('"yearly" bills the next year of the certificate on its anniversary timer', async () => {
    // The certificate request chose yearly for 3 years: two more years are billed on their anniversaries.
    expect(await billsOf(w.as['internal.main'], certificate.id)).toEqual([]);
    const [first] = await pendingTimers(certificate.id, 'INSTALLMENT_DUE');
    expect(monthsBetween(certificate.validFrom.iso, first.dueAt.toISOString())).toBe(12);
    await fireTimer(w.t, certificate.id, 'INSTALLMENT_DUE');
    const [instalment] = await billsOf(w.as['internal.main'], certificate.id);
    expect(instalment).toMatchObject({ service: { code: 6 }, feeKind: { code: 'certificateInstallment' }, status: { code: 1 } });
    expect(money(instalment)).toEqual(SAR(5000));
    // The third year is armed for the next anniversary, two years after the certificate's start; then none is left.
    const next = await pendingTimers(certificate.id, 'INSTALLMENT_DUE');
    expect(next).toHaveLength(1);
    expect(monthsBetween(certificate.validFrom.iso, next[0].dueAt.toISOString())).toBe(24);
  });
});

describe('internal certificate renewal (202)', () => {
  it('renews the same certificate for the chosen validity, running on from its expiry, with its bills', async () => {
    const expiry = await setExpiry(w, certificate.id, 30);
    const draft = await completeDraft(w.as['internal.main'], 'internalRenewal', FACILITY, { certificateId: certificate.id });
    const { request, steps } = await walk(w, draft.id, { applicant: 'internal.main', until: 25, option: 'full' });
    expect(request.status.code, JSON.stringify(steps)).toBe(25);
    const bills = await billsOf(w.as['internal.main'], draft.id);
    expect(bills.map((b) => [b.feeKind.code, b.status.code, money(b)])).toEqual([
      ['application', 2, SAR(1000)],
      ['auditFees', 2, SAR(15_000)],
      ['renewal', 2, SAR(15_000)],
    ]);
    const [renewed] = await certificatesOf(w, w.as['internal.main'], draft.id);
    expect(renewed.id).toBe(certificate.id);
    expect(renewed.number).toBe(certificate.number);
    expect(monthsBetween(expiry.toISOString(), renewed.expiresAt.iso)).toBe(36);
    expect(renewed.status.code).toBe(1);
    // Paid in full: every year is billed now, no instalment is left for an anniversary.
    expect(await pendingTimers(certificate.id, 'INSTALLMENT_DUE')).toEqual([]);
  });
});

describe('adding products to an internal certificate', () => {
  it('bills the request and puts the requested products on the certificate, keeping the others', async () => {
    const draft = await completeDraft(w.as['internal.main'], 'internalAddProducts', FACILITY, { certificateId: certificate.id });
    const { request, steps } = await walk(w, draft.id, { applicant: 'internal.main', until: 1005 });
    expect(request.status.code, JSON.stringify(steps)).toBe(1005);
    const bills = await billsOf(w.as['internal.main'], draft.id);
    expect(bills.map((b) => [b.feeKind.code, b.status.code, money(b)])).toEqual([['addProducts', 2, SAR(1000)]]);
    const after = (await w.as['internal.main'].get(`/api/certificates/${certificate.id}`)).json() as CertificateJson;
    const added = (addProductsData().products as { nameEn: string }[]).map((p) => p.nameEn);
    expect(after.products.map((p) => p.nameEn)).toEqual(['Fresh Full Fat Milk', 'Sliced White Bread', ...added]);
  });
});

describe('products already on the certificate', () => {
  const onCertificate = { milk: goodProduct(), bread: goodProduct({ nameAr: 'خبز أبيض شرائح', nameEn: 'Sliced White Bread', productNumber: 'SFDA2024000000002' }) };
  // A product the food authority's simulator knows and the certificate does not hold.
  const laban = goodProduct({ nameAr: 'لبن قليل الدسم', nameEn: 'Low Fat Laban', productNumber: 'SFDA2024000000003', saudiHsCode: '040390000000', globalHsCode: '040390' });
  const unregistered = goodProduct({ nameAr: 'لبنة', nameEn: 'Labneh', productNumber: 'SFDA2024000000199' });
  const submitWith = async (products: Record<string, unknown>[], lang: 'ar' | 'en') => {
    const c = w.as['internal.main'];
    const draft = await completeDraft(c, 'internalAddProducts', FACILITY, { certificateId: certificate.id, data: { products } });
    const res = await send(c, draft.id, 'SUBMIT', draft.version, { agreementAccepted: true }, lang);
    const after = (await c.get(`/api/requests/${draft.id}`)).json() as RequestJson;
    return { res, draft, after, names: (after.data.products as { nameEn: string }[]).map((p) => p.nameEn) };
  };

  it('are left out at submission and the applicant is told which, in Arabic with the Arabic names', async () => {
    const { res, draft, after, names } = await submitWith([onCertificate.milk, laban], 'ar');
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as RequestJson).notices).toEqual(['مدرجة في الشهادة بالفعل واستُبعدت من هذا الطلب: حليب طازج كامل الدسم']);
    // The same notice as its key and the names in both languages, so a page read in English later shows it in English.
    expect((res.json() as { noticeMessages?: unknown }).noticeMessages).toEqual([
      { key: 'requests:notices.productsExcluded', names: { products: [{ ar: 'حليب طازج كامل الدسم', en: 'Fresh Full Fat Milk' }] } },
    ]);
    // Submitted: out of the applicant's hands (the simple set keeps code 1001 "new" until registration reviews it).
    expect([(draft as { queue?: string }).queue, (after as { queue?: string }).queue]).toEqual(['applicant', 'registration']);
    expect(names).toEqual(['Low Fat Laban']);
  });

  it('names several as an English list in English', async () => {
    const { res, names } = await submitWith([onCertificate.milk, laban, onCertificate.bread], 'en');
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as RequestJson).notices).toEqual(['Already on the certificate and left out of this request: Fresh Full Fat Milk and Sliced White Bread']);
    expect(names).toEqual(['Low Fat Laban']);
  });

  it('are kept in a draft whose submission is refused for another product, and the refusal names that product\'s row', async () => {
    const { res, draft, after, names } = await submitWith([onCertificate.milk, unregistered], 'en');
    expect(res.statusCode).toBe(400);
    const [issue] = (res.json() as { error: { validationErrors: { message: string; members: string[] }[] } }).error.validationErrors;
    expect(issue.message).toContain('Labneh: the product number SFDA2024000000199 is not registered');
    expect(issue.members).toEqual(['products.1.productNumber']);
    expect(after.status.code).toBe(draft.status.code);
    expect(after.version).toBe(draft.version);
    expect(names).toEqual(['Fresh Full Fat Milk', 'Labneh']);
  });

  it('refuses a request whose every product is already on the certificate, and changes nothing', async () => {
    const { res, draft, after, names } = await submitWith([onCertificate.milk, onCertificate.bread], 'en');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Every product in this request is already on the certificate');
    expect(after.status.code).toBe(draft.status.code);
    expect(after.version).toBe(draft.version);
    expect(names).toEqual(['Fresh Full Fat Milk', 'Sliced White Bread']);
  });
});

describe('internal Halal mark', () => {
  it('bills the package per tag and issues one mark per product, within the certificate', async () => {
    const draft = await completeDraft(w.as['internal.main'], 'internalHalalMark', FACILITY, { certificateId: certificate.id });
    const { request, steps } = await walk(w, draft.id, { applicant: 'internal.main', until: 1005 });
    expect(request.status.code, JSON.stringify(steps)).toBe(1005);
    const bills = await billsOf(w.as['internal.main'], draft.id);
    // A package of 16 tags (one per product-year, 2 used now), a full year of the (renewed) certificate left: 16 x 500.
    expect(bills.map((b) => [b.feeKind.code, b.status.code, money(b)])).toEqual([['halalMark', 2, SAR(8000)]]);
    const marks = await certificatesOf(w, w.as['internal.main'], draft.id);
    const names = (markData().products as { nameEn: string }[]).map((p) => p.nameEn);
    expect(marks.map((m) => m.products[0].nameEn).sort()).toEqual([...names].sort());
    for (const m of marks) {
      expect(m.kind).toBe('halalMark');
      expect(monthsBetween(m.validFrom.iso, m.expiresAt.iso)).toBe(12);
    }
    // The request's page names the marks it issued; another facility may not ask (the request is not theirs to see).
    const issued = (await w.as['internal.main'].get(`/api/requests/${draft.id}/marks`)).json() as { items: { id: string; number: string }[] };
    expect(issued.items.map((m) => m.number).sort()).toEqual(marks.map((m) => m.number).sort());
    expect((await w.as.external.get(`/api/requests/${draft.id}/marks`)).statusCode).toBe(404);
    // The request answer says it produced marks (the page lists them), and it names no certificate of its own: the
    // certificate it was about is not linked as if the request had issued or changed it.
    expect((await w.as['internal.main'].get(`/api/requests/${draft.id}`)).json().outcome).toEqual({ kind: 'marks' });
    expect((await w.as['internal.main'].get(`/api/requests/${draft.id}/certificate`)).statusCode).toBe(404);
  });
});

describe('what a finished request produced (the request answer’s outcome, which the request page links by)', () => {
  const answer = async (id: string) => (await w.as['internal.main'].get(`/api/requests/${id}`)).json() as RequestJson & { finished: boolean; outcome: unknown };

  it('an issued certificate request says it issued a certificate', async () => {
    // (GET .../certificate names the certificate a request issued or last renewed: the renewal above took it over.)
    expect((await answer(certificateRequestId)).outcome).toEqual({ kind: 'certificate-issued' });
  });

  it('reads the outcome from the app’s service registry, the one every route reads (a test may replace it)', async () => {
    const services = w.t.app.services;
    w.t.app.services = { ...services, internalCertificate: { ...services.internalCertificate, outcome: 'changesCertificate' } };
    try {
      expect((await answer(certificateRequestId)).outcome).toEqual({ kind: 'certificate-changed' });
    } finally {
      w.t.app.services = services;
    }
    expect((await answer(certificateRequestId)).outcome).toEqual({ kind: 'certificate-issued' });
  });

  it('a request the committee rejected is finished but produced nothing: no outcome, no certificate, no marks', async () => {
    const draft = await completeDraft(w.as['internal.main'], 'internalCertificate', FACILITY);
    expect((await answer(draft.id)).outcome).toBeNull();
    const { steps } = await walk(w, draft.id, { applicant: 'internal.main', until: -1000, stopBefore: 'APPROVE' });
    expect((await answer(draft.id)).finished, JSON.stringify(steps)).toBe(false);
    let rejected = false;
    for (const user of ['committee', 'teamleader', 'auditor', 'audit', 'registration'] as const) {
      const actions = (await w.as[user].get(`/api/requests/${draft.id}/actions`)).json() as { version: number; actions: { type: string }[] };
      if (!actions.actions.some((a) => a.type === 'REJECT')) continue;
      const res = await send(w.as[user], draft.id, 'REJECT', actions.version, { reason: 'The production line does not meet the standard' });
      expect(res.statusCode, res.body).toBe(200);
      rejected = true;
      break;
    }
    expect(rejected).toBe(true);
    const after = await answer(draft.id);
    expect(after).toMatchObject({ finished: true, state: 'rejected', outcome: null });
    expect((await w.as['internal.main'].get(`/api/requests/${draft.id}/certificate`)).statusCode).toBe(404);
    expect((await w.as['internal.main'].get(`/api/requests/${draft.id}/marks`)).json()).toEqual({ items: [] });
  });
});

