import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachments, bills, certificates, payments, requestHistory } from '../../db/schema';
import { withLuhnDigit } from '../../machines/forms/facilities/formats';
import { Permissions as P } from '../../machines/permissions';
import { type Client } from '../helpers/app';
import { multipartBody, pdf } from '../helpers/multipart';
import { completeDraft, send, uploadTo } from '../helpers/requests';
import { NON_CONFORMITY } from '../machines/samples';
import { chainsWorld, delegates, type ChainsWorld } from './chains-world';
import { billsOf, lapseDesignations, walk } from '../services/walk';

/**
 * Second-order lifecycles of a delegation (spec 01 section 6, spec 02 sections 4, 6 and 8): what a delegate may do
 * with what was delegated, through every door (the event door, files, bills), and which certificate the delegation's
 * "expired or suspended" rule reads when a facility holds several. Each refusal is checked to change nothing.
 */
const INTERNAL = '/api/InternalFacilityDelegation/SubmitFacilityDelegationRequest';
const CB = 'cb-global-halal';
const FACILITY = 'inf-almarai-foods';

let w: ChainsWorld;
let delegate: ReturnType<typeof delegates>;

beforeAll(async () => {
  w = await chainsWorld(['internal.main', 'external', 'cb.main', 'registration', 'audit', 'committee', 'teamleader', 'auditor', 'admin']);
  delegate = delegates(w, (n) => ({ idPrefix: '17300', phonePrefix: '05573', firstName: 'Huda', lastName: `Delegate${n}`, birthDate: '1991-03-04', email: `huda${n}@example.com` }));
}, 120_000);
afterAll(() => w?.t.close());

/**
 * A new person delegated by `by` in `facility` with `permissions`, through the wizard (start, OTP, acknowledgment),
 * who then sets a password and signs in. Returns their session.
 */
const newDelegate = (by: Client, facility: string, permissions: string[]) => delegate(by, facility, permissions, facility === CB ? 'cb' : 'internal');

const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000);
const insertCertificate = (facilityPublicId: string, kind: string, number: string, o: { issuedDaysAgo: number; expiresInDays: number; status: number }) =>
  w.t.database.db.insert(certificates).values({
    number,
    kind,
    facilityPublicId,
    status: o.status,
    verificationCode: randomUUID(),
    issuedAt: daysFromNow(-o.issuedDaysAgo),
    validFrom: daysFromNow(-o.issuedDaysAgo),
    expiresAt: daysFromNow(o.expiresInDays),
  });

const actionsOf = async (c: Client, id: string) => ((await c.get(`/api/requests/${id}/actions`)).json().actions as { type: string }[]).map((a) => a.type).sort();
const historyOf = async (id: string) =>
  (await w.t.database.db.select({ event: requestHistory.event }).from(requestHistory).where(eq(requestHistory.requestId, id)).orderBy(requestHistory.seq)).map((r) => r.event);
const uploadCase = (c: Client, facilityPublicId: string, requestId: string, category = 'report', lang = 'en') => {
  const { payload, headers } = multipartBody({ name: `${category}.pdf`, type: 'application/pdf', content: pdf() });
  const qs = new URLSearchParams({ facilityPublicId, requestId, category, lang });
  return c.request({ method: 'POST', url: `/api/attachments?${qs}`, payload, headers });
};

describe('the newest certificate: one rule for the delegation check and the expired-certificate block', () => {
  /**
   * Two Halal certificates of one facility whose order differs by the two dates: A was issued long ago and runs for
   * 300 days more; B was issued 10 days ago (a short one) and ended yesterday. By issue date B is the newest, by
   * expiry A. The facility holds a certificate in force (A): it may start services, and so it may delegate.
   */
  let facility: string;
  let owner: Client;
  beforeAll(async () => {
    const applicant = await w.t.login('new.applicant');
    const created = await applicant.post('/api/Facility/CreateInternal', { crEntityNumber: '1010900321', recaptchaToken: await w.recaptcha(), fullTimeEmployeeCount: 5 });
    expect(created.statusCode, created.body).toBe(200);
    facility = created.json().publicId;
    owner = applicant;
    await insertCertificate(facility, 'internalHalal', 'DC-A-LONG', { issuedDaysAgo: 400, expiresInDays: 300, status: 1 });
    await insertCertificate(facility, 'internalHalal', 'DC-B-SHORT', { issuedDaysAgo: 10, expiresInDays: -1, status: 2 });
  });

  it('both read the certificate that runs longest (A, in force): the delegation may proceed and services start', async () => {
    const startCheck = await owner.get(`/api/requests/start-check?kind=internalCertificate&facilityId=${facility}&lang=en`);
    expect(startCheck.statusCode, startCheck.body).toBe(200);
    expect(startCheck.json()).toEqual({ canStart: true, refusal: null });

    const authority = await owner.get(`/api/InternalFacilityDelegation/ValidateIfCurrentUserHasAuthorityToAddDelegation/${facility}?lang=en`);
    expect(authority.statusCode, authority.body).toBe(200);
    // The wizard's start goes through (the OTP is sent).
    const started = await owner.post(INTERNAL, {
      step: 'start',
      facilityPublicId: facility,
      delegate: { nationalId: withLuhnDigit('173999001'), firstName: 'Noor', lastName: 'Test', birthDate: '1990-01-01', preferredLanguage: 'ar', phone: '0557399001', email: 'noor.dc@example.com' },
      delegationType: 1,
      permissions: [P.facility.internal],
    });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().status).toBe('awaitingOtp');
    // Staff read the same certificate as the facility's.
    const staff = (await w.as.registration.get(`/api/HalalCenter/Facility/get/${facility}`)).json();
    expect(staff.certificate).toMatchObject({ number: 'DC-A-LONG', usable: true });
  });

  it('once A is suspended the delegation is refused in both languages, and staff see A unusable', async () => {
    await w.t.database.db.update(certificates).set({ status: 4, suspendedAt: new Date() }).where(eq(certificates.number, 'DC-A-LONG'));
    const en = await owner.get(`/api/InternalFacilityDelegation/ValidateIfCurrentUserHasAuthorityToAddDelegation/${facility}?lang=en`);
    expect(en.statusCode).toBe(400);
    expect(en.json().error).toMatchObject({ code: 'DelegationCertificateBlocked' });
    expect(en.json().error.message).toMatch(/expired or suspended/);
    const ar = await owner.get(`/api/InternalFacilityDelegation/ValidateIfCurrentUserHasAuthorityToAddDelegation/${facility}?lang=ar`);
    expect(ar.json().error.message).toMatch(/منتهية أو موقوفة/);
    const staff = (await w.as.registration.get(`/api/HalalCenter/Facility/get/${facility}`)).json();
    expect(staff.certificate).toMatchObject({ number: 'DC-A-LONG', usable: false });
    await w.t.database.db.update(certificates).set({ status: 1, suspendedAt: null }).where(eq(certificates.number, 'DC-A-LONG'));
  });
});

describe('a CB delegate given shipments only, and the CB’s own designation request', () => {
  /** The person may see the CB and work its shipments; its designation requests are the CBAccreditationService's. */
  let person: Client;
  let requestId: string;
  let billId: string;
  beforeAll(async () => {
    ({ person } = await newDelegate(w.as['cb.main'], CB, [P.facility.conformityBody, P.shipment.default, P.shipment.submit]));
    // The CB asks for a designation while it holds none in force (README, choices), then holds its own again.
    const restore = await lapseDesignations(w.t.database.db, CB);
    try {
      const draft = await completeDraft(w.as['cb.main'], 'cbDesignation', CB);
      expect((await send(w.as['cb.main'], draft.id, 'SUBMIT', draft.version, { agreementAccepted: true })).statusCode).toBe(200);
      const { request } = await walk(w, draft.id, { applicant: 'cb.main', until: -1, payBills: false });
      requestId = request.id;
    } finally {
      await restore();
    }
    const [bill] = (await billsOf(w.as['cb.main'], requestId)).filter((b) => b.status.code === 1);
    expect(bill, 'the designation request waits for a bill').toBeDefined();
    billId = bill.id;
  }, 240_000);

  it('the designation request is not theirs to read, nor any step of it (404, as another facility’s)', async () => {
    expect((await person.get(`/api/requests/${requestId}/actions`)).statusCode).toBe(404);
    expect((await person.get(`/api/requests/${requestId}`)).statusCode).toBe(404);
  });

  it('cannot pay its bill, which they do not see: 404 in both languages, no payment registered, the bill and the request unchanged', async () => {
    const before = { history: await historyOf(requestId), version: (await w.as['cb.main'].get(`/api/requests/${requestId}`)).json().version };
    const en = await person.post(`/api/bills/${billId}/pay?lang=en`, {});
    expect(en.statusCode, en.body).toBe(404);
    expect(en.json().error).toMatchObject({ code: 'EntityNotFound', message: 'The requested record does not exist.' });
    const ar = await person.post(`/api/bills/${billId}/pay?lang=ar`, {});
    expect(ar.statusCode).toBe(404);
    expect(ar.json().error.message).toBe('السجل المطلوب غير موجود.');
    expect(await w.t.database.db.select().from(payments).where(eq(payments.billId, billId))).toEqual([]);
    const [bill] = await w.t.database.db.select().from(bills).where(eq(bills.id, billId));
    expect({ status: bill.status, paymentReference: bill.paymentReference }).toEqual({ status: 1, paymentReference: null });
    expect(await historyOf(requestId)).toEqual(before.history);
    expect((await w.as['cb.main'].get(`/api/requests/${requestId}`)).json().version).toBe(before.version);
    // The main user, who works the request, may: the payment asks again that the CB holds no designation in force.
    const restore = await lapseDesignations(w.t.database.db, CB);
    try {
      const main = await w.as['cb.main'].post(`/api/bills/${billId}/pay?lang=en`, {});
      expect(main.statusCode, main.body).toBe(200);
    } finally {
      await restore();
    }
  });
});

describe('a delegate who may edit the facility’s profile but not work its requests, and the requests’ files', () => {
  let person: Client;
  let draftId: string;
  let mainFile: string;
  beforeAll(async () => {
    ({ person } = await newDelegate(w.as['internal.main'], FACILITY, [P.facility.internal, P.facility.internalEdit]));
    const draft = await completeDraft(w.as['internal.main'], 'internalCertificate', FACILITY);
    draftId = draft.id;
    // The main user adds a test report to the draft (a document the case may gain while it runs).
    const up = await uploadCase(w.as['internal.main'], FACILITY, draftId, 'testCertificate');
    expect(up.statusCode, up.body).toBe(201);
    mainFile = up.json().id;
  }, 120_000);

  const filesOf = async () =>
    (await w.t.database.db.select({ id: attachments.id, deletedAt: attachments.deletedAt }).from(attachments).where(and(eq(attachments.requestId, draftId))))
      .filter((f) => !f.deletedAt)
      .map((f) => f.id)
      .sort();

  it('the main user’s draft is not theirs to read, nor any step of it (404)', async () => {
    expect((await person.get(`/api/requests/${draftId}/actions`)).statusCode).toBe(404);
    expect((await person.get(`/api/requests/${draftId}`)).statusCode).toBe(404);
  });

  it('cannot add a file to the draft, case documents included: 403 in both languages, nothing stored', async () => {
    const before = await filesOf();
    for (const category of ['report', 'testCertificate', 'productCatalogue']) {
      const en = await uploadCase(person, FACILITY, draftId, category, 'en');
      expect([category, en.statusCode], en.body).toEqual([category, 403]);
      expect(en.json().error).toMatchObject({ code: 'UploadUnauthorizedUpload', message: 'You are not authorized to upload files here.' });
    }
    const ar = await uploadCase(person, FACILITY, draftId, 'report', 'ar');
    expect(ar.statusCode).toBe(403);
    expect(ar.json().error.message).toBe('ليس لديك صلاحية لرفع الملفات هنا.');
    expect(await filesOf()).toEqual(before);
  });

  it('cannot remove the main user’s files from it: 403, the file stays', async () => {
    const before = await filesOf();
    const res = await person.request({ method: 'DELETE', url: `/api/attachments/${mainFile}?lang=en` });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().error.code).toBe('NotAuthorized');
    expect(await filesOf()).toEqual(before);
    // Their own door stays open: the facility's profile files (no request).
    const { payload, headers } = multipartBody({ name: 'cr.pdf', type: 'application/pdf', content: pdf() });
    const own = await person.request({ method: 'POST', url: `/api/attachments?facilityPublicId=${FACILITY}&category=commercialRegistrationCopy`, payload, headers });
    expect(own.statusCode, own.body).toBe(201);
  });
});

describe('a delegate with Request (not Submit) answering the audit, and the files the answer names', () => {
  /**
   * Request covers the applicant's steps other than submitting (the machines' rule, README): the delegate sends the
   * corrective actions. The evidence they name, and the auditor's document the finding names, are what the auditor
   * decides on: once named by the event, nobody of the facility removes them (the event's own transaction locks them).
   */
  let person: Client;
  let id: string;
  let evidence: string;
  let auditorsDocument: string;
  let auditorsReport: string;
  const version = async () => (await w.as.registration.get(`/api/requests/${id}`)).json().version as number;
  const alive = async (fileId: string) => (await w.t.database.db.select({ deletedAt: attachments.deletedAt }).from(attachments).where(eq(attachments.id, fileId)))[0]?.deletedAt === null;

  beforeAll(async () => {
    ({ person } = await newDelegate(w.as['internal.main'], FACILITY, [P.facility.internal, P.internalRequest.request]));
    const draft = await completeDraft(w.as['internal.main'], 'internalCertificate', FACILITY);
    expect((await send(w.as['internal.main'], draft.id, 'SUBMIT', draft.version, { agreementAccepted: true })).statusCode).toBe(200);
    id = draft.id;
    const { request, steps } = await walk(w, id, { applicant: 'internal.main', until: 9 });
    expect(request.status.code, JSON.stringify(steps)).toBe(9);
    // The auditor uploads the finding's document and a working report to the request, and names the document.
    auditorsDocument = await uploadTo(w.as.audit, FACILITY, id, 'report', 'finding.pdf');
    auditorsReport = await uploadTo(w.as.audit, FACILITY, id, 'report', 'working-notes.pdf');
    const actions = (await w.as.audit.get(`/api/requests/${id}/actions`)).json() as { actions: { type: string }[] };
    const by = actions.actions.some((a) => a.type === 'SUBMIT_AUDIT_RESULT') ? w.as.audit : w.as.teamleader;
    const result = await send(by, id, 'SUBMIT_AUDIT_RESULT', await version(), { compliant: false, nonConformities: [{ ...NON_CONFORMITY, supportingDocumentId: auditorsDocument }] });
    expect(result.statusCode, result.body).toBe(200);
    expect(result.json().status.code).toBe(10);
  }, 240_000);

  it('the delegate sends the corrective actions with their evidence (Request suffices)', async () => {
    expect(await actionsOf(person, id)).toEqual(['SUBMIT_CORRECTIVE_ACTIONS']);
    evidence = await uploadTo(person, FACILITY, id, 'report', 'evidence.pdf');
    const res = await send(person, id, 'SUBMIT_CORRECTIVE_ACTIONS', await version(), {
      actions: [{ nonConformityId: NON_CONFORMITY.id, description: 'Cleaning log completed', implementationDate: '2031-04-01', documentId: evidence }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status.code).toBe(11);
  });

  it('the evidence sent can no longer be removed by the facility: 409 in both languages, kept; it and the finding’s document show locked', async () => {
    for (const [who, fileId] of [[person, evidence], [w.as['internal.main'], evidence]] as const) {
      const en = await who.request({ method: 'DELETE', url: `/api/attachments/${fileId}?lang=en` });
      expect(en.statusCode, en.body).toBe(409);
      expect(en.json().error.code).toBe('AttachmentLocked');
      expect(await alive(fileId)).toBe(true);
    }
    const ar = await person.request({ method: 'DELETE', url: `/api/attachments/${evidence}?lang=ar` });
    expect(ar.statusCode).toBe(409);
    expect(ar.json().error.message).toMatch(/[\u0600-\u06FF]/);
    const listed = (await w.as.audit.get(`/api/attachments?facilityPublicId=${FACILITY}&requestId=${id}`)).json() as { id: string; locked: boolean }[];
    expect(listed.filter((f) => f.id === evidence || f.id === auditorsDocument).map((f) => f.locked)).toEqual([true, true]);
  });

  it('a document the center uploaded (named by a finding or not) is the center’s: the facility cannot remove it (403, both languages), it stays', async () => {
    for (const [who, fileId] of [[person, auditorsReport], [w.as['internal.main'], auditorsReport], [w.as['internal.main'], auditorsDocument]] as const) {
      const res = await who.request({ method: 'DELETE', url: `/api/attachments/${fileId}?lang=en` });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().error).toMatchObject({ code: 'NotAuthorized', message: 'You are not authorized to perform this action.' });
      expect(await alive(fileId)).toBe(true);
    }
    const ar = await person.request({ method: 'DELETE', url: `/api/attachments/${auditorsReport}?lang=ar` });
    expect(ar.json().error.message).toBe('ليس لديك صلاحية لتنفيذ هذا الإجراء.');
  });
});
