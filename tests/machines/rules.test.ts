import { describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../machines/actor';
import { allowedActions, deadlinesOf, mayStart, validateEvent } from '../../machines';
import { Drive, FACILITY, NON_CONFORMITY, people, user } from './drive';
import { PLAN } from './samples';

/** An internal certificate request submitted, paid and taken by registration employee reg-1. */
function underRegistrationReview(discountPercent = 0) {
  const d = new Drive('internalCertificate', { discountPercent }).send('SUBMIT', people.applicant);
  if (discountPercent < 100) d.send('PAYMENT_CONFIRMED', people.system);
  return d.send('ASSIGN_TO_ME', people.registration);
}

/** ... accepted by registration and driven to the decision committee (round 1, compliant audit). */
function atDecision(discountPercent = 0) {
  const d = underRegistrationReview(discountPercent).send('ACCEPT', people.registration);
  d.send('SUBMIT_PLAN', people.teamLeader).send('ACCEPT_PLAN', people.applicant);
  if (discountPercent < 100) d.send('PAYMENT_CONFIRMED', people.system);
  return d
    .send('START_INSPECTION', people.teamLeader)
    .send('SUBMIT_AUDIT_RESULT', people.teamLeader)
    .send('SUBMIT_REPORT', people.teamLeader);
}

describe('who may send what, in which state', () => {
  it('only members of the facility may edit, submit or delete its draft; staff do not act on a draft never submitted', () => {
    const d = new Drive('internalCertificate');
    expect(d.allowed(people.applicant).sort()).toEqual(['DELETE', 'EDIT', 'SUBMIT']);
    expect(d.allowed(people.otherApplicant)).toEqual([]);
    expect(d.allowed(people.registration)).toEqual([]);
    expect(d.tries('ADD_NOTE', people.registration, { note: 'A note on an unsent draft' })).toBe(false);
    expect(d.allowed(SYSTEM_ACTOR)).toEqual(['DRAFT_EXPIRED']);
    expect(d.tries('SUBMIT', people.otherApplicant, { agreementAccepted: true })).toBe(false);
  });

  it('registration takes a new request (1 -> 4); only the assignee decides once it is assigned', () => {
    const d = new Drive('internalCertificate').send('SUBMIT', people.applicant).send('PAYMENT_CONFIRMED', people.system);
    expect(d.status).toBe(1);
    expect(d.allowed(people.registration).sort()).toEqual(['ADD_NOTE', 'ASSIGN_TO_EMPLOYEE', 'ASSIGN_TO_ME', 'GRANT_DISCOUNT']);
    expect(d.allowed(people.auditEmployee)).toEqual(['ADD_NOTE']);
    d.send('ASSIGN_TO_ME', people.registration);
    expect(d.status).toBe(4);
    expect(d.snapshot.context.assigneeUserId).toBe('reg-1');
    expect(d.allowed(people.registration)).toEqual(expect.arrayContaining(['ACCEPT', 'RETURN', 'CANCEL_ASSIGNMENT']));
    expect(d.allowed(people.registration2)).not.toContain('ACCEPT');
    expect(d.tries('ACCEPT', people.registration2)).toBe(false);
    // Editing the assignment (AssignToOthers) hands it over to reg-2, who may then decide.
    d.send('ASSIGN_TO_EMPLOYEE', people.registration, { assigneeUserId: 'reg-2' });
    expect(d.allowed(people.registration)).not.toContain('ACCEPT');
    expect(d.allowed(people.registration2)).toContain('ACCEPT');
    d.send('CANCEL_ASSIGNMENT', people.registration2);
    expect(d.status).toBe(1);
    expect(d.snapshot.context.assigneeUserId).toBeNull();
  });

  it('assigning someone else needs the queue’s AssignToOthers; a technical auditor takes no plan to draft', () => {
    const d = underRegistrationReview().send('ACCEPT', people.registration);
    expect(d.status).toBe(6);
    // Version 2: a plan is taken by staff who may submit it (a technical auditor holding it would block it).
    expect(d.allowed(people.technicalAuditor).sort()).toEqual(['ADD_NOTE']);
    expect(d.allowed(people.teamLeader)).toEqual(expect.arrayContaining(['ASSIGN_TO_EMPLOYEE', 'SUBMIT_PLAN', 'SAVE_PLAN']));
    expect(d.allowed(people.auditEmployee)).not.toContain('ASSIGN_TO_EMPLOYEE');
    expect(d.tries('ASSIGN_TO_EMPLOYEE', people.technicalAuditor, { assigneeUserId: 'tech-1' })).toBe(false);
    d.send('ASSIGN_TO_ME', people.auditEmployee);
    // Assigned to the audit employee: the team leader may no longer submit the plan, only reassign.
    expect(d.allowed(people.teamLeader)).not.toContain('SUBMIT_PLAN');
    expect(d.allowed(people.teamLeader)).toContain('ASSIGN_TO_EMPLOYEE');
  });

  it('system events come only from the system actor, and the system sends nothing else', () => {
    const d = new Drive('internalCertificate').send('SUBMIT', people.applicant);
    expect(d.status).toBe(2);
    expect(d.tries('PAYMENT_CONFIRMED', people.applicant)).toBe(false);
    expect(d.tries('PAYMENT_CONFIRMED', people.admin)).toBe(false);
    expect(allowedActions('internalCertificate', d.snapshot, SYSTEM_ACTOR).map((a) => a.type).sort()).toEqual([
      'PAYMENT_CONFIRMED',
      'PAYMENT_EXPIRED',
    ]);
  });

  it('each queue acts in its own stages: the committee cannot audit, audit cannot decide', () => {
    const d = atDecision();
    expect(d.status).toBe(14);
    expect(d.allowed(people.teamLeader)).toEqual(['ADD_NOTE']);
    expect(d.allowed(people.committee)).toEqual(expect.arrayContaining(['APPROVE', 'RETURN_TO_AUDIT', 'REJECT']));
    expect(d.allowed(people.applicant)).toEqual([]);
  });

  it('the permission that grants an action is reported, and actions needing a reason say so', () => {
    const d = atDecision();
    const approve = allowedActions('internalCertificate', d.snapshot, people.committee).find((a) => a.type === 'APPROVE');
    expect(approve).toEqual({
      type: 'APPROVE',
      permission: 'InternalFacilityRequestService.HalalCenter.DecisionCommittee.Review',
      requiresReason: true,
      reasonField: 'reason',
    });
    const assign = allowedActions('internalCertificate', d.snapshot, people.committee).find((a) => a.type === 'ASSIGN_TO_ME');
    expect(assign?.requiresReason).toBe(false);
  });
});

describe('reasons are required', () => {
  it('return, reject, approve and return to audit refuse a missing or blank reason with reasonRequired', () => {
    for (const type of ['RETURN', 'REJECT', 'APPROVE', 'RETURN_TO_AUDIT', 'RETURN_TO_REGISTRATION', 'RETURN_PLAN']) {
      expect(validateEvent('internalCertificate', { type })).toEqual([
        { field: 'reason', message: 'machines:validation.reasonRequired' },
      ]);
      expect(validateEvent('internalCertificate', { type, reason: '   ' })).toEqual([
        { field: 'reason', message: 'machines:validation.reasonRequired' },
      ]);
      expect(validateEvent('internalCertificate', { type, reason: 'Because' })).toEqual([]);
    }
  });

  it('a rejected corrective action needs a reason; an accepted one does not', () => {
    const issues = validateEvent('internalCertificate', {
      type: 'DECIDE_CORRECTIVE_ACTIONS',
      decisions: [
        { nonConformityId: 'nc-1', accepted: true },
        { nonConformityId: 'nc-2', accepted: false },
      ],
    });
    expect(issues).toEqual([{ field: 'decisions.1.reason', message: 'machines:validation.reasonRequired' }]);
  });

  it('other payload rules: unknown events and fields, sections of the kind, agreement, plan times', () => {
    expect(validateEvent('bill', { type: 'SUBMIT' })[0].message).toBe('machines:validation.unknownEvent');
    expect(validateEvent('internalCertificate', { type: 'ACCEPT', extra: 1 })).toEqual([
      { field: 'extra', message: 'machines:validation.unknownField' },
    ]);
    expect(validateEvent('internalCertificate', { type: 'SUBMIT', agreementAccepted: false })[0].message).toBe(
      'machines:validation.agreementRequired',
    );
    expect(validateEvent('internalCertificate', { type: 'RETURN', reason: 'x', sections: ['payload'] })).toEqual([
      { field: 'sections.0', message: 'machines:validation.sectionUnknown' },
    ]);
    expect(validateEvent('externalCertificate', { type: 'EDIT', data: { paymentWay: 'yearly' } })).toEqual([]);
    expect(validateEvent('internalCertificate', { type: 'EDIT', data: { paymentWay: 'yearly' } })[0].message).toBe(
      'machines:validation.sectionUnknown',
    );
    const plan = (changes: Record<string, unknown>) => ({ type: 'SUBMIT_PLAN', plan: { ...PLAN, ...changes } });
    expect(validateEvent('internalCertificate', plan({ visitDates: ['2026-03-01', '2026-03-01'] })).map((i) => i.message)).toContain(
      'machines:validation.dateAlreadyEntered',
    );
    expect(
      validateEvent('internalCertificate', plan({ timeline: [{ date: '2026-03-01', hour: 13, minute: 60, period: 'am', activity: 'x', auditorUserIds: ['leader-1', 'auditor-1'] }] })).map(
        (i) => i.message,
      ),
    ).toEqual(['machines:validation.hourRange', 'machines:validation.minuteRange']);
    expect(validateEvent('internalCertificate', plan({ technicalAuditorUserIds: ['auditor-1', 'auditor-2'] })).map((i) => i.message)).toEqual([
      'machines:validation.allAuditorsIncluded',
    ]);
    expect(
      validateEvent('internalCertificate', {
        type: 'SUBMIT_AUDIT_RESULT',
        compliant: false,
        nonConformities: [{ ...NON_CONFORMITY, clauseNumber: '5.2.1.4' }],
      }).map((i) => i.message),
    ).toEqual(['machines:validation.clauseNumberFormat']);
  });
});

describe('payment', () => {
  it('submission creates the application-fee bill (service 6); payment moves the request to registration', () => {
    const d = new Drive('internalCertificate').send('SUBMIT', people.applicant);
    expect(d.status).toBe(2);
    expect(d.effects).toEqual([
      { type: 'effect.createBill', params: { service: 6, feeKind: 'application', paymentOption: null, bulk: false } },
    ]);
    d.send('PAYMENT_CONFIRMED', people.system);
    expect(d.effects).toEqual([{ type: 'effect.markBillPaid', params: {} }]);
    expect(d.status).toBe(1);
  });

  it('a 100% discount passes every payment state without a bill', () => {
    const d = atDecision(100);
    expect(d.snapshot.value).toEqual({ audit1: 'decision' });
    d.send('APPROVE', people.committee);
    expect(d.status).toBe(32);
    expect(d.effects).toEqual([]);
    d.send('ISSUE_CERTIFICATE', people.committee);
    expect(d.status).toBe(25);
    expect(d.effects).toEqual([{ type: 'effect.issueCertificate', params: { certificateKind: 'internal' } }]);
  });

  it('cancelling while a bill awaits payment returns the request to draft and cancels the bill, until a fee is paid', () => {
    const fresh = new Drive('internalCertificate').send('SUBMIT', people.applicant).send('CANCEL', people.applicant);
    expect(fresh.status).toBe(0);
    expect(fresh.effects).toEqual([{ type: 'effect.cancelBill', params: {} }]);
    // Resubmitting bills the application fee again (nothing was paid).
    fresh.send('SUBMIT', people.applicant);
    expect(fresh.status).toBe(2);
    expect(fresh.effects[0]).toMatchObject({ type: 'effect.createBill', params: { feeKind: 'application' } });

    // Spec 02 section 4 step 8: once the application fee is paid, the audit fees' bill cannot take the request back to draft.
    const d = atDecision().send('RETURN_TO_AUDIT', people.committee);
    d.send('SUBMIT_PLAN', people.teamLeader).send('ACCEPT_PLAN', people.applicant);
    expect(d.status).toBe(27);
    expect(d.allowed(people.applicant)).not.toContain('CANCEL');
    expect(d.tries('CANCEL', people.applicant)).toBe(false);
  });

  it('staff may waive a fee: a 100% discount with a reason cancels the open bill and goes on as if paid', () => {
    const d = new Drive('internalCertificate').send('SUBMIT', people.applicant);
    expect(d.status).toBe(2);
    expect(d.tries('GRANT_DISCOUNT', people.applicant, { percent: 100, reason: 'x' })).toBe(false);
    expect(validateEvent('internalCertificate', { type: 'GRANT_DISCOUNT', percent: 100 })).toContainEqual(
      expect.objectContaining({ field: 'reason', message: 'machines:validation.reasonRequired' }),
    );
    d.send('GRANT_DISCOUNT', people.registration, { percent: 100, reason: 'Exempted by decision 12/1447' });
    expect(d.status).toBe(1);
    expect(d.effects).toEqual([{ type: 'effect.cancelBill', params: {} }]);
    expect(d.snapshot.context.discountPercent).toBe(100);
    // Free of charge from now on: the plan's acceptance goes straight to "plan approved" (28) without audit fees.
    d.send('ASSIGN_TO_ME', people.registration).send('ACCEPT', people.registration).send('SUBMIT_PLAN', people.teamLeader).send('ACCEPT_PLAN', people.applicant);
    expect(d.status).toBe(28);
    expect(d.effects).toEqual([]);
  });

  it('an unpaid bill expires: the request stops, and is deleted after the retention period', () => {
    const d = new Drive('internalCertificate').send('SUBMIT', people.applicant).send('PAYMENT_EXPIRED', people.system);
    expect(d.status).toBe(3);
    expect(d.effects).toEqual([{ type: 'effect.expireBill', params: {} }]);
    expect(d.allowed(people.applicant)).toEqual(['DELETE']);
    d.send('DRAFT_EXPIRED', people.system);
    expect(d.status).toBe(-1);
    expect(d.effects).toEqual([{ type: 'effect.deleteDraft', params: { reason: 'retention' } }]);
    expect(d.snapshot.status).toBe('done');
  });

  it('the certificate fee bill carries the chosen payment option', () => {
    const d = atDecision().send('APPROVE', people.committee);
    expect(d.status).toBe(17);
    d.send('CHOOSE_PAYMENT_OPTION', people.applicant, { option: 'yearly' });
    expect(d.status).toBe(16);
    expect(d.effects).toEqual([
      { type: 'effect.createBill', params: { service: 6, feeKind: 'certificate', paymentOption: 'yearly', bulk: false } },
    ]);
  });

  it('a shipment bill’s service follows the goods, and a completed shipment cannot be changed', () => {
    const d = new Drive('shipment', { data: { shipmentType: { goods: 'poultry' } } }).send('SUBMIT', {
      ...people.applicant,
      permissions: ['ShipmentRequestService.Default', 'ShipmentRequestService.Submit'],
    });
    expect(d.status).toBe(1007);
    expect(d.effects[0]).toMatchObject({ type: 'effect.createBill', params: { service: 3, feeKind: 'shipment' } });
    // Paid, it stays in progress (nothing left to the applicant) until the system issues its certificate.
    d.send('PAYMENT_CONFIRMED', people.system);
    expect(d.status).toBe(1007);
    expect(d.allowed(people.applicant)).toEqual([]);
    expect(d.tries('CANCEL', people.applicant)).toBe(false);
    d.send('ISSUE_CERTIFICATE', people.system);
    expect(d.status).toBe(1008);
    expect(d.effects.at(-1)).toMatchObject({ type: 'effect.issueCertificate', params: { certificateKind: 'shipment' } });
    expect(d.allowed(people.applicant)).toEqual([]);
    expect(d.tries('CANCEL', people.applicant)).toBe(false);
    expect(d.tries('EDIT', people.applicant, { data: { importer: {} } })).toBe(false);
  });
});

describe('decision committee', () => {
  it('rejection is final: nothing is allowed and nothing moves the request', () => {
    const d = atDecision().send('REJECT', people.committee);
    expect(d.status).toBe(15);
    expect(d.snapshot.status).toBe('done');
    for (const actor of Object.values(people)) expect(d.allowed(actor)).toEqual([]);
    expect(d.tries('ADD_NOTE', people.registration)).toBe(false);
    expect(d.tries('EDIT', people.applicant, { data: { factory: {} } })).toBe(false);
  });

  it('after a return to audit the request runs the round-2 codes through to 33 and 25', () => {
    const d = atDecision().send('RETURN_TO_AUDIT', people.committee);
    const seen = [d.status];
    d.send('SUBMIT_PLAN', people.teamLeader);
    seen.push(d.status);
    d.send('RETURN_PLAN', people.applicant);
    seen.push(d.status);
    d.send('SUBMIT_PLAN', people.teamLeader).send('ACCEPT_PLAN', people.applicant);
    seen.push(d.status);
    d.send('PAYMENT_CONFIRMED', people.system);
    seen.push(d.status);
    d.send('START_INSPECTION', people.teamLeader);
    seen.push(d.status);
    d.send('SUBMIT_AUDIT_RESULT', people.teamLeader, { compliant: false, nonConformities: [NON_CONFORMITY] });
    seen.push(d.status);
    const actions = { actions: [{ nonConformityId: 'nc-1', description: 'Fixed', implementationDate: '2026-04-01' }] };
    d.send('SUBMIT_CORRECTIVE_ACTIONS', people.applicant, actions);
    seen.push(d.status);
    d.send('DECIDE_CORRECTIVE_ACTIONS', people.teamLeader, { decisions: [{ nonConformityId: 'nc-1', accepted: false, reason: 'No' }] });
    seen.push(d.status);
    d.send('SUBMIT_CORRECTIVE_ACTIONS', people.applicant, actions);
    d.send('DECIDE_CORRECTIVE_ACTIONS', people.teamLeader, { decisions: [{ nonConformityId: 'nc-1', accepted: true }] });
    seen.push(d.status);
    d.send('SUBMIT_REPORT', people.teamLeader);
    seen.push(d.status);
    d.send('APPROVE', people.committee).send('CHOOSE_PAYMENT_OPTION', people.applicant);
    seen.push(d.status);
    d.send('PAYMENT_CONFIRMED', people.system);
    seen.push(d.status);
    d.send('ISSUE_CERTIFICATE', people.committee);
    seen.push(d.status);
    expect(seen).toEqual([18, 19, 20, 27, 29, 21, 22, 23, 24, 13, 14, 16, 33, 25]);
    expect(d.snapshot.context.round).toBe(2);
  });

  it('the committee member who took the request decides; assignment is cleared when it leaves the committee', () => {
    const d = atDecision().send('ASSIGN_TO_ME', people.committee);
    expect(d.tries('APPROVE', people.committee2)).toBe(false);
    d.send('RETURN_TO_AUDIT', people.committee);
    expect(d.snapshot.context.assigneeUserId).toBeNull();
  });
});

describe('registration and audit', () => {
  it('a return by section lets the applicant edit only those sections, then resubmit to the queue', () => {
    const d = underRegistrationReview().send('RETURN', people.registration, { reason: 'Products incomplete', sections: ['products'] });
    expect(d.status).toBe(5);
    expect(d.snapshot.context.returnedSections).toEqual(['products']);
    expect(d.tries('EDIT', people.applicant, { data: { factory: { name: 'x' } } })).toBe(false);
    d.send('EDIT', people.applicant, { data: { products: [{ name: 'Dates' }] } });
    expect(d.snapshot.context.data).toEqual({ products: [{ name: 'Dates' }] });
    d.send('RESUBMIT', people.applicant);
    expect(d.status).toBe(1);
    expect(d.snapshot.context.returnedSections).toEqual([]);
  });

  it('a whole-request return lets the applicant edit any section', () => {
    const d = underRegistrationReview().send('RETURN', people.registration, { reason: 'Everything' });
    expect(d.snapshot.context.returnedSections).toEqual([]);
    d.send('EDIT', people.applicant, { data: { factory: { name: 'x' }, branches: [] } });
    expect(Object.keys(d.snapshot.context.data)).toEqual(['factory', 'branches']);
  });

  it('audit returns the request to registration; a note by audit takes it back without any other change', () => {
    const d = underRegistrationReview().send('ACCEPT', people.registration).send('SAVE_PLAN', people.teamLeader);
    d.send('RETURN_TO_REGISTRATION', people.teamLeader);
    expect(d.status).toBe(1);
    expect(d.snapshot.context.returnedByAudit).toBe(true);
    const data = d.snapshot.context.data;
    d.send('ADD_NOTE', people.auditEmployee, { note: 'CR checked by phone, continuing' });
    expect(d.status).toBe(6);
    expect(d.snapshot.context).toMatchObject({ returnedByAudit: false, data });
    expect(d.effects).toEqual([]);
  });

  it('a note by audit on a request audit never returned changes nothing but the note count', () => {
    const d = new Drive('internalCertificate', { discountPercent: 100 }).send('SUBMIT', people.applicant);
    d.send('ADD_NOTE', people.auditEmployee, { note: 'FYI' });
    expect(d.status).toBe(1);
    expect(d.snapshot.context.notesCount).toBe(1);
  });

  it('corrective actions are decided one by one: a partial decision is refused, rejected ones stay open', () => {
    const d = underRegistrationReview(100).send('ACCEPT', people.registration);
    d.send('SUBMIT_PLAN', people.teamLeader).send('ACCEPT_PLAN', people.applicant).send('START_INSPECTION', people.teamLeader);
    const second = { ...NON_CONFORMITY, id: 'nc-2' };
    d.send('SUBMIT_AUDIT_RESULT', people.teamLeader, { compliant: false, nonConformities: [NON_CONFORMITY, second] });
    expect(d.snapshot.context.openNonConformities).toEqual(['nc-1', 'nc-2']);
    const actions = ['nc-1', 'nc-2'].map((id) => ({ nonConformityId: id, description: 'Done', implementationDate: '2026-04-01' }));
    d.send('SUBMIT_CORRECTIVE_ACTIONS', people.applicant, { actions });
    expect(d.tries('DECIDE_CORRECTIVE_ACTIONS', people.teamLeader, { decisions: [{ nonConformityId: 'nc-1', accepted: true }] })).toBe(false);
    d.send('DECIDE_CORRECTIVE_ACTIONS', people.teamLeader, {
      decisions: [
        { nonConformityId: 'nc-1', accepted: true },
        { nonConformityId: 'nc-2', accepted: false, reason: 'Photo missing' },
      ],
    });
    expect(d.status).toBe(12);
    expect(d.snapshot.context.openNonConformities).toEqual(['nc-2']);
    d.send('SUBMIT_CORRECTIVE_ACTIONS', people.applicant, { actions: [actions[1]] });
    d.send('DECIDE_CORRECTIVE_ACTIONS', people.teamLeader, { decisions: [{ nonConformityId: 'nc-2', accepted: true }] });
    expect(d.status).toBe(13);
  });
});

describe('other lifecycles', () => {
  it('an external certificate is issued by the system right after payment, then accepts changes', () => {
    const external = { ...people.applicant, permissions: ['ExternalFacilityRequestService.Request', 'ExternalFacilityRequestService.Submit'] };
    const reg = { ...people.registration, permissions: ['ExternalFacilityRequestService.HalalCenter.Registration.Review'] };
    const d = new Drive('externalCertificate').send('SUBMIT', external).send('ASSIGN_TO_ME', reg);
    expect(d.status).toBe(204);
    d.send('ACCEPT', reg);
    expect(d.status).toBe(102);
    d.send('PAYMENT_CONFIRMED', people.system);
    expect(d.status).toBe(103);
    expect(d.allowed(SYSTEM_ACTOR)).toEqual(['ISSUE_CERTIFICATE']);
    d.send('ISSUE_CERTIFICATE', people.system);
    expect(d.status).toBe(105);
    expect(d.effects).toEqual([{ type: 'effect.issueCertificate', params: { certificateKind: 'external' } }]);
    expect(d.allowed(external).sort()).toEqual(['ADD_CATEGORIES', 'ADD_PRODUCTS']);
    d.send('ADD_PRODUCTS', external, { products: [{ name: 'Dates' }] }).send('ASSIGN_TO_ME', reg).send('ACCEPT', reg);
    expect(d.status).toBe(128);
    expect(d.effects[0]).toMatchObject({ type: 'effect.createBill', params: { bulk: true, feeKind: 'addProducts' } });
    // Waiting for the month-end invoice the change can be withdrawn; once the bulk invoice is issued it cannot.
    expect(d.allowed(external)).toContain('CANCEL');
    d.send('INVOICE_ISSUED', people.system);
    expect(d.status).toBe(129);
    expect(d.effects).toEqual([{ type: 'effect.issueMonthInvoice', params: {} }]);
    expect(d.allowed(external)).not.toContain('CANCEL');
    d.send('PAYMENT_CONFIRMED', people.system);
    expect(d.status).toBe(108);
  });

  describe('delegation (the wizard’s steps are the machine’s states)', () => {
    const data = { delegationType: 1, permissions: ['InternalFacilityRequestService.Request'] };
    const otherMember = user('sub-2', ['applicant'], [FACILITY]);
    const acknowledged = { acknowledged: true, delegateUserId: 'delegate-9' };

    it('OTP, then the delegator’s acknowledgment, and only then access; the OTP step is the system’s to record', () => {
      const d = new Drive('delegation', { data });
      expect(d.status).toBe(1);
      expect(d.allowed(people.applicant)).toEqual(['CANCEL']);
      expect(d.allowed(SYSTEM_ACTOR).sort()).toEqual(['DRAFT_EXPIRED', 'OTP_VERIFIED']);
      // Nobody claims the code by hand, and nothing skips it.
      expect(d.tries('OTP_VERIFIED', people.applicant)).toBe(false);
      expect(d.tries('ACKNOWLEDGE', people.applicant, acknowledged)).toBe(false);
      d.send('OTP_VERIFIED', people.system);
      expect(d.status).toBe(2);
      expect(d.effects).toEqual([]);
      expect(d.allowed(people.applicant).sort()).toEqual(['ACKNOWLEDGE', 'CANCEL']);
      // Only the delegator acknowledges, with the declaration ticked and the delegate's account named.
      expect(d.allowed(otherMember)).toEqual([]);
      expect(d.tries('ACKNOWLEDGE', otherMember, acknowledged)).toBe(false);
      expect(validateEvent('delegation', { type: 'ACKNOWLEDGE', acknowledged: false, delegateUserId: 'x' })).toEqual([
        { field: 'acknowledged', message: 'machines:validation.acknowledgmentRequired' },
      ]);
      expect(validateEvent('delegation', { type: 'ACKNOWLEDGE', acknowledged: true }).map((i) => i.field)).toEqual(['delegateUserId']);
      d.send('ACKNOWLEDGE', people.applicant, acknowledged);
      expect(d.status).toBe(3);
      expect(d.snapshot.context.delegateUserId).toBe('delegate-9');
      expect(d.effects).toEqual([{ type: 'effect.grantDelegation', params: {} }]);
      expect(d.snapshot.context.data).toEqual(data);
    });

    it('an active delegation is revoked by its delegator (withdrawing the access), not cancelled or expired', () => {
      const d = new Drive('delegation', { data }).send('OTP_VERIFIED', people.system).send('ACKNOWLEDGE', people.applicant, acknowledged);
      expect(d.allowed(people.applicant)).toEqual(['REVOKE']);
      expect(d.allowed(SYSTEM_ACTOR)).toEqual([]);
      expect(d.allowed(otherMember)).toEqual([]);
      expect(d.tries('CANCEL', people.applicant)).toBe(false);
      d.send('REVOKE', people.applicant);
      expect(d.status).toBe(4);
      expect(d.effects).toEqual([{ type: 'effect.revokeDelegation', params: {} }]);
      expect(d.snapshot.status).toBe('done');
    });

    it('an unfinished delegation is cancelled by its delegator or expires with one retention timer for both steps', () => {
      const cancelled = new Drive('delegation', { data }).send('OTP_VERIFIED', people.system).send('CANCEL', people.applicant);
      expect(cancelled.status).toBe(5);
      expect(cancelled.effects).toEqual([]);
      const d = new Drive('delegation', { data });
      const timers = () => deadlinesOf(d.snapshot).map(({ event, after, stateId }) => ({ event, after, stateId }));
      expect(timers()).toEqual([{ event: 'DRAFT_EXPIRED', after: 'draftRetention', stateId: 'delegation.pending' }]);
      // The OTP step does not restart the timer: the same state (pending) keeps declaring it.
      d.send('OTP_VERIFIED', people.system);
      expect(timers()).toEqual([{ event: 'DRAFT_EXPIRED', after: 'draftRetention', stateId: 'delegation.pending' }]);
      d.send('DRAFT_EXPIRED', people.system);
      expect(d.status).toBe(6);
      expect(deadlinesOf(d.snapshot)).toEqual([]);
    });

    it('a delegation starts only with a type and at least one permission (the history records what was given)', () => {
      expect(String(new Drive('delegation', { data: { delegationType: 1, permissions: [] } }).snapshot.error)).toMatch(/permissions/);
      expect(String(new Drive('delegation', { data: { delegationType: 2, permissions: ['x'] } }).snapshot.error)).toMatch(/delegationType/);
    });
  });

  it('a sub user acts only within the permissions delegated to them for that facility', () => {
    // Role permissions are the applicant's; per facility, this user was delegated Request (and not Submit) in
    // FACILITY, and both in another facility.
    const sub = {
      ...user('sub-1', ['applicant'], [FACILITY, 'facility-g']),
      facilityPermissions: {
        [FACILITY]: ['InternalFacilityRequestService.Request'],
        'facility-g': ['InternalFacilityRequestService.Request', 'InternalFacilityRequestService.Submit'],
      },
    };
    const here = new Drive('internalCertificate');
    expect(here.allowed(sub).sort()).toEqual(['DELETE', 'EDIT']);
    expect(here.tries('SUBMIT', sub, { agreementAccepted: true })).toBe(false);
    const there = new Drive('internalCertificate', { facilityId: 'facility-g' });
    expect(there.allowed(sub).sort()).toEqual(['DELETE', 'EDIT', 'SUBMIT']);
    there.send('SUBMIT', sub);
    expect(there.status).toBe(2); // submitted, awaiting the application fee
    // Nothing delegated for a facility: no request of theirs to start there.
    expect(mayStart('internalCertificate', { ...sub, facilityPermissions: { [FACILITY]: [] } }, FACILITY)).toBe(false);
    expect(mayStart('internalCertificate', sub, FACILITY)).toBe(true);
    // Actors without per-facility permissions (the system, histories written before) keep the role's.
    expect(new Drive('internalCertificate').allowed(people.applicant).sort()).toEqual(['DELETE', 'EDIT', 'SUBMIT']);
  });

  it('a certificate becomes expiring soon and expires by deadlines; a suspension needs the suspend permission', () => {
    const d = new Drive('certificate', { data: { expiresAt: '2027-06-30T00:00:00Z' } });
    expect(d.tries('SUSPEND', people.registration, { reason: 'x' })).toBe(false);
    d.send('SUSPEND', people.admin).send('REINSTATE', people.admin);
    d.send('EXPIRING_SOON', people.system).send('CERTIFICATE_EXPIRED', people.system);
    expect(d.status).toBe(2);
    expect(d.allowed(SYSTEM_ACTOR)).toEqual(['RENEW']);
    d.send('RENEW', people.system, { expiresAt: '2030-06-30' });
    expect(d.status).toBe(1);
    expect(d.snapshot.context.expiresAt).toBe('2030-06-30T00:00:00.000Z');
  });

  it('entity machines do not start without the data they need (the snapshot is in error)', () => {
    const certificate = new Drive('certificate');
    expect(certificate.snapshot.status).toBe('error');
    expect(String(certificate.snapshot.error)).toMatch(/expiresAt/);
    expect(String(new Drive('delegation').snapshot.error)).toMatch(/delegationType/);
    expect(new Drive('bill').snapshot.status).toBe('active');
  });
});
