import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { bills, certificates, requests } from '../../db/schema';
import { SERVICES } from '../../machines/services';
import { newCbOf, seedDemoRequests, type DemoRequestSummary } from '../../scripts/lib/demo-requests';
import { createWorld, type World } from '../services/walk';
import type { Client } from '../helpers/app';

/**
 * Issue 14 item 9: the demo requests (`npm run seed:demo`) on a fresh database, seen as a newcomer sees them when
 * signing in with each demo account: through the same lists the screens read (staff queues, the facility's previous
 * requests tabs, certificates, marks and bills).
 */
let w: World;
let first: DemoRequestSummary;

interface Page<T> {
  items: T[];
  totalCount: number;
}
interface Row {
  kind: string;
  number: string;
  status: { code: number; label: string };
}
interface CertificateRow {
  id: string;
  number: string;
  kind: string;
  status: { code: number };
  expiresAt: { iso: string } | string;
}

const list = async <T = Row>(c: Client, url: string): Promise<Page<T>> => {
  const res = await c.get(url);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json() as Page<T>;
};
const daysLeft = (c: CertificateRow) => (new Date(typeof c.expiresAt === 'string' ? c.expiresAt : c.expiresAt.iso).getTime() - Date.now()) / 86_400_000;

const FACILITIES = [
  ['internal.main', 'inf-almarai-foods'],
  ['external', 'exf-anatolia-meat'],
  ['cb.main', 'cb-global-halal'],
] as const;

beforeAll(async () => {
  w = await createWorld();
  first = await seedDemoRequests(w.t.app);
}, 300_000);
afterAll(() => w?.t.close());

describe('demo requests (npm run seed:demo)', () => {
  it('creates requests of every service for the three demo facilities', () => {
    expect(first.seeded).toEqual(['inf-almarai-foods', 'exf-anatolia-meat', 'cb-global-halal']);
    expect(Object.keys(first.requests).sort()).toEqual(Object.keys(SERVICES).sort());
  });

  it("fills each staff desk's waiting queue as the staff home shows it", async () => {
    for (const [user, queue] of [
      ['registration', 'registration'],
      ['audit', 'audit'],
      ['committee', 'committee'],
    ] as const) {
      const page = await list(w.as[user], `/api/queues/${queue}?tab=waiting&pageSize=100`);
      expect(page.totalCount, `${user}'s ${queue} queue`).toBeGreaterThan(0);
    }
    // The registration queue holds certificates, renewals, added products and CB designations, not one kind only.
    const registration = await list(w.as.registration, '/api/queues/registration?tab=waiting&pageSize=100');
    expect(new Set(registration.items.map((r) => r.kind)).size).toBeGreaterThanOrEqual(4);
    // The team leader and the technical auditor named in the inspection plans find requests waiting on their requests page.
    for (const user of ['teamleader', 'auditor'] as const) {
      expect((await list(w.as[user], '/api/queues/all?tab=waiting&pageSize=100')).totalCount, user).toBeGreaterThan(0);
    }
  });

  it("fills each facility's previous requests in the draft, active and completed tabs, with every service", async () => {
    const kinds = new Set<string>();
    // Designation requests belong to the body new.applicant registers: Global Halal CB holds one and renews it.
    const newCb = (await newCbOf(w.t.database.db))!;
    const newApplicant = await w.t.login('new.applicant');
    for (const [c, facility] of [...FACILITIES.map(([user, f]) => [w.as[user], f] as const), [newApplicant, newCb] as const]) {
      for (const tab of ['draft', 'active', 'completed'] as const) {
        const page = await list(c, `/api/queues/all?facilityId=${facility}&tab=${tab}&pageSize=100`);
        // The registered body has no completed request: it is not designated yet.
        if (facility !== newCb || tab !== 'completed') expect(page.totalCount, `${facility} ${tab}`).toBeGreaterThan(0);
        for (const r of page.items) kinds.add(r.kind);
      }
    }
    expect([...kinds].sort()).toEqual(Object.keys(SERVICES).sort());
    // Returned to the applicant, awaiting payment and rejected are among them.
    const internal = await list(w.as['internal.main'], '/api/queues/all?facilityId=inf-almarai-foods&tab=any&pageSize=100');
    const codes = internal.items.filter((r) => r.kind === 'internalCertificate').map((r) => r.status.code);
    // 0 draft, 1 new, 2 application fee unpaid, 5 returned, 6 inspection plan, 7 plan approval, 14 committee,
    // 15 rejected, 16 certificate fee unpaid, 25 completed.
    expect(new Set(codes)).toEqual(new Set([0, 1, 2, 5, 6, 7, 14, 15, 16, 25]));
  });

  it('issues certificates in force, expiring within 60 days and expired, and Halal marks', async () => {
    const internal = (await list<CertificateRow>(w.as['internal.main'], '/api/certificates?facilityId=inf-almarai-foods&kind=internalHalal&pageSize=100')).items;
    expect(internal.filter((c) => c.status.code === 1 && daysLeft(c) > 60)).toHaveLength(1);
    const expiring = internal.filter((c) => c.status.code === 3 && daysLeft(c) > 0 && daysLeft(c) < 60);
    expect(expiring).toHaveLength(2);
    // One has its renewal open; the other is due for renewal: its start page lets the applicant start it.
    const check = async (c: CertificateRow) =>
      (await w.as['internal.main'].get(`/api/requests/start-check?kind=internalRenewal&facilityId=inf-almarai-foods&certificateId=${c.id}&lang=en`)).json();
    const checks = await Promise.all(expiring.map(check));
    expect(checks.map((c) => c.canStart).sort()).toEqual([false, true]);
    expect(checks.find((c) => !c.canStart).refusal.code).toBe('RequestAlreadyOpen');
    expect(internal.filter((c) => c.status.code === 2 && daysLeft(c) < 0)).toHaveLength(1);
    const external = (await list<CertificateRow>(w.as.external, '/api/certificates?facilityId=exf-anatolia-meat&pageSize=100')).items;
    expect(external.some((c) => c.kind === 'externalHalal' && c.status.code === 3 && daysLeft(c) < 60)).toBe(true);
    expect(external.some((c) => c.kind === 'shipment')).toBe(true);
    for (const [user, facility] of FACILITIES.slice(0, 2)) {
      const marks = await list<CertificateRow>(w.as[user], `/api/certificates?facilityId=${facility}&kind=halalMark&pageSize=100`);
      expect(marks.totalCount, `${facility} marks`).toBeGreaterThan(0);
    }
    const designation = (await list<CertificateRow>(w.as['cb.main'], '/api/certificates?facilityId=cb-global-halal&kind=cbDesignation&pageSize=100')).items;
    // The designation is within its 180-day renewal window but not yet "expiring soon" (under 60 days): still active.
    expect(designation.filter((c) => c.status.code === 1 && daysLeft(c) > 60 && daysLeft(c) < 180)).toHaveLength(1);
  });

  it('leaves bills paid and unpaid for each facility', async () => {
    for (const [user, facility] of FACILITIES.slice(0, 2)) {
      const page = await list<{ status: { code: number } }>(w.as[user], `/api/bills?facilityId=${facility}&pageSize=100`);
      expect(page.items.filter((b) => b.status.code === 2).length, `${facility} paid`).toBeGreaterThan(0);
      expect(page.items.filter((b) => b.status.code === 1).length, `${facility} unpaid`).toBeGreaterThan(0);
    }
    expect(first.bills.paid).toBeGreaterThan(0);
    expect(first.bills.unpaid).toBeGreaterThan(0);
  });

  it('adds nothing when run again', async () => {
    const totals = async () => ({
      requests: (await w.t.database.db.select({ n: count() }).from(requests))[0].n,
      certificates: (await w.t.database.db.select({ n: count() }).from(certificates))[0].n,
      bills: (await w.t.database.db.select({ n: count() }).from(bills))[0].n,
    });
    const before = await totals();
    const again = await seedDemoRequests(w.t.app);
    expect(again.seeded).toEqual([]);
    expect(again.skipped).toEqual(['inf-almarai-foods', 'exf-anatolia-meat', 'cb-global-halal']);
    expect(again.requests).toEqual(first.requests);
    expect(await totals()).toEqual(before);
  });
});
