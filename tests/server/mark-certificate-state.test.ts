import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type Client, type TestApp } from '../helpers/app';
import { certificates } from '../../db/schema';
import { SYSTEM_ACTOR } from '../../machines/actor';
import { tFor } from '../../server/i18n';
import { accept, completeDraft, type RequestJson } from '../helpers/requests';
import { markData } from '../services/fixtures';
import { fireDue, fireWaiting, portalPayment } from '../services/walk';
import type { EmbeddedEngine } from '../../workflows/embedded/embedded-engine';
import { WAITING_RETRY_MS } from '../../workflows/waiting';

/*
 * A Halal mark rests on the certificate it was issued against. The mark catalogue (spec 02: 1 active, 2 expired,
 * 3 expiring soon, 4 valid soon) has no code for "its certificate is suspended" or "its product is no longer
 * certified", so the mark reads its certificate: suspended while it is, expired with it, withdrawn once a renewal drops
 * its product. What the holder's list, the mark page and the public verification (a consumer scanning the QR) say,
 * in both languages; another facility sees none of it.
 */

const DAY = 86_400_000;
const FACILITY = 'inf-almarai-foods';
const CERT_NUMBER = 'HC-MSTATE-000001';
const MILK = { nameAr: 'حليب طازج', nameEn: 'Fresh milk' };
const BREAD = { nameAr: 'خبز أبيض', nameEn: 'White bread' };
let t: TestApp;
let holder: Client;
let other: Client;
let certificateId: string;
const marks = {} as Record<'milk' | 'bread', { id: string; number: string; code: string }>;

async function issueMark(number: string, code: string, product: { nameAr: string; nameEn: string }) {
  const validFrom = new Date(Date.now() - DAY);
  const expiresAt = new Date(Date.now() + 300 * DAY);
  const view = await t.app.engine.start(
    'halalMark',
    { ownerUserId: 'seed', facilityId: FACILITY, data: { validFrom: validFrom.toISOString(), expiresAt: expiresAt.toISOString(), certificateId } },
    SYSTEM_ACTOR,
  );
  await t.database.db.insert(certificates).values({
    id: view.id, number, kind: 'halalMark', facilityPublicId: FACILITY, scope: 'Saudi', products: [product],
    verificationCode: code, issuedAt: validFrom, validFrom, expiresAt, status: 1,
  });
  await t.app.engine.send(view.id, { type: 'VALIDITY_STARTED' }, SYSTEM_ACTOR);
  return { id: view.id, number, code };
}

const setCertificate = (values: Partial<typeof certificates.$inferInsert>) => t.database.db.update(certificates).set(values).where(eq(certificates.id, certificateId));
const inForce = () => setCertificate({ status: 1, suspendedAt: null, expiresAt: new Date(Date.now() + 600 * DAY), products: [MILK, BREAD] });

type Lang = 'ar' | 'en';
const LANGS = ['ar', 'en'] as const;
const listed = async (c: Client, lang: Lang, query = '') => {
  const res = await c.get(`/api/certificates?kind=halalMark&lang=${lang}${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: { id: string; status: { public: string; label: string } }[] }).items;
};
const page = async (c: Client, id: string, lang: Lang) => c.get(`/api/certificates/${id}?lang=${lang}`);
const verify = async (code: string, lang: Lang) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/public/verify/${code}?lang=${lang}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().certificate as { status: string; statusLabel: string; basis: string | null; note: string | null; certificateNumber: string | null };
};

/** The mark reads `status` (with the note of `basis`) on the holder's list, its page and the public verification, in both languages. */
async function reads(mark: { id: string; code: string }, status: string, basis: string | null) {
  for (const lang of LANGS) {
    const t_ = tFor(lang);
    const label = t_(`payments:certificate.status.${status}`);
    const note = basis ? t_(`public:markBasis.${basis}`, { number: CERT_NUMBER }) : null;
    expect((await listed(holder, lang)).find((m) => m.id === mark.id)?.status).toMatchObject({ public: status, label });
    const p = await page(holder, mark.id, lang);
    expect(p.statusCode, p.body).toBe(200);
    expect(p.json().status).toMatchObject({ public: status, label, note });
    expect(await verify(mark.code, lang)).toMatchObject({ status, statusLabel: t_(`public:status.${status}`), basis, note, certificateNumber: CERT_NUMBER });
  }
}
const filtered = async (status: string) => (await listed(holder, 'en', `&status=${status}`)).map((m) => m.id).sort();

beforeAll(async () => {
  t = await createTestApp();
  const issuedAt = new Date(Date.now() - 100 * DAY);
  [{ id: certificateId }] = await t.database.db
    .insert(certificates)
    .values({ number: CERT_NUMBER, kind: 'internalHalal', facilityPublicId: FACILITY, verificationCode: 'MSTATECERT01', issuedAt, validFrom: issuedAt, expiresAt: new Date(Date.now() + 600 * DAY), products: [MILK, BREAD] })
    .returning({ id: certificates.id });
  marks.milk = await issueMark('HM-MSTATE-000001', 'MSTATEMARK01', MILK);
  marks.bread = await issueMark('HM-MSTATE-000002', 'MSTATEMARK02', BREAD);
  [holder, other] = await Promise.all(['internal.main', 'external'].map((u) => t.login(u)));
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('a Halal mark reads the certificate it rests on', () => {
  it('in force: the marks read active everywhere, without a note', async () => {
    await inForce();
    await reads(marks.milk, 'active', null);
    expect(await filtered('active')).toEqual([marks.milk.id, marks.bread.id].sort());
  });

  it('certificate suspended: its marks read suspended (ar/en) on the list, the mark page and the public verification, naming the certificate; reinstated, active again', async () => {
    await setCertificate({ status: 4, suspendedAt: new Date() });
    try {
      await reads(marks.milk, 'suspended', 'certificateSuspended');
      await reads(marks.bread, 'suspended', 'certificateSuspended');
      expect(await filtered('active')).toEqual([]);
      expect(await filtered('suspended')).toEqual([marks.milk.id, marks.bread.id].sort());
    } finally {
      await inForce();
    }
    await reads(marks.milk, 'active', null);
  });

  it('certificate expired (also while suspended): its marks read expired, naming the certificate', async () => {
    await setCertificate({ expiresAt: new Date(Date.now() - DAY) });
    try {
      await reads(marks.milk, 'expired', 'certificateExpired');
      expect(await filtered('active')).toEqual([]);
      expect(await filtered('expired')).toEqual([marks.milk.id, marks.bread.id].sort());
      await setCertificate({ status: 2, suspendedAt: new Date() });
      await reads(marks.bread, 'suspended', 'certificateSuspended');
    } finally {
      await inForce();
    }
  });

  it('a renewal drops a product: its mark reads withdrawn (ar/en), the other product’s mark stays active', async () => {
    await setCertificate({ products: [MILK] });
    try {
      await reads(marks.bread, 'withdrawn', 'productNotCertified');
      await reads(marks.milk, 'active', null);
      expect(await filtered('withdrawn')).toEqual([marks.bread.id]);
      expect(await filtered('active')).toEqual([marks.milk.id]);
    } finally {
      await inForce();
    }
  });

  it('another facility sees none of the marks, whatever their reading; the public verification names no more than the mark', async () => {
    await setCertificate({ status: 4, suspendedAt: new Date() });
    try {
      expect(await listed(other, 'en')).toEqual([]);
      for (const lang of LANGS) expect((await page(other, marks.milk.id, lang)).statusCode).toBe(404);
    } finally {
      await inForce();
    }
  });
});

/** The sweep some minutes on, past a waiting timer's rest (workflows/waiting.ts WAITING_RETRY_MS). */
const fireLater = () => (t.app.engine as unknown as EmbeddedEngine).fireDueTimers(new Date(Date.now() + 10 * WAITING_RETRY_MS));

describe('a paid mark package whose certificate expires while suspended', () => {
  it('leaves the wait: ended in 1003 (ar/en), "Certificate expired" in its history, no mark issued, its payment listed for a refund', async () => {
    const products = markData().products as { nameAr: string; nameEn: string }[];
    const [{ id: packageCert }] = await t.database.db
      .insert(certificates)
      .values({ number: 'HC-MSTATE-000002', kind: 'internalHalal', facilityPublicId: FACILITY, verificationCode: 'MSTATECERT02', issuedAt: new Date(), validFrom: new Date(), expiresAt: new Date(Date.now() + 400 * DAY), products })
      .returning({ id: certificates.id });
    const draft = await completeDraft(holder, 'internalHalalMark', FACILITY, { certificateId: packageCert });
    await accept(holder, draft.id, 'SUBMIT', { agreementAccepted: true });
    const [bill] = (await holder.get(`/api/bills?requestId=${draft.id}`)).json().items as { id: string; number: string; total: string }[];
    const payment = await portalPayment(t, bill.id, bill);
    // Suspended while the payment was under way at the portal: paid, the package waits in 1004.
    await t.database.db.update(certificates).set({ status: 4, suspendedAt: new Date() }).where(eq(certificates.id, packageCert));
    expect((await payment.post()).outcome).toBe('paid');
    await fireDue(t);
    await fireWaiting(t);
    const status = async (lang: Lang) => ((await holder.get(`/api/requests/${draft.id}?lang=${lang}`)).json() as RequestJson).status;
    expect((await status('en')).code).toBe(1004);
    // It expires while suspended: never in force again for the months the package was priced for.
    await t.database.db.update(certificates).set({ expiresAt: new Date(Date.now() - DAY) }).where(eq(certificates.id, packageCert));
    await fireLater();
    for (const lang of LANGS) expect(await status(lang)).toEqual({ code: 1003, label: tFor(lang)('status:internalHalalMark.1003') });
    const history = (await holder.get(`/api/requests/${draft.id}/history?lang=en`)).json();
    expect(JSON.stringify(history)).toContain('CERTIFICATE_EXPIRED');
    expect(await t.database.db.select({ id: certificates.id }).from(certificates).where(eq(certificates.requestId, draft.id))).toEqual([]);
    const registration = await t.login('registration');
    const attention = (await registration.get('/api/payments/attention')).json().items as { billNumber: string; reason: string; amount: string }[];
    expect(attention.filter((a) => a.billNumber === bill.number)).toEqual([expect.objectContaining({ reason: 'certificateEnded', amount: bill.total })]);
    // Nothing is left to try: the waiting timer is gone.
    await fireLater();
    expect((await status('en')).code).toBe(1003);
  });
});
