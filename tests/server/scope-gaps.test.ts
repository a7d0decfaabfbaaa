import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bills, certificates } from '../../db/schema';
import { withLuhnDigit } from '../../machines/forms/facilities/formats';
import { Permissions as P } from '../../machines/permissions';
import type { SimulatedSms } from '../../server/simulators/sms';
import { EmbeddedEngine } from '../../workflows/embedded/embedded-engine';
import { entityPort } from '../../workflows/store';
import { createTestApp, type Client, type TestApp } from '../helpers/app';
import { testStoreDeps } from '../helpers/deps';
import { startSimulators } from '../helpers/simulators';
import { lapseDesignations } from '../services/walk';

/*
 * Gaps in who reads what (workflows/read-scope.ts): the entity lifecycles a list asks for by kind (bills, certificates,
 * marks) are a delegate's only of the services delegated to them, as by id; a delegation is read by its facility's
 * main user and by the delegate it names (and staff), not by the facility's other users, by id, history and list.
 */
const INTERNAL = '/api/InternalFacilityDelegation/SubmitFacilityDelegationRequest';
const CB_GROUP = '/api/ConformityBodyDelegation/SubmitCBDelegationRequest';
const FACILITY = 'inf-almarai-foods';
const CB = 'cb-global-halal';

let t: TestApp;
let smsTo: (phone: string) => Promise<SimulatedSms[]>;
let closeSims: () => Promise<unknown>;

beforeAll(async () => {
  const sims = await startSimulators();
  closeSims = () => sims.app.close();
  t = await createTestApp({
    LOGIN_RATE_LIMIT_PER_MINUTE: '300',
    CR_REGISTRY_URL: `${sims.url}/simulators/cr`,
    FOOD_AUTHORITY_URL: `${sims.url}/simulators/foodAuthority`,
    SMS_PROVIDER_URL: `${sims.url}/simulators/sms`,
    RECAPTCHA_URL: `${sims.url}/simulators/recaptcha`,
    PUBLIC_URL: 'http://portal.test',
  });
  smsTo = async (phone) => ((await (await fetch(`${sims.url}/simulators/sms/messages?to=${encodeURIComponent(phone)}`)).json()) as { items: SimulatedSms[] }).items;
}, 120_000);
afterAll(async () => {
  await t?.close();
  await closeSims?.();
});

let personSeq = 0;
/** A new person delegated by `by` in `facility` with `permissions` (wizard: start, OTP, acknowledgment), signed in. */
async function newDelegate(by: Client, facility: string, permissions: string[]): Promise<{ client: Client; delegationId: string }> {
  personSeq += 1;
  const nationalId = withLuhnDigit(`17500${String(personSeq).padStart(4, '0')}`);
  const local = `05575${String(personSeq).padStart(5, '0')}`;
  const e164 = `+966${local.slice(1)}`;
  const path = facility === CB ? CB_GROUP : INTERNAL;
  const started = await by.post(path, {
    step: 'start',
    facilityPublicId: facility,
    delegate: { nationalId, firstName: 'Sami', lastName: `Scope${personSeq}`, birthDate: '1991-04-03', preferredLanguage: 'en', phone: local, email: `sami${personSeq}@example.com` },
    delegationType: 1,
    permissions,
  });
  expect(started.statusCode, started.body).toBe(200);
  const delegationId = started.json().id as string;
  const code = (await smsTo(e164))[0]!.text.match(/\b(\d{6})\b/)![1];
  expect((await by.post(path, { step: 'verifyOtp', delegationId, code })).statusCode).toBe(200);
  const done = await by.post(path, { step: 'acknowledge', delegationId, acknowledged: true });
  expect(done.json().status, done.body).toBe('active');
  const sms = (await smsTo(e164)).find((m) => m.text.includes('/delegate-invitation/'))!;
  const token = sms.text.match(/\/delegate-invitation\/([\w-]+)/)![1];
  expect((await t.anonymous.post(`/api/delegate-invitations/${token}`, { password: 'Delegate@2026' })).statusCode).toBe(200);
  return { client: await t.login(nationalId, 'Delegate@2026'), delegationId };
}

const ids = (res: { statusCode: number; body: string; json(): unknown }) => {
  expect(res.statusCode, res.body).toBe(200);
  return ((res.json() as { items: { id: string }[] }).items ?? []).map((i) => i.id);
};
/** The rows of `kind` a person finds in the facility's lists (every tab that lists them: any, open). */
async function listed(c: Client, facility: string, kind: string): Promise<string[]> {
  const any = ids(await c.get(`/api/queues/all?tab=any&facilityId=${facility}&kind=${kind}&pageSize=100`));
  const open = ids(await c.get(`/api/queues/all?tab=open&kind=${kind}&pageSize=100`));
  return [...new Set([...any, ...open])];
}

describe('1. a delegate with one service of a CB lists only the bills and certificates of that service, as by id', () => {
  let cbMain: Client;
  let cbOnly: Client;
  let shipmentOnly: Client;
  const rows = { designationBill: '', shipmentBill: '', bulkBill: '', designationCert: '', shipmentCert: '' };

  let billSeq = 0;
  /** A bill of the CB (of `requestId`, or of none: a month-end invoice) with its lifecycle, as a submission writes them. */
  async function insertBill(requestId: string | null): Promise<string> {
    billSeq += 1;
    const number = `SG-B-${billSeq}`;
    const [bill] = await t.database.db
      .insert(bills)
      .values({ number, requestId, facilityPublicId: CB, service: 1, feeKind: 'application', amount: '100.00', vat: '15.00', total: '115.00', status: 1, dueAt: new Date(Date.now() + 7 * 86_400_000) })
      .returning({ id: bills.id });
    await t.database.db.transaction((tx) =>
      entityPort(tx as never, testStoreDeps(), new Date()).start('bill', { id: bill!.id, number, facilityPublicId: CB, ownerUserId: 'system', data: {}, status: 1 }),
    );
    return bill!.id;
  }
  async function insertCertificate(kind: string, number: string): Promise<string> {
    const day = 86_400_000;
    const [row] = await t.database.db
      .insert(certificates)
      .values({ number, kind, facilityPublicId: CB, status: 1, verificationCode: randomUUID(), issuedAt: new Date(Date.now() - 30 * day), validFrom: new Date(Date.now() - 30 * day), expiresAt: new Date(Date.now() + 300 * day) })
      .returning({ id: certificates.id });
    return row!.id;
  }

  beforeAll(async () => {
    cbMain = await t.login('cb.main');
    cbOnly = (await newDelegate(cbMain, CB, [P.facility.conformityBody, P.cbAccreditation.request])).client;
    shipmentOnly = (await newDelegate(cbMain, CB, [P.facility.conformityBody, P.shipment.default])).client;
    const start = async (kind: string) => {
      const res = await cbMain.post('/api/requests', { kind, facilityId: CB });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    // The CB asks for a designation while it holds none in force (README, choices), then holds its own again.
    const restore = await lapseDesignations(t.database.db, CB);
    try {
      rows.designationBill = await insertBill(await start('cbDesignation'));
    } finally {
      await restore();
    }
    rows.shipmentBill = await insertBill(await start('shipment'));
    rows.bulkBill = await insertBill(null);
    rows.designationCert = await insertCertificate('cbDesignation', 'SG-CB-1');
    rows.shipmentCert = await insertCertificate('shipment', 'SG-SH-1');
    // The certificates' lifecycles, as the portal starts them for certificates it did not issue itself.
    await new EmbeddedEngine({ db: t.database.db, deps: testStoreDeps() }).adoptCertificates();
  }, 240_000);

  it('the main user lists every bill and certificate lifecycle; each delegate only those of their service (and the month-end invoice)', async () => {
    const all = [...(await listed(cbMain, CB, 'bill')), ...(await listed(cbMain, CB, 'certificate'))];
    expect(all).toEqual(expect.arrayContaining(Object.values(rows)));

    const bills = { designation: rows.designationBill, shipment: rows.shipmentBill, bulk: rows.bulkBill };
    const seen = async (c: Client) => {
      const billRows = await listed(c, CB, 'bill');
      const certRows = await listed(c, CB, 'certificate');
      return {
        bills: Object.entries(bills).filter(([, id]) => billRows.includes(id)).map(([k]) => k),
        certificates: Object.entries({ designation: rows.designationCert, shipment: rows.shipmentCert }).filter(([, id]) => certRows.includes(id)).map(([k]) => k),
      };
    };
    expect(await seen(cbOnly)).toEqual({ bills: ['designation', 'bulk'], certificates: ['designation'] });
    expect(await seen(shipmentOnly)).toEqual({ bills: ['shipment', 'bulk'], certificates: ['shipment'] });
  });

  it('every row a delegate lists opens by id, and every row they may open by id is listed (one rule)', async () => {
    for (const c of [cbOnly, shipmentOnly]) {
      for (const kind of ['bill', 'certificate']) {
        const mine = await listed(c, CB, kind);
        for (const id of await listed(cbMain, CB, kind)) {
          const byId = (await c.get(`/api/requests/${id}`)).statusCode;
          expect([id, kind, byId === 200]).toEqual([id, kind, mine.includes(id)]);
        }
      }
    }
  });
});

describe('2. a delegation is read by its facility’s main user and by the delegate it names, not by the facility’s other users', () => {
  let main: Client;
  let sub: Client;
  let staff: Client;
  let first: { client: Client; delegationId: string };
  let second: { client: Client; delegationId: string };

  beforeAll(async () => {
    main = await t.login('internal.main');
    sub = await t.login('internal.sub');
    staff = await t.login('registration');
    first = await newDelegate(main, FACILITY, [P.facility.internal, P.internalRequest.request]);
    second = await newDelegate(main, FACILITY, [P.facility.internal, P.internalRequest.request, P.internalRequest.submit]);
  }, 240_000);

  /** What a person reads of a delegation: by id, its history, its row in the facility's delegation list. */
  async function reads(c: Client, id: string) {
    return {
      byId: (await c.get(`/api/requests/${id}`)).statusCode,
      history: (await c.get(`/api/requests/${id}/history`)).statusCode,
      listed: (await listed(c, FACILITY, 'delegation')).includes(id),
    };
  }
  const READ = { byId: 200, history: 200, listed: true };
  const NOT = { byId: 404, history: 404, listed: false };

  it('the main user reads both delegations; each delegate their own only; the seeded sub user (every service) neither', async () => {
    expect(await reads(main, first.delegationId)).toEqual(READ);
    expect(await reads(main, second.delegationId)).toEqual(READ);
    expect(await reads(first.client, first.delegationId)).toEqual(READ);
    expect(await reads(first.client, second.delegationId)).toEqual(NOT);
    expect(await reads(second.client, second.delegationId)).toEqual(READ);
    expect(await reads(second.client, first.delegationId)).toEqual(NOT);
    expect(await reads(sub, first.delegationId)).toEqual(NOT);
  });

  it('refused, a delegation answers as another facility’s record does (both languages); staff read it as before', async () => {
    const other = await t.login('external');
    for (const lang of ['en', 'ar']) {
      const mine = await sub.get(`/api/requests/${first.delegationId}?lang=${lang}`);
      const theirs = await other.get(`/api/requests/${first.delegationId}?lang=${lang}`);
      expect([mine.statusCode, mine.json().error]).toEqual([theirs.statusCode, theirs.json().error]);
    }
    expect((await staff.get(`/api/requests/${first.delegationId}`)).statusCode).toBe(200);
    expect((await staff.get(`/api/requests/${first.delegationId}/history`)).statusCode).toBe(200);
  });
});
