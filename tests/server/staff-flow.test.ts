import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeDraft, send, type RequestJson } from '../helpers/requests';
import { createWorld, payBill, billsOf, planOf, type DemoUser, type World } from '../services/walk';

/**
 * Staff-side gaps of the internal certificate, over HTTP as the people meet them: the plan audit saved but did not send,
 * who a request is assigned to once a review ends, and the assignments of a locked employee.
 */
const KIND = 'internalCertificate';
const FACILITY = 'inf-almarai-foods';
const APPLICANT: DemoUser = 'internal.main';

let w: World;
beforeAll(async () => {
  w = await createWorld();
}, 300_000);
afterAll(() => w?.t.close());

type Read = RequestJson & { assigneeUserId: string | null; context: Record<string, unknown> };
const read = async (user: DemoUser, id: string) => {
  const res = await w.as[user].get(`/api/requests/${id}?lang=en`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Read;
};
const act = async (user: DemoUser, id: string, type: string, payload?: Record<string, unknown>) =>
  send(w.as[user], id, type, (await read(user, id)).version, payload, 'en');
const ok = async (user: DemoUser, id: string, type: string, payload?: Record<string, unknown>) => {
  const res = await act(user, id, type, payload);
  expect(res.statusCode, `${type} by ${user}: ${res.body}`).toBe(200);
  return res.json() as Read;
};
interface HistoryItem {
  event: string;
  payload: Record<string, unknown>;
  actor: { userId: string; name: string; system: boolean };
  note: string | null;
  from: { code: number } | null;
  to: { code: number };
}
const historyOf = async (user: DemoUser, id: string) => {
  const res = await w.as[user].get(`/api/requests/${id}/history?lang=en`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items as HistoryItem[];
};

/** A submitted request whose application fee is paid: waiting in the registration queue (1). */
async function submitted(): Promise<string> {
  const draft = await completeDraft(w.as[APPLICANT], KIND, FACILITY);
  await ok(APPLICANT, draft.id, 'SUBMIT', { agreementAccepted: true });
  const open = (await billsOf(w.as.registration, draft.id)).filter((b) => b.status.code === 1);
  await payBill(w.t, open[0].id, open[0]);
  return draft.id;
}

async function inAudit(): Promise<string> {
  const id = await submitted();
  await ok('registration', id, 'ASSIGN_TO_ME');
  await ok('registration', id, 'ACCEPT');
  return id;
}

describe('the audit plan the applicant reads is the one last sent to them', () => {
  it('a plan audit saved after the applicant returned one stays with staff (request, history, answers) until it is sent', async () => {
    const id = await inAudit();
    await ok('audit', id, 'ASSIGN_TO_ME');
    const sent = { ...planOf(w), visitGoal: 'First visit as sent' };
    await ok('audit', id, 'SUBMIT_PLAN', { plan: sent });
    await ok(APPLICANT, id, 'RETURN_PLAN', { reason: 'The first visit day is a holiday' });

    // Audit saves changes without sending them: a new team leader the applicant has not been told about.
    const draft = { ...planOf(w), visitGoal: 'Draft not sent', teamLeaderUserId: w.userId('audit'), timeline: planOf(w).timeline.map((t) => ({ ...t, auditorUserIds: [w.userId('audit'), w.userId('auditor')] })) };
    const saved = await ok('audit', id, 'SAVE_PLAN', { plan: draft });
    expect(saved.context.auditPlanDraft).toMatchObject({ visitGoal: 'Draft not sent' });
    expect(saved.context.auditPlan).toMatchObject({ visitGoal: 'First visit as sent' });

    const applicantRead = await read(APPLICANT, id);
    expect(applicantRead.status.code).toBe(8);
    expect(applicantRead.context.auditPlan).toMatchObject({ visitGoal: 'First visit as sent', teamLeaderUserId: w.userId('teamleader') });
    expect(applicantRead.context).not.toHaveProperty('auditPlanDraft');
    const applicantHistory = await historyOf(APPLICANT, id);
    expect(applicantHistory.find((h) => h.event === 'SAVE_PLAN')!.payload).toEqual({});
    expect(JSON.stringify(applicantHistory)).not.toContain('Draft not sent');

    // Staff read the draft beside the sent plan, in the request and in the history.
    const staffRead = await read('teamleader', id);
    expect(staffRead.context.auditPlanDraft).toMatchObject({ visitGoal: 'Draft not sent' });
    expect(staffRead.context.auditPlan).toMatchObject({ visitGoal: 'First visit as sent' });
    expect((await historyOf('teamleader', id)).find((h) => h.event === 'SAVE_PLAN')!.payload.plan).toMatchObject({ visitGoal: 'Draft not sent' });

    // Sent: the applicant reads and accepts exactly the plan sent; no draft is left behind.
    const second = { ...planOf(w), visitGoal: 'Second visit as sent' };
    const submitted = await ok('audit', id, 'SUBMIT_PLAN', { plan: second });
    expect(submitted.context.auditPlanDraft ?? null).toBeNull();
    expect((await read(APPLICANT, id)).context.auditPlan).toMatchObject({ visitGoal: 'Second visit as sent' });
    const accepted = await ok(APPLICANT, id, 'ACCEPT_PLAN');
    expect(accepted.context.auditPlan).toMatchObject({ visitGoal: 'Second visit as sent' });
    expect(accepted.context).not.toHaveProperty('auditPlanDraft');
  }, 300_000);
});

describe('the assignee is who works on the request now', () => {
  it('a request registration returned has no assignee, and the dashboard no longer counts it for the employee', async () => {
    const registrationId = w.userId('registration');
    const countFor = async () => {
      const res = await w.as.registration.get('/api/dashboard/staff?lang=en');
      expect(res.statusCode, res.body).toBe(200);
      return ((res.json().byAssignee as { userId: string; count: number }[]).find((r) => r.userId === registrationId)?.count ?? 0);
    };
    const id = await submitted();
    const before = await countFor();
    const taken = await ok('registration', id, 'ASSIGN_TO_ME');
    expect(taken.assigneeUserId).toBe(registrationId);
    expect(await countFor()).toBe(before + 1);

    const returned = await ok('registration', id, 'RETURN', { reason: 'The commercial register copy is unreadable' });
    expect(returned.status.code).toBe(5);
    expect(returned.assigneeUserId).toBeNull();
    expect((await read(APPLICANT, id)).assigneeUserId).toBeNull();
    expect(await countFor()).toBe(before);
  }, 300_000);
});
