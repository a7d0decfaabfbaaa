import type { EffectParams } from './effects';
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
export function cbRequestMachine(o: {
  kind: MachineKind;
  issueEffect: { type: 'effect.issueCertificate' | 'effect.renewCertificate'; params: EffectParams['effect.issueCertificate'] };
}) {
  const policies = P.cbAccreditation;
  const applicant = { request: policies.request, submit: policies.submit };
  const cycle = (round: 1 | 2) =>
    auditCycle({
      id: `audit${round}`,
      codes: cbCycleCodes,
      policies,
      applicant,
      returnToRegistration: { target: '#registration', actions: 'markReturnedByAudit' },
      returnToAudit: { target: '#audit2', actions: 'startRound2', reenter: true },
      reject: { target: '#rejected' },
      issue: { guard: { permission: policies.committeeReview, relation: 'reviewer' }, target: '#issued', actions: o.issueEffect },
      cancelPayment: { target: '#draft', actions: 'resetToDraft' },
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
    }, P.portals.halalCenter),
  });
}

export const CB_READINGS = [
  'The CB catalogue has four codes, so every state between submission and approval shows 1001 "new request" (registration waiting and under review, every audit stage, the decision committee); the queue tag tells who acts. 1002 is the approved request waiting for the certificate; 1003 is issued, and 1004-1007 are kept as aliases of 1003 for imported data because the spec shows them "with the same wording".',
  'A returned request shows 1000 (draft): the catalogue has no "returned" code. The applicant edits only the returned sections and resubmits.',
  'The CB catalogue has no rejection code either: a rejected CB request ends in code 15 "Request Rejected", the only rejection code in the spec (internal full set).',
  'No payment step: "the request study fee is exempted" and the CB catalogue has no payment status; bills for CB services (payment services 1 and 5) are outside these lifecycles.',
  'The audit cycle is the same fragment as for internal requests, without fees; the decision committee may return the request to audit repeatedly (round 2 keeps the same codes), and a committee member issues the certificate (1002 -> 1003).',
] as const;
