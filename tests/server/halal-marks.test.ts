import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type Client, type TestApp } from '../helpers/app';
import { certificates, requests } from '../../db/schema';
import { SYSTEM_ACTOR } from '../../machines/actor';

/*
 * Issue 14 item 3, issued Halal marks: the list (kind=halalMark) with search by number, product and status, the mark
 * page (its certificate, validity, scope), its own lifecycle's history, and cancellation with a required reason —
 * through the generic event door, by the holder or certificate staff only; a refusal changes nothing; the public
 * verification page shows a cancelled mark as cancelled.
 */

const DAY = 86_400_000;
const FACILITY = 'inf-almarai-foods';
let t: TestApp;
let holder: Client;
let other: Client;
let registration: Client;
let committee: Client;
let certificateId: string;
const marks: Record<'milk' | 'bread' | 'juice', string> = {} as never;

/** A mark as the engine issues it: its row in certificates and its own lifecycle, whose workflow id is the mark's id. */
async function issueMark(number: string, code: string, product: { nameAr: string; nameEn: string }): Promise<string> {
  const validFrom = new Date(Date.now() - DAY);
  const expiresAt = new Date(Date.now() + 300 * DAY);
  const view = await t.app.engine.start(
    'halalMark',
    { ownerUserId: 'seed', facilityId: FACILITY, data: { validFrom: validFrom.toISOString(), expiresAt: expiresAt.toISOString(), certificateId } },
    SYSTEM_ACTOR,
  );
  await t.database.db.insert(certificates).values({
    id: view.id,
    number,
    kind: 'halalMark',
    facilityPublicId: FACILITY,
    scope: 'Saudi',
    products: [product],
    verificationCode: code,
    issuedAt: validFrom,
    validFrom,
    expiresAt,
    status: 1,
  });
  // Its validity has started: the start timer moves it to active (1), as the timer runner would.
  await t.app.engine.send(view.id, { type: 'VALIDITY_STARTED' }, SYSTEM_ACTOR);
  return view.id;
}

const en = { headers: { 'accept-language': 'en' } };
const ar = { headers: { 'accept-language': 'ar' } };
const list = async (c: Client, query: string) => {
  const res = await c.get(`/api/certificates?kind=halalMark&${query}`, en);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: { id: string; number: string; product: { nameEn: string } | null; status: { public: string; label: string } }[] }).items;
};
const version = async (id: string) => (await t.app.engine.get(id))!.version;
/** CANCEL through the generic event door every lifecycle uses; `reason` undefined sends none. */
const cancel = (c: Client, id: string, reason: string | undefined, expectedVersion: number, opts = en) =>
  c.post(`/api/requests/${id}/events`, { type: 'CANCEL', expectedVersion, payload: reason === undefined ? {} : { reason } }, opts);

beforeAll(async () => {
  t = await createTestApp();
  const issuedAt = new Date(Date.now() - 100 * DAY);
  [{ id: certificateId }] = await t.database.db
    .insert(certificates)
    .values({
      number: 'HC-MARKS-000001',
      kind: 'internalHalal',
      facilityPublicId: FACILITY,
      verificationCode: 'MARKSCERT01',
      issuedAt,
      validFrom: issuedAt,
      expiresAt: new Date(Date.now() + 600 * DAY),
      // The products its marks name: a mark is issued only for a product on its certificate, and one whose product is no
      // longer on it reads withdrawn (tests/server/mark-certificate-state.test.ts).
      products: [
        { nameAr: 'حليب طازج', nameEn: 'Fresh milk' },
        { nameAr: 'خبز أبيض', nameEn: 'White bread' },
        { nameAr: 'عصير برتقال', nameEn: 'Orange juice' },
      ],
    })
    .returning({ id: certificates.id });
  marks.milk = await issueMark('HM-MARKS-000001', 'MARKCODE0001', { nameAr: 'حليب طازج', nameEn: 'Fresh milk' });
  marks.bread = await issueMark('HM-MARKS-000002', 'MARKCODE0002', { nameAr: 'خبز أبيض', nameEn: 'White bread' });
  marks.juice = await issueMark('HM-MARKS-000003', 'MARKCODE0003', { nameAr: 'عصير برتقال', nameEn: 'Orange juice' });
  [holder, other, registration, committee] = await Promise.all(['internal.main', 'external', 'registration', 'committee'].map((u) => t.login(u)));
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('issued marks: list and search', () => {
  it('lists the facility’s marks with their product and status, and finds them by number, product and status', async () => {
    const all = await list(holder, '');
    expect(all.map((m) => m.number).sort()).toEqual(['HM-MARKS-000001', 'HM-MARKS-000002', 'HM-MARKS-000003']);
    expect(all.find((m) => m.id === marks.milk)).toMatchObject({ product: { nameEn: 'Fresh milk' }, status: { public: 'active', label: 'Active' } });
    expect((await list(holder, 'number=000002')).map((m) => m.number)).toEqual(['HM-MARKS-000002']);
    expect((await list(holder, 'product=juice')).map((m) => m.number)).toEqual(['HM-MARKS-000003']);
    expect((await list(holder, `product=${encodeURIComponent('خبز')}`)).map((m) => m.number)).toEqual(['HM-MARKS-000002']);
    expect(await list(holder, 'status=cancelled')).toEqual([]);
  });

  it('another facility sees none of them; staff see them all', async () => {
    expect(await list(other, '')).toEqual([]);
    expect((await other.get(`/api/certificates?kind=halalMark&facilityId=${FACILITY}`)).statusCode).toBe(403);
    expect((await list(registration, `facilityId=${FACILITY}`)).length).toBe(3);
  });

  it('the mark page names its product, the certificate it belongs to, its validity and scope', async () => {
    const res = await holder.get(`/api/certificates/${marks.milk}`, en);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      kind: 'halalMark',
      scope: 'Saudi',
      products: [{ nameEn: 'Fresh milk' }],
      certificate: { id: certificateId, number: 'HC-MARKS-000001' },
      status: { code: 1, public: 'active' },
    });
    expect((await other.get(`/api/certificates/${marks.milk}`)).statusCode).toBe(404);
  });
});

describe('cancelling a mark', () => {
  it('offers the holder CANCEL with a required reason; another facility is offered nothing', async () => {
    const res = await holder.get(`/api/requests/${marks.milk}/actions`, en);
    expect(res.statusCode).toBe(200);
    expect(res.json().actions).toEqual([expect.objectContaining({ type: 'CANCEL', requiresReason: true })]);
    expect((await other.get(`/api/requests/${marks.milk}/actions`)).statusCode).toBe(404);
  });

  it('refuses a cancellation without a reason, in Arabic and in English, and changes nothing', async () => {
    const before = await version(marks.milk);
    const enRes = await cancel(holder, marks.milk, undefined, before, en);
    expect(enRes.statusCode).toBe(400);
    expect(enRes.body).toContain('A reason is required');
    const arRes = await cancel(holder, marks.milk, '   ', before, ar);
    expect(arRes.statusCode).toBe(400);
    expect(arRes.body).toContain('السبب مطلوب');
    // Invisible marks alone (direction isolates, a zero-width space) write nothing a person could read.
    const invisible = await cancel(holder, marks.milk, ' \u2066\u200B\u2069 ', before, en);
    expect(invisible.statusCode).toBe(400);
    expect(invisible.body).toContain('A reason is required');
    expect(await version(marks.milk)).toBe(before);
    expect((await list(holder, 'number=000001'))[0].status.public).toBe('active');
  });

  it('refuses another facility (404, the mark is not theirs to see) and staff without the certificate permission (403); nothing changes', async () => {
    const before = await version(marks.bread);
    expect((await cancel(other, marks.bread, 'not ours', before)).statusCode).toBe(404);
    expect((await cancel(registration, marks.bread, 'no permission', before)).statusCode).toBe(403);
    expect(await version(marks.bread)).toBe(before);
    const [row] = await t.database.db.select().from(requests).where(eq(requests.id, marks.bread));
    expect(row.stateValue).toBe('active');
  });

  it('the holder cancels with a reason: the list, the page, the history and the public verification show it cancelled', async () => {
    const res = await cancel(holder, marks.milk, 'Product withdrawn from the market', await version(marks.milk));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toMatchObject({ code: 2 });

    expect((await list(holder, 'status=cancelled')).map((m) => m.number)).toEqual(['HM-MARKS-000001']);
    expect((await list(holder, 'status=active')).map((m) => m.number).sort()).toEqual(['HM-MARKS-000002', 'HM-MARKS-000003']);
    const page = (await holder.get(`/api/certificates/${marks.milk}`, ar)).json();
    expect(page.status).toMatchObject({ public: 'cancelled', label: 'ملغاة' });

    const history = (await holder.get(`/api/requests/${marks.milk}/history`, en)).json().items as { event: string; note?: string | null }[];
    expect(history.map((h) => h.event)).toEqual(['START', 'VALIDITY_STARTED', 'CANCEL']);
    expect(JSON.stringify(history.at(-1))).toContain('Product withdrawn from the market');

    const verify = await t.anonymous.get('/api/public/verify/MARKCODE0001', en);
    expect(verify.statusCode).toBe(200);
    expect(verify.json()).toMatchObject({ found: true, certificate: { status: 'cancelled' } });
    // Nothing more can be done with a cancelled mark.
    expect((await holder.get(`/api/requests/${marks.milk}/actions`)).json().actions).toEqual([]);
  });

  it('certificate staff (the decision committee) may cancel a mark too, with a reason', async () => {
    const res = await cancel(committee, marks.juice, 'Issued in error', await version(marks.juice));
    expect(res.statusCode, res.body).toBe(200);
    expect((await t.anonymous.get('/api/public/verify/MARKCODE0003')).json()).toMatchObject({ certificate: { status: 'cancelled' } });
  });
});
