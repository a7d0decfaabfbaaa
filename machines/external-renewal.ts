import type { MachineDefinition } from './definition';
import { may } from './guards';
import { Permissions as P } from './permissions';
import { requestContext, requestSetup } from './request-setup';
import { SET_B } from './set-b';
import { deletedState, draftState, withStaffNotes } from './fragments/common';
import { enterPayment, paymentStep } from './fragments/payment';
import { RELEASES_ON_LEAVE_READING, registrationStates } from './fragments/review-queue';
import { noDiscountWhenStoppedReading } from './readings';

const policies = P.externalRequest;
const applicant = { request: policies.request, submit: policies.submit };

/** `noDiscountWhenStopped` (version 2): no GRANT_DISCOUNT in the stopped state (4); see withStaffNotes. */
const externalRenewalMachine = (o: { noDiscountWhenStopped?: boolean; releasesOnLeave?: boolean } = {}) => requestSetup.createMachine({
  id: 'externalRenewal',
  context: ({ input }) => requestContext(input),
  initial: 'draft',
  states: withStaffNotes({
    draft: draftState({ code: SET_B.draft, applicant, submit: [{ target: '#registration' }] }),
    ...registrationStates({
      codes: { waiting: SET_B.newRequest, underReview: SET_B.newRequest, returned: SET_B.draft },
      policies,
      applicant,
      accept: enterPayment({ free: { target: '#feesPaid' }, paymentTarget: '#renewalFees' }),
      returnedIsDraft: true,
      ...(o.releasesOnLeave ? { releasesOnLeave: true } : {}),
    }),
    ...paymentStep({
      pending: { name: 'renewalFees', code: SET_B.pendingPayment },
      expired: { name: 'paymentExpired', code: SET_B.paymentExpired, stopped: true },
      service: 7,
      feeKind: 'renewal',
      paid: { target: '#feesPaid' },
      cancel: { target: '#draft', actions: 'resetToDraft', kind: 'toDraft' },
      applicant,
      ids: true,
    }),
    feesPaid: {
      id: 'feesPaid',
      tags: ['payment'],
      meta: {
        status: SET_B.feesPaid,
        deadline: { after: 'immediately', event: 'ISSUE_CERTIFICATE' },
        description: 'Fees paid: the system renews the certificate at once.',
      },
      on: {
        ISSUE_CERTIFICATE: {
          guard: may({ relation: 'system' }),
          target: 'renewed',
          actions: { type: 'effect.renewCertificate', params: { certificateKind: 'external' } },
        },
      },
    },
    renewed: {
      type: 'final',
      tags: ['final'],
      meta: { status: SET_B.issued, description: 'Certificate renewed.' },
    },
    deleted: deletedState,
  }, P.portals.halalCenter, o.noDiscountWhenStopped ? { noDiscountWhenStopped: true } : {}),
});

export const externalRenewalV1: MachineDefinition = {
  kind: 'externalRenewal',
  version: 1,
  title: 'External facility Halal certificate renewal',
  catalogue: 'External facility request, set B (0 to 5)',
  requestKind: 2,
  machine: externalRenewalMachine(),
  readings: [
    'Set B 0-5 mirrors set A 100-105 (the spec mentions "legacy 100 to 105 variants"): the renewal uses it so that a renewal and a first certificate differ by status. Flow: draft (0) -> new (1, registration queue with assignment) -> accepted: pending payment (2; bill service 7, fee kind renewal) -> paid (3) -> renewed (5), issued at once by the system like the first certificate. An unpaid bill expires (4, stopped).',
    'Set B has no "under review" or "returned" code: a request under review still shows 1, and a returned one shows 0 (draft) while the applicant edits the returned sections; a returned renewal can be deleted and is deleted automatically after the retention period like a draft.',
    'The renewal reason and notes are the `renewal` section of the request data; renewal terms are accepted on submit (agreement).',
  ],
};

/** Version 2: no discount on a stopped request (4). */
export const externalRenewalV2: MachineDefinition = {
  ...externalRenewalV1,
  version: 2,
  machine: externalRenewalMachine({ noDiscountWhenStopped: true }),
  readings: [...externalRenewalV1.readings, noDiscountWhenStoppedReading(2, SET_B.paymentExpired, 'Version 1')],
};

/** Version 3: the assignment of a review ends with the review. */
export const externalRenewalV3: MachineDefinition = {
  ...externalRenewalV2,
  version: 3,
  machine: externalRenewalMachine({ noDiscountWhenStopped: true, releasesOnLeave: true }),
  readings: [...externalRenewalV2.readings, RELEASES_ON_LEAVE_READING],
};
