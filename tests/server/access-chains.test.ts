import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { withLuhnDigit } from '../../machines/forms/facilities/formats';
import { Permissions as P } from '../../machines/permissions';
import type { Client } from '../helpers/app';
import { completeDraft, send, uploadTo, type RequestJson } from '../helpers/requests';
import { chainsWorld, type ChainsWorld } from './chains-world';
import { billsOf, certificatesOf, fireDue, payBill, setExpiry, walk, type CertificateJson, type DemoUser } from '../services/walk';

/**
 * Access that CHANGES during a lifecycle, through the HTTP API: a delegate removed after submitting, a delegate given
 * back less than before, a staff member whose role changes after taking a request, staff trying the applicant's steps,
 * and other facilities trying renewed and changed certificates by id. Every door is tried: what was reachable before
 * the change (checked first, so each refusal below is one the change caused) must not be after it.
 */
const FACILITY = 'inf-almarai-foods';
const INTERNAL = '/api/InternalFacilityDelegation/SubmitFacilityDelegationRequest';
const REMOVE = '/api/InternalFacilityDelegation/RemoveUser';
const NATIONAL_ID = withLuhnDigit('171000001');
const PHONE = '0557200001';
const PHONE_E164 = '+966557200001';

let w: ChainsWorld;

beforeAll(async () => {
  w = await chainsWorld(['internal.main', 'external', 'cb.main', 'registration', 'audit', 'committee', 'teamleader', 'auditor', 'admin', 'internal.sub', 'cb.sub']);
}, 120_000);
afterAll(() => w?.t.close());

const personId = async () => (await w.t.database.db.select({ id: users.id }).from(users).where(eq(users.nationalId, NATIONAL_ID)))[0].id;
const lastOtp = async (phone: string) => (await w.smsTo(phone))[0]!.text.match(/\b(\d{6})\b/)![1];

/** The main user's delegation wizard to the person, start to acknowledgment. */
async function delegate(permissions: string[], fresh: boolean) {
  const main = w.as['internal.main'];
  const started = await main.post(INTERNAL, {
    step: 'start',
    facilityPublicId: FACILITY,
    delegate: { nationalId: NATIONAL_ID, firstName: 'Lama', lastName: 'Al-Qahtani', birthDate: '1992-07-09', preferredLanguage: 'en', ...(fresh ? { phone: PHONE, email: 'lama@example.com' } : {}) },
    delegationType: 1,
    permissions,
  });
  expect(started.statusCode, started.body).toBe(200);
  const id = started.json().id as string;
  expect((await main.post(INTERNAL, { step: 'verifyOtp', delegationId: id, code: await lastOtp(PHONE_E164) })).statusCode).toBe(200);
  const done = await main.post(INTERNAL, { step: 'acknowledge', delegationId: id, acknowledged: true });
  expect(done.json().status, done.body).toBe('active');
  return id;
}

const actionsOf = async (c: Client, id: string) => {
  const res = await c.get(`/api/requests/${id}/actions`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().actions as { type: string }[]).map((a) => a.type).sort();
};
const versionOf = async (id: string) => ((await w.as['internal.main'].get(`/api/requests/${id}`)).json() as RequestJson).version;

/** The answers of every door of one request (and of what it issued) to one person, as status codes. */
async function doors(c: Client, r: { id: string; version: number }, refs: { attachmentId: string; certificateId: string; billId: string }) {
  const code = async (p: Promise<{ statusCode: number }>) => (await p).statusCode;
  return {
    request: await code(c.get(`/api/requests/${r.id}`)),
    actions: await code(c.get(`/api/requests/${r.id}/actions`)),
    history: await code(c.get(`/api/requests/${r.id}/history`)),
    people: await code(c.get(`/api/requests/${r.id}/people`)),
    fees: await code(c.get(`/api/requests/${r.id}/fees`)),
    requestCertificate: await code(c.get(`/api/requests/${r.id}/certificate`)),
    files: await code(c.get(`/api/attachments?facilityPublicId=${FACILITY}&requestId=${r.id}`)),
    download: await code(c.get(`/api/attachments/${refs.attachmentId}/download`)),
    certificate: await code(c.get(`/api/certificates/${refs.certificateId}`)),
    certificatePdf: await code(c.get(`/api/certificates/${refs.certificateId}/pdf`)),
    bill: await code(c.get(`/api/bills/${refs.billId}`)),
    billFile: await code(c.get(`/api/bills/${refs.billId}/file`)),
    billsOfFacility: await code(c.get(`/api/bills?facilityId=${FACILITY}`)),
    queueOfFacility: await code(c.get(`/api/queues/all?tab=any&facilityId=${FACILITY}`)),
  };
}
const OPEN = {
  request: 200,
  actions: 200,
  history: 200,
  people: 200,
  fees: 200,
  requestCertificate: 200,
  files: 200,
  download: 200,
  certificate: 200,
  certificatePdf: 200,
  bill: 200,
  billFile: 200,
  billsOfFacility: 200,
  queueOfFacility: 200,
};

/** Everything of the facility a person may find without an id: lists, search, the dashboard. */
async function findable(c: Client, requestNumber: string, certificateId: string) {
  const ids = (res: { json(): { items?: { id: string }[] } }) => (res.json().items ?? []).map((i) => i.id);
  const all = await c.get('/api/queues/all?tab=any&pageSize=100');
  const search = await c.get(`/api/queues/all?tab=any&any=${encodeURIComponent(requestNumber)}&pageSize=100`);
  const certificates = await c.get('/api/certificates?pageSize=100');
  const bills = await c.get('/api/bills?pageSize=100');
  const dashboard = await c.get('/api/dashboard/facility');
  return {
    listed: ids(all).length,
    searched: ids(search).length,
    certificate: ids(certificates).includes(certificateId),
    bills: (bills.json().items ?? []).filter((b: { facilityPublicId?: string; requestId: string | null }) => b.requestId !== null).length,
    dashboardFacilities: dashboard.statusCode === 200 ? (dashboard.json().facilities as { publicId: string }[]).map((f) => f.publicId) : [],
    dashboardOpen: dashboard.statusCode === 200 ? dashboard.json().openRequests.count : 0,
  };
}

describe('a delegate removed after submitting, then delegated again with less', () => {
  let person: Client;
  let request: RequestJson;
  let refs: { attachmentId: string; certificateId: string; billId: string };
  /** A draft the delegate leaves unfinished when removed. */
  let unfinished: RequestJson;

  beforeAll(async () => {
    await delegate([], true);
    const sms = (await w.smsTo(PHONE_E164)).find((m) => m.text.includes('/delegate-invitation/'))!;
    const token = sms.text.match(/\/delegate-invitation\/([\w-]+)/)![1];
    expect((await w.t.anonymous.post(`/api/delegate-invitations/${token}`, { password: 'Delegate@2026' })).statusCode).toBe(200);
    person = await w.t.login(NATIONAL_ID, 'Delegate@2026');

    unfinished = await completeDraft(person, 'internalCertificate', FACILITY);
    // The delegate prepares and submits the request; the main user and the center take it to its certificate.
    const draft = await completeDraft(person, 'internalCertificate', FACILITY);
    const submitted = await send(person, draft.id, 'SUBMIT', draft.version, { agreementAccepted: true });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const { request: done, steps } = await walk(w, draft.id, { applicant: 'internal.main', until: 25, option: 'full' });
    expect(done.status.code, JSON.stringify(steps)).toBe(25);
    request = (await person.get(`/api/requests/${draft.id}`)).json();
    const files = (await person.get(`/api/attachments?facilityPublicId=${FACILITY}&requestId=${draft.id}`)).json() as { id: string }[];
    const [cert] = await certificatesOf(w, person, draft.id);
    const [bill] = await billsOf(person, draft.id);
    refs = { attachmentId: files[0]!.id, certificateId: cert.id, billId: bill.id };
  }, 240_000);

  it('before: the delegate reaches every door of the request they submitted', async () => {
    expect(await doors(person, request, refs)).toEqual(OPEN);
    const found = await findable(person, request.number, refs.certificateId);
    expect(found).toMatchObject({ certificate: true, dashboardFacilities: [FACILITY] });
    expect(found.listed).toBeGreaterThan(0);
    expect(found.searched).toBe(1);
  });

  it('removed: every door answers as for a stranger (404 for what names an id, 403 for a facility), nothing is listed; the main user keeps all', async () => {
    const removed = await w.as['internal.main'].post(REMOVE, { facilityPublicId: FACILITY, userId: await personId() });
    expect(removed.statusCode, removed.body).toBe(200);

    expect(await doors(person, request, refs)).toEqual({
      request: 404,
      actions: 404,
      history: 404,
      people: 404,
      fees: 404,
      requestCertificate: 404,
      files: 403,
      download: 403,
      certificate: 404,
      certificatePdf: 404,
      bill: 404,
      billFile: 404,
      billsOfFacility: 403,
      queueOfFacility: 403,
    });
    expect(await findable(person, request.number, refs.certificateId)).toEqual({ listed: 0, searched: 0, certificate: false, bills: 0, dashboardFacilities: [], dashboardOpen: 0 });
    // Acting on it: an event, a new request of the facility, a renewal of its certificate.
    const event = await send(person, request.id, 'EDIT', request.version, { data: {} });
    expect(event.statusCode).toBe(404);
    expect((await person.post('/api/requests', { kind: 'internalCertificate', facilityId: FACILITY })).statusCode).toBe(404);
    expect((await person.post('/api/requests', { kind: 'internalRenewal', facilityId: FACILITY, certificateId: refs.certificateId })).statusCode).toBe(404);
    expect((await person.post('/api/requests', { kind: 'internalAddProducts', facilityId: FACILITY, certificateId: refs.certificateId })).statusCode).toBe(404);

    expect(await doors(w.as['internal.main'], request, refs)).toEqual(OPEN);
    // Nor their files: no removing one from the draft they left, no uploading to it.
    const files = (await w.as['internal.main'].get(`/api/attachments?facilityPublicId=${FACILITY}&requestId=${unfinished.id}`)).json() as { id: string }[];
    expect((await person.request({ method: 'DELETE', url: `/api/attachments/${files[0]!.id}` })).statusCode).toBe(403);
    await expect(uploadTo(person, FACILITY, unfinished.id, 'productCatalogue')).rejects.toThrow(/403/);
    // The draft they left is the facility's: gone for them, the main user finishes it.
    expect((await person.get(`/api/requests/${unfinished.id}`)).statusCode).toBe(404);
    expect(await actionsOf(w.as['internal.main'], unfinished.id)).toEqual(['DELETE', 'EDIT', 'SUBMIT']);
    const finished = await send(w.as['internal.main'], unfinished.id, 'SUBMIT', unfinished.version, { agreementAccepted: true });
    expect(finished.statusCode, finished.body).toBe(200);
  });

  it('delegated again with less: requests read again; with Request they draft and take the applicant’s later steps but never submit; with the profile only, none of its requests or bills to read (404), no step and no payment', async () => {
    await delegate([P.facility.internal, P.internalRequest.request], false);
    const detail = (await person.get(`/api/Facility/GetCurruntUserDetailInFacility/${FACILITY}`)).json();
    expect(detail.permissions.sort()).toEqual([P.facility.internal, P.internalRequest.request].sort());
    expect((await person.get(`/api/requests/${request.id}`)).statusCode).toBe(200);
    // A new draft: may be drafted, not submitted.
    const draft = await completeDraft(person, 'internalCertificate', FACILITY);
    const refused = await send(person, draft.id, 'SUBMIT', draft.version, { agreementAccepted: true });
    expect(refused.statusCode).toBe(403);
    // The certificate's later services may be drafted (as any request with Request), none submitted without Submit.
    await setExpiry(w, refs.certificateId, 45);
    for (const kind of ['internalRenewal', 'internalAddProducts', 'internalHalalMark'] as const) {
      const later = await completeDraft(person, kind, FACILITY, { certificateId: refs.certificateId });
      const submit = await send(person, later.id, 'SUBMIT', later.version, { agreementAccepted: true });
      expect([kind, submit.statusCode]).toEqual([kind, 403]);
    }
    // Nor the applicant's later steps on the main user's requests: the payment way, the application fee.
    const atChoice = await completeDraft(w.as['internal.main'], 'internalCertificate', FACILITY);
    await walk(w, atChoice.id, { applicant: 'internal.main', until: -1, stopBefore: 'CHOOSE_PAYMENT_OPTION' });
    expect(await actionsOf(w.as['internal.main'], atChoice.id)).toContain('CHOOSE_PAYMENT_OPTION');
    // Request covers the applicant's steps other than submitting (the machines' rule): the payment way is theirs to choose.
    expect(await actionsOf(person, atChoice.id)).toContain('CHOOSE_PAYMENT_OPTION');

    // Narrowed once more, to seeing the facility only: no applicant step at all, no fee paid, no draft.
    expect((await w.as['internal.main'].post(REMOVE, { facilityPublicId: FACILITY, userId: await personId() })).statusCode).toBe(200);
    // Without the service's permission its requests and bills are not theirs to read (workflows/read-scope.ts): 404.
    await delegate([P.facility.internal], false);
    expect((await person.get(`/api/requests/${atChoice.id}`)).statusCode).toBe(404);
    expect((await person.get(`/api/requests/${atChoice.id}/actions`)).statusCode).toBe(404);
    const choose = await send(person, atChoice.id, 'CHOOSE_PAYMENT_OPTION', await versionOf(atChoice.id), { option: 'full' });
    expect(choose.statusCode).toBe(404);
    expect((await person.post('/api/requests', { kind: 'internalCertificate', facilityId: FACILITY })).statusCode).toBe(403);
    const submitted = await completeDraft(w.as['internal.main'], 'internalCertificate', FACILITY);
    expect((await send(w.as['internal.main'], submitted.id, 'SUBMIT', submitted.version, { agreementAccepted: true })).statusCode).toBe(200);
    expect(await billsOf(person, submitted.id)).toEqual([]);
    const [fee] = await billsOf(w.as['internal.main'], submitted.id);
    const pay = await person.post(`/api/bills/${fee.id}/pay?lang=en`, {});
    expect(pay.statusCode, pay.body).toBe(404);
    expect(pay.json().error.code).toBe('EntityNotFound');
    expect((await billsOf(w.as['internal.main'], submitted.id))[0].status.code).toBe(1);
  });
});

describe('a registration employee whose role changes after taking a request', () => {
  let employee: Client;
  let employeeId: string;
  let id: string;

  beforeAll(async () => {
    const created = await w.as.admin.post('/api/identity/users', { userName: 'reg.moved', name: 'Reem Al-Dosari', email: 'reg.moved@example.com', password: 'Staff@Moved2026', roles: ['registrationEmployee'] });
    expect(created.statusCode, created.body).toBe(200);
    employeeId = created.json().id;
    employee = await w.t.login('reg.moved', 'Staff@Moved2026');
    const draft = await completeDraft(w.as['internal.main'], 'internalCertificate', FACILITY);
    expect((await send(w.as['internal.main'], draft.id, 'SUBMIT', draft.version, { agreementAccepted: true })).statusCode).toBe(200);
    // The application fee paid, the registration queue gets it.
    const [fee] = await billsOf(w.as['internal.main'], draft.id);
    await payBill(w.t, fee.id, fee);
    while (await fireDue(w.t));
    id = draft.id;
  }, 120_000);

  it('took it while a registration employee; moved to audit, they can no longer work it, and it goes back to the queue unassigned', async () => {
    expect(await actionsOf(employee, id)).toContain('ASSIGN_TO_ME');
    const took = await send(employee, id, 'ASSIGN_TO_ME', await versionOf(id));
    expect(took.statusCode, took.body).toBe(200);
    const reviewing = await actionsOf(employee, id);
    expect(reviewing).toEqual(expect.arrayContaining(['ACCEPT', 'CANCEL_ASSIGNMENT']));

    const moved = await w.as.admin.put(`/api/identity/users/${employeeId}/roles`, { roles: ['auditEmployee'] });
    expect(moved.statusCode, moved.body).toBe(200);
    // The change released it (server/modules/admin/release-assignments.ts, tests/server/lock-release.test.ts).
    expect(moved.json().release).toEqual({ released: 1, failed: 0 });
    // The change applies from their next call: still staff (they read the request), no registration step left.
    expect((await employee.get(`/api/requests/${id}`)).statusCode).toBe(200);
    // Only a note, which any staff member may add to any request.
    expect(await actionsOf(employee, id)).toEqual(['ADD_NOTE']);
    // Taking it is refused them (403); deciding it is for nobody while it waits unassigned (409).
    for (const [event, status] of [['ASSIGN_TO_ME', 403], ['ACCEPT', 409]] as const) {
      const refused = await send(employee, id, event, await versionOf(id), event === 'ACCEPT' ? {} : undefined);
      expect([event, refused.statusCode]).toEqual([event, status]);
    }
    // Not left in their hands: gone from their list, waiting unassigned in the registration queue.
    const mine = (await employee.get('/api/queues/registration?tab=mine&pageSize=100')).json().items.map((r: { id: string }) => r.id);
    const waiting = (await w.as.registration.get('/api/queues/registration?tab=waiting&pageSize=100')).json().items as { id: string; assigneeUserId: string | null }[];
    expect(mine).not.toContain(id);
    expect(waiting.filter((r) => r.id === id).map((r) => r.assigneeUserId)).toEqual([null]);
    // A registration employee may take it or assign it, never hand it back to someone without the queue's permission.
    const colleague = await actionsOf(w.as.registration, id);
    expect(colleague).toEqual(expect.arrayContaining(['ASSIGN_TO_EMPLOYEE', 'ASSIGN_TO_ME']));
    const back = await send(w.as.registration, id, 'ASSIGN_TO_EMPLOYEE', await versionOf(id), { assigneeUserId: employeeId });
    expect(back.statusCode).toBe(400);
    const taken = await send(w.as.registration, id, 'ASSIGN_TO_EMPLOYEE', await versionOf(id), { assigneeUserId: w.userId('registration') });
    expect(taken.statusCode, taken.body).toBe(200);
    expect(await actionsOf(w.as.registration, id)).toContain('ACCEPT');
  });
});

describe('staff never act as the applicant', () => {
  it('no staff member (the administrator included) edits, submits, deletes, answers or pays for a facility, at any step', async () => {
    const draft = await completeDraft(w.as['internal.main'], 'internalCertificate', FACILITY);
    const atPayment = await completeDraft(w.as['internal.main'], 'internalCertificate', FACILITY);
    const { steps } = await walk(w, atPayment.id, { applicant: 'internal.main', until: -1, stopBefore: 'CHOOSE_PAYMENT_OPTION' });
    expect(await actionsOf(w.as['internal.main'], atPayment.id), JSON.stringify(steps)).toContain('CHOOSE_PAYMENT_OPTION');
    const staff: DemoUser[] = ['registration', 'audit', 'committee', 'teamleader', 'auditor', 'admin'];
    for (const who of staff) {
      expect([who, await actionsOf(w.as[who], draft.id)]).toEqual([who, []]);
      expect(await actionsOf(w.as[who], atPayment.id)).not.toContain('CHOOSE_PAYMENT_OPTION');
      for (const [rid, event, payload] of [
        [draft.id, 'EDIT', { data: {} }],
        [draft.id, 'SUBMIT', { agreementAccepted: true }],
        [draft.id, 'DELETE', undefined],
        [atPayment.id, 'CHOOSE_PAYMENT_OPTION', { option: 'full' }],
      ] as const) {
        const res = await send(w.as[who], rid, event, await versionOf(rid), payload as Record<string, unknown> | undefined);
        expect([who, event, res.statusCode]).toEqual([who, event, 403]);
      }
      // Nor start one for the facility.
      const start = await w.as[who].post('/api/requests', { kind: 'internalCertificate', facilityId: FACILITY });
      expect([who, start.statusCode]).toEqual([who, 404]);
    }
    // Nor pay its fee: the portal's pay door is for the facility's own people (another facility's applicant: no such bill).
    const submitted = await completeDraft(w.as['internal.main'], 'internalCertificate', FACILITY);
    expect((await send(w.as['internal.main'], submitted.id, 'SUBMIT', submitted.version, { agreementAccepted: true })).statusCode).toBe(200);
    const [fee] = await billsOf(w.as['internal.main'], submitted.id);
    expect(fee.status.code).toBe(1);
    for (const who of [...staff, 'external', 'cb.main'] as DemoUser[]) {
      const pay = await w.as[who].post(`/api/bills/${fee.id}/pay`, {});
      expect([who, pay.statusCode]).toEqual([who, staff.includes(who) ? 403 : 404]);
    }
    expect((await billsOf(w.as['internal.main'], submitted.id))[0].status.code).toBe(1);
    // Untouched: still the applicant's draft and the applicant's choice.
    expect(await actionsOf(w.as['internal.main'], draft.id)).toEqual(['DELETE', 'EDIT', 'SUBMIT']);
    expect(await actionsOf(w.as['internal.main'], atPayment.id)).toContain('CHOOSE_PAYMENT_OPTION');
  }, 180_000);
});

describe("another facility and a renewed, then changed certificate", () => {
  let cert: CertificateJson;

  beforeAll(async () => {
    const issued = await completeDraft(w.as['internal.main'], 'internalCertificate', FACILITY);
    expect((await walk(w, issued.id, { applicant: 'internal.main', until: 25, option: 'full' })).request.status.code).toBe(25);
    [cert] = await certificatesOf(w, w.as['internal.main'], issued.id);
    await setExpiry(w, cert.id, 30);
    const renewal = (await w.as['internal.main'].post('/api/requests', { kind: 'internalRenewal', facilityId: FACILITY, certificateId: cert.id })).json() as RequestJson;
    const { renewalSection } = await import('../services/fixtures');
    expect((await send(w.as['internal.main'], renewal.id, 'EDIT', renewal.version, { data: { renewal: renewalSection() } })).statusCode).toBe(200);
    expect((await walk(w, renewal.id, { applicant: 'internal.main', until: 25, option: 'full' })).request.status.code).toBe(25);
    const added = await completeDraft(w.as['internal.main'], 'internalAddProducts', FACILITY, { certificateId: cert.id });
    expect((await walk(w, added.id, { applicant: 'internal.main', until: 1005 })).request.status.code).toBe(1005);
    cert = (await w.as['internal.main'].get(`/api/certificates/${cert.id}`)).json();
    expect(cert.requestId).toBe(renewal.id);
  }, 400_000);

  it('cannot read it, nor start a renewal, added products, a mark or a shipment on it, by its id, from their own facility or its', async () => {
    const others: [DemoUser, string][] = [
      ['external', 'exf-anatolia-meat'],
      ['cb.main', 'cb-global-halal'],
      ['cb.sub', 'cb-global-halal'],
    ];
    for (const [who, own] of others) {
      const c = w.as[who];
      const reads = [
        (await c.get(`/api/certificates/${cert.id}`)).statusCode,
        (await c.get(`/api/certificates/${cert.id}/pdf`)).statusCode,
        (await c.get(`/api/requests/${cert.requestId}`)).statusCode,
        (await c.get(`/api/requests/${cert.requestId}/certificate`)).statusCode,
      ];
      expect([who, reads]).toEqual([who, [404, 404, 404, 404]]);
      expect((await c.get(`/api/certificates?heldBy=${FACILITY}`)).statusCode).toBe(403);
      const listed = ((await c.get(`/api/queues/all?tab=any&pageSize=100`)).json().items as { facilityId: string }[]).filter((r) => r.facilityId === FACILITY);
      expect([who, listed]).toEqual([who, []]);
      for (const kind of ['internalRenewal', 'internalAddProducts', 'internalHalalMark', 'externalRenewal', 'externalAddProducts', 'externalHalalMark', 'shipment']) {
        for (const facilityId of [own, FACILITY]) {
          const start = await c.post('/api/requests', { kind, facilityId, certificateId: cert.id });
          if (start.statusCode === 201) {
            // A service about the facility itself (a shipment) may start in one's own facility, never about this certificate.
            expect([who, kind, facilityId]).toEqual([who, 'shipment', own]);
            expect(start.json().context.subject).toEqual({ certificateId: null });
          } else expect([who, kind, facilityId, start.statusCode]).toEqual([who, kind, facilityId, expect.toBeOneOf([400, 403, 404])]);
          if (kind === 'shipment' && facilityId === own) continue;
          const check = await c.get(`/api/requests/start-check?kind=${kind}&facilityId=${facilityId}&certificateId=${cert.id}`);
          expect([who, kind, facilityId, check.statusCode === 200 ? check.json().canStart : check.statusCode]).not.toEqual([who, kind, facilityId, true]);
        }
      }
    }
    // The holder still may.
    const check = await w.as['internal.main'].get(`/api/requests/start-check?kind=internalAddProducts&facilityId=${FACILITY}&certificateId=${cert.id}`);
    expect(check.json()).toEqual({ canStart: true, refusal: null });
  });
});

describe('a sub user locked, then moved to another facility mid-lifecycle', () => {
  const CB = 'cb-global-halal';
  let id: string;
  let certificateId: string;

  beforeAll(async () => {
    const submitted = await completeDraft(w.as['internal.main'], 'internalCertificate', FACILITY);
    expect((await send(w.as['internal.main'], submitted.id, 'SUBMIT', submitted.version, { agreementAccepted: true })).statusCode).toBe(200);
    id = submitted.id;
    const issued = await completeDraft(w.as['internal.main'], 'internalCertificate', FACILITY);
    expect((await walk(w, issued.id, { applicant: 'internal.main', until: 25, option: 'full' })).request.status.code).toBe(25);
    [{ id: certificateId }] = await certificatesOf(w, w.as['internal.main'], issued.id);
    await setExpiry(w, certificateId, 30);
  }, 240_000);

  it('locked: the open session ends at once; unlocked and signed in again, the facility is theirs again', async () => {
    const sub = await w.t.login('internal.sub');
    expect((await sub.get(`/api/requests/${id}`)).statusCode).toBe(200);
    expect((await w.as.admin.post(`/api/identity/users/${w.userId('internal.sub')}/lock`, {})).statusCode).toBe(200);
    expect((await sub.get(`/api/requests/${id}`)).statusCode).toBe(401);
    expect((await sub.get(`/api/attachments?facilityPublicId=${FACILITY}`)).statusCode).toBe(401);
    expect((await w.t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { userName: 'internal.sub', password: 'Demo@12345' } })).statusCode).not.toBe(200);
    expect((await w.as.admin.post(`/api/identity/users/${w.userId('internal.sub')}/unlock`, {})).statusCode).toBe(200);
    expect((await (await w.t.login('internal.sub')).get(`/api/requests/${id}`)).statusCode).toBe(200);
  });

  it('moved to a CB: nothing of the old facility by id, list, search, dashboard or start page; the CB is theirs', async () => {
    const sub = await w.t.login('internal.sub');
    const before = {
      request: (await sub.get(`/api/requests/${id}`)).statusCode,
      certificate: (await sub.get(`/api/certificates/${certificateId}`)).statusCode,
      renewal: (await sub.get(`/api/requests/start-check?kind=internalRenewal&facilityId=${FACILITY}&certificateId=${certificateId}`)).statusCode,
      addProducts: (await sub.get(`/api/requests/start-check?kind=internalAddProducts&facilityId=${FACILITY}&certificateId=${certificateId}`)).statusCode,
    };
    expect(before).toEqual({ request: 200, certificate: 200, renewal: 200, addProducts: 200 });

    expect((await w.as['internal.main'].post(REMOVE, { facilityPublicId: FACILITY, userId: w.userId('internal.sub') })).statusCode).toBe(200);
    const path = '/api/ConformityBodyDelegation/SubmitCBDelegationRequest';
    const { DEMO_IDENTITIES } = await import('../../db/demo-identities');
    const started = await w.as['cb.main'].post(path, {
      step: 'start',
      facilityPublicId: CB,
      delegate: { nationalId: DEMO_IDENTITIES['internal.sub'].nationalId, firstName: 'Saad', lastName: 'Al-Ghamdi', birthDate: '1990-01-01', preferredLanguage: 'en' },
      delegationType: 1,
      permissions: [],
    });
    expect(started.statusCode, started.body).toBe(200);
    const code = await lastOtp(DEMO_IDENTITIES['internal.sub'].phone);
    expect((await w.as['cb.main'].post(path, { step: 'verifyOtp', delegationId: started.json().id, code })).statusCode).toBe(200);
    expect((await w.as['cb.main'].post(path, { step: 'acknowledge', delegationId: started.json().id, acknowledged: true })).json().status).toBe('active');

    expect((await sub.get('/api/Facility/GetUserFacilities')).json().items.map((f: { publicId: string }) => f.publicId)).toEqual([CB]);
    const after = {
      request: (await sub.get(`/api/requests/${id}`)).statusCode,
      history: (await sub.get(`/api/requests/${id}/history`)).statusCode,
      certificate: (await sub.get(`/api/certificates/${certificateId}`)).statusCode,
      renewal: (await sub.get(`/api/requests/start-check?kind=internalRenewal&facilityId=${FACILITY}&certificateId=${certificateId}`)).statusCode,
      addProducts: (await sub.get(`/api/requests/start-check?kind=internalAddProducts&facilityId=${FACILITY}&certificateId=${certificateId}`)).statusCode,
      // From the new facility, naming the old one's certificate.
      addCategories: (await sub.get(`/api/requests/start-check?kind=cbAddCategories&facilityId=${CB}&certificateId=${certificateId}`)).statusCode,
      files: (await sub.get(`/api/attachments?facilityPublicId=${FACILITY}`)).statusCode,
      facility: (await sub.get(`/api/Facility/GetFacilityByPublicId?publicId=${FACILITY}`)).statusCode,
    };
    expect(after).toEqual({ request: 404, history: 404, certificate: 404, renewal: 404, addProducts: 404, addCategories: 404, files: 403, facility: 404 });
    const found = await findable(sub, (await w.as['internal.main'].get(`/api/requests/${id}`)).json().number, certificateId);
    expect(found).toMatchObject({ searched: 0, certificate: false, dashboardFacilities: [CB] });
    const anyOld = ((await sub.get('/api/queues/all?tab=any&pageSize=100')).json().items as { facilityId: string }[]).filter((r) => r.facilityId === FACILITY);
    expect(anyOld).toEqual([]);
    const oldBills = ((await sub.get('/api/bills?pageSize=100')).json().items as { requestId: string | null }[]).filter((b) => b.requestId === id);
    expect(oldBills).toEqual([]);
    expect((await sub.get(`/api/ConformityBody/get/${CB}`)).statusCode).toBe(200);
  });
});
