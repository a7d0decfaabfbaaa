import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { expect } from 'vitest';
import { certificates, payments, users, workflowTimers } from '../../db/schema';
import { PAYMENT_PORTAL_SIMULATOR_PATH, signCallback } from '../../server/adapters/payment-portal';
import type { Db } from '../../db/client';
import type { EmbeddedEngine } from '../../workflows/embedded/embedded-engine';
import { WAITING_RETRY_MS } from '../../workflows/waiting';
import { createTestApp, type Client, type TestApp } from '../helpers/app';
import { send, type RequestJson } from '../helpers/requests';
import { startSimulators } from '../helpers/simulators';
import { PLAN } from '../machines/samples';
import type { CertificateProduct } from '../../machines/services';

/**
 * Walking requests down their golden path over HTTP, as the people of the demo do: at each step the first demo user
 * whose GET /api/requests/:id/actions offers the next golden event sends it; a bill awaiting payment is paid through
 * the payment portal's signed callback (POST /api/payments/callback, as the portal notifies the server); steps the
 * system performs at once (immediate deadlines) are fired by the timer runner.
 */

export const APPLICANTS = ['internal.main', 'external', 'cb.main'] as const;
export const STAFF = ['registration', 'audit', 'committee'] as const;
export type DemoUser = (typeof APPLICANTS)[number] | (typeof STAFF)[number] | 'teamleader' | 'auditor' | 'admin' | 'internal.sub' | 'cb.sub';

export interface World {
  t: TestApp;
  as: Record<DemoUser, Client>;
  userId: (name: DemoUser) => string;
}

/** The designation certificate a CB of the demo data holds (db/seed-public.ts): its id and categories. */
export async function designationOf(w: World, cbPublicId: string): Promise<{ id: string; categories: string[] }> {
  const [designation] = await w.t.database.db
    .select({ id: certificates.id, categories: certificates.categories })
    .from(certificates)
    .where(and(eq(certificates.facilityPublicId, cbPublicId), eq(certificates.kind, 'cbDesignation')));
  return designation!;
}

/**
 * A CB asks for a designation only while it holds none that has not expired (README, choices: "One designation per
 * conformity body"). Time passing for the designations a CB of the demo data holds: expired yesterday, so a test may
 * walk a designation request for it. Returns what puts them back as they were.
 */
export async function lapseDesignations(db: Db, cbPublicId: string): Promise<() => Promise<void>> {
  const held = await db
    .select({ id: certificates.id, status: certificates.status, expiresAt: certificates.expiresAt })
    .from(certificates)
    .where(and(eq(certificates.facilityPublicId, cbPublicId), eq(certificates.kind, 'cbDesignation')));
  for (const c of held) await db.update(certificates).set({ status: 2, expiresAt: new Date(Date.now() - 86_400_000) }).where(eq(certificates.id, c.id));
  return async () => {
    for (const c of held) await db.update(certificates).set({ status: c.status, expiresAt: c.expiresAt }).where(eq(certificates.id, c.id));
  };
}

export async function createWorld(opts: { simulatorsPort?: number } = {}): Promise<World> {
  // The commercial registry, the food authority and the payment portal answer the submission checks over HTTP, as in production.
  const sims = await startSimulators(opts.simulatorsPort);
  const app = await createTestApp({
    LOGIN_RATE_LIMIT_PER_MINUTE: '100',
    CR_REGISTRY_URL: `${sims.url}/simulators/cr`,
    FOOD_AUTHORITY_URL: `${sims.url}/simulators/foodAuthority`,
    // A payment started by a person (POST /api/bills/:id/pay) is registered at the portal's simulator.
    PAYMENT_PORTAL_URL: `${sims.url}${PAYMENT_PORTAL_SIMULATOR_PATH}`,
  });
  const t: TestApp = {
    ...app,
    async close() {
      await app.close();
      await sims.app.close();
    },
  };
  const names: DemoUser[] = [...APPLICANTS, ...STAFF, 'teamleader', 'auditor', 'admin', 'internal.sub', 'cb.sub'];
  // Each demo user signs in the first time a test acts as them (sign-in hashes the password: not for nothing).
  const lazy = (name: DemoUser): Client => {
    let session: Promise<Client> | undefined;
    const c = () => (session ??= t.login(name));
    return {
      cookie: '',
      csrf: '',
      request: async (opts) => (await c()).request(opts),
      get: async (url, opts) => (await c()).get(url, opts),
      post: async (url, payload, opts) => (await c()).post(url, payload, opts),
      put: async (url, payload, opts) => (await c()).put(url, payload, opts),
    };
  };
  const as = Object.fromEntries(names.map((n) => [n, lazy(n)])) as Record<DemoUser, Client>;
  const ids = new Map((await t.database.db.select({ id: users.id, userName: users.userName }).from(users)).map((u) => [u.userName, u.id]));
  return { t, as, userId: (name) => ids.get(name)! };
}

/** The agreed audit plan with real people: the team leader, one technical auditor and the Islamic affairs expert (3 auditors, 2 days). */
export const planOf = (w: World) => {
  const leader = w.userId('teamleader');
  const auditor = w.userId('auditor');
  return {
    ...PLAN,
    visitStartDate: '2031-03-01',
    visitDates: ['2031-03-01', '2031-03-02'],
    teamLeaderUserId: leader,
    technicalAuditorUserIds: [auditor],
    timeline: PLAN.timeline.map((i) => ({ ...i, date: '2031-03-01', auditorUserIds: [leader, auditor] })),
  };
};

export interface BillJson {
  id: string;
  number: string;
  service: { code: number };
  feeKind: { code: string };
  requestId: string | null;
  amount: string;
  vat: string;
  total: string;
  status: { code: number };
  date: string;
  dueAt: string | null;
}

/** The bills of a request (or of a certificate's instalments) as the bills list shows them, oldest first. */
export async function billsOf(c: Client, requestId: string): Promise<BillJson[]> {
  const res = await c.get(`/api/bills?requestId=${requestId}&pageSize=100`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().items as BillJson[]).reverse();
}

/** The amounts a person reads on a bill. */
export const money = (b: Pick<BillJson, 'amount' | 'vat' | 'total'>) => ({ amount: b.amount, vat: b.vat, total: b.total });

/**
 * A payment the government payment portal registered for the bill's total, and its signed server-to-server callback
 * (POST /api/payments/callback), which `post` delivers (again, as the portal retries it).
 */
export async function portalPayment(t: TestApp, billId: string, bill: { number: string; total: string }) {
  const portalPaymentId = `pay-${randomUUID()}`;
  const paymentReference = String(Date.now()).slice(-12).padStart(12, '0');
  await t.database.db.insert(payments).values({ billId, portalPaymentId, amount: bill.total, returnPath: '/bills' });
  return portalPaid(t, { paymentId: portalPaymentId, paymentReference }, bill);
}

/** The portal's signed callback that a payment (started at the portal, or by portalPayment) was paid; `post` delivers it. */
export function portalPaid(t: TestApp, payment: { paymentId: string; paymentReference: string }, bill: { number: string; total: string }) {
  const fields = {
    paymentId: payment.paymentId,
    merchantReference: bill.number,
    paymentReference: payment.paymentReference,
    status: 'paid' as const,
    amount: bill.total,
    timestamp: new Date().toISOString(),
  };
  const payload = { ...fields, signature: signCallback(fields, t.app.config.PAYMENT_CALLBACK_SECRET) };
  return {
    paymentReference: payment.paymentReference,
    async post() {
      const res = await t.app.inject({ method: 'POST', url: '/api/payments/callback', payload });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { billId: string; outcome: string; changed: boolean };
    },
  };
}

/** Pays a bill as the government payment portal reports it (portalPayment, delivered once). Returns the callback's answer. */
export async function payBill(t: TestApp, billId: string, bill: { number: string; total: string }) {
  return (await portalPayment(t, billId, bill)).post();
}

const engineOf = (t: TestApp) => t.app.engine as unknown as EmbeddedEngine;

/** Fires the timers that are due now (immediate steps); returns how many fired. */
export const fireDue = (t: TestApp) => engineOf(t).fireDueTimers(new Date());

/**
 * Fires, besides the timers due now, the ones resting because their step waited (workflows/waiting.ts: a certificate
 * suspended, a payment not yet heard), as the sweep does once WAITING_RETRY_MS have passed.
 */
export const fireWaiting = (t: TestApp) => engineOf(t).fireDueTimers(new Date(Date.now() + WAITING_RETRY_MS + 1000));

/** Brings the pending timer `event` of one workflow (request or entity) due now and fires it. */
export async function fireTimer(t: TestApp, workflowId: string, event: string): Promise<void> {
  const moved = await t.database.db
    .update(workflowTimers)
    .set({ dueAt: new Date(Date.now() - 1000) })
    .where(and(eq(workflowTimers.requestId, workflowId), eq(workflowTimers.event, event), isNull(workflowTimers.firedAt), isNull(workflowTimers.cancelledAt)))
    .returning({ id: workflowTimers.id });
  expect(moved.length, `${event} timer of ${workflowId}`).toBe(1);
  await fireDue(t);
}

/** The golden event order and each event's payload. */
const GOLDEN = [
  'SUBMIT',
  'ASSIGN_TO_ME',
  'ACCEPT',
  'SUBMIT_PLAN',
  'ACCEPT_PLAN',
  'START_INSPECTION',
  'SUBMIT_AUDIT_RESULT',
  'SUBMIT_REPORT',
  'APPROVE',
  'CHOOSE_PAYMENT_OPTION',
  'ISSUE_CERTIFICATE',
] as const;

export interface Step {
  event: string;
  by: string;
  status: number;
}

/**
 * Drives a request until its status is `until` (or it is finished): returns each step taken (event, who, status after).
 * `option` is the payment way chosen at CHOOSE_PAYMENT_OPTION. Bills awaiting payment are paid unless `payBills` is
 * false, in which case the walk stops at the first one. `stopBefore` stops when that event is next (e.g. 'APPROVE', to
 * decide otherwise).
 */
export async function walk(
  w: World,
  id: string,
  opts: { applicant: DemoUser; until: number; option?: 'yearly' | 'full'; payBills?: boolean; stopBefore?: string },
): Promise<{ steps: Step[]; request: RequestJson }> {
  const steps: Step[] = [];
  const payload = (event: string): Record<string, unknown> => {
    switch (event) {
      case 'SUBMIT':
        return { agreementAccepted: true };
      case 'SUBMIT_PLAN':
        return { plan: planOf(w) };
      case 'SUBMIT_AUDIT_RESULT':
        return { compliant: true };
      case 'SUBMIT_REPORT':
        return { summary: 'Compliant with the Halal standard' };
      case 'APPROVE':
        return { reason: 'Meets every requirement' };
      case 'CHOOSE_PAYMENT_OPTION':
        return { option: opts.option ?? 'yearly' };
      default:
        return {};
    }
  };
  const order: DemoUser[] = [opts.applicant, ...STAFF];
  for (let i = 0; i < 40; i++) {
    const request = (await w.as.registration.get(`/api/requests/${id}`)).json() as RequestJson & { finished: boolean };
    if (request.status.code === opts.until || request.finished) return { steps, request };
    const open = (await billsOf(w.as.registration, id)).filter((b) => b.status.code === 1);
    if (open.length && opts.payBills !== false) {
      await payBill(w.t, open[0].id, open[0]);
      steps.push({ event: 'PAYMENT_CONFIRMED', by: 'portal', status: (await w.as.registration.get(`/api/requests/${id}`)).json().status.code });
      continue;
    }
    if (await fireDue(w.t)) {
      steps.push({ event: 'timer', by: 'system', status: (await w.as.registration.get(`/api/requests/${id}`)).json().status.code });
      continue;
    }
    let acted = false;
    for (const user of order) {
      const actions = (await w.as[user].get(`/api/requests/${id}/actions`)).json() as { version: number; actions?: { type: string }[] };
      const event = GOLDEN.find((g) => actions.actions?.some((a) => a.type === g));
      if (!event) continue;
      if (event === opts.stopBefore) return { steps, request };
      const res = await send(w.as[user], id, event, actions.version, payload(event));
      expect(res.statusCode, `${event} by ${user}: ${res.body}`).toBe(200);
      steps.push({ event, by: user, status: res.json().status.code });
      acted = true;
      break;
    }
    if (!acted) return { steps, request };
  }
  throw new Error(`request ${id} did not reach ${opts.until}: ${JSON.stringify(steps)}`);
}

export interface CertificateJson {
  id: string;
  number: string;
  kind: string;
  status: { code: number };
  holder: { publicId: string };
  issuer: { publicId: string } | null;
  scope: string | null;
  categories: string[];
  products: CertificateProduct[];
  issuedAt: { iso: string };
  validFrom: { iso: string };
  expiresAt: { iso: string };
  requestId: string | null;
}

/** The certificates (or marks) a request issued or last renewed, as GET /api/certificates/:id shows them. */
export async function certificatesOf(w: World, c: Client, requestId: string): Promise<CertificateJson[]> {
  const rows = await w.t.database.db.select({ id: certificates.id }).from(certificates).where(eq(certificates.requestId, requestId));
  return Promise.all(
    rows.map(async (r) => {
      const res = await c.get(`/api/certificates/${r.id}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as CertificateJson;
    }),
  );
}

/** A certificate's lifecycle event, as the decision committee sends it from the certificate's page. */
export async function committeeSends(w: World, certificateId: string, type: 'SUSPEND' | 'REINSTATE', reason: string): Promise<void> {
  const { version } = (await w.as.committee.get(`/api/requests/${certificateId}/actions`)).json() as { version: number };
  const res = await send(w.as.committee, certificateId, type, version, { reason });
  expect(res.statusCode, res.body).toBe(200);
}

/** Moves a certificate's expiry (time passing, as existing tests insert certificates with the days they need). */
export async function setExpiry(w: World, certificateId: string, daysFromNow: number): Promise<Date> {
  const expiresAt = new Date(Date.now() + daysFromNow * 86_400_000);
  await w.t.database.db.update(certificates).set({ expiresAt }).where(eq(certificates.id, certificateId));
  return expiresAt;
}

/** Whole calendar months between two ISO instants' dates (UTC). */
export function monthsBetween(fromIso: string, toIso: string): number {
  const a = new Date(fromIso);
  const b = new Date(toIso);
  return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + (b.getUTCMonth() - a.getUTCMonth());
}
