import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeDraft } from '../helpers/requests';
import { eq } from 'drizzle-orm';
import { requestHistory } from '../../db/schema';
import { withLuhnDigit } from '../../machines/forms/facilities/formats';
import { Permissions as P } from '../../machines/permissions';
import type { Client } from '../helpers/app';
import { multipartBody, pdf } from '../helpers/multipart';
import { createFacilitiesTestApp, type FacilitiesTestApp } from './facilities-harness';

/**
 * The permissions a delegation gives are enforced on every request, per facility: one person, sub user of three
 * facilities with three different lists, may do in each exactly what was delegated there (spec 02 section 6).
 */
let t: FacilitiesTestApp;
let person: Client;
/** X: the demo internal facility, where the person may see it and draft requests, not submit or edit it. */
const X = 'inf-almarai-foods';
/** Y: an internal facility of new.applicant, where the person holds every permission. */
let Y: string;
/** The demo CB, where the person holds only the shipment submit permission (not even seeing the CB). */
const CB = 'cb-global-halal';
const PHONE = '0557100001';
const NATIONAL_ID = withLuhnDigit('170000001');

async function delegate(by: Client, group: 'InternalFacilityDelegation' | 'ConformityBodyDelegation', facilityPublicId: string, permissions: string[], fresh: boolean) {
  const path = `/api/${group}/${group === 'ConformityBodyDelegation' ? 'SubmitCBDelegationRequest' : 'SubmitFacilityDelegationRequest'}`;
  const started = await by.post(path, {
    step: 'start',
    facilityPublicId,
    delegate: { nationalId: NATIONAL_ID, firstName: 'Rana', lastName: 'Al-Mutairi', birthDate: '1993-05-02', preferredLanguage: 'en', ...(fresh ? { phone: PHONE, email: 'rana@example.com' } : {}) },
    delegationType: 1,
    permissions,
  });
  expect(started.statusCode, started.body).toBe(200);
  const id = started.json().id;
  expect((await by.post(path, { step: 'verifyOtp', delegationId: id, code: await t.lastOtp('+966557100001') })).statusCode).toBe(200);
  const done = await by.post(path, { step: 'acknowledge', delegationId: id, acknowledged: true });
  expect(done.json().status, done.body).toBe('active');
}

const startRequest = (c: Client, facilityId: string) => c.post('/api/requests?lang=en', { kind: 'internalCertificate', facilityId, data: {} });
const actionsOf = async (c: Client, id: string) => ((await c.get(`/api/requests/${id}/actions`)).json().actions as { type: string }[]).map((a) => a.type).sort();
const upload = (c: Client, facilityPublicId: string, requestId?: string) => {
  const { payload, headers } = multipartBody({ name: 'catalogue.pdf', type: 'application/pdf', content: pdf() });
  const qs = new URLSearchParams({ facilityPublicId, category: 'productCatalogue', lang: 'en', ...(requestId ? { requestId } : {}) });
  return c.request({ method: 'POST', url: `/api/attachments?${qs}`, payload, headers });
};

beforeAll(async () => {
  t = await createFacilitiesTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: '200' });
  const owner = await t.login('new.applicant');
  const created = await owner.post('/api/Facility/CreateInternal', { crEntityNumber: '1010900321', recaptchaToken: await t.recaptchaToken(), fullTimeEmployeeCount: 5 });
  expect(created.statusCode, created.body).toBe(200);
  Y = created.json().publicId;

  await delegate(await t.login('internal.main'), 'InternalFacilityDelegation', X, [P.facility.internal, P.internalRequest.request], true);
  const sms = (await t.smsTo('+966557100001')).find((m) => m.text.includes('/delegate-invitation/'))!;
  const token = sms.text.match(/\/delegate-invitation\/([\w-]+)/)![1];
  expect((await t.anonymous.post(`/api/delegate-invitations/${token}`, { password: 'Delegate@2026' })).statusCode).toBe(200);
  await delegate(owner, 'InternalFacilityDelegation', Y, [], false);
  await delegate(await t.login('cb.main'), 'ConformityBodyDelegation', CB, [P.shipment.submit], false);
  person = await t.login(NATIONAL_ID, 'Delegate@2026');
}, 180_000);
afterAll(() => t?.close());

describe('the permissions a delegate holds, per facility', () => {
  it('are what the delegation gave there (the main user holds all of the role’s)', async () => {
    const here = (await person.get(`/api/Facility/GetCurruntUserDetailInFacility/${X}`)).json();
    expect(here).toMatchObject({ isMainUser: false, canDelegate: false });
    expect(here.permissions.sort()).toEqual([P.facility.internal, P.internalRequest.request].sort());
    const there = (await person.get(`/api/Facility/GetCurruntUserDetailInFacility/${Y}`)).json();
    expect(there.permissions).toEqual(expect.arrayContaining([P.internalRequest.submit, P.facility.internalEdit]));
    const main = await t.login('internal.main');
    expect((await main.get(`/api/Facility/GetCurruntUserDetailInFacility/${X}`)).json().permissions).toEqual(
      expect.arrayContaining([P.internalRequest.submit, P.facility.internalEdit, P.cbAccreditation.submit]),
    );
  });
});

describe('the machines’ applicant steps use the permission granted for that facility', () => {
  it('without Submit for X: 403 on X’s submit, nothing recorded; with it for Y: submitted', async () => {
    const draftX = await startRequest(person, X);
    expect(draftX.statusCode, draftX.body).toBe(201);
    expect(await actionsOf(person, draftX.json().id)).toEqual(['DELETE', 'EDIT']);
    const refused = await person.post(`/api/requests/${draftX.json().id}/events?lang=en`, { type: 'SUBMIT', expectedVersion: draftX.json().version, payload: { agreementAccepted: true } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('NotAuthorized');
    const rows = await t.database.db.select().from(requestHistory).where(eq(requestHistory.requestId, draftX.json().id));
    expect(rows.map((r) => r.event)).toEqual(['START']);

    // A complete draft (files really uploaded, schema-valid data): submission runs the form's rules.
    const draftY = await completeDraft(person, 'internalCertificate', Y);
    expect(await actionsOf(person, draftY.id)).toEqual(['DELETE', 'EDIT', 'SUBMIT']);
    const submitted = await person.post(`/api/requests/${draftY.id}/events`, { type: 'SUBMIT', expectedVersion: draftY.version, payload: { agreementAccepted: true } });
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().status.code).toBe(2);
    // The history keeps what the person held there, so a replay decides as the event did.
    const [row] = await t.database.db.select().from(requestHistory).where(eq(requestHistory.requestId, draftY.id)).orderBy(requestHistory.seq).offset(2);
    expect((row.actor as { facilityPermissions: Record<string, string[]> }).facilityPermissions[Y]).toContain(P.internalRequest.submit);
  });

  it('a request of a kind not delegated there cannot be started (403), and can where it was', async () => {
    const main = await t.login('internal.main');
    // A draft of the main user in X: the person, a member without Submit there, cannot submit it for them either.
    const mainDraft = (await startRequest(main, X)).json();
    expect(await actionsOf(person, mainDraft.id)).toEqual(['DELETE', 'EDIT']);
    const inCb = await person.post('/api/requests', { kind: 'cbDesignation', facilityId: CB, data: {} });
    expect(inCb.statusCode).toBe(403);
    expect((await startRequest(person, Y)).statusCode).toBe(201);
  });
});

describe('route policies that act on a facility honour it too', () => {
  it('facility update calls: 403 FacilityPermissionMissing where Edit was not delegated, done where it was', async () => {
    const x = await person.post('/api/Facility/VerifyAndUpdateCrData?lang=en', { publicId: X });
    expect(x.statusCode).toBe(403);
    expect(x.json().error).toMatchObject({
      code: 'FacilityPermissionMissing',
      message: 'You do not have this permission for this facility. Ask its main user to delegate it to you.',
    });
    const y = await person.post('/api/Facility/VerifyAndUpdateCrData', { publicId: Y });
    expect(y.statusCode, y.body).toBe(200);
  });

  it('seeing a facility needs its view permission: the CB is closed to the person, X and Y are open', async () => {
    const cb = await person.get(`/api/ConformityBody/get/${CB}?lang=ar`);
    expect(cb.statusCode).toBe(403);
    expect(cb.json().error.message).toMatch(/صلاحية/);
    expect((await person.get(`/api/Facility/GetFacilityByPublicId?publicId=${X}`)).statusCode).toBe(200);
    // Files: none to see in the CB, nothing to upload there; uploads where a permission to change something was given.
    expect((await person.get(`/api/attachments?facilityPublicId=${CB}`)).statusCode).toBe(403);
    const refused = await upload(person, CB);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('UploadUnauthorizedUpload');
    expect((await upload(person, Y)).statusCode).toBe(201);
  });

  it('a seeded sub user keeps every delegable permission of their facility', async () => {
    const sub = await t.login('internal.sub');
    expect((await startRequest(sub, X)).statusCode).toBe(201);
    expect((await sub.get(`/api/Facility/GetCurruntUserDetailInFacility/${X}`)).json().permissions).toContain(P.internalRequest.submit);
  });
});
