import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lapseDesignations } from '../services/walk';
import { and, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import { createTestApp, type Client, type TestApp } from '../helpers/app';
import { completeDraft, send } from '../helpers/requests';
import { readFileSync } from 'node:fs';
import { bills, certificates, requests, roles } from '../../db/schema';
import { ENTITY_KINDS } from '../../machines/services/types';
import type { FacilityDashboard, StaffDashboard } from '../../server/modules/dashboard/routes';

/**
 * The dashboard (spec 01 section 2, issue 15): staff see queue sizes, weekly throughput and bill totals of every
 * facility; a facility user sees only their own facilities' open requests, unpaid bills and expiring certificates.
 */
const MINE = 'inf-almarai-foods';
const OTHER = 'cb-global-halal';
const DAY = 86_400_000;

let t: TestApp;
let applicant: Client;
let other: Client;
let staff: Client;
const numbers: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: '1000' });
  applicant = await t.login('internal.main');
  other = await t.login('cb.main');
  staff = await t.login('registration');

  // Mine: one draft and one submitted (awaiting its application fee: an unpaid bill).
  const draft = await completeDraft(applicant, 'internalCertificate', MINE);
  numbers.myDraft = draft.number;
  const submitted = await completeDraft(applicant, 'internalCertificate', MINE);
  expect((await send(applicant, submitted.id, 'SUBMIT', submitted.version, { agreementAccepted: true })).statusCode).toBe(200);
  numbers.mySubmitted = submitted.number;
  // Another facility's: a submitted CB designation request (no application fee: straight to registration), and an
  // unpaid bill of that CB.
  // Asked for while that CB holds no designation in force (README, choices).
  const restore = await lapseDesignations(t.database.db, OTHER);
  const cb = await completeDraft(other, 'cbDesignation', OTHER);
  expect((await send(other, cb.id, 'SUBMIT', cb.version, { agreementAccepted: true })).statusCode).toBe(200);
  await restore();
  numbers.other = cb.number;
  await t.database.db.insert(bills).values({ number: 'DASH-BILL-OTHER', facilityPublicId: OTHER, service: 1, feeKind: 'application', amount: '100.00', vat: '15.00', total: '115.00', status: 1 });

  // Certificates: mine expiring in 30 days and in 200 days; the other facility's expiring in 10 days.
  const cert = (facilityPublicId: string, number: string, days: number) => ({
    number,
    kind: 'internalHalal',
    facilityPublicId,
    verificationCode: `dash-${number}`,
    expiresAt: new Date(Date.now() + days * DAY),
  });
  await t.database.db.insert(certificates).values([cert(MINE, 'DASH-MINE-30', 30), cert(MINE, 'DASH-MINE-200', 200), cert(OTHER, 'DASH-OTHER-10', 10)]);
}, 120_000);
afterAll(() => t?.close());

describe('facility dashboard', () => {
  it('counts only the caller’s facilities: open requests, unpaid bills, certificates expiring soon', async () => {
    const res = await applicant.get('/api/dashboard/facility?lang=en');
    expect(res.statusCode).toBe(200);
    const d = res.json() as FacilityDashboard;
    expect(d.facilities.map((f) => f.publicId)).toEqual([MINE]);
    expect(d.openRequests.count).toBe(2);
    expect(d.openRequests.items.map((i) => i.number).sort()).toEqual([numbers.myDraft, numbers.mySubmitted].sort());
    expect(d.openRequests.items.every((i) => i.facilityId === MINE)).toBe(true);
    expect(JSON.stringify(d)).not.toContain(numbers.other);
    expect(d.openRequests.byStatus.reduce((n, s) => n + s.count, 0)).toBe(2);
    expect(d.openRequests.byStatus.every((s) => s.label !== String(s.code))).toBe(true);

    const [myUnpaid] = await t.database.db.select().from(bills).where(and(eq(bills.facilityPublicId, MINE), eq(bills.status, 1)));
    expect(d.unpaidBills.count).toBe(1);
    expect(d.unpaidBills.total).toBeCloseTo(Number(myUnpaid.total), 2);
    expect(d.unpaidBills.items.map((b) => b.number)).toEqual([myUnpaid.number]);

    expect(d.expiringSoonDays).toBe(60);
    expect(d.expiringCertificates.map((c) => c.number)).toEqual(['DASH-MINE-30']);
    expect(d.expiringCertificates[0].daysLeft).toBeGreaterThanOrEqual(29);
  });

  it('the other facility’s user sees theirs and nothing of the first', async () => {
    const d = (await other.get('/api/dashboard/facility')).json() as FacilityDashboard;
    expect(d.openRequests.items.map((i) => i.number)).toEqual([numbers.other]);
    expect(d.expiringCertificates.map((c) => c.number)).toEqual(['DASH-OTHER-10']);
    expect(d.unpaidBills).toMatchObject({ count: 1, total: 115, items: [{ number: 'DASH-BILL-OTHER', facilityId: OTHER }] });
    expect(JSON.stringify(d)).not.toContain(numbers.myDraft);
  });

  it('a user without a facility gets an empty dashboard; staff and anonymous callers none', async () => {
    const d = (await (await t.login('new.applicant')).get('/api/dashboard/facility')).json() as FacilityDashboard;
    expect(d.openRequests.count).toBe(0);
    expect(d.facilities).toEqual([]);
    expect((await t.anonymous.get('/api/dashboard/facility')).statusCode).toBe(401);
    expect((await staff.get('/api/dashboard/facility')).statusCode).toBe(403);
  });
});

describe('staff dashboard', () => {
  it('queue sizes and statuses match the requests in the database, for every facility', async () => {
    const res = await staff.get('/api/dashboard/staff?lang=ar');
    expect(res.statusCode).toBe(200);
    const d = res.json() as StaffDashboard;
    const live = and(isNull(requests.deletedAt), notInArray(requests.kind, [...ENTITY_KINDS]));
    const rows = await t.database.db
      .select({ queue: requests.queue, count: sql<number>`count(*)::int` })
      .from(requests)
      .where(and(live, inArray(requests.queue, ['registration', 'audit', 'committee', 'applicant', 'payment'])))
      .groupBy(requests.queue);
    const expected = Object.fromEntries(rows.map((r) => [r.queue, r.count]));
    for (const q of d.byQueue) expect(q.count, q.queue).toBe(expected[q.queue] ?? 0);
    // What this file created: a draft with the applicant, a request awaiting its fee, a CB request at registration.
    expect(Object.fromEntries(d.byQueue.map((q) => [q.queue, q.count]))).toEqual({ registration: 1, audit: 0, committee: 0, applicant: 1, payment: 1 });
    expect(d.byStatus.reduce((n, s) => n + s.count, 0)).toBe(3);
    // Labels in the caller's language.
    expect(d.byStatus.every((s) => /[\u0600-\u06FF]/.test(s.label))).toBe(true);
  });

  it('counts the requests received this week and the bills paid and unpaid', async () => {
    const d = (await staff.get('/api/dashboard/staff')).json() as StaffDashboard;
    expect(d.weekly).toHaveLength(8);
    expect(d.weekly.at(-1)!.received).toBe(2);
    expect(d.weekly.slice(0, -1).every((w) => w.received === 0)).toBe(true);
    const [unpaid] = await t.database.db.select({ total: sql<string>`sum(${bills.total})`, count: sql<number>`count(*)::int` }).from(bills).where(eq(bills.status, 1));
    expect(d.bills.unpaid.count).toBe(2);
    expect(d.bills.unpaid.count).toBe(unpaid.count);
    expect(d.bills.unpaid.total).toBeCloseTo(Number(unpaid.total), 2);
    expect(d.bills.paid).toEqual({ count: 0, total: 0 });
    // Requests received this week are well within their working-day limits (request-clock.test.ts has one past it).
    expect(d.overdue).toBe(0);
  });

  it('the demo read-only auditor reads it too (and still changes nothing)', async () => {
    const auditor = await t.login('readonly.auditor');
    const d = (await auditor.get('/api/dashboard/staff')).json() as StaffDashboard;
    expect(d.byQueue.find((q) => q.queue === 'registration')!.count).toBe(1);
    expect((await auditor.post('/api/requests', { kind: 'internalCertificate', facilityId: MINE })).json().error.code).toBe('ReadOnlyRole');
  });

  it('is for the Halal center only', async () => {
    expect((await applicant.get('/api/dashboard/staff')).statusCode).toBe(403);
  });
});

describe('migration 0011', () => {
  it('gives the default staff roles of an existing installation the host dashboard, and keeps an administrator’s edit', async () => {
    const db = t.database.db;
    const grants = async (name: string) => (await db.select().from(roles).where(eq(roles.name, name)))[0].permissions;
    const host = 'Halal.Dashboard.Host';
    const tenant = 'Halal.Dashboard.Tenant';
    // As the seed of an earlier version left them: staff with the tenant dashboard, the auditor with none; the
    // committee role edited by an administrator to hold both.
    const old = (p: string[]) => p.map((x) => (x === host ? tenant : x));
    await db.update(roles).set({ permissions: old(await grants('registrationEmployee')) }).where(eq(roles.name, 'registrationEmployee'));
    await db.update(roles).set({ permissions: (await grants('readOnlyAuditor')).filter((x) => x !== host) }).where(eq(roles.name, 'readOnlyAuditor'));
    await db.update(roles).set({ permissions: [...(await grants('committeeMember')), tenant] }).where(eq(roles.name, 'committeeMember'));
    const before = await grants('registrationEmployee');
    expect(before).toContain(tenant);

    const file = readFileSync(new URL('../../db/migrations/0011_dashboard_host_for_staff.sql', import.meta.url), 'utf8');
    for (const statement of file.split('--> statement-breakpoint')) await db.execute(sql.raw(statement));

    const after = await grants('registrationEmployee');
    expect(after).toContain(host);
    expect(after).not.toContain(tenant);
    expect(after).toHaveLength(before.length);
    expect(await grants('readOnlyAuditor')).toContain(host);
    expect(await grants('committeeMember')).toEqual(expect.arrayContaining([host, tenant]));
    expect(await grants('applicant')).toContain(tenant);
    expect(await grants('applicant')).not.toContain(host);
  });
});
