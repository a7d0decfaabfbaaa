import { randomUUID } from 'node:crypto';
import { lapseDesignations } from '../services/walk';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bills, certificates, payments, requestHistory } from '../../db/schema';
import { Permissions as P } from '../../machines/permissions';
import { type Client, type TestApp } from '../helpers/app';
import { completeDraft, send, uploadTo, type RequestJson } from '../helpers/requests';
import { chainsWorld, delegates } from './chains-world';

/**
 * What a facility's delegate READS (workflows/read-scope.ts, README "What a delegate reads"): only the records of the
 * services delegated to them there, through every read door (the request and its sub-reads, the event door, files,
 * bills, their file and payment, certificates and their PDF, the lists, tabs, search and the dashboard's counts). A
 * delegate without a service's permission finds none of its records: 404 by id (as another facility's), no row in
 * any list. The main user and a delegate with the service's permission read them all.
 */
const FACILITY = 'inf-almarai-foods';
const CB = 'cb-global-halal';
const EXTERNAL = 'exf-anatolia-meat';

let t: TestApp;
let main: Client;
let cbMain: Client;
let sub: Client;
let delegate: ReturnType<typeof delegates>;

beforeAll(async () => {
  const w = await chainsWorld(['internal.main', 'cb.main', 'internal.sub']);
  t = w.t;
  main = w.as['internal.main'];
  cbMain = w.as['cb.main'];
  sub = w.as['internal.sub'];
  delegate = delegates(w, (n) => ({ idPrefix: '17400', phonePrefix: '05574', firstName: 'Rana', lastName: `Reader${n}`, birthDate: '1990-05-06', email: `rana${n}@example.com` }));
}, 120_000);
afterAll(() => t?.close());

/** A new person delegated by `by` in `facility` with `permissions` (wizard: start, OTP, acknowledgment), signed in. */
const newDelegate = async (by: Client, facility: string, permissions: string[]) => (await delegate(by, facility, permissions, facility === CB ? 'cb' : 'internal')).person;

const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000);
async function insertCertificate(o: { facility: string; kind: string; number: string; cb?: string; requestId?: string }): Promise<string> {
  const [row] = await t.database.db
    .insert(certificates)
    .values({
      number: o.number,
      kind: o.kind,
      facilityPublicId: o.facility,
      cbPublicId: o.cb ?? null,
      requestId: o.requestId ?? null,
      status: 1,
      verificationCode: randomUUID(),
      issuedAt: daysFromNow(-30),
      validFrom: daysFromNow(-30),
      // Inside the dashboard's "expiring soon" window, so the dashboard lists it.
      expiresAt: daysFromNow(20),
    })
    .returning({ id: certificates.id });
  return row!.id;
}

const historyOf = async (id: string) =>
  (await t.database.db.select({ event: requestHistory.event }).from(requestHistory).where(eq(requestHistory.requestId, id)).orderBy(requestHistory.seq)).map((r) => r.event);
const ids = (res: { json(): unknown }) => ((res.json() as { items?: { id: string }[] }).items ?? []).map((i) => i.id);

describe('an internal facility: a delegate without the service’s permission reads none of its records', () => {
  let request: RequestJson;
  let refs: { attachmentId: string; certificateId: string; billId: string };
  let noView: Client;
  let submitOnly: Client;
  let withView: Client;

  beforeAll(async () => {
    noView = await newDelegate(main, FACILITY, [P.facility.internal, P.facility.internalEdit]);
    submitOnly = await newDelegate(main, FACILITY, [P.facility.internal, P.internalRequest.submit]);
    withView = await newDelegate(main, FACILITY, [P.facility.internal, P.internalRequest.request]);
    const draft = await completeDraft(main, 'internalCertificate', FACILITY);
    const attachmentId = await uploadTo(main, FACILITY, draft.id, 'testCertificate', 'lab-report.pdf');
    const submitted = await send(main, draft.id, 'SUBMIT', draft.version, { agreementAccepted: true });
    expect(submitted.statusCode, submitted.body).toBe(200);
    request = submitted.json();
    const billRes = await main.get(`/api/bills?requestId=${request.id}&pageSize=100`);
    const [bill] = billRes.json().items as { id: string }[];
    expect(bill, 'the submission bills its application fee').toBeDefined();
    const certificateId = await insertCertificate({ facility: FACILITY, kind: 'internalHalal', number: 'DR-INT-1', requestId: request.id });
    refs = { attachmentId, certificateId, billId: bill!.id };
  }, 240_000);

  /** Every by-id read door of the request and of what belongs to it, as status codes. */
  async function doors(c: Client) {
    const code = async (p: Promise<{ statusCode: number }>) => (await p).statusCode;
    return {
      request: await code(c.get(`/api/requests/${request.id}`)),
      actions: await code(c.get(`/api/requests/${request.id}/actions`)),
      history: await code(c.get(`/api/requests/${request.id}/history`)),
      people: await code(c.get(`/api/requests/${request.id}/people`)),
      fees: await code(c.get(`/api/requests/${request.id}/fees`)),
      marks: await code(c.get(`/api/requests/${request.id}/marks`)),
      billLifecycle: await code(c.get(`/api/requests/${refs.billId}`)),
      download: await code(c.get(`/api/attachments/${refs.attachmentId}/download`)),
      certificate: await code(c.get(`/api/certificates/${refs.certificateId}`)),
      certificatePdf: await code(c.get(`/api/certificates/${refs.certificateId}/pdf`)),
      bill: await code(c.get(`/api/bills/${refs.billId}`)),
      billFile: await code(c.get(`/api/bills/${refs.billId}/file`)),
    };
  }
  const OPEN = { request: 200, actions: 200, history: 200, people: 200, fees: 200, marks: 200, billLifecycle: 200, download: 200, certificate: 200, certificatePdf: 200, bill: 200, billFile: 200 };
  const CLOSED = { ...OPEN, request: 404, actions: 404, history: 404, people: 404, fees: 404, marks: 404, billLifecycle: 404, download: 403, certificate: 404, certificatePdf: 404, bill: 404, billFile: 404 };

  /** What a person finds of the facility without an id: lists (tabs), search, the request's files, bills, certificates, the dashboard. */
  async function findable(c: Client) {
    const files = await c.get(`/api/attachments?facilityPublicId=${FACILITY}&requestId=${request.id}`);
    const facilityFiles = await c.get(`/api/attachments?facilityPublicId=${FACILITY}`);
    const dashboard = (await c.get('/api/dashboard/facility')).json();
    const tabs: Record<string, boolean> = {};
    for (const tab of ['any', 'active', 'open']) tabs[tab] = ids(await c.get(`/api/queues/all?tab=${tab}&facilityId=${FACILITY}&pageSize=100`)).includes(request.id);
    return {
      tabs,
      search: ids(await c.get(`/api/queues/all?tab=any&any=${encodeURIComponent(request.number)}&pageSize=100`)).includes(request.id),
      files: files.statusCode === 200 && (files.json() as { id: string }[]).some((f) => f.id === refs.attachmentId),
      facilityFiles: facilityFiles.statusCode === 200 && (facilityFiles.json() as { id: string }[]).some((f) => f.id === refs.attachmentId),
      bills: ids(await c.get('/api/bills?pageSize=100')).includes(refs.billId),
      billsOfRequest: ids(await c.get(`/api/bills?requestId=${request.id}&pageSize=100`)).includes(refs.billId),
      certificates: ids(await c.get(`/api/certificates?facilityId=${FACILITY}&pageSize=100`)).includes(refs.certificateId),
      dashboardOpen: (dashboard.openRequests.items as { id: string }[]).some((r) => r.id === request.id),
      dashboardOpenCount: dashboard.openRequests.count as number,
      dashboardBill: (dashboard.unpaidBills.items as { id: string }[]).some((b) => b.id === refs.billId),
      dashboardBillCount: dashboard.unpaidBills.count as number,
      dashboardCertificate: (dashboard.expiringCertificates as { id: string }[]).some((x) => x.id === refs.certificateId),
    };
  }
  const FOUND = {
    tabs: { any: true, active: true, open: true },
    search: true,
    files: true,
    facilityFiles: true,
    bills: true,
    billsOfRequest: true,
    certificates: true,
    dashboardOpen: true,
    dashboardBill: true,
    dashboardCertificate: true,
  };

  it('the main user, the seeded sub user (all delegated) and a delegate given Request read every door and find everything', async () => {
    for (const c of [main, sub, withView]) {
      expect(await doors(c)).toEqual(OPEN);
      expect(await findable(c)).toMatchObject(FOUND);
    }
    // The counts a delegate with the one service reads are the main user's (the facility has no other service).
    const mainFound = await findable(main);
    const viewFound = await findable(withView);
    expect([viewFound.dashboardOpenCount, viewFound.dashboardBillCount]).toEqual([mainFound.dashboardOpenCount, mainFound.dashboardBillCount]);
  });

  it('a delegate given the profile only, or Submit without Request, gets 404 by id (as for another facility’s records; a file: the download refusal) and finds nothing', async () => {
    for (const c of [noView, submitOnly]) {
      expect(await doors(c)).toEqual(CLOSED);
      expect(await findable(c)).toEqual({
        tabs: { any: false, active: false, open: false },
        search: false,
        files: false,
        facilityFiles: false,
        bills: false,
        billsOfRequest: false,
        certificates: false,
        dashboardOpen: false,
        dashboardOpenCount: 0,
        dashboardBill: false,
        dashboardBillCount: 0,
        dashboardCertificate: false,
      });
    }
    // The facility itself stays theirs to see (its profile), as delegated.
    expect((await noView.get(`/api/Facility/GetFacilityByPublicId?publicId=${FACILITY}`)).statusCode).toBe(200);
  });

  it('the refused by-id answers say what another facility’s records say, in both languages', async () => {
    const other = await t.login('external');
    for (const lang of ['en', 'ar']) {
      const mine = await noView.get(`/api/requests/${request.id}?lang=${lang}`);
      const theirs = await other.get(`/api/requests/${request.id}?lang=${lang}`);
      expect([mine.statusCode, mine.json().error]).toEqual([theirs.statusCode, theirs.json().error]);
      const bill = await noView.get(`/api/bills/${refs.billId}?lang=${lang}`);
      const otherBill = await other.get(`/api/bills/${refs.billId}?lang=${lang}`);
      expect([bill.statusCode, bill.json().error]).toEqual([otherBill.statusCode, otherBill.json().error]);
    }
  });

  it('the event door and the payment door answer 404 to them too, and change nothing', async () => {
    const before = { history: await historyOf(request.id), version: (await main.get(`/api/requests/${request.id}`)).json().version };
    for (const c of [noView, submitOnly]) {
      const event = await send(c, request.id, 'CANCEL', before.version);
      expect(event.statusCode, event.body).toBe(404);
      const pay = await c.post(`/api/bills/${refs.billId}/pay?lang=en`, {});
      expect(pay.statusCode, pay.body).toBe(404);
      expect(pay.json().error.code).toBe('EntityNotFound');
    }
    expect(await historyOf(request.id)).toEqual(before.history);
    expect((await main.get(`/api/requests/${request.id}`)).json().version).toBe(before.version);
    expect(await t.database.db.select().from(payments).where(eq(payments.billId, refs.billId))).toEqual([]);
    const [bill] = await t.database.db.select().from(bills).where(eq(bills.id, refs.billId));
    expect({ status: bill!.status, paymentReference: bill!.paymentReference }).toEqual({ status: 1, paymentReference: null });
  });
});

describe('a CB delegate given the designation service but not shipments or external certificates', () => {
  let designation: RequestJson;
  let shipment: RequestJson;
  let designationCert: string;
  let externalCert: string;
  let cbOnly: Client;
  let shipmentOnly: Client;

  beforeAll(async () => {
    cbOnly = await newDelegate(cbMain, CB, [P.facility.conformityBody, P.cbAccreditation.request]);
    shipmentOnly = await newDelegate(cbMain, CB, [P.facility.conformityBody, P.shipment.default]);
    // Started while the CB holds no designation in force (README, choices).
    const restore = await lapseDesignations(t.database.db, CB);
    const d = await cbMain.post('/api/requests', { kind: 'cbDesignation', facilityId: CB }).finally(restore);
    expect(d.statusCode, d.body).toBe(201);
    designation = d.json();
    const s = await cbMain.post('/api/requests', { kind: 'shipment', facilityId: CB });
    expect(s.statusCode, s.body).toBe(201);
    shipment = s.json();
    designationCert = await insertCertificate({ facility: CB, kind: 'cbDesignation', number: 'DR-CB-1' });
    externalCert = await insertCertificate({ facility: EXTERNAL, kind: 'externalHalal', number: 'DR-EXT-1', cb: CB });
  }, 240_000);

  const listed = async (c: Client) => ids(await c.get(`/api/queues/all?tab=any&facilityId=${CB}&pageSize=100`));
  const draftTab = async (c: Client) => ids(await c.get(`/api/queues/all?tab=draft&facilityId=${CB}&pageSize=100`));
  const certs = async (c: Client) => ids(await c.get(`/api/certificates?facilityId=${CB}&pageSize=100`));
  const dashboardKinds = async (c: Client) => {
    const d = (await c.get('/api/dashboard/facility')).json();
    return { count: d.openRequests.count as number, kinds: [...new Set((d.openRequests.byStatus as { kind: string }[]).map((s) => s.kind))].sort() };
  };

  it('lists, tabs and counts: each sees the service delegated to them only; the main user both', async () => {
    expect(await listed(cbMain)).toEqual(expect.arrayContaining([designation.id, shipment.id]));
    const cbList = await listed(cbOnly);
    expect(cbList).toContain(designation.id);
    expect(cbList).not.toContain(shipment.id);
    const shipmentList = await listed(shipmentOnly);
    expect(shipmentList).toContain(shipment.id);
    expect(shipmentList).not.toContain(designation.id);
    expect(await draftTab(cbOnly)).toContain(designation.id);
    expect(await draftTab(cbOnly)).not.toContain(shipment.id);

    // Certificates: the designation for the designation service; the external certificate the CB issued for neither.
    expect(await certs(cbMain)).toEqual(expect.arrayContaining([designationCert, externalCert]));
    expect(await certs(cbOnly)).toContain(designationCert);
    expect(await certs(cbOnly)).not.toContain(externalCert);
    expect(await certs(shipmentOnly)).not.toContain(designationCert);
    expect(await certs(shipmentOnly)).not.toContain(externalCert);
    expect((await cbOnly.get(`/api/certificates/${externalCert}`)).statusCode).toBe(404);
    expect((await cbOnly.get(`/api/certificates/${designationCert}`)).statusCode).toBe(200);
    expect((await shipmentOnly.get(`/api/certificates/${designationCert}`)).statusCode).toBe(404);

    // The dashboard counts the open requests of their services only; the main user's counts both.
    const all = await dashboardKinds(cbMain);
    expect(all.kinds).toEqual(expect.arrayContaining(['cbDesignation', 'shipment']));
    const mainByKind = ((await cbMain.get('/api/dashboard/facility')).json().openRequests.byStatus as { kind: string; count: number }[]).reduce<Record<string, number>>(
      (acc, s) => ({ ...acc, [s.kind]: (acc[s.kind] ?? 0) + s.count }),
      {},
    );
    const cbKinds = ['cbDesignation', 'cbRenewal', 'cbAddCategories'];
    expect(await dashboardKinds(cbOnly)).toEqual({ count: cbKinds.reduce((n, k) => n + (mainByKind[k] ?? 0), 0), kinds: all.kinds.filter((k) => cbKinds.includes(k)) });
    expect(await dashboardKinds(shipmentOnly)).toEqual({ count: mainByKind.shipment, kinds: ['shipment'] });
  });

  it('by id: the other service’s request answers 404, their own 200', async () => {
    expect((await cbOnly.get(`/api/requests/${designation.id}`)).statusCode).toBe(200);
    expect((await cbOnly.get(`/api/requests/${shipment.id}`)).statusCode).toBe(404);
    expect((await shipmentOnly.get(`/api/requests/${shipment.id}`)).statusCode).toBe(200);
    expect((await shipmentOnly.get(`/api/requests/${designation.id}`)).statusCode).toBe(404);
    // The CB's page names its designation certificate only to who reads that service.
    const page = async (c: Client) => (await c.get(`/api/ConformityBody/GetConformityBodyDetails/${CB}`)).json().designationCertificate;
    expect(await page(cbMain)).not.toBeNull();
    expect(await page(shipmentOnly)).toBeNull();
  });
});
