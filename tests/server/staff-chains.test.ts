import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusLabel } from '../../machines/labels';
import { applicationFee, auditFee, auditPlanSize, certificateFee, formatAmount, withVat } from '../../machines/services/fees';
import { accept, completeDraft, send, type RequestJson } from '../helpers/requests';
import { NON_CONFORMITY } from '../machines/samples';
import { VALID_DATA } from '../services/fixtures';
import { billsOf, certificatesOf, createWorld, fireTimer, money, monthsBetween, payBill, planOf, setExpiry, walk, type DemoUser, type World } from '../services/walk';

/**
 * Second-order staff workflows of the internal certificate (spec 02 section 4, "Workflow for internal facility and CB
 * requests", codes 0-33), over HTTP as the people do: each stage passed twice or three times (returns by registration,
 * plan returns, audit sending the request back to registration, corrective actions rejected one by one, the decision
 * committee returning to audit), and assignments changing while the request sits in a repeated stage. At each step the
 * test reads what a person sees: the status and its label in both languages, the actions offered to whom, the history,
 * the bills' amounts from the settings in force, and the certificate's dates.
 */
const KIND = 'internalCertificate';
const FACILITY = 'inf-almarai-foods';
const APPLICANT: DemoUser = 'internal.main';
const EVERYONE: DemoUser[] = [APPLICANT, 'registration', 'audit', 'teamleader', 'auditor', 'committee'];

let w: World;
beforeAll(async () => {
  w = await createWorld();
}, 60_000);
afterAll(() => w?.t.close());

const read = async (user: DemoUser, id: string, lang = 'en') => {
  const res = await w.as[user].get(`/api/requests/${id}?lang=${lang}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as RequestJson & { assigneeUserId: string | null };
};
/** The status as the request's page shows it, in both languages. */
const shown = async (id: string) => {
  const [en, ar] = await Promise.all([read(APPLICANT, id, 'en'), read(APPLICANT, id, 'ar')]);
  return { code: en.status.code, en: en.status.label, ar: ar.status.label };
};
const labelled = (code: number) => ({ code, en: statusLabel(KIND, code, 'en'), ar: statusLabel(KIND, code, 'ar') });
const actionsOf = async (user: DemoUser, id: string) => {
  const res = await w.as[user].get(`/api/requests/${id}/actions`);
  expect(res.statusCode, res.body).toBe(200);
  return ((res.json().actions ?? []) as { type: string }[]).map((a) => a.type).sort();
};
/** Who is offered `type` now. */
const offeredTo = async (id: string, type: string) => {
  const out: DemoUser[] = [];
  for (const u of EVERYONE) if ((await actionsOf(u, id)).includes(type)) out.push(u);
  return out;
};
/** Whether the audit queue's tab lists the request for this user. */
const listed = async (user: DemoUser, tab: 'mine' | 'waiting', id: string) => {
  const res = await w.as[user].get(`/api/queues/audit?tab=${tab}&pageSize=100`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().items as { id: string }[]).some((r) => r.id === id);
};
const act = async (user: DemoUser, id: string, type: string, payload?: Record<string, unknown>, lang = 'en') =>
  send(w.as[user], id, type, (await read(user, id)).version, payload, lang);
const ok = async (user: DemoUser, id: string, type: string, payload?: Record<string, unknown>) => {
  const res = await act(user, id, type, payload);
  expect(res.statusCode, `${type} by ${user}: ${res.body}`).toBe(200);
  return res.json() as RequestJson;
};
interface HistoryItem {
  event: string;
  note: string | null;
  payload: Record<string, unknown>;
  from: { code: number } | null;
  to: { code: number };
  actor: { userId: string };
}
const historyOf = async (user: DemoUser, id: string) => {
  const res = await w.as[user].get(`/api/requests/${id}/history?lang=en`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items as HistoryItem[];
};
const billed = (halalas: number) => {
  const c = withVat(halalas, w.t.app.settings.current().vatRate);
  return { amount: formatAmount(c.amount), vat: formatAmount(c.vat), total: formatAmount(c.total) };
};
const fees = () => w.t.app.settings.current().fees;
const payOpen = async (id: string) => {
  const open = (await billsOf(w.as.registration, id)).filter((b) => b.status.code === 1);
  expect(open.length).toBe(1);
  await payBill(w.t, open[0].id, open[0]);
  return open[0];
};

/** A submitted request whose application fee is paid: waiting in the registration queue (1). */
async function submitted(): Promise<string> {
  const draft = await completeDraft(w.as[APPLICANT], KIND, FACILITY);
  await ok(APPLICANT, draft.id, 'SUBMIT', { agreementAccepted: true });
  await payOpen(draft.id);
  expect((await read(APPLICANT, draft.id)).status.code).toBe(1);
  return draft.id;
}

/** A request accepted by registration: waiting for its inspection plan (6). */
async function inAudit(): Promise<string> {
  const id = await submitted();
  await ok('registration', id, 'ASSIGN_TO_ME');
  await ok('registration', id, 'ACCEPT');
  return id;
}

const nc = (id: string) => ({ ...NON_CONFORMITY, id, description: `Finding ${id}` });
const correction = (id: string, text = `Corrected ${id}`) => ({ nonConformityId: id, description: text, implementationDate: '2031-04-01' });

describe('registration returns the request twice', () => {
  it('an empty note is refused in the user’s language with nothing changed; each return shows in the history with its note', async () => {
    const id = await submitted();
    await ok('registration', id, 'ASSIGN_TO_ME');
    expect(await shown(id)).toEqual(labelled(4));
    const before = await read('registration', id);

    for (const [lang, message] of [['ar', 'السبب مطلوب'], ['en', 'A reason is required']] as const) {
      const refused = await act('registration', id, 'RETURN', { reason: '   ' }, lang);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error.validationErrors).toEqual([expect.objectContaining({ members: ['reason'], message })]);
    }
    expect((await read('registration', id)).version).toBe(before.version);
    expect(await shown(id)).toEqual(labelled(4));

    await ok('registration', id, 'RETURN', { reason: 'The commercial register copy is unreadable' });
    expect(await shown(id)).toEqual(labelled(5));
    expect(await actionsOf(APPLICANT, id)).toEqual(expect.arrayContaining(['EDIT', 'RESUBMIT']));
    expect(await actionsOf('registration', id)).not.toContain('ACCEPT');
    await ok(APPLICANT, id, 'RESUBMIT');
    expect(await shown(id)).toEqual(labelled(1));

    // The second pass: taken again (the earlier assignment went with the return), returned by section this time.
    expect(await offeredTo(id, 'ASSIGN_TO_ME')).toEqual(['registration']);
    await ok('registration', id, 'ASSIGN_TO_ME');
    await ok('registration', id, 'RETURN', { reason: 'Products need their trademark', sections: ['products'] });
    expect(await shown(id)).toEqual(labelled(5));
    const other = Object.keys(VALID_DATA[KIND]()).find((s) => s !== 'products')!;
    const edit = await act(APPLICANT, id, 'EDIT', { data: { [other]: VALID_DATA[KIND]()[other] } }, 'ar');
    expect(edit.statusCode, edit.body).toBe(400);
    expect(edit.json().error.validationErrors).toEqual([expect.objectContaining({ members: [other], message: 'لا يمكن تعديل إلا الأقسام المعادة للتصحيح' })]);
    await ok(APPLICANT, id, 'EDIT', { data: { products: VALID_DATA[KIND]().products } });
    await ok(APPLICANT, id, 'RESUBMIT');
    await ok('registration', id, 'ASSIGN_TO_ME');
    await ok('registration', id, 'ACCEPT');
    expect(await shown(id)).toEqual(labelled(6));

    const returns = (await historyOf('audit', id)).filter((h) => h.event === 'RETURN');
    expect(returns.map((h) => [h.from?.code, h.to.code, h.note])).toEqual([
      [4, 5, 'The commercial register copy is unreadable'],
      [4, 5, 'Products need their trademark'],
    ]);
    // The application fee was billed once, not again on each resubmission.
    const bills = await billsOf(w.as[APPLICANT], id);
    expect(bills.map((b) => [b.feeKind.code, b.status.code, money(b)])).toEqual([['application', 2, billed(applicationFee(fees()))]]);
  }, 120_000);
});

describe('the audit plan returned twice, the request sent back to registration mid-audit, audit fees', () => {
  it('the plan is returned twice (reason required) and audit takes the request back after registration; the fee bills the plan accepted', async () => {
    const id = await inAudit();
    await ok('audit', id, 'ASSIGN_TO_ME');
    await ok('audit', id, 'SUBMIT_PLAN', { plan: planOf(w) });
    expect(await shown(id)).toEqual(labelled(7));
    const empty = await act(APPLICANT, id, 'RETURN_PLAN', { reason: '' }, 'ar');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.validationErrors).toEqual([expect.objectContaining({ members: ['reason'], message: 'السبب مطلوب' })]);
    await ok(APPLICANT, id, 'RETURN_PLAN', { reason: 'The first visit day is a holiday' });
    expect(await shown(id)).toEqual(labelled(8));

    // Audit sends the request back to registration from the returned plan; registration has it, audit only takes it back.
    await ok('audit', id, 'RETURN_TO_REGISTRATION', { reason: 'The production lines listed do not match the site' });
    expect(await shown(id)).toEqual(labelled(1));
    expect(await offeredTo(id, 'ASSIGN_TO_ME')).toEqual(['registration']);
    expect(await actionsOf('audit', id)).toContain('ADD_NOTE');
    expect(await actionsOf('audit', id)).not.toContain('SUBMIT_PLAN');
    await ok('audit', id, 'ADD_NOTE', { note: 'Checked with the facility: the lines match' });
    expect(await shown(id)).toEqual(labelled(6));
    expect((await read('audit', id)).assigneeUserId).toBeNull();

    // Second and third plans: returned once more, then accepted.
    await ok('audit', id, 'ASSIGN_TO_ME');
    await ok('audit', id, 'SUBMIT_PLAN', { plan: planOf(w) });
    await ok(APPLICANT, id, 'RETURN_PLAN', { reason: 'Please add a second coordinator' });
    expect(await shown(id)).toEqual(labelled(8));
    const third = { ...planOf(w), visitDays: 3, visitDates: ['2031-03-01', '2031-03-02', '2031-03-03'] };
    await ok('audit', id, 'SUBMIT_PLAN', { plan: third });
    await ok(APPLICANT, id, 'ACCEPT_PLAN');
    expect(await shown(id)).toEqual(labelled(26));

    const audit = (await billsOf(w.as[APPLICANT], id)).filter((b) => b.feeKind.code === 'auditFees');
    expect(audit.map((b) => [b.service.code, b.status.code, money(b)])).toEqual([[8, 1, billed(auditFee(fees(), auditPlanSize(third)))]]);
    await payOpen(id);
    expect(await shown(id)).toEqual(labelled(28));
    expect(await offeredTo(id, 'START_INSPECTION')).toEqual(['audit']);

    const h = await historyOf('committee', id);
    expect(h.filter((x) => x.event === 'RETURN_PLAN').map((x) => x.note)).toEqual(['The first visit day is a holiday', 'Please add a second coordinator']);
    expect(h.filter((x) => x.event === 'RETURN_TO_REGISTRATION').map((x) => [x.from?.code, x.to.code, x.note])).toEqual([
      [8, 1, 'The production lines listed do not match the site'],
    ]);
  }, 120_000);

  it('audit fees expired (30): the applicant can only delete the request; staff cannot move it on', async () => {
    const id = await inAudit();
    await ok('audit', id, 'ASSIGN_TO_ME');
    await ok('audit', id, 'SUBMIT_PLAN', { plan: planOf(w) });
    await ok(APPLICANT, id, 'ACCEPT_PLAN');
    // Paid an application fee already: the request can no longer go back to draft.
    expect(await actionsOf(APPLICANT, id)).not.toContain('CANCEL');
    await fireTimer(w.t, id, 'PAYMENT_EXPIRED');
    expect(await shown(id)).toEqual(labelled(30));
    expect(await actionsOf(APPLICANT, id)).toEqual(['DELETE']);
    // Nothing bills a stopped request again: no discount is offered on it (only a note for the file).
    expect(await offeredTo(id, 'GRANT_DISCOUNT')).toEqual([]);
    expect(await actionsOf('registration', id)).toEqual(['ADD_NOTE']);
    const discount = await act('registration', id, 'GRANT_DISCOUNT', { percent: 100, reason: 'Waive the audit fees' });
    expect(discount.statusCode).toBe(409);
    for (const u of ['registration', 'audit', 'teamleader', 'committee'] as const)
      expect(await actionsOf(u, id)).not.toEqual(expect.arrayContaining(['START_INSPECTION', 'SUBMIT_PLAN', 'ACCEPT']));
    const [bill] = (await billsOf(w.as[APPLICANT], id)).filter((b) => b.feeKind.code === 'auditFees');
    expect(bill.status.code).toBe(3);
    await ok(APPLICANT, id, 'DELETE', { confirmed: true });
    expect((await w.as[APPLICANT].get(`/api/requests/${id}`)).statusCode).toBe(404);
  }, 120_000);
});

/** Inspection with three findings; the auditor accepts the first and rejects the other two (reasons required). */
async function throughCorrectiveActions(id: string, round: 1 | 2) {
  const codes = round === 1 ? { ca: 10, approval: 11, modification: 12 } : { ca: 22, approval: 23, modification: 24 };
  const ids = [`r${round}-a`, `r${round}-b`, `r${round}-c`];
  await ok('audit', id, 'SUBMIT_AUDIT_RESULT', { compliant: false, nonConformities: ids.map(nc) });
  expect(await shown(id)).toEqual(labelled(codes.ca));
  await ok(APPLICANT, id, 'SUBMIT_CORRECTIVE_ACTIONS', { actions: ids.map((n) => correction(n)) });
  expect(await shown(id)).toEqual(labelled(codes.approval));

  const noReason = await act('audit', id, 'DECIDE_CORRECTIVE_ACTIONS', {
    decisions: [{ nonConformityId: ids[0], accepted: true }, { nonConformityId: ids[1], accepted: false }, { nonConformityId: ids[2], accepted: false, reason: 'No evidence' }],
  }, 'ar');
  expect(noReason.statusCode).toBe(400);
  expect(noReason.json().error.validationErrors).toEqual([expect.objectContaining({ members: ['decisions.1.reason'], message: 'السبب مطلوب' })]);
  expect(await shown(id)).toEqual(labelled(codes.approval));

  await ok('audit', id, 'DECIDE_CORRECTIVE_ACTIONS', {
    decisions: [{ nonConformityId: ids[0], accepted: true }, { nonConformityId: ids[1], accepted: false, reason: 'Photos missing' }, { nonConformityId: ids[2], accepted: false, reason: 'No evidence' }],
  });
  expect(await shown(id)).toEqual(labelled(codes.modification));
  expect((await read(APPLICANT, id)).context.openNonConformities).toEqual([ids[1], ids[2]]);

  // The applicant corrects only the rejected ones: an action for the accepted finding, or one left out, is refused.
  const again = await act(APPLICANT, id, 'SUBMIT_CORRECTIVE_ACTIONS', { actions: [correction(ids[0]), correction(ids[1]), correction(ids[2])] });
  expect(again.statusCode, again.body).toBe(400);
  expect(again.json().error.validationErrors).toEqual([
    expect.objectContaining({ members: ['actions.0.nonConformityId'], message: 'This non-conformity is not awaiting a corrective action' }),
  ]);
  const partial = await act(APPLICANT, id, 'SUBMIT_CORRECTIVE_ACTIONS', { actions: [correction(ids[1])] }, 'ar');
  expect(partial.statusCode, partial.body).toBe(400);
  expect(partial.json().error.validationErrors).toEqual([expect.objectContaining({ members: ['actions'], message: 'كل حالة عدم مطابقة مفتوحة تحتاج إلى إجراء تصحيحي' })]);
  expect(await shown(id)).toEqual(labelled(codes.modification));
  await ok(APPLICANT, id, 'SUBMIT_CORRECTIVE_ACTIONS', { actions: [correction(ids[1], 'Photos attached'), correction(ids[2], 'Log signed')] });
  expect(await shown(id)).toEqual(labelled(codes.approval));
  // The auditor decides the open ones only: an accepted finding is not reopened, and none is left undecided.
  const reopen = await act('audit', id, 'DECIDE_CORRECTIVE_ACTIONS', {
    decisions: [{ nonConformityId: ids[0], accepted: false, reason: 'Second thoughts' }, { nonConformityId: ids[1], accepted: false, reason: 'Still no photos' }, { nonConformityId: ids[2], accepted: true }],
  });
  expect(reopen.statusCode, reopen.body).toBe(400);
  expect(reopen.json().error.validationErrors).toEqual([
    expect.objectContaining({ members: ['decisions.0.nonConformityId'], message: 'This corrective action is not awaiting a decision' }),
  ]);
  const undecided = await act('audit', id, 'DECIDE_CORRECTIVE_ACTIONS', { decisions: [{ nonConformityId: ids[1], accepted: true }] }, 'ar');
  expect(undecided.statusCode, undecided.body).toBe(400);
  expect(undecided.json().error.validationErrors).toEqual([expect.objectContaining({ members: ['decisions'], message: 'اتخذ قراراً بشأن كل إجراء تصحيحي مفتوح' })]);
  expect((await read(APPLICANT, id)).context.openNonConformities).toEqual([ids[1], ids[2]]);
  await ok('audit', id, 'DECIDE_CORRECTIVE_ACTIONS', { decisions: [ids[1], ids[2]].map((n) => ({ nonConformityId: n, accepted: true })) });
  expect(await shown(id)).toEqual(labelled(13));
  return ids;
}

describe('non-conformities: corrective actions accepted and rejected one by one over two rounds', () => {
  it('the rejected ones are corrected and accepted; the auditor reads every reason; the report goes to the committee', async () => {
    const id = await inAudit();
    const { steps } = await walk(w, id, { applicant: APPLICANT, until: 9 });
    expect(await shown(id), JSON.stringify(steps)).toEqual(labelled(9));
    const ids = await throughCorrectiveActions(id, 1);

    const decisions = (await historyOf('teamleader', id)).filter((h) => h.event === 'DECIDE_CORRECTIVE_ACTIONS');
    expect(decisions.map((h) => [h.from?.code, h.to.code])).toEqual([[11, 12], [11, 13]]);
    expect((decisions[0].payload.decisions as { nonConformityId: string; reason?: string }[]).map((d) => [d.nonConformityId, d.reason ?? null])).toEqual([
      [ids[0], null],
      [ids[1], 'Photos missing'],
      [ids[2], 'No evidence'],
    ]);
    await ok('audit', id, 'SUBMIT_REPORT', { summary: 'Compliant after corrective actions' });
    expect(await shown(id)).toEqual(labelled(14));
    expect(await actionsOf('committee', id)).toEqual(expect.arrayContaining(['APPROVE', 'REJECT', 'RETURN_TO_AUDIT']));
    for (const u of [APPLICANT, 'registration', 'audit', 'auditor'] as const)
      expect(await actionsOf(u, id)).not.toEqual(expect.arrayContaining(['APPROVE']));
  }, 180_000);
});

describe('the decision committee returns to audit: the stages 18-24 repeated, then approval', () => {
  it('two return loops, the second audit fees billed from the new plan; yearly payment; the certificate runs the chosen validity', async () => {
    const id = await inAudit();
    await walk(w, id, { applicant: APPLICANT, until: 14 });
    expect(await shown(id)).toEqual(labelled(14));

    // First return: the whole audit repeated with its own codes, with a plan return and corrective actions.
    const noReason = await act('committee', id, 'RETURN_TO_AUDIT', { reason: '' }, 'ar');
    expect(noReason.statusCode).toBe(400);
    await ok('committee', id, 'RETURN_TO_AUDIT', { reason: 'The slaughter line was not inspected' });
    expect(await shown(id)).toEqual(labelled(18));
    expect((await read('audit', id)).assigneeUserId).toBeNull();
    await ok('audit', id, 'ASSIGN_TO_ME');
    const second = { ...planOf(w), visitDays: 1, visitDates: ['2031-03-01'] };
    await ok('audit', id, 'SUBMIT_PLAN', { plan: second });
    expect(await shown(id)).toEqual(labelled(19));
    await ok(APPLICANT, id, 'RETURN_PLAN', { reason: 'Another date please' });
    expect(await shown(id)).toEqual(labelled(20));
    await ok('audit', id, 'SUBMIT_PLAN', { plan: second });
    await ok(APPLICANT, id, 'ACCEPT_PLAN');
    expect(await shown(id)).toEqual(labelled(27));
    const auditBills = (await billsOf(w.as[APPLICANT], id)).filter((b) => b.feeKind.code === 'auditFees');
    expect(auditBills.map((b) => [b.status.code, money(b)])).toEqual([
      [2, billed(auditFee(fees(), auditPlanSize(planOf(w))))],
      [1, billed(auditFee(fees(), auditPlanSize(second)))],
    ]);
    await payOpen(id);
    expect(await shown(id)).toEqual(labelled(29));
    await ok('audit', id, 'START_INSPECTION');
    expect(await shown(id)).toEqual(labelled(21));
    await throughCorrectiveActions(id, 2);
    await ok('audit', id, 'SUBMIT_REPORT', { summary: 'Slaughter line inspected' });
    expect(await shown(id)).toEqual(labelled(14));

    // Second return: the repeated stages start again from 18.
    await ok('committee', id, 'RETURN_TO_AUDIT', { reason: 'Second look at the cold store' });
    expect(await shown(id)).toEqual(labelled(18));
    expect((await read(APPLICANT, id)).context.openNonConformities).toEqual([]);
    const { steps } = await walk(w, id, { applicant: APPLICANT, until: 14 });
    expect(steps.map((s) => s.status)).toEqual(expect.arrayContaining([19, 27, 29, 21, 13, 14]));
    expect(steps.some((s) => s.status < 18 && s.status !== 13 && s.status !== 14)).toBe(false);

    await ok('committee', id, 'APPROVE', { reason: 'Meets every requirement' });
    expect(await shown(id)).toEqual(labelled(17));
    expect(await offeredTo(id, 'CHOOSE_PAYMENT_OPTION')).toEqual([APPLICANT]);
    await ok(APPLICANT, id, 'CHOOSE_PAYMENT_OPTION', { option: 'yearly' });
    expect(await shown(id)).toEqual(labelled(16));
    const years = (VALID_DATA[KIND]().validity as { years: number }).years;
    const [fee] = (await billsOf(w.as[APPLICANT], id)).filter((b) => b.feeKind.code === 'certificate');
    expect(money(fee)).toEqual(billed(certificateFee(fees().internalCertificateYear, years, 'yearly')));
    await payOpen(id);
    expect(await shown(id)).toEqual(labelled(33));
    expect(await offeredTo(id, 'ISSUE_CERTIFICATE')).toEqual(['committee']);
    await ok('committee', id, 'ISSUE_CERTIFICATE');
    expect(await shown(id)).toEqual(labelled(25));
    const [cert] = await certificatesOf(w, w.as[APPLICANT], id);
    expect(monthsBetween(cert.validFrom.iso, cert.expiresAt.iso)).toBe(years * 12);
    expect(cert.validFrom.iso.slice(0, 10)).toBe(new Date().toISOString().slice(0, 10));

    const returns = (await historyOf('audit', id)).filter((h) => h.event === 'RETURN_TO_AUDIT');
    expect(returns.map((h) => [h.from?.code, h.to.code, h.note])).toEqual([
      [14, 18, 'The slaughter line was not inspected'],
      [14, 18, 'Second look at the cold store'],
    ]);
    for (const u of EVERYONE) expect([u, await actionsOf(u, id)]).toEqual([u, []]);
  }, 300_000);
});

describe('the decision committee rejects after a return loop', () => {
  it('rejection is final: nothing left for anyone, the history still readable', async () => {
    const id = await inAudit();
    await walk(w, id, { applicant: APPLICANT, until: 14 });
    await ok('committee', id, 'RETURN_TO_AUDIT', { reason: 'Check the supplier certificates' });
    await walk(w, id, { applicant: APPLICANT, until: 14 });
    expect(await shown(id)).toEqual(labelled(14));
    const empty = await act('committee', id, 'REJECT', { reason: ' ' }, 'ar');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.validationErrors).toEqual([expect.objectContaining({ members: ['reason'], message: 'السبب مطلوب' })]);
    await ok('committee', id, 'REJECT', { reason: 'Supplier certificates are not recognised' });
    expect(await shown(id)).toEqual(labelled(15));
    for (const u of EVERYONE) expect([u, await actionsOf(u, id)]).toEqual([u, []]);
    const noted = await act('audit', id, 'ADD_NOTE', { note: 'Late remark' });
    expect(noted.statusCode).toBe(409);
    const h = await historyOf(APPLICANT, id);
    expect(h.at(-1)).toMatchObject({ event: 'REJECT', note: 'Supplier certificates are not recognised', from: { code: 14 }, to: { code: 15 } });
    expect(await certificatesOf(w, w.as[APPLICANT], id)).toEqual([]);
  }, 300_000);

  it('a renewal rejected after a return loop leaves the certificate as it was', async () => {
    const issued = await completeDraft(w.as[APPLICANT], KIND, FACILITY);
    await walk(w, issued.id, { applicant: APPLICANT, until: 25, option: 'full' });
    const [cert] = await certificatesOf(w, w.as[APPLICANT], issued.id);
    await setExpiry(w, cert.id, 30);
    const before = (await certificatesOf(w, w.as[APPLICANT], issued.id))[0];
    const started = await w.as[APPLICANT].post('/api/requests?lang=en', { kind: 'internalRenewal', facilityId: FACILITY, certificateId: cert.id });
    expect(started.statusCode, started.body).toBe(201);
    const renewal = started.json() as RequestJson;
    await accept(w.as[APPLICANT], renewal.id, 'EDIT', { data: { renewal: VALID_DATA.internalRenewal().renewal } });
    await walk(w, renewal.id, { applicant: APPLICANT, until: 14 });
    await ok('committee', renewal.id, 'RETURN_TO_AUDIT', { reason: 'Recheck' });
    await walk(w, renewal.id, { applicant: APPLICANT, until: 14 });
    await ok('committee', renewal.id, 'REJECT', { reason: 'Renewal refused' });
    const status = await read(APPLICANT, renewal.id, 'ar');
    expect(status.status).toEqual({ code: 15, label: statusLabel('internalRenewal', 15, 'ar') });
    for (const u of EVERYONE) expect([u, await actionsOf(u, renewal.id)]).toEqual([u, []]);
    const after = (await certificatesOf(w, w.as[APPLICANT], issued.id))[0];
    expect([after.expiresAt.iso, after.requestId, after.status.code]).toEqual([before.expiresAt.iso, issued.id, before.status.code]);
  }, 300_000);
});

describe('assignment changes while the request sits in a repeated stage', () => {
  it('re-assigned by the team leader, then cancelled: the old assignee can no longer act; other roles never can', async () => {
    const id = await inAudit();
    await walk(w, id, { applicant: APPLICANT, until: 14 });
    await ok('committee', id, 'RETURN_TO_AUDIT', { reason: 'Again' });
    expect(await shown(id)).toEqual(labelled(18));
    // A plan is drafted by audit staff who may submit one: not the technical auditor, the committee or registration.
    expect(await offeredTo(id, 'ASSIGN_TO_ME')).toEqual(['audit', 'teamleader']);
    expect(await offeredTo(id, 'SUBMIT_PLAN')).toEqual(['audit', 'teamleader']);

    await ok('audit', id, 'ASSIGN_TO_ME');
    expect(await offeredTo(id, 'SUBMIT_PLAN')).toEqual(['audit']);
    expect(await actionsOf('audit', id)).not.toContain('ASSIGN_TO_EMPLOYEE');
    const byColleague = await act('audit', id, 'ASSIGN_TO_EMPLOYEE', { assigneeUserId: w.userId('teamleader') });
    expect(byColleague.statusCode).toBe(403);

    await ok('teamleader', id, 'ASSIGN_TO_EMPLOYEE', { assigneeUserId: w.userId('teamleader') });
    expect((await read('audit', id)).assigneeUserId).toBe(w.userId('teamleader'));
    // The lists follow: the team leader's own list has it, the former assignee's no longer does.
    expect([await listed('teamleader', 'mine', id), await listed('audit', 'mine', id)]).toEqual([true, false]);
    expect(await offeredTo(id, 'SUBMIT_PLAN')).toEqual(['teamleader']);
    const stale = await act('audit', id, 'SUBMIT_PLAN', { plan: planOf(w) });
    expect(stale.statusCode).toBe(403);
    // A technical auditor cannot be handed a plan to draft.
    const toAuditor = await act('teamleader', id, 'ASSIGN_TO_EMPLOYEE', { assigneeUserId: w.userId('auditor') });
    expect(toAuditor.statusCode, toAuditor.body).toBe(400);
    expect(toAuditor.json().error.validationErrors).toEqual([expect.objectContaining({ members: ['assigneeUserId'] })]);

    await ok('teamleader', id, 'CANCEL_ASSIGNMENT');
    expect(await shown(id)).toEqual(labelled(18));
    expect((await read('audit', id)).assigneeUserId).toBeNull();
    expect([await listed('teamleader', 'mine', id), await listed('audit', 'waiting', id)]).toEqual([false, true]);
    await ok('audit', id, 'ASSIGN_TO_ME');
    await ok('audit', id, 'SUBMIT_PLAN', { plan: planOf(w) });
    await ok(APPLICANT, id, 'ACCEPT_PLAN');
    await payOpen(id);
    expect(await shown(id)).toEqual(labelled(29));
    // The inspection is the assignee's; the team leader re-assigns it to the technical auditor, who may record it.
    expect(await offeredTo(id, 'START_INSPECTION')).toEqual(['audit']);
    await ok('teamleader', id, 'ASSIGN_TO_EMPLOYEE', { assigneeUserId: w.userId('auditor') });
    expect(await offeredTo(id, 'START_INSPECTION')).toEqual(['auditor']);
    await ok('auditor', id, 'START_INSPECTION');
    expect(await shown(id)).toEqual(labelled(21));
    expect(await offeredTo(id, 'SUBMIT_AUDIT_RESULT')).toEqual(['auditor']);
    for (const u of ['audit', 'registration', 'committee'] as const) {
      const refused = await act(u, id, 'SUBMIT_AUDIT_RESULT', { compliant: true });
      expect([u, refused.statusCode]).toEqual([u, 403]);
    }
    const assignments = (await historyOf('auditor', id)).filter((h) => ['ASSIGN_TO_ME', 'ASSIGN_TO_EMPLOYEE', 'CANCEL_ASSIGNMENT'].includes(h.event) && h.from?.code !== undefined && h.from.code >= 18);
    expect(assignments.map((h) => [h.event, h.from?.code])).toEqual([
      ['ASSIGN_TO_ME', 18],
      ['ASSIGN_TO_EMPLOYEE', 18],
      ['CANCEL_ASSIGNMENT', 18],
      ['ASSIGN_TO_ME', 18],
      ['ASSIGN_TO_EMPLOYEE', 29],
    ]);
  }, 300_000);
});

describe('the auditors’ notes for the decision committee are the Halal center’s', () => {
  it('the applicant reads the plan and the report without them (request, history, the event’s answer); staff read them', async () => {
    const id = await inAudit();
    await ok('audit', id, 'ASSIGN_TO_ME');
    await ok('audit', id, 'SUBMIT_PLAN', { plan: { ...planOf(w), notesForCommittee: 'Night shift not observed' } });
    const toApplicant = await ok(APPLICANT, id, 'ACCEPT_PLAN');
    expect(toApplicant.context.auditPlan).toMatchObject({ visitDates: planOf(w).visitDates });
    expect(toApplicant.context.auditPlan).not.toHaveProperty('notesForCommittee');
    await payOpen(id);
    await ok('audit', id, 'START_INSPECTION');
    await ok('audit', id, 'SUBMIT_AUDIT_RESULT', { compliant: true });
    await ok('audit', id, 'SUBMIT_REPORT', { summary: 'Compliant', notesForCommittee: 'Check the cleaning log' });

    const applicantRead = await read(APPLICANT, id);
    expect(applicantRead.context.auditPlan).toMatchObject({ teamLeaderUserId: w.userId('teamleader') });
    expect(applicantRead.context.auditPlan).not.toHaveProperty('notesForCommittee');
    const applicantHistory = await historyOf(APPLICANT, id);
    const plan = applicantHistory.find((h) => h.event === 'SUBMIT_PLAN')!;
    expect(plan.payload.plan).toMatchObject({ visitDates: planOf(w).visitDates });
    expect(plan.payload.plan).not.toHaveProperty('notesForCommittee');
    expect(applicantHistory.find((h) => h.event === 'SUBMIT_REPORT')!.payload).toEqual({ summary: 'Compliant' });

    for (const staff of ['committee', 'auditor'] as const) {
      expect((await read(staff, id)).context.auditPlan).toMatchObject({ notesForCommittee: 'Night shift not observed' });
      const h = await historyOf(staff, id);
      expect(h.find((x) => x.event === 'SUBMIT_REPORT')!.payload).toEqual({ summary: 'Compliant', notesForCommittee: 'Check the cleaning log' });
    }
    const readonly = await w.t.login('readonly.auditor');
    const audited = (await readonly.get(`/api/requests/${id}/history?lang=en`)).json().items as HistoryItem[];
    expect(audited.find((x) => x.event === 'SUBMIT_PLAN')!.payload.plan).toMatchObject({ notesForCommittee: 'Night shift not observed' });
  }, 300_000);
});

describe('an employee who cannot act is not handed a request', () => {
  it('a locked employee, or one of a read-only role, is refused as assignee (400, both languages), nothing changed; unlocked, they are taken', async () => {
    const create = async (userName: string, roles: string[]) => {
      const res = await w.as.admin.post('/api/identity/users', { userName, name: `Employee ${userName}`, email: `${userName}@halal.example`, password: 'Huntstaff#2026x', roles });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().id as string;
    };
    const locked = await create('huntstaff.locked', ['registrationEmployee']);
    const watcher = await create('huntstaff.watcher', ['registrationEmployee', 'readOnlyAuditor']);
    const lock = await w.as.admin.post(`/api/identity/users/${locked}/lock`, {});
    expect(lock.statusCode, lock.body).toBe(200);
    // The "assign to an employee" list leaves both out.
    const listedUsers = await w.as.registration.get('/api/app/halal-user/get-all-users-by-permission-name?permission=InternalFacilityRequestService.HalalCenter.Registration.Review');
    expect(listedUsers.statusCode, listedUsers.body).toBe(200);
    const employees = (listedUsers.json() as { id: string }[]).map((u) => u.id);
    expect([employees.includes(locked), employees.includes(watcher), employees.includes(w.userId('registration'))]).toEqual([false, false, true]);

    const id = await submitted();
    const before = await read('registration', id);
    for (const [who, lang, message] of [[locked, 'en', 'The employee cannot be assigned: choose an active employee who works this queue'], [watcher, 'ar', 'لا يمكن إسناد الطلب إلى هذا الموظف: اختر موظفًا نشطًا يعمل في هذه القائمة']] as const) {
      const refused = await send(w.as.registration, id, 'ASSIGN_TO_EMPLOYEE', before.version, { assigneeUserId: who }, lang);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error.validationErrors).toEqual([expect.objectContaining({ members: ['assigneeUserId'], message })]);
    }
    const after = await read('registration', id);
    expect([after.version, after.assigneeUserId, after.status.code]).toEqual([before.version, null, 1]);
    expect(await offeredTo(id, 'ASSIGN_TO_ME')).toEqual(['registration']);

    const unlock = await w.as.admin.post(`/api/identity/users/${locked}/unlock`, {});
    expect(unlock.statusCode, unlock.body).toBe(200);
    await ok('registration', id, 'ASSIGN_TO_EMPLOYEE', { assigneeUserId: locked });
    expect((await read('registration', id)).assigneeUserId).toBe(locked);
  }, 300_000);
});

describe('a deleted request’s history stays readable by the auditors', () => {
  it('stopped (fee unpaid) and deleted by the applicant: the read-only auditor and the administrator read its whole history; nobody else finds it', async () => {
    const draft = await completeDraft(w.as[APPLICANT], KIND, FACILITY);
    const id = draft.id;
    await ok(APPLICANT, id, 'SUBMIT', { agreementAccepted: true });
    await fireTimer(w.t, id, 'PAYMENT_EXPIRED');
    expect(await shown(id)).toEqual(labelled(3));
    await ok(APPLICANT, id, 'DELETE', { confirmed: true });
    for (const u of [APPLICANT, 'registration', 'committee'] as const) {
      expect([u, (await w.as[u].get(`/api/requests/${id}/history`)).statusCode]).toEqual([u, 404]);
      expect([u, (await w.as[u].get(`/api/requests/${id}`)).statusCode]).toEqual([u, 404]);
    }
    const readonly = await w.t.login('readonly.auditor');
    for (const [who, c] of [['readonly.auditor', readonly], ['admin', w.as.admin]] as const) {
      const res = await c.get(`/api/requests/${id}/history?lang=en`);
      expect([who, res.statusCode]).toEqual([who, 200]);
      const items = res.json().items as HistoryItem[];
      expect(items.map((h) => [h.event, h.actor.userId === w.userId(APPLICANT) ? APPLICANT : h.actor.userId === w.userId('registration') ? 'registration' : 'other'])).toEqual([
        ['START', APPLICANT],
        ['EDIT', APPLICANT],
        ['SUBMIT', APPLICANT],
        ['PAYMENT_EXPIRED', 'other'],
        ['DELETE', APPLICANT],
      ]);
      expect(items.at(-1)).toMatchObject({ from: { code: 3 }, to: { code: -1 } });
    }
    // Still out of every list.
    const listedFor = await readonly.get(`/api/queues/all?tab=any&pageSize=100`);
    expect((listedFor.json().items as { id: string }[]).some((r) => r.id === id)).toBe(false);
  }, 300_000);
});
