import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { bills, certificates, markPackageCredits, requests } from '../../db/schema';
import { completeDraft, send, type RequestJson } from '../helpers/requests';
import { markData } from '../services/fixtures';
import { billsOf, certificatesOf, createWorld, walk, type World } from '../services/walk';

/*
 * Issue 14 item 2, Halal-mark packages and the carried-over balance (spec 02 section 9 "The balance carries over as
 * credit"; reading in workflows/mark-credit.ts and the README's Choices): a package is billed per tag (500 SAR a tag a
 * year by default), the products chosen get their marks, the unused tags are worth what was paid for them and are
 * credited against the next package of the same certificate: on the fee preview the applicant reads before submitting,
 * and on the bill. The credit is used once, the bill never goes below zero, another facility's package is never
 * credited, and two packages billed at the same time cannot both take the same balance.
 */

const FACILITY = 'inf-almarai-foods';
const OTHER = 'inf-najd-dairy';
const DAY = 86_400_000;
let w: World;
let certificateId: string;
let first: RequestJson;

const en = { headers: { 'accept-language': 'en' } };
type Preview = {
  items: { feeKind: { code: string }; charge: { amount: string; vat: string; total: string } | null; markPackage?: { products: number; tags: number; price: string; credit: string; creditLeft: string } }[];
};
const preview = async (id: string) => {
  const res = await w.as['internal.main'].get(`/api/requests/${id}/fees`, en);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as Preview).items.find((i) => i.feeKind.code === 'halalMark')!;
};
const pkg = (tags: number) => ({ ...markData(), package: { tags } });
const draft = (tags: number) => completeDraft(w.as['internal.main'], 'internalHalalMark', FACILITY, { certificateId, data: pkg(tags) });
const submit = (r: RequestJson) => send(w.as['internal.main'], r.id, 'SUBMIT', r.version, { agreementAccepted: true });
const billOf = async (requestId: string) => {
  const list = await billsOf(w.as['internal.main'], requestId);
  expect(list).toHaveLength(1);
  return list[0] as (typeof list)[number] & { credit: string | null; name: string };
};

beforeAll(async () => {
  w = await createWorld();
  const issuedAt = new Date(Date.now() - 30 * DAY);
  const products = (markData().products as { nameAr: string; nameEn: string; brandAr: string; brandEn: string; productNumber: string }[]).map(({ nameAr, nameEn, brandAr, brandEn, productNumber }) => ({
    nameAr,
    nameEn,
    brandAr,
    brandEn,
    productNumber,
  }));
  [{ id: certificateId }] = await w.t.database.db
    .insert(certificates)
    .values({ number: 'HC-CREDIT-000001', kind: 'internalHalal', facilityPublicId: FACILITY, verificationCode: 'CREDITCERT01', issuedAt, validFrom: issuedAt, expiresAt: new Date(Date.now() + 700 * DAY), products })
    .returning({ id: certificates.id });
  // The first package: 16 tags for 2 products, paid on the portal.
  first = await draft(16);
  const { request, steps } = await walk(w, first.id, { applicant: 'internal.main', until: 1005 });
  expect(request.status.code, JSON.stringify(steps)).toBe(1005);
}, 120_000);
afterAll(() => w?.t.close());

describe('a package is billed per tag and names its products', () => {
  it('bills 16 tags x 500 SAR with VAT, names the 2 products on the bill, and issues 2 marks (14 tags left unused)', async () => {
    const bill = await billOf(first.id);
    expect(bill).toMatchObject({ amount: '8000.00', vat: '1200.00', total: '9200.00', credit: '0.00', status: { code: 2 } });
    // The bill list answers in Arabic by default: the name counts the products (the dual form).
    expect(bill.name).toBe('رسوم علامة الحلال — منتجان');
    expect(await certificatesOf(w, w.as['internal.main'], first.id)).toHaveLength(2);
  });
});

describe('carried-over credit', () => {
  let second: RequestJson;

  it('credits another facility’s package never, even one that names this certificate', async () => {
    // A paid package of another facility with 15 unused tags, linked (as no door allows) to this certificate.
    const [row] = await w.t.database.db.select().from(requests).where(eq(requests.id, first.id));
    const { id: _id, number: _n, ...rest } = row;
    const [forged] = await w.t.database.db.insert(requests).values({ ...rest, number: 'R-FORGED-1', facilityPublicId: OTHER }).returning({ id: requests.id });
    await w.t.database.db.insert(bills).values({ number: 'B-FORGED-1', requestId: forged.id, facilityPublicId: OTHER, service: 6, feeKind: 'halalMark', amount: '8000.00', vat: '1200.00', total: '9200.00', status: 2 });
    await w.t.database.db
      .insert(certificates)
      .values({ number: 'HM-FORGED-1', kind: 'halalMark', requestId: forged.id, facilityPublicId: OTHER, verificationCode: 'FORGEDMARK01', expiresAt: new Date(Date.now() + 300 * DAY) });
    // 8 tags = 4,000 SAR; the balance of the first package alone (14 x 500 = 7,000) covers it: nothing of the other's 7,500.
    second = await draft(8);
    const p = await preview(second.id);
    expect(p.markPackage).toEqual({ products: 2, tags: 8, price: '4000.00', credit: '4000.00', creditLeft: '3000.00' });
    expect(p.charge).toEqual({ amount: '0.00', vat: '0.00', total: '0.00' });
  });

  it('a package the balance covers is billed 0.00 (never below zero), settled by the credit, and its marks are issued without a payment', async () => {
    expect((await submit(second)).statusCode).toBe(200);
    const bill = await billOf(second.id);
    expect(bill).toMatchObject({ amount: '0.00', vat: '0.00', total: '0.00', credit: '4000.00', status: { code: 2 } });
    const { request, steps } = await walk(w, second.id, { applicant: 'internal.main', until: 1005, payBills: false });
    expect(request.status.code, JSON.stringify(steps)).toBe(1005);
    expect(steps.some((s) => s.by === 'portal')).toBe(false);
    expect(await certificatesOf(w, w.as['internal.main'], second.id)).toHaveLength(2);
  });

  it('uses each balance once: two packages billed at the same time share what is left (3,000 + 3,000), never take it twice', async () => {
    // Left: 3,000 of the first package, and the second's 6 unused tags at the 500 a tag it paid (by credit) = 3,000.
    const [a, b] = [await draft(16), await draft(16)];
    expect((await preview(a.id)).markPackage).toMatchObject({ price: '8000.00', credit: '6000.00', creditLeft: '0.00' });
    const answers = await Promise.all([submit(a), submit(b)]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    const [billA, billB] = [await billOf(a.id), await billOf(b.id)];
    expect([billA.credit, billB.credit].sort()).toEqual(['0.00', '6000.00']);
    expect([billA.amount, billB.amount].sort()).toEqual(['2000.00', '8000.00']);
    const charged = await w.t.database.db.select().from(markPackageCredits);
    const bySource = new Map<string, number>();
    for (const c of charged) bySource.set(c.sourceRequestId, (bySource.get(c.sourceRequestId) ?? 0) + Number(c.amount));
    // The first package's 7,000 and the second's 3,000 were credited in full, never more; the forged one never.
    expect(Object.fromEntries(bySource)).toEqual({ [first.id]: 7000, [second.id]: 3000 });
  });

  it('gives the credit back when the package is cancelled before payment', async () => {
    const bills2 = await Promise.all((await w.t.database.db.select().from(markPackageCredits)).map((c) => c.usedByRequestId));
    const taker = bills2.find((id) => id !== second.id)!;
    const version = (await w.as['internal.main'].get(`/api/requests/${taker}`)).json().version as number;
    const cancel = await send(w.as['internal.main'], taker, 'CANCEL', version, { reason: 'Wrong package size' });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const again = await draft(8);
    expect((await preview(again.id)).markPackage).toMatchObject({ price: '4000.00', credit: '4000.00', creditLeft: '2000.00' });
  });
});
