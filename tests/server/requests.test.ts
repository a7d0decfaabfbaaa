import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { bills, certificates, requestHistory, requests } from '../../db/schema';
import { SYSTEM_ACTOR } from '../../machines/actor';
import { createTestApp, type Client, type TestApp } from '../helpers/app';
import { completeDraft, send } from '../helpers/requests';
import { VALID_DATA } from '../services/fixtures';
import { ZRequest } from '../../server/modules/requests/schemas';

/** The workflow calls through the HTTP stack: sessions, policies, visibility, errors in the caller's language. */
let t: TestApp;
let applicant: Client;
let subUser: Client;
let external: Client;
let registration: Client;
let committee: Client;

beforeAll(async () => {
  t = await createTestApp();
  [applicant, subUser, external, registration, committee] = await Promise.all(
    ['internal.main', 'internal.sub', 'external', 'registration', 'committee'].map((u) => t.login(u)),
  );
});
afterAll(() => t?.close());

const FACILITY = 'inf-almarai-foods';
/** A complete internal certificate draft, its attachments uploaded: version 2 (START, then the EDIT that filled it). */
const startDraft = () => completeDraft(applicant, 'internalCertificate', FACILITY);

/** Submits and confirms the application fee, as the payment callback would: the request waits in registration. */
async function inRegistration() {
  const r = await startDraft();
  expect((await send(applicant, r.id, 'SUBMIT', r.version, { agreementAccepted: true })).statusCode).toBe(200);
  await t.app.engine.send(r.id, { type: 'PAYMENT_CONFIRMED' }, SYSTEM_ACTOR);
  return r;
}

describe('POST /api/requests', () => {
  it('starts a draft for a facility of the caller, with status label, version and data', async () => {
    const res = await applicant.post('/api/requests?lang=en', { kind: 'internalCertificate', facilityId: FACILITY, data: { trademarks: [] } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      kind: 'internalCertificate',
      status: { code: 0, label: 'Draft' },
      version: 1,
      facilityId: FACILITY,
      queue: 'applicant',
      assigneeUserId: null,
      creatorName: 'Khalid Al-Harbi',
      data: { trademarks: [] },
    });
    const ar = await applicant.get(`/api/requests/${res.json().id}?lang=ar`);
    expect(ar.json().status.label).toBe('مسودة');
  });

  it('the first data must be sections of the kind', async () => {
    const res = await applicant.post('/api/requests', { kind: 'internalCertificate', facilityId: FACILITY, data: { horoscope: {} } });
    expect(res.statusCode).toBe(400);
    // Data issues name the field from the data's root (the wizard's field paths).
    expect(res.json().error.validationErrors[0].members).toEqual(['horoscope']);
  });

  it('refuses a facility the caller is not a member of (it does not exist for them), kinds nobody starts, and anonymous callers', async () => {
    expect((await applicant.post('/api/requests', { kind: 'internalCertificate', facilityId: 'exf-anatolia-meat' })).statusCode).toBe(404);
    expect((await applicant.post('/api/requests', { kind: 'bill', facilityId: FACILITY })).statusCode).toBe(400);
    expect((await applicant.post('/api/requests', { kind: 'noSuchKind', facilityId: FACILITY })).statusCode).toBe(400);
    expect((await t.anonymous.post('/api/requests', { kind: 'internalCertificate', facilityId: FACILITY })).statusCode).toBe(401);
  });
});

describe('reading a request', () => {
  it('members of the facility and staff see it; anyone else gets 404', async () => {
    const r = await startDraft();
    expect((await applicant.get(`/api/requests/${r.id}`)).statusCode).toBe(200);
    expect((await subUser.get(`/api/requests/${r.id}`)).statusCode).toBe(200);
    expect((await registration.get(`/api/requests/${r.id}`)).statusCode).toBe(200);
    expect((await external.get(`/api/requests/${r.id}`)).statusCode).toBe(404);
    expect((await external.get(`/api/requests/${r.id}/history`)).statusCode).toBe(404);
    expect((await external.get(`/api/requests/${r.id}/actions`)).statusCode).toBe(404);
    expect((await applicant.get('/api/requests/not-a-uuid')).statusCode).toBe(404);
    expect((await applicant.get('/api/requests/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('names the factory its data chooses by public id, for the applicant and staff alike (walk1 #7)', async () => {
    const r = await completeDraft(external, 'externalCertificate', 'exf-anatolia-meat');
    for (const c of [external, registration]) {
      const read = (await c.get(`/api/requests/${r.id}`)).json();
      expect(read.data.factory.facilityPublicId).toBe('exf-anatolia-meat');
      expect(read.facilityNames['exf-anatolia-meat']).toEqual({ nameAr: expect.any(String), nameEn: 'Anatolia Meat Factory' });
    }
  });

  it('names the facility it is for by its type, so staff open its profile view (crawl: nothing linked to it)', async () => {
    const internal = (await registration.get(`/api/requests/${(await startDraft()).id}`)).json();
    expect(internal.facility).toEqual({ type: 'internal', nameAr: expect.any(String), nameEn: expect.any(String) });
    const ext = await completeDraft(external, 'externalCertificate', 'exf-anatolia-meat');
    expect((await registration.get(`/api/requests/${ext.id}`)).json().facility).toMatchObject({ type: 'external', nameEn: 'Anatolia Meat Factory' });
  });

  it("a draft cannot name a facility its reader may not see (the foreign factory's own account names only itself), so its read names none", async () => {
    const r = await completeDraft(external, 'externalCertificate', 'exf-anatolia-meat');
    const factory = { ...(VALID_DATA.externalCertificate().factory as Record<string, unknown>), facilityPublicId: FACILITY };
    const refused = await send(external, r.id, 'EDIT', r.version, { data: { ...r.data, factory } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.validationErrors.map((e: { key: string }) => e.key)).toEqual(['validation:form.factoryNotOwn']);
    const read = (await external.get(`/api/requests/${r.id}`)).json();
    expect(read.version).toBe(r.version);
    expect(read.data.factory.facilityPublicId).not.toBe(FACILITY);
    expect(read.facilityNames[FACILITY]).toBeUndefined();
  });

  it("names a shipment's exporting conformity body (a public one), never another facility given in its place", async () => {
    const other = VALID_DATA.shipment().other as Record<string, unknown>;
    const shipment = await completeDraft(external, 'shipment', 'exf-anatolia-meat', { data: { other: { ...other, exportingCbPublicId: 'cb-global-halal' } } });
    const read = (await external.get(`/api/requests/${shipment.id}`)).json();
    expect(read.facilityNames['cb-global-halal']).toEqual({ nameAr: expect.stringMatching(/[\u0600-\u06FF]/), nameEn: expect.any(String) });
    const posing = await completeDraft(external, 'shipment', 'exf-anatolia-meat', { data: { other: { ...other, exportingCbPublicId: FACILITY } } });
    expect((await external.get(`/api/requests/${posing.id}`)).json().facilityNames[FACILITY]).toBeUndefined();
  });

  it('the fee preview of a new external certificate lists only what it bills, not a later change’s fee (walk1 #6)', async () => {
    const r = await completeDraft(external, 'externalCertificate', 'exf-anatolia-meat');
    const res = await external.get(`/api/requests/${r.id}/fees?lang=en`);
    expect(res.statusCode, res.body).toBe(200);
    const items = (res.json() as { items: { feeKind: { code: string }; charge: unknown }[] }).items;
    expect(items.map((i) => i.feeKind.code)).toEqual(['certificate']);
    expect(items[0]!.charge).not.toBeNull();
  });

  it('actions are what the machine allows this user now, with labels', async () => {
    const r = await startDraft();
    const mine = (await applicant.get(`/api/requests/${r.id}/actions?lang=en`)).json();
    expect(mine.version).toBe(r.version);
    expect(mine.actions.map((a: { type: string }) => a.type)).toEqual(expect.arrayContaining(['EDIT', 'SUBMIT', 'DELETE']));
    expect(mine.actions.find((a: { type: string }) => a.type === 'SUBMIT').label).toBe('Submit');
    const staff = (await registration.get(`/api/requests/${r.id}/actions`)).json();
    expect(staff.actions.map((a: { type: string }) => a.type)).not.toContain('SUBMIT');
  });
});

describe('POST /api/requests/:id/events', () => {
  it('applies an accepted event and creates the application bill in the same step', async () => {
    const r = await startDraft();
    const res = await send(applicant, r.id, 'SUBMIT', r.version, { agreementAccepted: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ version: r.version + 1, status: { code: 2, label: 'Pending Payment of Application Fee' }, queue: 'payment' });
    const [bill] = await t.database.db.select().from(bills).where(eq(bills.requestId, r.id));
    expect(bill).toMatchObject({ status: 1, feeKind: 'application', facilityPublicId: FACILITY });
    expect(Number(bill.total)).toBeCloseTo(Number(bill.amount) * 1.15, 2);
  });

  it('the answer is exactly the documented request: no key the schema does not name, none missing', async () => {
    // The route writes its 200 body without a zod pass (server/trusted-response.ts): the body must still be what the
    // OpenAPI document says, and the same as GET /api/requests/:id without its clock and facility names.
    const r = await inRegistration();
    const res = await send(registration, r.id, 'ASSIGN_TO_ME', r.version + 2);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(ZRequest.strict().parse(body)).toEqual(body);
    const { clock: _clock, facilityNames: _names, facility: _facility, ...read } = (await registration.get(`/api/requests/${r.id}?lang=en`)).json();
    expect(body).toEqual({ ...read, notices: [], noticeMessages: [] });
    // Back to the queue, unassigned: the queue tests below count this employee's requests.
    expect((await send(registration, r.id, 'CANCEL_ASSIGNMENT', body.version)).statusCode).toBe(200);
  });

  it('a stale expectedVersion is 409 with the concurrency message, in the caller language', async () => {
    const r = await startDraft();
    await send(applicant, r.id, 'SUBMIT', r.version, { agreementAccepted: true });
    const en = await send(applicant, r.id, 'CANCEL', r.version, {}, 'en');
    expect(en.statusCode).toBe(409);
    expect(en.json().error).toMatchObject({ code: 'ConcurrencyConflict', message: 'The data has been changed by another user. Please reload and try again.' });
    const ar = await send(applicant, r.id, 'CANCEL', r.version, {}, 'ar');
    expect(ar.json().error.code).toBe('ConcurrencyConflict');
    expect(ar.json().error.message).toMatch(/[\u0600-\u06FF]/);
  });

  it('refusals: not this user 403, not this state 409, bad payload 400 with the field; nothing changes', async () => {
    const r = await startDraft();
    const before = await t.database.db.select().from(requests).where(eq(requests.id, r.id));
    const e403 = await send(registration, r.id, 'SUBMIT', r.version, { agreementAccepted: true });
    expect([e403.statusCode, e403.json().error.code]).toEqual([403, 'NotAuthorized']);
    const e409 = await send(registration, r.id, 'ACCEPT', r.version);
    expect([e409.statusCode, e409.json().error.code]).toEqual([409, 'TransitionNotAllowed']);
    const e400 = await send(applicant, r.id, 'SUBMIT', r.version, {});
    expect(e400.statusCode).toBe(400);
    expect(e400.json().error.validationErrors[0]).toMatchObject({ members: ['agreementAccepted'], message: 'You must tick the agreement checkbox' });
    expect(await t.database.db.select().from(requests).where(eq(requests.id, r.id))).toEqual(before);
    expect(await t.database.db.select().from(requestHistory).where(eq(requestHistory.requestId, r.id))).toHaveLength(r.version);
  });

  it("another facility's request does not exist for the caller: 404 before any version, state or data check", async () => {
    // The engine's locked read serves the visibility check on most events; SUBMIT and the file events read first.
    const r = await inRegistration();
    const head = async () => (await t.database.db.select().from(requests).where(eq(requests.id, r.id)))[0];
    const before = await head();
    for (const [type, version, payload] of [
      ['CANCEL', r.version + 2, {}],
      ['CANCEL', r.version, {}],
      ['ASSIGN_TO_ME', r.version + 2, {}],
      ['SUBMIT', r.version + 2, { agreementAccepted: true }],
      ['SUBMIT_AUDIT_RESULT', r.version + 2, {}],
    ] as const) {
      const res = await send(external, r.id, type, version, payload);
      expect([type, version, res.statusCode, res.json().error.code]).toEqual([type, version, 404, 'EntityNotFound']);
    }
    expect(await head()).toEqual(before);
    expect((await send(registration, '00000000-0000-4000-8000-000000000000', 'ASSIGN_TO_ME', 1)).statusCode).toBe(404);
    expect((await send(registration, 'not-a-uuid', 'ASSIGN_TO_ME', 1)).statusCode).toBe(404);
  });

  it('a malformed body is 400 before anything runs', async () => {
    const r = await startDraft();
    expect((await applicant.post(`/api/requests/${r.id}/events`, { type: 'SUBMIT' })).statusCode).toBe(400);
    expect((await applicant.post(`/api/requests/${r.id}/events`, { type: 'submit now', expectedVersion: 1 })).statusCode).toBe(400);
  });

  it('writes need the CSRF token', async () => {
    const r = await startDraft();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/requests/${r.id}/events`,
      headers: { cookie: applicant.cookie },
      payload: { type: 'SUBMIT', expectedVersion: r.version, payload: { agreementAccepted: true } },
    });
    expect(res.statusCode).toBe(403);
    expect((await applicant.get(`/api/requests/${r.id}`)).json().version).toBe(r.version);
  });
});

describe('history', () => {
  it('lists accepted events in order with names, statuses and labels', async () => {
    const r = await inRegistration();
    const items = (await applicant.get(`/api/requests/${r.id}/history?lang=en`)).json().items;
    expect(items.map((i: { event: string }) => i.event)).toEqual(['START', 'EDIT', 'SUBMIT', 'PAYMENT_CONFIRMED']);
    expect(items[2]).toMatchObject({
      seq: 3,
      actor: { name: 'Khalid Al-Harbi', system: false },
      from: { code: 0, label: 'Draft' },
      to: { code: 2 },
    });
    expect(items[3].actor).toMatchObject({ system: true, userId: 'system', name: 'System' });
    const ar = (await applicant.get(`/api/requests/${r.id}/history?lang=ar`)).json().items;
    expect(ar[3].actor.name).toBe('النظام');
  });

  it('verify: staff only; finds a tampered row', async () => {
    const r = await inRegistration();
    expect((await applicant.get(`/api/requests/${r.id}/history/verify`)).statusCode).toBe(403);
    expect((await registration.get(`/api/requests/${r.id}/history/verify`)).json()).toEqual({ ok: true, rows: 4 });
    await t.database.db
      .update(requestHistory)
      .set({ payload: { agreementAccepted: false } })
      .where(and(eq(requestHistory.requestId, r.id), eq(requestHistory.seq, 3)));
    expect((await registration.get(`/api/requests/${r.id}/history/verify`)).json()).toEqual({ ok: false, rows: 4, firstBrokenSeq: 3, reason: 'hash' });
    expect((await registration.get('/api/requests/00000000-0000-4000-8000-000000000000/history/verify')).statusCode).toBe(404);
  });
});

describe('GET /api/queues/:queue', () => {
  let a: { id: string; number: string };
  let b: { id: string; number: string };
  beforeAll(async () => {
    a = await inRegistration();
    b = await inRegistration();
    const assigned = await send(registration, b.id, 'ASSIGN_TO_ME', 4);
    expect(assigned.statusCode).toBe(200);
    expect(assigned.json().status.code).toBe(4);
  });
  const ids = (res: { json(): { items: { id: string }[] } }) => res.json().items.map((i) => i.id);

  it('waiting, mine and finished tabs for a registration employee', async () => {
    const waiting = await registration.get('/api/queues/registration?tab=waiting&pageSize=100');
    expect(waiting.statusCode).toBe(200);
    expect(ids(waiting)).toContain(a.id);
    expect(ids(waiting)).not.toContain(b.id);
    expect(ids(await registration.get('/api/queues/registration?tab=mine&pageSize=100'))).toEqual([b.id]);
    const accepted = await send(registration, b.id, 'ACCEPT', 5);
    expect(accepted.json().queue).toBe('audit');
    expect(ids(await registration.get('/api/queues/registration?tab=mine&pageSize=100'))).toEqual([]);
    expect(ids(await registration.get('/api/queues/registration?tab=finished&pageSize=100'))).toContain(b.id);
  });

  it('filters by request number, creator name, brand name and any; pages with a total', async () => {
    const byNumber = await registration.get(`/api/queues/registration?requestNumber=${a.number}`);
    expect(ids(byNumber)).toEqual([a.id]);
    expect(ids(await registration.get(`/api/queues/registration?any=${a.number}`))).toEqual([a.id]);
    // A number pasted with the direction marks a toast or the tab title put around it finds the same request.
    expect(ids(await registration.get(`/api/queues/registration?requestNumber=${encodeURIComponent(`\u2066${a.number}\u2069`)}`))).toEqual([a.id]);
    expect(ids(await registration.get('/api/queues/registration?creatorName=khalid&pageSize=100'))).toContain(a.id);
    expect(ids(await registration.get('/api/queues/registration?creatorName=nobody-by-this-name'))).toEqual([]);
    // Brand names come from the service's projection of the data: the trademarks and the products' brands.
    expect(ids(await registration.get(`/api/queues/registration?brandName=${encodeURIComponent('لوزين')}&pageSize=100`))).toContain(a.id);
    expect(ids(await registration.get(`/api/queues/registration?brandName=Almarai&pageSize=100`))).toContain(a.id);
    expect(ids(await registration.get(`/api/queues/registration?brandName=NoSuchBrand&pageSize=100`))).toEqual([]);
    const page = (await registration.get('/api/queues/registration?pageSize=1&pageNumber=1')).json();
    expect(page.items).toHaveLength(1);
    expect(page.totalCount).toBeGreaterThanOrEqual(1);
    expect(page.items[0].status.label).toBeTruthy();
  });

  it('applicants see only their facilities; bad paging and unknown queues are 400', async () => {
    expect(ids(await external.get('/api/queues/all?tab=waiting&pageSize=100'))).not.toContain(a.id);
    expect(ids(await applicant.get('/api/queues/all?tab=mine&pageSize=100'))).toContain(a.id);
    expect((await registration.get('/api/queues/registration?pageSize=1000')).statusCode).toBe(400);
    expect((await registration.get('/api/queues/registration?tab=everything')).statusCode).toBe(400);
    expect((await registration.get('/api/queues/nowhere')).statusCode).toBe(400);
    expect((await t.anonymous.get('/api/queues/registration')).statusCode).toBe(401);
  });

  it("one facility's list: a sub user sees the main user's requests, with open/any tabs; other facilities are refused", async () => {
    const draft = await startDraft();
    const list = (c: Client, query: string) => c.get(`/api/queues/all?facilityId=${FACILITY}&pageSize=100&${query}`);
    // The sub user owns none of them, yet the facility's list shows every request of the facility.
    const any = await list(subUser, 'tab=any');
    expect(any.statusCode).toBe(200);
    expect(ids(any)).toEqual(expect.arrayContaining([a.id, b.id, draft.id]));
    expect(any.json().items.every((i: { facilityId: string }) => i.facilityId === FACILITY)).toBe(true);
    expect(ids(await list(subUser, 'tab=open'))).toEqual(expect.arrayContaining([a.id, draft.id]));
    expect(ids(await list(subUser, `tab=any&any=${draft.number}`))).toEqual([draft.id]);
    // A user of another facility cannot list this one, and staff may.
    const foreign = await list(external, 'tab=any');
    expect(foreign.statusCode).toBe(403);
    expect(ids(await list(registration, 'tab=any'))).toContain(a.id);
  });

  it('names the people of the case (the assignee) to those who may see the request, and only them', async () => {
    // A request of its own, assigned now (b moved on from registration, which clears its assignee).
    const c = await inRegistration();
    expect((await send(registration, c.id, 'ASSIGN_TO_ME', 4)).statusCode).toBe(200);
    const res = await applicant.get(`/api/requests/${c.id}/people`);
    expect(res.statusCode).toBe(200);
    const assignee = (await applicant.get(`/api/requests/${c.id}`)).json().assigneeUserId as string;
    expect(assignee).toBeTruthy();
    expect(Object.keys(res.json())).toContain(assignee);
    expect(Object.values(res.json()).every((name) => typeof name === 'string' && name.trim() !== '')).toBe(true);
    expect((await external.get(`/api/requests/${c.id}/people`)).statusCode).toBe(404);
  });

  it('the committee does not see registration requests as theirs', async () => {
    expect(ids(await committee.get('/api/queues/committee?tab=mine&pageSize=100'))).toEqual([]);
  });
});

describe('an expired Halal certificate blocks the facility’s other services until renewed', () => {
  it('refuses new requests other than a renewal, in the caller language, and starts nothing', async () => {
    const [cert] = await t.app.db
      .insert(certificates)
      .values({
        number: 'HC-TEST-EXPIRED',
        kind: 'externalHalal',
        facilityPublicId: 'exf-anatolia-meat',
        verificationCode: 'TESTEXPIREDCODE1',
        issuedAt: new Date(Date.now() - 400 * 86_400_000),
        validFrom: new Date(Date.now() - 400 * 86_400_000),
        expiresAt: new Date(Date.now() - 35 * 86_400_000),
      })
      .returning();
    try {
      const before = await t.app.db.select().from(requests).where(eq(requests.facilityPublicId, 'exf-anatolia-meat'));
      const res = await external.post('/api/requests?lang=en', { kind: 'shipment', facilityId: 'exf-anatolia-meat' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'FacilityCertificateExpired' });
      expect(res.json().error.message).toContain('HC-TEST-EXPIRED');
      const after = await t.app.db.select().from(requests).where(eq(requests.facilityPublicId, 'exf-anatolia-meat'));
      expect(after.length).toBe(before.length);
      // Renewing the expired certificate is the way out: it starts.
      const renewal = await external.post('/api/requests', { kind: 'externalRenewal', facilityId: 'exf-anatolia-meat', certificateId: cert.id });
      expect(renewal.statusCode).toBe(201);
      expect(renewal.json().context.subject).toEqual({ certificateId: cert.id });
    } finally {
      await t.app.db.delete(certificates).where(eq(certificates.id, cert.id));
    }
  });
});
