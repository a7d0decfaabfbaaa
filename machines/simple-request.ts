import type { EffectParams, FeeKind, PaymentService } from './effects';
import type { MayParams } from './guards';
import { Permissions as P } from './permissions';
import { requestContext, requestSetup } from './request-setup';
import { branches, deletedState, draftState, withStaffNotes, type ApplicantPolicies, type Branch, type ServicePolicies } from './fragments/common';
import { enterPayment, paymentStep } from './fragments/payment';
import { registrationStates } from './fragments/review-queue';
import { may } from './guards';
import type { MachineKind } from './types';

/** The simple set of spec 02 section 4 (internal facility request; external set B uses the same numbers). */
export const SIMPLE_CODES = { newRequest: 1001, pendingPayment: 1002, expired: 1003, waitingIssue: 1004, completed: 1005 } as const;

type IssueEffect =
  | { type: 'effect.updateCertificateProducts'; params: EffectParams['effect.updateCertificateProducts'] }
  | { type: 'effect.issueHalalMarks'; params: EffectParams['effect.issueHalalMarks'] };

/**
 * new (1001) -> [registration review] -> pending payment (1002, expired 1003) -> pending issuance (1004) ->
 * completed (1005). Used by internal add-products, internal and external Halal-mark requests.
 */
export function simpleRequestMachine(o: {
  kind: MachineKind;
  applicant: ApplicantPolicies;
  /** Registration review before payment (add products); without it the applicant pays right after submitting. */
  review?: ServicePolicies;
  service: PaymentService;
  feeKind: FeeKind;
  issue: { guard: Omit<MayParams, 'when'>; effect: IssueEffect };
  /** No GRANT_DISCOUNT in the stopped state (1003): see withStaffNotes. */
  noDiscountWhenStopped?: boolean;
  /**
   * The draft's code: 1001 by default (the set has no draft code); internal added products from version 2 show the
   * internal service's draft code 0 ("Draft"), their 1001 being the submitted request under review.
   */
  draftCode?: number;
  /**
   * A paid mark package whose certificate expired before its marks could be issued (suspended until it expired) leaves
   * the wait: the system's CERTIFICATE_EXPIRED ends it in 1003 ("expired", also worded "ended") and its payment is
   * listed for a refund (mark requests v2).
   */
  endsWithCertificate?: boolean;
  /** Version 3 on: see ReviewQueueOptions.releasesOnLeave. */
  releasesOnLeave?: boolean;
}) {
  const c = SIMPLE_CODES;
  const pay: Branch[] = enterPayment({ free: { target: '#waitingIssue' }, paymentTarget: '#pendingPayment' });
  return requestSetup.createMachine({
    id: o.kind,
    context: ({ input }) => requestContext(input),
    initial: 'draft',
    states: withStaffNotes({
      draft: draftState({
        code: o.draftCode ?? c.newRequest,
        applicant: o.applicant,
        submit: o.review ? [{ target: '#registration' }] : pay,
        description: 'New: the applicant edits and submits it (or deletes it).',
      }),
      ...(o.review
        ? registrationStates({
            codes: { waiting: c.newRequest, underReview: c.newRequest, returned: c.newRequest },
            policies: o.review,
            applicant: o.applicant,
            accept: pay,
            returnedIsDraft: true,
            ...(o.releasesOnLeave ? { releasesOnLeave: true } : {}),
          })
        : {}),
      ...paymentStep({
        pending: { name: 'pendingPayment', code: c.pendingPayment },
        expired: { name: 'expired', code: c.expired, stopped: true },
        service: o.service,
        feeKind: o.feeKind,
        paid: { target: '#waitingIssue' },
        cancel: { target: '#draft', actions: 'resetToDraft', kind: 'toDraft' },
        applicant: o.applicant,
        ids: true,
      }),
      waitingIssue: {
        id: 'waitingIssue',
        tags: [o.issue.guard.relation === 'system' ? 'payment' : 'committee'],
        meta: {
          status: c.waitingIssue,
          // The system issues at once, through a timer so that the issue is durable and in the history.
          ...(o.issue.guard.relation === 'system' ? { deadline: { after: 'immediately', event: 'ISSUE_CERTIFICATE' } } : {}),
          description: 'Paid (or free): waiting for issuance.',
        },
        on: {
          ISSUE_CERTIFICATE: branches(o.issue.guard, [{ target: 'completed', actions: o.issue.effect }]),
          ...(o.endsWithCertificate
            ? { CERTIFICATE_EXPIRED: { guard: may({ relation: 'system' }), target: 'certificateEnded', actions: { type: 'effect.returnMarkCredit', params: {} } } }
            : {}),
        },
      },
      ...(o.endsWithCertificate
        ? {
            certificateEnded: {
              type: 'final',
              tags: ['final'],
              meta: {
                status: c.expired,
                description: 'Paid, but its certificate expired before the marks could be issued: ended, the payment to be refunded.',
              },
            },
          }
        : {}),
      completed: {
        type: 'final',
        tags: ['final'],
        meta: { status: c.completed, description: 'Completed.' },
      },
      deleted: deletedState,
    }, P.portals.halalCenter, o.noDiscountWhenStopped ? { noDiscountWhenStopped: true } : {}),
  });
}

export const SIMPLE_READINGS = [
  '1001 "new" is the request the applicant is preparing (it can be edited, submitted or deleted, and is deleted automatically after the draft retention period); the set has no separate draft code.',
  'Submitting creates the bill (1002); payment leads to 1004 "pending issuance", then 1005 "completed". An unpaid bill expires to 1003 ("expired", also worded "ended"), a stopped state deleted after the retention period. Cancelling while awaiting payment returns the request to 1001 and cancels the bill. A 100% discount skips the payment; a mark package whose carried-over credit covers it is confirmed paid at once by the system.',
] as const;

/**
 * The mark requests' reading of 1001. Their catalogue has no draft code and they have no review step, so 1001 is only
 * ever the draft; it is labelled as the other services' drafts are (locales status.json), not "new".
 */
export const MARK_DRAFT_READING =
  'A mark request has no review step, so 1001 is only ever its draft (being prepared, or back after a cancelled bill). The catalogue has no draft code: 1001 is labelled "Draft" (مسودة), as the other services’ drafts are, rather than the spec’s "new".';

/** Mark requests v2: what happens to a paid package whose certificate expired while it waited (simpleRequestMachine endsWithCertificate). */
export const MARK_ENDS_WITH_CERTIFICATE_READING =
  'Version 2: a paid package waits in 1004 while its certificate is suspended (its marks are issued once it is reinstated); should the certificate expire meanwhile, no mark can be issued for the months it was priced for, so the system sends CERTIFICATE_EXPIRED and the request ends in 1003 ("expired", also worded "ended"; its history says "Certificate expired"), the credit it took from earlier packages is given back and its payment is listed among the payments needing attention, to be refunded. A renewal of the certificate then buys a new package.';
