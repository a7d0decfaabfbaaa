import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type InjectOptions, type LightMyRequestResponse } from 'fastify';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { bills, certificates, facilities, payments, requests, users, workflowTimers } from '../../db/schema';
import { DEMO_PASSWORD } from '../../db/seed';
import { SERVICES, type RequestKind } from '../../machines/services';
import { NEWEST_CERTIFICATE_FIRST } from '../../workflows/newest-certificate';
import { signCallback } from '../../server/adapters/payment-portal';
import { buildApp } from '../../server/app';
import type { Config } from '../../server/config';
import { registerSimulators } from '../../server/simulators';
import { VALID_DATA } from '../../tests/services/fixtures';
import { makeSaudiIban } from '../../machines/forms/facilities/formats';
import { multipartBody, pdf } from '../../tests/helpers/multipart';

/*
 * The demo requests (`npm run seed:demo`, issue 14 item 9): requests of every service spread over their statuses,
 * certificates near and past expiry, marks, and bills paid and unpaid, so that every demo account opens on full
 * queues, lists and histories.
 *
 * Nothing here is inserted behind the machines' back: every request is started, edited, submitted and moved on by the
 * demo people through the portal's own HTTP doors (`app.inject`: the routes, their policies, the server checks and the
 * engine), with real uploaded attachments and the schema-valid data of each service (tests/services/fixtures.ts); a
 * bill is paid as the payment portal reports it (its signed callback); steps the system takes at once are fired by
 * the engine's timer runner. Two things stand in for time passing, as the server tests do: a certificate's expiry
 * date is moved (with its issue and start dates, so its validity keeps its length) and its own lifecycle's
 * deadlines are fired early, so it goes "expiring soon" or "expired" through its machine.
 */

/** The applicant facilities of the demo and who acts for them. */
const INTERNAL = { facility: 'inf-almarai-foods', user: 'internal.main' } as const;
const EXTERNAL = { facility: 'exf-anatolia-meat', user: 'external' } as const;
const CB = { facility: 'cb-global-halal', user: 'cb.main' } as const;
/**
 * A conformity body `new.applicant` registers through the portal, holding no designation yet: it asks for one. Global
 * Halal CB holds a designation in force (db/seed-public.ts), so it renews and extends that one and never asks for
 * another (README, choices: one designation per conformity body).
 */
export const NEW_CB = { registrationNumber: 'AE-CB-20931', user: 'new.applicant' } as const;
const STAFF = ['registration', 'audit', 'committee'] as const;
type Person = (typeof STAFF)[number] | 'internal.main' | 'external' | 'cb.main' | 'new.applicant';

/** The service kinds (the requests a person files), as opposed to the entity lifecycles (certificate, bill, mark). */
const SERVICE_KINDS = Object.keys(SERVICES) as RequestKind[];

interface RequestJson {
  id: string;
  number: string;
  version: number;
  kind: string;
  status: { code: number; label: string };
  queue: string | null;
  finished?: boolean;
}

interface Client {
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, payload?: unknown, opts?: InjectOptions): Promise<LightMyRequestResponse>;
  request(opts: InjectOptions): Promise<LightMyRequestResponse>;
}

export interface DemoRequestSummary {
  /** Facilities whose demo requests were created by this run (a facility that already had requests is skipped). */
  seeded: string[];
  skipped: string[];
  /** Per kind, the number of the demo facilities' requests in each state (state value: count). */
  requests: Record<string, Record<string, number>>;
  certificates: Record<string, Record<string, number>>;
  bills: { paid: number; unpaid: number; other: number };
  ms: number;
}

const cookiesOf = (res: LightMyRequestResponse): string[] => [res.headers['set-cookie'] ?? []].flat().map((c) => String(c).split(';')[0]);

async function signIn(app: FastifyInstance, userName: string): Promise<Client> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { userName, password: DEMO_PASSWORD } });
  if (res.statusCode !== 200) throw new Error(`demo sign-in of ${userName} refused (${res.statusCode}): ${res.body}`);
  const session = cookiesOf(res).join('; ');
  const s = await app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie: session } });
  const cookie = [session, ...cookiesOf(s)].join('; ');
  const csrf = String(s.json().csrfToken ?? '');
  const request = (opts: InjectOptions) => app.inject({ ...opts, headers: { cookie, 'x-csrf-token': csrf, ...(opts.headers ?? {}) } });
  return {
    request,
    get: (url) => request({ method: 'GET', url }),
    post: (url, payload, opts = {}) => request({ ...opts, method: 'POST', url, payload: payload as never }),
  };
}

const ok = (res: LightMyRequestResponse, what: string, status = 200) => {
  if (res.statusCode !== status) throw new Error(`${what} refused (${res.statusCode}): ${res.body}`);
  return res.json();
};

const isoDay = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

class Driver {
  private readonly people = new Map<Person, Promise<Client>>();
  private readonly ids = new Map<string, string>();

  constructor(private readonly app: FastifyInstance) {}

  /** Each demo person signs in the first time they act (sign-in hashes the password: only once each). */
  as(person: Person): Promise<Client> {
    let c = this.people.get(person);
    if (!c) this.people.set(person, (c = signIn(this.app, person)));
    return c;
  }

  async userId(userName: string): Promise<string> {
    if (!this.ids.size) {
      for (const u of await this.app.db.select({ id: users.id, userName: users.userName }).from(users)) this.ids.set(u.userName, u.id);
    }
    const id = this.ids.get(userName);
    if (!id) throw new Error(`demo user ${userName} is missing`);
    return id;
  }

  async read(id: string): Promise<RequestJson> {
    return ok(await (await this.as('registration')).get(`/api/requests/${id}`), `reading ${id}`) as RequestJson;
  }

  /** One event by one person through the event door, at the request's current version. */
  async act(person: Person, id: string, type: string, payload?: Record<string, unknown>, version?: number): Promise<RequestJson> {
    const c = await this.as(person);
    const expectedVersion = version ?? (ok(await c.get(`/api/requests/${id}`), `reading ${id}`) as RequestJson).version;
    const t0 = Date.now();
    const res = await c.post(`/api/requests/${id}/events?lang=en`, { type, expectedVersion, ...(payload ? { payload } : {}) });
    if (process.env.DEMO_SEED_TRACE) console.log(`${new Date().toISOString().slice(11, 23)} ${id} ${type} by ${person}: ${res.statusCode} ${Date.now() - t0} ms`);
    return ok(res, `${type} by ${person} on ${id}`) as RequestJson;
  }

  /**
   * A conformity body registered by its main user as a person does (its facility files uploaded, then the form sent);
   * their next sign-in carries it. Returns its public id.
   */
  async registerCb(person: Person, registrationNumber: string): Promise<string> {
    const c = await this.as(person);
    const attachments = [];
    for (const category of ['commercialRegistration', 'accreditationCertificate', 'acceptanceCertificate']) {
      const up = await c.request({
        method: 'POST',
        url: `/api/facility-attachments?category=${category}&fileName=${category}.pdf`,
        payload: pdf(),
        headers: { 'content-type': 'application/pdf' },
      });
      attachments.push({ id: ok(up, `upload ${category}`).id as string });
    }
    const created = ok(
      await c.post('/api/ConformityBody/create?lang=en', {
        nameAr: 'هيئة الخليج لتقويم مطابقة الحلال',
        nameEn: 'Gulf Halal Conformity Body',
        countryCode: 'AE',
        city: 'Dubai',
        address: 'Sheikh Zayed Road 1',
        registrationNumber,
        acceptanceNumber: '3-2026H-CB',
        notificationNumber: 'H-CB2026-3',
        certificateIssueDate: isoDay(-30),
        certificateExpiryDate: isoDay(700),
        iban: makeSaudiIban('10', '100000000000000093'),
        categories: ['C0', 'CI'],
        attachments,
      }),
      'registering a conformity body',
    );
    this.people.delete(person);
    return created.publicId as string;
  }

  private async upload(c: Client, facilityPublicId: string, requestId: string, category: string): Promise<string> {
    const body = multipartBody({ name: `${category}.pdf`, type: 'application/pdf', content: pdf() });
    const res = await c.request({
      method: 'POST',
      url: `/api/attachments?facilityPublicId=${facilityPublicId}&category=${category}&requestId=${requestId}`,
      payload: body.payload,
      headers: body.headers,
    });
    return ok(res, `upload ${category}`, 201).id as string;
  }

  /** A draft of `kind` as a person fills it in: started, its files uploaded to it, every section saved. */
  async draft(person: Person, kind: RequestKind, facilityId: string, opts: { certificateId?: string; data?: Record<string, unknown> } = {}): Promise<RequestJson> {
    const c = await this.as(person);
    const started = ok(
      await c.post('/api/requests', { kind, facilityId, ...(opts.certificateId ? { certificateId: opts.certificateId } : {}) }),
      `starting ${kind}`,
      201,
    ) as RequestJson;
    const PLACEHOLDER = /^00000000-0000-4000-8000-\d{12}$/;
    const visit = async (node: unknown, category: string): Promise<unknown> => {
      if (Array.isArray(node)) {
        const out: unknown[] = [];
        for (const n of node) out.push(await visit(n, category));
        return out;
      }
      if (!node || typeof node !== 'object') return node;
      const o = { ...(node as Record<string, unknown>) };
      const cat = typeof o.category === 'string' ? o.category : category;
      for (const [k, v] of Object.entries(o)) {
        if (typeof v === 'string' && PLACEHOLDER.test(v)) {
          o[k] = await this.upload(c, facilityId, started.id, k === 'planAttachmentId' ? 'operationPlan' : k === 'attachmentId' ? 'testCertificate' : cat);
        } else o[k] = await visit(v, cat);
      }
      return o;
    };
    const data = (await visit({ ...VALID_DATA[kind](), ...(opts.data ?? {}) }, 'requestNote')) as Record<string, unknown>;
    return this.act(person, started.id, 'EDIT', { data });
  }

  async billsOf(requestId: string): Promise<{ id: string; number: string; total: string; status: { code: number } }[]> {
    const c = await this.as('registration');
    return ok(await c.get(`/api/bills?requestId=${requestId}&pageSize=100`), 'bills').items;
  }

  /** Pays a bill as the government payment portal reports it: its registered payment, then the signed callback. */
  async pay(bill: { id: string; number: string; total: string }): Promise<void> {
    const portalPaymentId = `demo-${randomUUID()}`;
    await this.app.db.insert(payments).values({ billId: bill.id, portalPaymentId, amount: bill.total, returnPath: '/bills' });
    const fields = {
      paymentId: portalPaymentId,
      merchantReference: bill.number,
      paymentReference: String(Date.now()).slice(-12).padStart(12, '0'),
      status: 'paid' as const,
      amount: bill.total,
      timestamp: new Date().toISOString(),
    };
    const res = await this.app.inject({
      method: 'POST',
      url: '/api/payments/callback',
      payload: { ...fields, signature: signCallback(fields, this.app.config.PAYMENT_CALLBACK_SECRET) },
    });
    ok(res, `payment of ${bill.number}`);
  }

  /** Fires the engine's timers that are due now (the steps the system takes at once). */
  async fireDue(): Promise<number> {
    const engine = this.app.engine as unknown as { fireDueTimers?: (now: Date) => Promise<number> };
    return engine.fireDueTimers ? engine.fireDueTimers(new Date()) : 0;
  }

  /** Brings one pending deadline of a workflow due now and lets the engine fire it (time passing). */
  async fireEarly(workflowId: string, event: string): Promise<void> {
    await this.app.db
      .update(workflowTimers)
      .set({ dueAt: new Date(Date.now() - 1000) })
      .where(and(eq(workflowTimers.requestId, workflowId), eq(workflowTimers.event, event), isNull(workflowTimers.firedAt), isNull(workflowTimers.cancelledAt)));
    await this.fireDue();
  }

  private async plan() {
    const leader = await this.userId('teamleader');
    const auditor = await this.userId('auditor');
    const day1 = isoDay(21);
    const day2 = isoDay(22);
    return {
      visitStartDate: day1,
      visitDays: 2,
      language: 'ar',
      visitGoal: 'Initial certification audit',
      facilityCoordinator: { name: 'Khalid Al-Harbi', phone: '+966550000002' },
      teamLeaderUserId: leader,
      technicalAuditorUserIds: [auditor],
      islamicAffairsExpert: 'Sheikh Saleh Al-Fawzan',
      visitDates: [day1, day2],
      timeline: [
        { date: day1, hour: 9, minute: 0, period: 'am', activity: 'Opening meeting', auditorUserIds: [leader, auditor] },
        { date: day1, hour: 10, minute: 30, period: 'am', activity: 'Production lines and storage', auditorUserIds: [leader, auditor] },
        { date: day2, hour: 1, minute: 0, period: 'pm', activity: 'Closing meeting', auditorUserIds: [leader, auditor] },
      ],
    };
  }

  /**
   * Walks a request down its golden path until `stop` says so (or nothing more can be done): at each step the first
   * person whose actions offer the next golden event sends it; an open bill is paid (a walk told to stop at a payment
   * status leaves it unpaid); immediate system steps are fired by the timer runner.
   */
  async walk(id: string, applicant: Person, stop: (r: RequestJson) => boolean, opts: { option?: 'yearly' | 'full' } = {}): Promise<RequestJson> {
    const GOLDEN = ['SUBMIT', 'ASSIGN_TO_ME', 'ACCEPT', 'SUBMIT_PLAN', 'ACCEPT_PLAN', 'START_INSPECTION', 'SUBMIT_AUDIT_RESULT', 'SUBMIT_REPORT', 'APPROVE', 'CHOOSE_PAYMENT_OPTION', 'ISSUE_CERTIFICATE'];
    const payload = async (event: string): Promise<Record<string, unknown>> => {
      switch (event) {
        case 'SUBMIT':
          return { agreementAccepted: true };
        case 'SUBMIT_PLAN':
          return { plan: await this.plan() };
        case 'SUBMIT_AUDIT_RESULT':
          return { compliant: true };
        case 'SUBMIT_REPORT':
          return { summary: 'The facility complies with the Halal standard; no non-conformity was found' };
        case 'APPROVE':
          return { reason: 'Meets every requirement of the Halal standard' };
        case 'CHOOSE_PAYMENT_OPTION':
          return { option: opts.option ?? 'yearly' };
        default:
          return {};
      }
    };
    const DESK: Record<string, Person> = { registration: 'registration', audit: 'audit', committee: 'committee' };
    // The answer to an event is the request after it; after a payment or a timer it is read again.
    let after: RequestJson | undefined;
    for (let i = 0; i < 40; i++) {
      const request = after ?? (await this.read(id));
      after = undefined;
      if (stop(request) || request.finished) return request;
      if (request.queue === 'payment') {
        const open = (await this.billsOf(id)).filter((b) => b.status.code === 1);
        if (open.length) {
          await this.pay(open[0]);
          continue;
        }
      }
      if (await this.fireDue()) continue;
      // The person at the request's desk first (the applicant when it is with them), then everyone else.
      const first = DESK[request.queue ?? ''] ?? applicant;
      const order: Person[] = [first, ...[applicant, ...STAFF].filter((p) => p !== first)];
      let acted = false;
      for (const person of order) {
        const c = await this.as(person);
        const actions = ok(await c.get(`/api/requests/${id}/actions`), 'actions') as { version: number; actions?: { type: string }[] };
        const event = GOLDEN.find((g) => actions.actions?.some((a) => a.type === g));
        if (!event) continue;
        after = await this.act(person, id, event, await payload(event), actions.version);
        acted = true;
        break;
      }
      if (!acted) return request;
    }
    throw new Error(`demo request ${id} did not reach its status`);
  }

  /** Walks to the end and returns the certificate (or designation) the request issued. */
  /** The designation a conformity body holds (the newest, by the one rule). */
  async designationOf(cbPublicId: string): Promise<string> {
    const [row] = await this.app.db
      .select({ id: certificates.id })
      .from(certificates)
      .where(and(eq(certificates.facilityPublicId, cbPublicId), eq(certificates.kind, 'cbDesignation')))
      .orderBy(...NEWEST_CERTIFICATE_FIRST)
      .limit(1);
    if (!row) throw new Error(`the demo conformity body ${cbPublicId} holds no designation`);
    return row.id;
  }

  async issue(id: string, applicant: Person, option: 'yearly' | 'full' = 'full'): Promise<string> {
    const done = await this.walk(id, applicant, () => false, { option });
    const [row] = await this.app.db.select({ id: certificates.id }).from(certificates).where(eq(certificates.requestId, id));
    if (!row) throw new Error(`demo request ${done.number} ended in ${done.status.code} without a certificate`);
    return row.id;
  }

  /**
   * Time passes for a certificate: its expiry comes to `daysLeft` from today (its issue and start dates move with it,
   * so its validity keeps its length) and its lifecycle's deadlines that are then past fire: expiring soon within 60
   * days, expired after the date. A certificate paid yearly would also bill its instalments: only certificates paid
   * in full are aged here.
   */
  async age(certificateId: string, daysLeft: number): Promise<void> {
    const [c] = await this.app.db.select().from(certificates).where(eq(certificates.id, certificateId));
    const expiresAt = new Date(Date.now() + daysLeft * 86_400_000);
    const shift = expiresAt.getTime() - c.expiresAt.getTime();
    await this.app.db
      .update(certificates)
      .set({ expiresAt, issuedAt: new Date(c.issuedAt.getTime() + shift), validFrom: new Date(c.validFrom.getTime() + shift) })
      .where(eq(certificates.id, certificateId));
    // Its pending deadlines (computed from the expiry) move with it; those now past fire: expiring soon under 60 days.
    const pending = and(eq(workflowTimers.requestId, certificateId), isNull(workflowTimers.firedAt), isNull(workflowTimers.cancelledAt));
    for (const timer of await this.app.db.select({ id: workflowTimers.id, dueAt: workflowTimers.dueAt }).from(workflowTimers).where(pending)) {
      await this.app.db.update(workflowTimers).set({ dueAt: new Date(timer.dueAt.getTime() + shift) }).where(eq(workflowTimers.id, timer.id));
    }
    await this.fireDue();
    // The expiry deadline is armed on entering "expiring soon", from the date the lifecycle was started with.
    if (daysLeft < 0) await this.fireEarly(certificateId, 'CERTIFICATE_EXPIRED');
  }
}

/** The first product of a service's data with other names and numbers (a product the food authority knows). */
const productLike = (data: Record<string, unknown>, changes: Record<string, unknown>) => ({ ...(data.products as Record<string, unknown>[])[0], ...changes });

/**
 * An internal certificate of the demo factory due for renewal: issued through the portal (paid in full, so aging it
 * bills nothing), then aged to 30 days before its expiry, inside the 60-day renewal window; no renewal is started.
 */
async function dueForRenewal(d: Driver): Promise<string> {
  const id = await d.issue((await d.draft(INTERNAL.user, 'internalCertificate', INTERNAL.facility)).id, INTERNAL.user);
  await d.age(id, 30);
  return id;
}

/** `count` certificates of the demo factory due for renewal (dueForRenewal), on an app built by withDemoApp: a walk's own data. */
export async function issueDueForRenewal(app: FastifyInstance, count: number): Promise<string[]> {
  const d = new Driver(app);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(await dueForRenewal(d));
  return ids;
}

/** The internal factory's story: certificates issued, near and past expiry, and every internal service in flight. */
async function internalFacility(d: Driver): Promise<void> {
  const { facility, user } = INTERNAL;
  const start = (kind: RequestKind, opts?: { certificateId?: string; data?: Record<string, unknown> }) => d.draft(user, kind, facility, opts);
  const at = (code: number) => (r: RequestJson) => r.status.code === code;

  // Issued certificates: one in force (paid yearly: the next years are billed on their anniversaries), one expiring
  // within 60 days (renewed below), one expired; and one due for renewal that nobody has asked to renew yet.
  const inForce = await d.issue((await start('internalCertificate')).id, user, 'yearly');
  const expiringSoon = await d.issue((await start('internalCertificate')).id, user);
  await d.age(expiringSoon, 40);
  const expired = await d.issue((await start('internalCertificate')).id, user);
  await d.age(expired, -20);

  // Certificates in flight, one at each desk.
  await start('internalCertificate'); // a draft
  const unpaid = await start('internalCertificate');
  await d.walk(unpaid.id, user, at(2)); // the application fee awaits payment
  const waiting = await start('internalCertificate');
  await d.walk(waiting.id, user, at(1)); // new, in the registration queue
  const returned = await start('internalCertificate');
  await d.walk(returned.id, user, at(4)); // taken by the registration department ...
  await d.act('registration', returned.id, 'RETURN', { reason: 'Please attach the valid municipality licence', sections: [] }); // ... and returned
  const plan = await start('internalCertificate');
  await d.walk(plan.id, user, at(6)); // the audit department prepares the inspection plan
  const planApproval = await start('internalCertificate');
  await d.walk(planApproval.id, user, at(7)); // the applicant approves the plan
  const decision = await start('internalCertificate');
  await d.walk(decision.id, user, at(14)); // before the decision committee
  const rejected = await start('internalCertificate');
  await d.walk(rejected.id, user, at(14));
  await d.act('committee', rejected.id, 'ASSIGN_TO_ME');
  await d.act('committee', rejected.id, 'REJECT', { reason: 'The slaughtering records do not show a Muslim slaughterer for every batch' });
  const certificateFee = await start('internalCertificate');
  await d.walk(certificateFee.id, user, at(16), { option: 'full' }); // approved, the certificate fee unpaid

  // The renewal of the certificate that expires soon, in the registration queue; another one due for renewal, not yet asked.
  const renewal = await start('internalRenewal', { certificateId: expiringSoon });
  await d.walk(renewal.id, user, at(1));
  await dueForRenewal(d);

  // Added products: one done, one waiting for registration.
  const added = await start('internalAddProducts', { certificateId: inForce });
  await d.walk(added.id, user, () => false);
  const adding = await start('internalAddProducts', {
    certificateId: inForce,
    data: { products: [productLike(VALID_DATA.internalAddProducts(), { nameAr: 'لبن قليل الدسم', nameEn: 'Low Fat Laban', productNumber: 'SFDA2024000000003', saudiHsCode: '040390000000', globalHsCode: '040390' })] },
  });
  await d.walk(adding.id, user, (r) => r.queue === 'registration');

  // Halal marks: one package issued (a mark per product), one awaiting payment, one draft.
  const marks = await start('internalHalalMark', { certificateId: inForce });
  await d.walk(marks.id, user, () => false);
  const markUnpaid = await start('internalHalalMark', { certificateId: inForce });
  await d.walk(markUnpaid.id, user, (r) => r.queue === 'payment');
  await start('internalHalalMark', { certificateId: inForce });
}

/** The foreign factory: its certificates, products, a mark, shipments and a renewal. */
async function externalFacility(d: Driver): Promise<void> {
  const { facility, user } = EXTERNAL;
  const start = (kind: RequestKind, opts?: { certificateId?: string; data?: Record<string, unknown> }) => d.draft(user, kind, facility, opts);
  const at = (code: number) => (r: RequestJson) => r.status.code === code;

  const inForce = await d.issue((await start('externalCertificate')).id, user);
  await start('externalCertificate'); // a draft
  const waiting = await start('externalCertificate');
  await d.walk(waiting.id, user, at(101));
  const returned = await start('externalCertificate');
  await d.walk(returned.id, user, at(204));
  await d.act('registration', returned.id, 'RETURN', { reason: 'The operation plan of the packaging line is missing', sections: [] });
  const unpaid = await start('externalCertificate');
  await d.walk(unpaid.id, user, at(102));

  // Products the food authority knows for the factory and that are not on its certificate yet.
  const lamb = { nameAr: 'لحم ضأن مجمد', nameEn: 'Frozen Lamb', productNumber: 'TRX00000000000002', saudiHsCode: '020430000000', globalHsCode: '020430' };
  const veal = { nameAr: 'لحم عجل مجمد', nameEn: 'Frozen Veal', productNumber: 'TRX00000000000003', saudiHsCode: '020430000000', globalHsCode: '020430' };
  const added = await start('externalAddProducts', { certificateId: inForce, data: { products: [productLike(VALID_DATA.externalAddProducts(), lamb)] } });
  await d.walk(added.id, user, () => false);
  const reviewing = await start('externalAddProducts', { certificateId: inForce, data: { products: [productLike(VALID_DATA.externalAddProducts(), veal)] } });
  await d.walk(reviewing.id, user, (r) => r.queue === 'registration');
  const mark = await start('externalHalalMark', {
    certificateId: inForce,
    data: { products: [{ nameAr: 'لحم بقري مجمد', nameEn: 'Frozen Beef', brandAr: 'اناضول', brandEn: 'Anatolia', productNumber: 'TRX00000000000001', scope: 'Global' }], package: { tags: 16 } },
  });
  await d.walk(mark.id, user, () => false);

  // Shipments covered by the certificate: one certified, one awaiting payment, one draft.
  const shipped = await start('shipment');
  await d.walk(shipped.id, user, () => false);
  const shipmentUnpaid = await start('shipment');
  await d.walk(shipmentUnpaid.id, user, (r) => r.queue === 'payment');
  await start('shipment');

  // A second certificate that expires within 60 days, and its renewal awaiting payment.
  const expiring = await d.issue((await start('externalCertificate')).id, user);
  await d.age(expiring, 45);
  const renewal = await start('externalRenewal', { certificateId: expiring });
  await d.walk(renewal.id, user, (r) => r.queue === 'payment');
}

/**
 * The conformity bodies. Global Halal CB extends the designation it holds (db/seed-public.ts) with a category and,
 * within its renewal window (180 days), asks to renew it: a CB holding a designation in force renews it and never asks
 * for another. A body new.applicant registers, designated by none yet, has designation requests at each desk.
 */
async function conformityBody(d: Driver): Promise<void> {
  const { facility, user } = CB;
  const start = (kind: RequestKind, opts?: { certificateId?: string }) => d.draft(user, kind, facility, opts);

  const designation = await d.designationOf(facility);
  const categories = await start('cbAddCategories', { certificateId: designation });
  await d.walk(categories.id, user, () => false);
  // A second category, not sent yet.
  await d.draft(user, 'cbAddCategories', facility, { certificateId: designation, data: { categories: [{ category: 'D', subCategories: [] }] } });

  const newCb = await d.registerCb(NEW_CB.user, NEW_CB.registrationNumber);
  const apply = () => d.draft(NEW_CB.user, 'cbDesignation', newCb);
  await apply(); // a draft
  const returned = await apply();
  await d.walk(returned.id, NEW_CB.user, (r) => r.queue === 'registration');
  await d.act('registration', returned.id, 'ASSIGN_TO_ME');
  await d.act('registration', returned.id, 'RETURN', { reason: 'The accreditation certificate has expired; attach the current one', sections: [] });
  const audit = await apply();
  await d.walk(audit.id, NEW_CB.user, (r) => r.queue === 'audit');
  const committee = await apply();
  await d.walk(committee.id, NEW_CB.user, (r) => r.queue === 'committee');

  // The designation comes within its renewal window (180 days) and the CB asks to renew it.
  await d.age(designation, 150);
  const renewal = await start('cbRenewal', { certificateId: designation });
  await d.walk(renewal.id, user, (r) => r.queue === 'registration');
}

/** The public id of the conformity body the demo registers (NEW_CB), once registered. */
export async function newCbOf(db: FastifyInstance['db']): Promise<string | undefined> {
  const [row] = await db.select({ publicId: facilities.publicId }).from(facilities).where(eq(facilities.registrationNumber, NEW_CB.registrationNumber));
  return row?.publicId;
}

/** What the demo facilities hold, for the summary line and the test. */
export async function demoRequestCounts(db: FastifyInstance['db']): Promise<Omit<DemoRequestSummary, 'seeded' | 'skipped' | 'ms'>> {
  const newCb = await newCbOf(db);
  const held = [INTERNAL.facility, EXTERNAL.facility, CB.facility, ...(newCb ? [newCb] : [])];
  const rows = await db
    .select({ kind: requests.kind, state: requests.stateValue, n: sql<number>`count(*)::int` })
    .from(requests)
    .where(and(inArray(requests.facilityPublicId, held), inArray(requests.kind, SERVICE_KINDS), isNull(requests.deletedAt)))
    .groupBy(requests.kind, requests.stateValue);
  const byKind: Record<string, Record<string, number>> = {};
  for (const r of rows) (byKind[r.kind] ??= {})[r.state] = Number(r.n);
  const certRows = await db
    .select({ kind: certificates.kind, status: certificates.status, n: sql<number>`count(*)::int` })
    .from(certificates)
    .where(inArray(certificates.facilityPublicId, held))
    .groupBy(certificates.kind, certificates.status);
  const STATUS: Record<number, string> = { 1: 'active', 2: 'expired', 3: 'expiringSoon', 4: 'suspendedOrValidSoon' };
  const byCertKind: Record<string, Record<string, number>> = {};
  for (const r of certRows) (byCertKind[r.kind] ??= {})[STATUS[r.status] ?? String(r.status)] = Number(r.n);
  const billRows = await db
    .select({ status: bills.status, n: sql<number>`count(*)::int` })
    .from(bills)
    .where(inArray(bills.facilityPublicId, held))
    .groupBy(bills.status);
  const billsOut = { paid: 0, unpaid: 0, other: 0 };
  for (const r of billRows) billsOut[r.status === 2 ? 'paid' : r.status === 1 ? 'unpaid' : 'other'] += Number(r.n);
  return { requests: byKind, certificates: byCertKind, bills: billsOut };
}

/**
 * Creates the demo requests on a running app (its commercial registry and food authority adapters must reach the
 * simulators). Idempotent: a demo facility that already has a request of any service is left as it is.
 */
export async function seedDemoRequests(app: FastifyInstance): Promise<DemoRequestSummary> {
  const t0 = Date.now();
  const d = new Driver(app);
  const seeded: string[] = [];
  const skipped: string[] = [];
  for (const [facility, story] of [
    [INTERNAL.facility, internalFacility],
    [EXTERNAL.facility, externalFacility],
    [CB.facility, conformityBody],
  ] as const) {
    const [existing] = await app.db
      .select({ id: requests.id })
      .from(requests)
      .where(and(eq(requests.facilityPublicId, facility), inArray(requests.kind, SERVICE_KINDS)))
      .limit(1);
    if (existing) {
      skipped.push(facility);
      continue;
    }
    await story(d);
    seeded.push(facility);
  }
  return { seeded, skipped, ...(await demoRequestCounts(app.db)), ms: Date.now() - t0 };
}

/**
 * Runs `fn` with the portal built on `database`, its registry and food-authority adapters pointed at the simulators
 * served on a free local port (unless the configuration names other services), the background timer runner off.
 */
export async function withDemoApp<T>(config: Config, database: Database, fn: (app: FastifyInstance) => Promise<T>): Promise<T> {
  const sims = Fastify({ logger: false });
  sims.decorate('config', config);
  await registerSimulators(sims);
  const url = await sims.listen({ port: 0, host: '127.0.0.1' });
  try {
    const app = await buildApp({
      config: {
        ...config,
        LOG_LEVEL: 'warn',
        TIMER_POLL_MS: 0,
        PAYMENT_RECONCILE_MS: 0,
        SIMULATORS: false,
        LOGIN_RATE_LIMIT_PER_MINUTE: 1000,
        CR_REGISTRY_URL: config.CR_REGISTRY_URL ?? `${url}/simulators/cr`,
        FOOD_AUTHORITY_URL: config.FOOD_AUTHORITY_URL ?? `${url}/simulators/foodAuthority`,
        SMS_PROVIDER_URL: config.SMS_PROVIDER_URL ?? `${url}/simulators/sms`,
        PAYMENT_PORTAL_URL: config.PAYMENT_PORTAL_URL ?? `${url}/simulators/payment-portal`,
      } as Config,
      database,
    });
    try {
      await app.ready();
      return await fn(app);
    } finally {
      await app.close();
    }
  } finally {
    await sims.close();
  }
}

/** The summary line(s) printed by `npm run seed:demo`. */
export function formatSummary(s: DemoRequestSummary): string {
  const kinds = Object.entries(s.requests)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([kind, states]) => `  ${kind}: ${Object.entries(states).map(([st, n]) => `${st} ${n}`).join(', ')}`);
  const certs = Object.entries(s.certificates).map(([kind, st]) => `${kind} ${Object.entries(st).map(([k, n]) => `${k} ${n}`).join('/')}`);
  return [
    `demo requests: ${s.seeded.length ? `created for ${s.seeded.join(', ')}` : 'nothing to add'}${s.skipped.length ? ` (already there: ${s.skipped.join(', ')})` : ''} in ${(s.ms / 1000).toFixed(1)} s`,
    ...kinds,
    `  certificates: ${certs.join('; ')}`,
    `  bills: paid ${s.bills.paid}, unpaid ${s.bills.unpaid}, other ${s.bills.other}`,
  ].join('\n');
}
