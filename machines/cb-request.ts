import type { EffectParams, FeeKind, PaymentService } from './effects';
import { Permissions as P } from './permissions';
import { requestContext, requestSetup } from './request-setup';
import { auditCycle, type AuditCycleCodes } from './fragments/audit-cycle';
import { deletedState, draftState, withStaffNotes } from './fragments/common';
import { registrationStates } from './fragments/review-queue';
import type { MachineKind } from './types';
import type { StatusAlias } from './definition';

/** CB accreditation request statuses (spec 02 section 4). */
export const CB_CODES = { draft: 1000, newRequest: 1001, waitingIssue: 1002, issued: 1003 } as const;

/** The CB catalogue has no rejection code; the rejection uses the only one the spec has (internal full set). */
export const CB_REJECTED_STATUS = 15;

const cbCycleCodes: AuditCycleCodes = {
  plan: CB_CODES.newRequest,
  planApproval: CB_CODES.newRequest,
  planReturned: CB_CODES.newRequest,
  planApproved: CB_CODES.newRequest,
  procedures: CB_CODES.newRequest,
  correctiveActions: CB_CODES.newRequest,
  correctiveActionsApproval: CB_CODES.newRequest,
  correctiveActionsModification: CB_CODES.newRequest,
  report: CB_CODES.newRequest,
  decision: CB_CODES.newRequest,
  waitingIssue: CB_CODES.waitingIssue,
};

export const CB_ISSUED_ALIASES: readonly StatusAlias[] = [1004, 1005, 1006, 1007].map((code) => ({
  code,
  aliasOf: CB_CODES.issued,
  why: 'spec 02 section 4: "1003 to 1007 certificate issued (shown with the same wording)"',
}));

/**
 * CB designation and CB renewal: the same registration -> audit -> committee workflow as internal requests
 * (spec 02 section 4 "Workflow for internal facility and CB requests"), with the CB catalogue's codes.
 */
/** Version 2: where each bill is created (spec 02 section 9, payment services 1 and 5). */
export interface CbFees {
  /** The appointment request (service 1), billed when the applicant accepts the audit plan. */
  auditFees?: { service: PaymentService };
  /** Billed when the committee approves, before the certificate is issued. */
  certificateFees: { service: PaymentService; feeKind: FeeKind };
}

/**
 * The CB catalogue has no payment codes: a pending bill shows the stage it belongs to (1001 during the audit, 1002
 * once approved), and an expired bill the spec's "Payment Expired" (3, as internal requests) before the request stops.
 */
const CB_PAYMENT_CODES = { auditFees: { pending: CB_CODES.newRequest, expired: 3 }, certificateFees: { pending: CB_CODES.waitingIssue, expired: 3 } };

export function cbRequestMachine(o: {
  kind: MachineKind;
  issueEffect: { type: 'effect.issueCertificate' | 'effect.renewCertificate'; params: EffectParams['effect.issueCertificate'] };
  fees?: CbFees;
  /** Version 3 on: see AuditCycleOptions.plannersTakePlans. */
  plannersTakePlans?: boolean;
  /** Version 3 on: no discount offered on a stopped request (withStaffNotes). */
  noDiscountWhenStopped?: boolean;
  /** Version 4 on: see AuditCycleOptions.keepsPlanDraft. */
  keepsPlanDraft?: boolean;
  /** Version 4 on: see ReviewQueueOptions.releasesOnLeave. */
  releasesOnLeave?: boolean;
}) {
  const policies = P.cbAccreditation;
  const applicant = { request: policies.request, submit: policies.submit };
  const cycle = (round: 1 | 2) =>
    auditCycle({
      id: `audit${round}`,
      codes: o.fees
        ? { ...cbCycleCodes, ...(o.fees.auditFees ? { auditFees: CB_PAYMENT_CODES.auditFees } : {}), certificateFees: CB_PAYMENT_CODES.certificateFees }
        : cbCycleCodes,
      policies,
      applicant,
      ...(o.fees ? { auditFees: o.fees.auditFees, certificateFees: { ...o.fees.certificateFees, choosePaymentOption: false } } : {}),
      returnToRegistration: { target: '#registration', actions: 'markReturnedByAudit' },
      returnToAudit: { target: '#audit2', actions: 'startRound2', reenter: true },
      reject: { target: '#rejected' },
      issue: { guard: { permission: policies.committeeReview, relation: 'reviewer' }, target: '#issued', actions: o.issueEffect },
      cancelPayment: { target: '#draft', actions: 'resetToDraft' },
      ...(o.plannersTakePlans ? { plannersTakePlans: true } : {}),
      ...(o.keepsPlanDraft ? { keepsPlanDraft: true } : {}),
    });
  const toAudit = [
    { when: 'round2' as const, target: '#audit2' },
    { target: '#audit1' },
  ];
  return requestSetup.createMachine({
    id: o.kind,
    context: ({ input }) => requestContext(input),
    initial: 'draft',
    states: withStaffNotes({
      draft: draftState({ code: CB_CODES.draft, applicant, submit: [{ target: '#registration' }] }),
      ...registrationStates({
        codes: { waiting: CB_CODES.newRequest, underReview: CB_CODES.newRequest, returned: CB_CODES.draft },
        policies,
        applicant,
        accept: toAudit,
        auditTakesBack: { permission: [policies.auditSubmitPlan, policies.auditSubmitReport], to: toAudit },
        ...(o.releasesOnLeave ? { releasesOnLeave: true } : {}),
      }),
      audit1: cycle(1),
      audit2: cycle(2),
      rejected: {
        id: 'rejected',
        type: 'final',
        tags: ['final'],
        meta: { status: CB_REJECTED_STATUS, description: 'Rejected by the decision committee (final).' },
      },
      issued: {
        id: 'issued',
        type: 'final',
        tags: ['final'],
        meta: { status: CB_CODES.issued, description: 'Certificate issued.' },
      },
      deleted: deletedState,
    }, P.portals.halalCenter, o.noDiscountWhenStopped ? { noDiscountWhenStopped: true } : {}),
  });
}

/** Readings of both versions except the one about payment (version 1 has none; version 2 bills). */
const cbReadings = (payment: string) => [
  'The CB catalogue has four codes, so every state between submission and approval shows 1001 "new request" (registration waiting and under review, every audit stage, the decision committee); the queue tag tells who acts. 1002 is the approved request waiting for the certificate; 1003 is issued, and 1004-1007 are kept as aliases of 1003 for imported data because the spec shows them "with the same wording".',
  'A returned request shows 1000 (draft): the catalogue has no "returned" code. The applicant edits only the returned sections and resubmits.',
  'The CB catalogue has no rejection code either: a rejected CB request ends in code 15 "Request Rejected", the only rejection code in the spec (internal full set); on a renewal the label of code 15 is the spec\'s "renewal request rejected" message (spec 02 section 8).',
  payment,
  'The audit cycle is the same fragment as for internal requests; the decision committee may return the request to audit repeatedly (round 2 keeps the same codes), and a committee member issues the certificate (1002 -> 1003).',
];

export const CB_READINGS = cbReadings(
  'Version 1 has no payment step: "the request study fee is exempted" and the CB catalogue has no payment status.',
);
export const CB_READINGS_V2 = cbReadings(
  'Version 2 bills (spec 02 section 9): the request study fee stays exempt; a pending bill shows the stage it belongs to (1001 during the audit, 1002 once approved) since the CB catalogue has no payment codes, and an unpaid bill expires to 3 "Payment Expired" (as internal requests) and the request stops. Cancelling while a bill awaits payment returns the request to draft and cancels the bill.',
);

/** Version 3 of the CB designation and renewal (the internal requests' version 2 rules). */
export const CB_READING_V3 =
  'Version 3: the plan to draft and a returned plan (both 1001) are taken only by audit staff who may submit a plan (AuditAndInspection.SubmitPlan); a technical auditor (SubmitReport only) takes the request from the plan approved on. In versions 1 and 2 a technical auditor could take the plan, and then nobody could send it until the assignment was cancelled. Version 3 also offers no discount on a stopped request (3 "Payment Expired"): nothing bills it again, so a discount there changed nothing.';
