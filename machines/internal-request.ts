import { Permissions as P } from './permissions';
import { requestContext, requestSetup } from './request-setup';
import { auditCycle, type AuditCycleCodes, type AuditCycleOptions } from './fragments/audit-cycle';
import { deletedState, draftState, withStaffNotes, type Branch } from './fragments/common';
import { enterPayment, paymentStep } from './fragments/payment';
import { registrationStates } from './fragments/review-queue';
import type { EffectParams } from './effects';
import type { MachineKind } from './types';

/** Codes of the internal service's full set (spec 02 section 4) that do not depend on the round. */
export interface InternalCodes {
  draft: number;
  newRequest: number;
  applicationFee: number;
  applicationFeeExpired: number;
  underRegistrationReview: number;
  returned: number;
  rejected: number;
  completed: number;
}

/** First round (6-12, 26, 28, 30, 32) and after a return from the decision committee (18-24, 27, 29, 31, 33). */
export const INTERNAL_ROUND_CODES: Record<1 | 2, AuditCycleCodes> = {
  1: {
    plan: 6,
    planApproval: 7,
    planReturned: 8,
    procedures: 9,
    correctiveActions: 10,
    correctiveActionsApproval: 11,
    correctiveActionsModification: 12,
    report: 13,
    decision: 14,
    planApproved: 28,
    waitingIssue: 32,
    auditFees: { pending: 26, expired: 30 },
    certificateFees: { paymentOption: 17, pending: 16, expired: 3 },
  },
  2: {
    plan: 18,
    planApproval: 19,
    planReturned: 20,
    procedures: 21,
    correctiveActions: 22,
    correctiveActionsApproval: 23,
    correctiveActionsModification: 24,
    report: 13,
    decision: 14,
    planApproved: 29,
    waitingIssue: 33,
    auditFees: { pending: 27, expired: 31 },
    certificateFees: { paymentOption: 17, pending: 16, expired: 3 },
  },
};

/**
 * The internal facility certificate lifecycle (full set 0-33), shared by the certificate (201) and the renewal
 * (202), which differ in their draft/registration codes, the fee kind and the certificate effect.
 */
export function internalRequestMachine(o: {
  kind: MachineKind;
  codes: InternalCodes;
  certificateFeeKind: 'certificate' | 'renewal';
  issueEffect: { type: 'effect.issueCertificate' | 'effect.renewCertificate'; params: EffectParams['effect.issueCertificate'] };
  /** Version 2 on: see AuditCycleOptions.plannersTakePlans. */
  plannersTakePlans?: boolean;
  /** Version 2 on: no discount offered on a stopped request (withStaffNotes). */
  noDiscountWhenStopped?: boolean;
  /** Version 3 on: see AuditCycleOptions.keepsPlanDraft. */
  keepsPlanDraft?: boolean;
  /** Version 3 on: see ReviewQueueOptions.releasesOnLeave. */
  releasesOnLeave?: boolean;
}) {
  const policies = P.internalRequest;
  const applicant = { request: policies.request, submit: policies.submit };
  const c = o.codes;
  const toAudit = (round: 1 | 2): Branch[] =>
    round === 2 ? [{ when: 'round2', target: '#audit2' }] : [{ target: '#audit1' }];

  const cycle = (round: 1 | 2) => {
    const options: AuditCycleOptions = {
      id: `audit${round}`,
      codes: INTERNAL_ROUND_CODES[round],
      policies,
      applicant,
      auditFees: { service: 8 },
      certificateFees: { service: 6, feeKind: o.certificateFeeKind },
      returnToRegistration: { target: '#registration', actions: 'markReturnedByAudit' },
      returnToAudit: { target: '#audit2', actions: 'startRound2', reenter: true },
      reject: { target: '#rejected' },
      issue: { guard: { permission: policies.committeeReview, relation: 'reviewer' }, target: '#completed', actions: o.issueEffect },
      cancelPayment: { target: '#draft', actions: 'resetToDraft' },
      ...(o.plannersTakePlans ? { plannersTakePlans: true } : {}),
      ...(o.keepsPlanDraft ? { keepsPlanDraft: true } : {}),
    };
    return auditCycle(options);
  };

  return requestSetup.createMachine({
    id: o.kind,
    context: ({ input }) => requestContext(input),
    initial: 'draft',
    states: withStaffNotes({
      draft: draftState({
        code: c.draft,
        applicant,
        submit: enterPayment({ free: { target: '#registration' }, paymentTarget: 'applicationFee' }),
      }),
      ...paymentStep({
        pending: { name: 'applicationFee', code: c.applicationFee },
        expired: { name: 'applicationFeeExpired', code: c.applicationFeeExpired, stopped: true },
        service: 6,
        feeKind: 'application',
        paid: { target: '#registration' },
        cancel: { target: '#draft', actions: 'resetToDraft', kind: 'toDraft' },
        applicant,
      }),
      ...registrationStates({
        codes: { waiting: c.newRequest, underReview: c.underRegistrationReview, returned: c.returned },
        policies,
        applicant,
        accept: [...toAudit(2), ...toAudit(1)],
        auditTakesBack: { permission: [policies.auditSubmitPlan, policies.auditSubmitReport], to: [...toAudit(2), ...toAudit(1)] },
        ...(o.releasesOnLeave ? { releasesOnLeave: true } : {}),
      }),
      audit1: cycle(1),
      audit2: cycle(2),
      rejected: {
        id: 'rejected',
        type: 'final',
        tags: ['final'],
        meta: { status: c.rejected, description: 'Rejected by the decision committee (final).' },
      },
      completed: {
        id: 'completed',
        type: 'final',
        tags: ['final'],
        meta: { status: c.completed, description: 'Completed: the certificate is issued.' },
      },
      deleted: deletedState,
    }, P.portals.halalCenter, o.noDiscountWhenStopped ? { noDiscountWhenStopped: true } : {}),
  });
}

/** Readings shared by the internal certificate and renewal docs. */
export const INTERNAL_READINGS = [
  'Codes 18-24 are the stages 6-12 repeated after the decision committee returns the request to audit; the pairs 26/27, 28/29, 30/31 and 32/33 are the first-round and after-return variants. The audit cycle is one fragment (machines/fragments/audit-cycle.ts) instantiated twice (`audit1`, `audit2`) with the two code sets; 13 (audit report) and 14 (final decision) are shared by both rounds. A second return from the committee restarts `audit2`.',
  '1 "New Request" is the request waiting unassigned in the registration queue; 4 "Under Registration Department Review" is the same request once a registration employee has it (assign to me / to an employee). Cancelling the assignment puts it back to 1.',
  'Fees: the application fee (2; bill service 6) is paid after submission and before registration review ("payment is required before processing"); it expires to 3. Audit fees (26/27; bill service 8 "technical review and audit") follow the applicant’s acceptance of the plan and expire to 30/31; once paid (or free) the plan is approved (28/29) and audit starts the inspection (9/21). After the committee approves, the applicant chooses the payment option (17: yearly or in full), then pays the certificate fees (16; service 6), then the request waits for the certificate (32/33). The catalogue has no expiry code for the certificate fees, so their expiry uses 3 "Payment Expired".',
  'A 100% discount passes every payment state without a bill: submission goes straight to registration, plan acceptance straight to 28/29, committee approval straight to 32/33 (no payment option to choose).',
  'Cancelling while a bill is awaiting payment (2, 16, 26/27) returns the request to draft (0) and cancels the bill; the draft keeps its data and starts again from round 1. "After payment a request cannot be cancelled" is read as: the bill that is paid cannot be cancelled; an application fee already paid is not charged again when the request is resubmitted.',
  'Payment-expired requests (3, 30/31) are "stopped": nothing moves them on, the applicant may delete them, and they are deleted automatically after the draft retention period (DRAFT_RETENTION_DAYS, default 30). A deleted draft or stopped request ends in a tombstone state with code -1 so its history stays verifiable.',
  'Registration may return the whole request (no sections) or chosen sections with a required note; while returned (5) the applicant may edit only those sections, then resubmits to the registration queue (1).',
  'Audit may return the request to registration with a note (from the plan stages); registration then accepts it again, or an audit employee adds a note (ADD_NOTE), which takes it back to audit without any other effect. Any other ADD_NOTE by Halal-center staff is only recorded in the history.',
  'The auditor decides every corrective action in one DECIDE_CORRECTIVE_ACTIONS event listing a decision per open non-conformity (accepted, or rejected with a required reason): all accepted leads to the audit report (13), any rejection to corrective-action modification (12/24) with only the rejected ones left open.',
  'The certificate is issued (32/33 -> 25) by a decision-committee member, the department that approved it.',
  'Rejection (15) and completion (25) are final: nothing can be edited or cancelled afterwards.',
] as const;

/** Version 2 of the internal certificate and renewal: who may take a plan to draft. */
export const INTERNAL_READING_V2 =
  'Version 2: a plan to draft (6/18) or a returned plan (8/20) is taken only by audit staff who may submit a plan (AuditAndInspection.SubmitPlan); a technical auditor (SubmitReport only) takes the request from the plan approved on (28/29). In version 1 a technical auditor could take the plan, and then nobody could send it until the assignment was cancelled. Version 2 also offers no discount on a stopped request (3, 30/31): nothing bills it again, so a discount there changed nothing.';
