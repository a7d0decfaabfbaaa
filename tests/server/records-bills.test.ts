import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Client, type TestApp } from '../helpers/app';
import { completeDraft } from '../helpers/requests';
import { bills, certificates } from '../../db/schema';
import { readPdf } from '../helpers/pdf';

/*
 * Invoices as a facility keeps them: single and month-end bulk bills, issued at the payment portal or not, with the
 * amounts without VAT, the VAT and the total exactly as stored; a Halal-mark bill named with its product count; and
 * never another facility's bill.
 */

const DAY = 86_400_000;
let t: TestApp;
let almarai: Client;
let anatolia: Client;
let staff: Client;
const ids: Record<'single' | 'bulk' | 'mark' | 'other', string> = {} as never;

interface Bill {
  id: string;
  number: string;
  name: string;
  issued: boolean;
  bulk: boolean;
  period: string | null;
  productCount: number | null;
  amount: string;
  vat: string;
  total: string;
  requestNumber: string | null;
  facility: { publicId: string };
}
const list = async (c: Client, query: string, lang = 'en') => {
  const res = await c.get(`/api/bills?${query}`, { headers: { 'accept-language': lang } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: Bill[]; totalCount: number };
};
const numbersOf = async (c: Client, query: string) => (await list(c, query)).items.map((b) => b.number).sort();

type NewBill = typeof bills.$inferInsert;
async function insertBill(values: Partial<NewBill> & Pick<NewBill, 'number' | 'facilityPublicId' | 'amount' | 'vat' | 'total'>) {
  const [row] = await t.database.db
    .insert(bills)
    .values({ service: 6, feeKind: 'certificate', status: 1, createdAt: new Date(), ...values })
    .returning({ id: bills.id });
  return row.id;
}

beforeAll(async () => {
  t = await createTestApp();
  [almarai, anatolia, staff] = await Promise.all(['internal.main', 'external', 'registration'].map((u) => t.login(u)));
  // A Halal-mark request for two products of the facility's certificate; its bill is named with the product count.
  const issuedAt = new Date(Date.now() - 30 * DAY);
  const [cert] = await t.database.db
    .insert(certificates)
    .values({
      number: 'HC-BILL-000001',
      kind: 'internalHalal',
      facilityPublicId: 'inf-almarai-foods',
      verificationCode: 'BILLCODE0001',
      issuedAt,
      validFrom: issuedAt,
      expiresAt: new Date(Date.now() + 300 * DAY),
      products: [
        { nameAr: 'حليب طازج كامل الدسم', nameEn: 'Fresh Full Fat Milk', brandAr: 'المراعي', brandEn: 'Almarai', productNumber: 'SFDA2024000000001' },
        { nameAr: 'خبز أبيض شرائح', nameEn: 'Sliced White Bread', brandAr: 'لوزين', brandEn: 'Lusine', productNumber: 'SFDA2024000000002' },
      ] as never,
    })
    .returning({ id: certificates.id });
  const mark = await completeDraft(almarai, 'internalHalalMark', 'inf-almarai-foods', { certificateId: cert.id });

  ids.single = await insertBill({ number: 'B-REC-0001', facilityPublicId: 'inf-almarai-foods', paymentReference: 'PR-REC-1', amount: '1000.00', vat: '150.00', total: '1150.00' });
  ids.bulk = await insertBill({
    number: 'B-REC-0002',
    facilityPublicId: 'inf-almarai-foods',
    feeKind: 'bulkInvoice',
    bulk: true,
    period: '2026-10',
    amount: '2000.10',
    vat: '300.02',
    total: '2300.12',
  });
  ids.mark = await insertBill({ number: 'B-REC-0003', facilityPublicId: 'inf-almarai-foods', requestId: mark.id, feeKind: 'halalMark', service: 7, amount: '400.00', vat: '60.00', total: '460.00' });
  ids.other = await insertBill({ number: 'B-REC-0004', facilityPublicId: 'exf-anatolia-meat', paymentReference: 'PR-REC-4', amount: '500.00', vat: '75.00', total: '575.00' });
}, 90_000);

afterAll(async () => {
  await t?.close();
});

describe('invoices', () => {
  it('lists the facility’s single and bulk bills with the amounts without VAT, the VAT and the total as stored', async () => {
    const page = await list(almarai, 'facilityId=inf-almarai-foods&pageSize=100');
    const byNumber = Object.fromEntries(page.items.map((b) => [b.number, b]));
    expect(Object.keys(byNumber).sort()).toEqual(['B-REC-0001', 'B-REC-0002', 'B-REC-0003']);
    expect(byNumber['B-REC-0001']).toMatchObject({ amount: '1000.00', vat: '150.00', total: '1150.00', issued: true, bulk: false });
    expect(byNumber['B-REC-0002']).toMatchObject({ amount: '2000.10', vat: '300.02', total: '2300.12', issued: false, bulk: true, period: '2026-10' });
  });

  it('names a bulk bill by its month and a Halal-mark bill with its product count, in both languages', async () => {
    const en = Object.fromEntries((await list(almarai, 'pageSize=100')).items.map((b) => [b.number, b]));
    expect(en['B-REC-0002'].name).toBe('Monthly invoice 2026-10');
    expect(en['B-REC-0003']).toMatchObject({ productCount: 2, name: 'Halal mark fee — 2 products' });
    expect(en['B-REC-0001'].name).toBe('Certificate fees');
    const ar = Object.fromEntries((await list(almarai, 'pageSize=100', 'ar')).items.map((b) => [b.number, b]));
    expect(ar['B-REC-0003'].name).toMatch(/منتجان$/);
    expect(ar['B-REC-0002'].name).toBe('الفاتورة الشهرية 2026-10');
  });

  it('filters issued / not issued and single / bulk', async () => {
    expect(await numbersOf(almarai, 'issued=true')).toEqual(['B-REC-0001']);
    expect(await numbersOf(almarai, 'issued=false')).toEqual(['B-REC-0002', 'B-REC-0003']);
    expect(await numbersOf(almarai, 'bulk=true')).toEqual(['B-REC-0002']);
    expect(await numbersOf(almarai, 'bulk=false')).toEqual(['B-REC-0001', 'B-REC-0003']);
  });

  it('finds a bill by its number, its payment reference or its request’s number', async () => {
    expect(await numbersOf(almarai, 'any=rec-0002')).toEqual(['B-REC-0002']);
    expect(await numbersOf(almarai, 'any=PR-REC-1')).toEqual(['B-REC-0001']);
    const markBill = (await list(almarai, 'any=B-REC-0003')).items[0];
    expect(markBill.requestNumber).toBeTruthy();
    expect(await numbersOf(almarai, `any=${encodeURIComponent(markBill.requestNumber!)}`)).toEqual(['B-REC-0003']);
  });

  it('never lists another facility’s bill: not in the list, not by search, not by asking for its facility', async () => {
    const all = await list(almarai, 'pageSize=100');
    expect(all.items.every((b) => b.facility.publicId === 'inf-almarai-foods')).toBe(true);
    expect(await numbersOf(almarai, 'any=B-REC-0004')).toEqual([]);
    expect((await almarai.get('/api/bills?facilityId=exf-anatolia-meat')).statusCode).toBe(403);
    expect((await almarai.get(`/api/bills/${ids.other}`)).statusCode).toBe(404);
    expect((await almarai.get(`/api/bills/${ids.other}/file`)).statusCode).toBe(404);
  });

  it('the other facility sees its own bill and staff see every facility’s', async () => {
    expect(await numbersOf(anatolia, 'pageSize=100')).toEqual(['B-REC-0004']);
    expect(await numbersOf(staff, 'any=B-REC&pageSize=100')).toEqual(['B-REC-0001', 'B-REC-0002', 'B-REC-0003', 'B-REC-0004']);
  });

  it('the bill file is a PDF for the facility', async () => {
    const res = await almarai.get(`/api/bills/${ids.single}/file`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/pdf/);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('a Halal-mark bill’s file names the Halal mark as its service, as the invoice list and the payment portal do', async () => {
    // Billed under payment service 7 (the external certificate's): the file printed that service's name.
    const { text } = await readPdf((await almarai.get(`/api/bills/${ids.mark}/file`)).rawPayload);
    const [en, ar] = await Promise.all(['en', 'ar'].map(async (lang) => (await almarai.get(`/api/bills/${ids.mark}`, { headers: { 'accept-language': lang } })).json() as { service: { name: string } }));
    expect([en.service.name, ar.service.name]).toEqual(['Halal mark', 'علامة حلال']);
    expect(text).toContain('Halal mark\n');
    expect(text).toContain('علامة حلال');
    expect(text).not.toContain('External facility Halal certificate');
    expect(text).not.toContain('شهادة حلال لمنشأة خارجية');
  });
});
