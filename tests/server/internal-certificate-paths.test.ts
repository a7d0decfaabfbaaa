import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { SYSTEM_ACTOR } from '../../machines/actor';
import { statusOf, type MachineEvent, type MayParams } from '../../machines';
import { ROLE_PERMISSIONS, type RoleName } from '../../machines/roles';
import { completeDraft } from '../helpers/requests';
import { internalCertificateData } from '../services/fixtures';
import { createTestApp, type Client, type TestApp } from '../helpers/app';
import { coveringPaths, maximalPaths, pathSteps } from '../machines/paths';
import { NON_CONFORMITY, PLAN } from '../machines/samples';

/**
 * Issue 5: every transition of the internal certificate machine, driven through POST /api/requests/:id/events by the
 * demo user who may send it, with a refusal (403, nothing written) for a user who may not. The paths come from
 * @xstate/graph over the machine itself (shortest paths to every state + transition, discount 0 since requests
 * started over HTTP pay their fees); the fewest of them that together take every transition are replayed.
 * Deadline and payment events (relation `system`) are sent through the engine as the timer runner and the payment
 * callback do, after checking a person is refused them over HTTP.
 */
const KIND = 'internalCertificate';
const FACILITY = 'inf-almarai-foods';

// Every transition the generated paths take, by the fewest paths that take them all: each step costs three HTTP
// calls, and the prefix variants the graph yields add no transition (the machine suite walks them all, in memory).
const ALL = pathSteps(KIND, 0).paths;
const PATHS = coveringPaths(maximalPaths(ALL, (s) => JSON.stringify(s.event)));
const STAFF = ['registration', 'audit', 'teamleader', 'auditor', 'committee'] as const;
const ROLE_OF: Record<(typeof STAFF)[number], RoleName> = {
  registration: 'registrationEmployee',
  audit: 'auditEmployee',
  teamleader: 'teamLeader',
  auditor: 'technicalAuditor',
  committee: 'committeeMember',
};
const QUEUE_ASSIGNEE: Record<string, (typeof STAFF)[number]> = { registration: 'registration', audit: 'audit', committee: 'committee' };

let t: TestApp;
const clients = new Map<string, Client>();
const userIds = new Map<string, string>();

beforeAll(async () => {
  t = await createTestApp();
  for (const name of ['internal.main', ...STAFF]) clients.set(name, await t.login(name));
  for (const u of await t.database.db.select({ id: users.id, userName: users.userName }).from(users)) userIds.set(u.userName, u.id);
}, 60_000);
afterAll(() => t?.close());

interface Live {
  id: string;
  version: number;
  queue: string | null;
  assigneeUserId: string | null;
  status: { code: number };
  context: Record<string, unknown>;
}

const nameOf = (userId: string) => [...userIds].find(([, id]) => id === userId)?.[0];
const holds = (name: (typeof STAFF)[number], permission: MayParams['permission']) =>
  [permission ?? []].flat().some((p) => (ROLE_PERMISSIONS[ROLE_OF[name]] as readonly string[]).includes(p));

/** The demo user who may send this event now: the applicant, the assignee when the guard follows the assignment, else the first staff member holding the permission. */
function rightUser(guard: MayParams, live: Live): string {
  if (guard.relation === 'applicant') return 'internal.main';
  const assignee = live.assigneeUserId ? nameOf(live.assigneeUserId) : undefined;
  if ((guard.relation === 'reviewer' || guard.relation === 'assignee') && assignee) return assignee;
  const name = STAFF.find((n) => holds(n, guard.permission));
  if (!name) throw new Error(`no demo user holds ${String(guard.permission)}`);
  return name;
}

/** The model's sample payload with real people: plan auditors, the assignee, the open non-conformities. */
function payloadOf(event: MachineEvent, live: Live): Record<string, unknown> {
  const { type: _type, actor: _actor, ...payload } = event as MachineEvent & Record<string, unknown>;
  const open = (live.context.openNonConformities as string[] | undefined) ?? [];
  switch (event.type) {
    case 'SAVE_PLAN':
    case 'SUBMIT_PLAN': {
      const leader = userIds.get('teamleader')!;
      const auditor = userIds.get('auditor')!;
      return {
        plan: {
          ...PLAN,
          visitStartDate: '2031-03-01',
          visitDates: ['2031-03-01', '2031-03-02'],
          teamLeaderUserId: leader,
          technicalAuditorUserIds: [auditor],
          timeline: PLAN.timeline.map((i) => ({ ...i, date: '2031-03-01', auditorUserIds: [leader, auditor] })),
        },
      };
    }
    case 'EDIT': {
      // A real edit of the section the model names: its complete value from the schema-valid fixture.
      const [section] = Object.keys((payload as { data: Record<string, unknown> }).data);
      return { data: { [section]: internalCertificateData()[section] } };
    }
    case 'ASSIGN_TO_EMPLOYEE':
      return { assigneeUserId: userIds.get(QUEUE_ASSIGNEE[live.queue ?? ''] ?? 'registration')! };
    case 'SUBMIT_AUDIT_RESULT':
      return (payload as { compliant: boolean }).compliant ? payload : { compliant: false, nonConformities: [NON_CONFORMITY] };
    case 'SUBMIT_CORRECTIVE_ACTIONS':
      return { actions: open.map((id) => ({ nonConformityId: id, description: 'Cleaning log completed', implementationDate: '2031-04-01' })) };
    case 'DECIDE_CORRECTIVE_ACTIONS': {
      const accepted = (payload as { decisions: { accepted: boolean }[] }).decisions[0]?.accepted ?? true;
      return { decisions: open.map((id) => (accepted ? { nonConformityId: id, accepted } : { nonConformityId: id, accepted, reason: 'Not sufficient' })) };
    }
    default:
      return payload;
  }
}

const send = (c: Client, id: string, type: string, expectedVersion: number, payload: Record<string, unknown>) =>
  c.post(`/api/requests/${id}/events?lang=en`, { type, expectedVersion, payload });

describe('internal certificate machine paths through the HTTP API', () => {
  it('the replayed paths take every transition the generated paths take', () => {
    const all = new Set(ALL.flatMap((p) => p.flatMap((s) => s.transitions)));
    const replayed = new Set(PATHS.flatMap((p) => p.flatMap((s) => s.transitions)));
    expect([...all].filter((t) => !replayed.has(t))).toEqual([]);
    expect(all.size).toBeGreaterThan(40);
    const taken = new Set(PATHS.flatMap((p) => p.map((s) => s.event.type)));
    for (const type of ['SUBMIT', 'RETURN', 'RESUBMIT', 'SUBMIT_PLAN', 'RETURN_PLAN', 'ACCEPT_PLAN', 'SUBMIT_AUDIT_RESULT',
      'SUBMIT_CORRECTIVE_ACTIONS', 'DECIDE_CORRECTIVE_ACTIONS', 'SUBMIT_REPORT', 'APPROVE', 'RETURN_TO_AUDIT', 'REJECT',
      'CHOOSE_PAYMENT_OPTION', 'ISSUE_CERTIFICATE', 'ASSIGN_TO_EMPLOYEE', 'CANCEL_ASSIGNMENT', 'RETURN_TO_REGISTRATION', 'DELETE', 'CANCEL'])
      expect(taken, type).toContain(type);
  });

  it.each(PATHS.map((p, i) => [i, p.map((s) => s.event.type).join(' > '), p] as const))('path %i: %s', async (_i, _name, steps) => {
    const applicant = clients.get('internal.main')!;
    // A complete draft with its documents uploaded (one EDIT filled it), so the contract lets it be submitted.
    let live = (await completeDraft(applicant, KIND, FACILITY)) as unknown as Live;

    for (const { event, guard, after } of steps) {
      const payload = payloadOf(event, live);
      const label = `${event.type} in ${live.status.code}`;
      if (guard.relation === 'system') {
        const refused = await send(applicant, live.id, event.type, live.version, payload);
        expect(refused.statusCode, label).toBe(403);
        await t.app.engine.send(live.id, { type: event.type, ...payload }, SYSTEM_ACTOR, live.version);
      } else {
        const right = rightUser(guard, live);
        const wrong = right === 'internal.main' ? 'committee' : 'internal.main';
        const refused = await send(clients.get(wrong)!, live.id, event.type, live.version, payload);
        expect(refused.statusCode, `${label} by ${wrong}`).toBe(403);
        const res = await send(clients.get(right)!, live.id, event.type, live.version, payload);
        expect(res.statusCode, `${label} by ${right}: ${res.body}`).toBe(200);
      }
      const read = await clients.get('registration')!.get(`/api/requests/${live.id}`);
      if (statusOf(after) === -1) {
        expect(read.statusCode).toBe(404);
        return;
      }
      live = read.json() as Live;
      expect(live.status.code, `after ${label}`).toBe(statusOf(after));
    }
  }, 60_000);
});
