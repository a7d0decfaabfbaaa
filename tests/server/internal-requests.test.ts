import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { certificates } from '../../db/schema';
import { SYSTEM_ACTOR } from '../../machines/actor';
import { createTestApp, type Client, type TestApp } from '../helpers/app';
import { uploadTo } from '../helpers/requests';

/**
 * The wizard's calls, which are every service's (POST /api/requests/:id/events): an EDIT's sections are validated with
 * the form's zod schemas, submission validates the whole form first (same bilingual messages as the web), the draft
 * shows its deletion date, returned requests take only their returned sections, and a request's certificate is found.
 */
let t: TestApp;
let applicant: Client;
let external: Client;
let registration: Client;

beforeAll(async () => {
  t = await createTestApp();
  [applicant, external, registration] = await Promise.all(['internal.main', 'external', 'registration'].map((u) => t.login(u)));
});
afterAll(() => t?.close());

const FORM = {
  factory: { nameAr: 'مصنع المراعي للأغذية', nameEn: 'Almarai Foods Factory', commercialRegistrationNumber: '1010123456', totalAnnualRevenue: '5000000', fullTimeEmployees: '120' },
  address: { countryCode: 'SA', city: 'الرياض', district: 'العليا', street: 'طريق الملك فهد', zipCode: '12211', buildingNumber: '1234', additionalNumber: '5678' },
  branches: { hasBranches: false, items: [] },
  trademarks: [{ nameAr: 'المراعي', nameEn: 'Almarai' }],
  products: [
    {
      nameAr: 'حليب طازج', nameEn: 'Fresh Milk', brandAr: 'المراعي', brandEn: 'Almarai', saudiHsCode: '040110', globalHsCode: '040110',
      productNumber: 'ABC12345678901234', category: 'CI', netWeight: '1', grossWeight: '1.1', unit: '4', technicalSpecifications: [],
    },
  ],
  hsCodes: ['040110'],
  categories: [{ category: 'C', subCategories: [] }],
  operations: ['processing'],
  production: { productionLines: '3', haccpCriticalPoints: '5', permanentHalalEmployees: '40', shifts: '2', productionArea: '2500' },
  validity: { years: '3' },
  attachments: [
    { id: randomUUID(), category: 'commercialRegistrationCopy' },
    { id: randomUUID(), category: 'industrialLicense' },
  ],
};

/** A new draft; `form` is FORM with attachments really uploaded to it (submission checks they belong to the request). */
async function draft() {
  const res = await applicant.post('/api/requests', { kind: 'internalCertificate', facilityId: 'inf-almarai-foods', data: {} });
  expect(res.statusCode).toBe(201);
  const r = res.json() as { id: string; version: number };
  const attachments = [
    { id: await uploadTo(applicant, 'inf-almarai-foods', r.id, 'commercialRegistrationCopy'), category: 'commercialRegistrationCopy' },
    { id: await uploadTo(applicant, 'inf-almarai-foods', r.id, 'industrialLicense'), category: 'industrialLicense' },
  ];
  return { ...r, form: { ...FORM, attachments } };
}
const save = (c: Client, id: string, expectedVersion: number, form: Record<string, unknown>, lang = 'en') =>
  c.post(`/api/requests/${id}/events?lang=${lang}`, { type: 'EDIT', expectedVersion, payload: { data: form } });
const submit = (c: Client, id: string, expectedVersion: number, agreementAccepted = true, lang = 'en') =>
  c.post(`/api/requests/${id}/events?lang=${lang}`, { type: 'SUBMIT', expectedVersion, payload: { agreementAccepted } });
const resubmit = (c: Client, id: string, expectedVersion: number) => c.post(`/api/requests/${id}/events?lang=en`, { type: 'RESUBMIT', expectedVersion, payload: {} });
const members = (res: { json(): unknown }) =>
  ((res.json() as { error: { validationErrors?: { members: string[]; message: string }[] } }).error.validationErrors ?? []).flatMap((v) => v.members);

describe('saving wizard steps (EDIT)', () => {
  it('saves the filled steps as the request sections they are, storing the parsed values (numbers as numbers)', async () => {
    const r = await draft();
    const res = await save(applicant, r.id, r.version, { factory: FORM.factory, operations: ['processing'], production: FORM.production });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      factory: { ...FORM.factory, fullTimeEmployees: 120 },
      operations: ['processing'],
      production: { productionLines: 3, haccpCriticalPoints: 5, permanentHalalEmployees: 40, shifts: 2, productionArea: 2500 },
    });
    expect(res.json().version).toBe(r.version + 1);
  });

  it('refuses a filled field that breaks its rule, naming the field, in the caller language, and writes nothing', async () => {
    const r = await draft();
    const bad = await save(applicant, r.id, r.version, { factory: { ...FORM.factory, commercialRegistrationNumber: '12AB' } });
    expect(bad.statusCode).toBe(400);
    expect(members(bad)).toContain('factory.commercialRegistrationNumber');
    const ar = await save(applicant, r.id, r.version, { products: [{ ...FORM.products[0], saudiHsCode: '123' }] }, 'ar');
    expect(ar.statusCode).toBe(400);
    expect(JSON.stringify(ar.json())).toMatch(/[\u0600-\u06FF]/);
    expect((await applicant.get(`/api/requests/${r.id}`)).json().version).toBe(r.version);
  });

  it('is refused to a user of another facility (the request does not exist for them)', async () => {
    const r = await draft();
    expect((await save(external, r.id, r.version, { factory: FORM.factory })).statusCode).toBe(404);
  });
});

describe('GET /api/requests/:id/deletion of an internal certificate request', () => {
  it('tells a draft how many days are left before its automatic deletion, and nothing once submitted', async () => {
    const r = await draft();
    expect((await applicant.get(`/api/requests/${r.id}/deletion`)).json().daysLeft).toBe(30);
    const saved = (await save(applicant, r.id, r.version, r.form)).json();
    expect((await submit(applicant, r.id, saved.version)).statusCode).toBe(200);
    expect((await applicant.get(`/api/requests/${r.id}/deletion`)).json()).toEqual({ dueAt: null, daysLeft: null });
  });
});

describe('submitting and resubmitting (SUBMIT, RESUBMIT)', () => {
  it('refuses an incomplete form with every missing step, and an unticked agreement', async () => {
    const r = await draft();
    const saved = (await save(applicant, r.id, r.version, { factory: FORM.factory })).json();
    const res = await submit(applicant, r.id, saved.version);
    expect(res.statusCode).toBe(400);
    expect(members(res)).toEqual(expect.arrayContaining(['address', 'products', 'attachments']));
    const full = (await save(applicant, r.id, saved.version, r.form)).json();
    const unticked = await submit(applicant, r.id, full.version, false);
    expect(unticked.statusCode).toBe(400);
    expect(members(unticked)).toEqual(['agreementAccepted']);
  });

  it('refuses a product whose brand is not a trademark (cross-step rule) and submits a complete form to the application fee', async () => {
    const r = await draft();
    const wrongBrand = (await save(applicant, r.id, r.version, { ...r.form, trademarks: [{ nameAr: 'نادك', nameEn: 'Nadec' }] })).json();
    expect((await submit(applicant, r.id, wrongBrand.version)).statusCode).toBe(400);
    const good = (await save(applicant, r.id, wrongBrand.version, { trademarks: FORM.trademarks })).json();
    const res = await submit(applicant, r.id, good.version);
    expect(res.statusCode).toBe(200);
    expect(res.json().status.code).toBe(2);
  });

  it('resubmits a returned request, where only the returned sections may be saved', async () => {
    const r = await draft();
    const saved = (await save(applicant, r.id, r.version, r.form)).json();
    await submit(applicant, r.id, saved.version);
    await t.app.engine.send(r.id, { type: 'PAYMENT_CONFIRMED' }, SYSTEM_ACTOR);
    const v = (await registration.get(`/api/requests/${r.id}`)).json().version;
    const taken = await registration.post(`/api/requests/${r.id}/events`, { type: 'ASSIGN_TO_ME', expectedVersion: v });
    const back = await registration.post(`/api/requests/${r.id}/events`, {
      type: 'RETURN',
      expectedVersion: taken.json().version,
      payload: { reason: 'Correct the weights', sections: ['products'] },
    });
    expect(back.json().status.code).toBe(5);
    const version = back.json().version;
    // An edit of a section that was not returned is refused naming that section (400, nothing written).
    const outside = await save(applicant, r.id, version, { factory: FORM.factory });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().error.validationErrors).toEqual([expect.objectContaining({ members: ['factory'], message: 'Only the sections returned for correction can be edited' })]);
    const fixed = await save(applicant, r.id, version, { products: [{ ...FORM.products[0], netWeight: '0.95' }] });
    expect(fixed.statusCode).toBe(200);
    const res = await resubmit(applicant, r.id, fixed.json().version);
    expect(res.statusCode).toBe(200);
    expect(res.json().status.code).toBe(1);
  });
});

describe('internal certificate renewal (type 202)', () => {
  const DAY = 86_400_000;
  async function certificate(daysLeft: number, requestId: string | null = null) {
    const [row] = await t.database.db
      .insert(certificates)
      .values({
        number: `HC-TEST-${randomUUID().slice(0, 8)}`,
        kind: 'internalHalal',
        facilityPublicId: 'inf-almarai-foods',
        requestId,
        verificationCode: randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase(),
        expiresAt: new Date(Date.now() + daysLeft * DAY),
      })
      .returning({ id: certificates.id });
    return row!.id;
  }

  const RENEWAL = { reason: 'The certificate expires next month', notes: 'Same products and lines' };

  /** The generic start every service uses (POST /api/requests), for the renewal of a certificate. */
  const startRenewal = (id: string) => applicant.post('/api/requests?lang=en', { kind: 'internalRenewal', facilityId: 'inf-almarai-foods', certificateId: id });

  it('opens under 60 days left through the generic start: the draft carries the certified request data and the certificate, the reason is asked in the wizard', async () => {
    const r = await draft();
    const saved = (await save(applicant, r.id, r.version, r.form)).json();
    const id = await certificate(30, r.id);
    const res = await startRenewal(id);
    expect(res.statusCode).toBe(201);
    const renewal = res.json();
    expect(renewal).toMatchObject({ kind: 'internalRenewal', status: { code: 106 }, data: { factory: saved.data.factory, products: saved.data.products }, context: { subject: { certificateId: id } } });
    expect(renewal.data.renewal).toBeUndefined();
    // The reason is required at submission: refused, the section named with the sentence a user reads, nothing written.
    const bare = await submit(applicant, renewal.id, renewal.version);
    expect(bare.statusCode).toBe(400);
    expect(bare.json().error.validationErrors).toContainEqual(expect.objectContaining({ members: ['renewal'], message: 'This field is required' }));
    const given = await save(applicant, renewal.id, renewal.version, { renewal: RENEWAL });
    expect([given.statusCode, given.json().data.renewal]).toEqual([200, RENEWAL]);
    // The files came with the certified request's data: they are its own, and the renewal is sent with them as they are.
    expect(renewal.data.attachments).toEqual(saved.data.attachments);
    const sent = await submit(applicant, renewal.id, given.json().version);
    expect(sent.statusCode, sent.body).toBe(200);
    // A file of another request of the facility (not the certified one) is still refused.
    const other = await draft();
    const [stray] = other.form.attachments;
    // The renewal's file list names the prefilled files (the wizard and the request page show each by it), no other's.
    const listed = (await applicant.get(`/api/attachments?facilityPublicId=inf-almarai-foods&requestId=${renewal.id}`)).json() as { id: string; name: string }[];
    expect(listed.map((a) => a.id).sort()).toEqual(saved.data.attachments.map((a: { id: string }) => a.id).sort());
    expect(listed.every((a) => a.name.length > 0)).toBe(true);
    expect(listed.map((a) => a.id)).not.toContain(stray.id);
    const second = (await startRenewal(await certificate(30, r.id))).json();
    const strayed = await save(applicant, second.id, second.version, { renewal: RENEWAL, attachments: [stray, ...saved.data.attachments.slice(1)] });
    const refused = await submit(applicant, second.id, strayed.json().version);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.validationErrors).toContainEqual(expect.objectContaining({ message: expect.stringMatching(/^A file named in this request was not found/) }));
    // One renewal of a certificate at a time, said in the start's words.
    const again = await startRenewal(id);
    expect([again.statusCode, again.json().error.code]).toEqual([409, 'RequestAlreadyOpen']);
    expect(again.json().error.message).toBe('A request for this service is already open. Continue it or wait until it is finished.');
  });

  it('stays closed with more than 60 days left, and a certificate of another facility does not exist for the caller', async () => {
    const id = await certificate(200);
    const res = await startRenewal(id);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('RenewalNotOpen');
    // The start page reads the certificate: another facility's answers 404.
    expect((await external.get(`/api/certificates/${id}`)).statusCode).toBe(404);
  });

  it('answers a start page before its button is pressed with the refusal the start itself would give, and starts nothing', async () => {
    const check = (c: Client, id: string, lang = 'en') =>
      c.get(`/api/requests/start-check?kind=internalRenewal&facilityId=inf-almarai-foods&certificateId=${id}&lang=${lang}`);
    const far = await certificate(200);
    // A refused start is an answer (200), not an error: the page asked a question.
    const refused = await check(applicant, far);
    expect(refused.statusCode).toBe(200);
    expect(refused.json()).toMatchObject({ canStart: false, refusal: { code: 'RenewalNotOpen' } });
    // The same words as the start's own refusal, with the window's days, in the caller's language.
    const started = await startRenewal(far);
    expect(started.statusCode).toBe(400);
    expect(refused.json().refusal).toEqual(started.json().error);
    expect(refused.json().refusal.message).toBe('A certificate can be renewed only when fewer than 60 days of its validity remain.');
    expect((await check(applicant, far, 'ar')).json().refusal.message).toMatch(/^لا يمكن تجديد الشهادة.*60/);

    const near = await certificate(30);
    expect((await check(applicant, near)).json()).toEqual({ canStart: true, refusal: null });
    // Nothing was started by asking: the start goes through, and then the check says one is open.
    expect((await startRenewal(near)).statusCode).toBe(201);
    const open = await check(applicant, near);
    expect([open.statusCode, open.json().canStart, open.json().refusal.code]).toEqual([200, false, 'RequestAlreadyOpen']);
    // Another facility's user learns nothing about it.
    expect((await check(external, near)).statusCode).toBe(404);
  });
});
