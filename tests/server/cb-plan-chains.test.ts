import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusLabel } from '../../machines/labels';
import { completeDraft, send, type RequestJson } from '../helpers/requests';
import { billsOf, createWorld, designationOf, lapseDesignations, fireTimer, payBill, planOf, setExpiry, type DemoUser, type World } from '../services/walk';

/*
 * CB designation version 3 (README "Who takes a plan to draft", "No discount on a stopped request"): the plan to draft
 * is taken only by audit staff who may submit one, so a technical auditor (SubmitReport only) can no longer hold a plan
 * nobody could send; and a request stopped by its expired bill offers no discount, which would change nothing.
 */
const KIND = 'cbDesignation';
const CB = 'cb-global-halal';
const APPLICANT: DemoUser = 'cb.main';
const EVERYONE: DemoUser[] = [APPLICANT, 'registration', 'audit', 'teamleader', 'auditor', 'committee'];

let w: World;
beforeAll(async () => {
  w = await createWorld();
  // The demo CB holds a designation in force: it would renew, not ask again (README, choices).
  await lapseDesignations(w.t.database.db, CB);
}, 60_000);
afterAll(() => w?.t.close());

const read = async (user: DemoUser, id: string) => {
  const res = await w.as[user].get(`/api/requests/${id}?lang=en`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as RequestJson & { assigneeUserId: string | null };
};
const actionsOf = async (user: DemoUser, id: string) => {
  const res = await w.as[user].get(`/api/requests/${id}/actions`);
  expect(res.statusCode, res.body).toBe(200);
  return ((res.json().actions ?? []) as { type: string }[]).map((a) => a.type).sort();
};
const offeredTo = async (id: string, type: string) => {
  const out: DemoUser[] = [];
  for (const u of EVERYONE) if ((await actionsOf(u, id)).includes(type)) out.push(u);
  return out;
};
const act = async (user: DemoUser, id: string, type: string, payload?: Record<string, unknown>, lang = 'en') =>
  send(w.as[user], id, type, (await read(user, id)).version, payload, lang);
const ok = async (user: DemoUser, id: string, type: string, payload?: Record<string, unknown>) => {
  const res = await act(user, id, type, payload);
  expect(res.statusCode, `${type} by ${user}: ${res.body}`).toBe(200);
  return res.json() as RequestJson;
};
/** What a refusal must leave untouched: status, version and assignee. */
const stateOf = async (id: string) => {
  const r = await read('registration', id);
  return { code: r.status.code, version: r.version, assignee: r.assigneeUserId };
};

/** A CB designation accepted by registration: its audit plan to draft (1001, audit queue). */
async function atPlan(kind: 'cbDesignation' | 'cbRenewal' = KIND): Promise<string> {
  const renewed = kind === 'cbRenewal' ? (await designationOf(w, CB)).id : undefined;
  // A renewal opens 180 days before the certificate's expiry.
  if (renewed) await setExpiry(w, renewed, 150);
  const draft = await completeDraft(w.as[APPLICANT], kind, CB, renewed ? { certificateId: renewed } : {});
  await ok(APPLICANT, draft.id, 'SUBMIT', { agreementAccepted: true });
  await ok('registration', draft.id, 'ASSIGN_TO_ME');
  await ok('registration', draft.id, 'ACCEPT');
  expect((await read(APPLICANT, draft.id)).status.code).toBe(1001);
  expect(await offeredTo(draft.id, 'SUBMIT_PLAN')).toEqual(['audit', 'teamleader']);
  return draft.id;
}

describe('CB designation: who takes the audit plan to draft', () => {
  it('the technical auditor is neither offered nor given the plan; audit staff take and send it; the auditor takes the request once the plan is approved', async () => {
    const id = await atPlan();
    expect(await offeredTo(id, 'ASSIGN_TO_ME')).toEqual(['audit', 'teamleader']);
    expect(await actionsOf('auditor', id)).not.toContain('ASSIGN_TO_ME');

    const before = await stateOf(id);
    const messages: string[] = [];
    for (const lang of ['en', 'ar']) {
      const refused = await act('auditor', id, 'ASSIGN_TO_ME', undefined, lang);
      expect([403, 409], refused.body).toContain(refused.statusCode);
      messages.push(refused.json().error.message as string);
    }
    expect(messages[0]).toMatch(/[a-z]/i);
    expect(messages[1]).toMatch(/[\u0600-\u06FF]/);
    expect(messages[1]).not.toBe(messages[0]);
    expect(await stateOf(id)).toEqual(before);

    const toAuditor = await act('teamleader', id, 'ASSIGN_TO_EMPLOYEE', { assigneeUserId: w.userId('auditor') });
    expect(toAuditor.statusCode, toAuditor.body).toBe(400);
    expect(toAuditor.json().error.validationErrors).toEqual([expect.objectContaining({ members: ['assigneeUserId'] })]);
    expect(await stateOf(id)).toEqual(before);

    await ok('audit', id, 'ASSIGN_TO_ME');
    await ok('audit', id, 'SUBMIT_PLAN', { plan: planOf(w) });
    await ok(APPLICANT, id, 'ACCEPT_PLAN');
    // The appointment request bill (service 1) is paid: the plan is approved and waits for its inspection.
    const open = (await billsOf(w.as.registration, id)).filter((b) => b.status.code === 1);
    expect(open.length).toBe(1);
    await payBill(w.t, open[0].id, open[0]);
    await ok('audit', id, 'CANCEL_ASSIGNMENT');
    expect(await offeredTo(id, 'ASSIGN_TO_ME')).toEqual(expect.arrayContaining(['auditor']));
    await ok('auditor', id, 'ASSIGN_TO_ME');
    expect((await read('auditor', id)).assigneeUserId).toBe(w.userId('auditor'));
    expect(await actionsOf('auditor', id)).toContain('START_INSPECTION');
  }, 180_000);

  it('the CB renewal (same workflow, version 3) neither offers nor hands its plan to the technical auditor', async () => {
    const id = await atPlan('cbRenewal');
    expect(await offeredTo(id, 'ASSIGN_TO_ME')).toEqual(['audit', 'teamleader']);
    const toAuditor = await act('teamleader', id, 'ASSIGN_TO_EMPLOYEE', { assigneeUserId: w.userId('auditor') });
    expect(toAuditor.statusCode, toAuditor.body).toBe(400);
    expect(toAuditor.json().error.validationErrors).toEqual([expect.objectContaining({ members: ['assigneeUserId'] })]);
  }, 180_000);
});

describe('CB designation stopped by its expired bill', () => {
  it('offers no discount to registration (nothing bills it again) and refuses one', async () => {
    const id = await atPlan();
    await ok('audit', id, 'ASSIGN_TO_ME');
    await ok('audit', id, 'SUBMIT_PLAN', { plan: planOf(w) });
    await ok(APPLICANT, id, 'ACCEPT_PLAN');
    await fireTimer(w.t, id, 'PAYMENT_EXPIRED');
    const stopped = await read(APPLICANT, id);
    expect(stopped.status).toEqual({ code: 3, label: statusLabel(KIND, 3, 'en') });
    expect(await actionsOf(APPLICANT, id)).toEqual(['DELETE']);
    expect(await offeredTo(id, 'GRANT_DISCOUNT')).toEqual([]);
    expect(await actionsOf('registration', id)).toEqual(['ADD_NOTE']);
    const before = await stateOf(id);
    const discount = await act('registration', id, 'GRANT_DISCOUNT', { percent: 100, reason: 'Waive the appointment request fee' });
    expect(discount.statusCode, discount.body).toBe(409);
    expect(await stateOf(id)).toEqual(before);
  }, 180_000);
});
