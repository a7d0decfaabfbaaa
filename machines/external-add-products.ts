import type { MachineDefinition } from './definition';
import { Permissions as P } from './permissions';
import { requestContext, requestSetup } from './request-setup';
import { SET_B } from './set-b';
import { deletedState, draftState, withStaffNotes } from './fragments/common';
import { enterPayment, paymentStep } from './fragments/payment';
import { RELEASES_ON_LEAVE_READING, reviewQueueStates } from './fragments/review-queue';
import { noDiscountWhenStoppedReading } from './readings';

const policies = P.externalRequest;
const applicant = { request: policies.request, submit: policies.submit };
const updateProducts = { type: 'effect.updateCertificateProducts' as const, params: {} };

/** `noDiscountWhenStopped` (version 2): no GRANT_DISCOUNT in the stopped state (4); see withStaffNotes. */
const externalAddProductsMachine = (o: { noDiscountWhenStopped?: boolean; releasesOnLeave?: boolean } = {}) => requestSetup.createMachine({
  id: 'externalAddProducts',
  context: ({ input }) => requestContext(input),
  initial: 'draft',
  states: withStaffNotes({
    draft: draftState({ code: SET_B.draft, applicant, submit: [{ target: '#productsReview' }] }),
    ...reviewQueueStates({
      id: 'productsReview',
      tag: 'registration',
      codes: { waiting: SET_B.addProductsInProgress, underReview: SET_B.addProductsInProgress, returned: SET_B.draft },
      queue: { review: policies.registrationReview, others: policies.registrationAssignToOthers },
      decide: policies.registrationReview,
      applicant,
      accept: enterPayment({ free: { target: '#productsUpdated', actions: updateProducts }, paymentTarget: '#pendingPayment' }),
      returnedIsDraft: true,
      waitingDescription: 'Add products in progress: waiting in the registration queue.',
      ...(o.releasesOnLeave ? { releasesOnLeave: true } : {}),
    }),
    ...paymentStep({
      pending: { name: 'pendingPayment', code: SET_B.pendingPayment },
      expired: { name: 'paymentExpired', code: SET_B.paymentExpired, stopped: true },
      service: 7,
      feeKind: 'addProducts',
      paid: { target: '#productsUpdated', actions: updateProducts },
      cancel: { target: '#draft', actions: 'resetToDraft', kind: 'toDraft' },
      applicant,
      ids: true,
    }),
    productsUpdated: {
      id: 'productsUpdated',
      type: 'final',
      tags: ['final'],
      meta: { status: SET_B.productsUpdated, description: 'Certificate products updated.' },
    },
    deleted: deletedState,
  }, P.portals.halalCenter, o.noDiscountWhenStopped ? { noDiscountWhenStopped: true } : {}),
});

export const externalAddProductsV1: MachineDefinition = {
  kind: 'externalAddProducts',
  version: 1,
  title: 'Add products to an external facility certificate',
  catalogue: 'External facility request, set B (0, 2, 4, 7, 8)',
  requestKind: 2,
  machine: externalAddProductsMachine(),
  readings: [
    'The standalone add-products request (route add-products-ef-request) uses set B: draft (0) -> add products in progress (7, registration queue with assignment) -> accepted: pending payment (2; bill service 7) -> certificate products updated (8). An unpaid bill expires (4, stopped). Set A’s 107/108 are the same stages when the change is made on the certificate request itself (external certificate machine).',
    'Set B has no "returned" code: a returned request shows 0 (draft) while the applicant edits the returned sections. Products already on the certificate are excluded by the server, and the user is told afterwards.',
  ],
};

/** Version 2: no discount on a stopped request (4). */
export const externalAddProductsV2: MachineDefinition = {
  ...externalAddProductsV1,
  version: 2,
  machine: externalAddProductsMachine({ noDiscountWhenStopped: true }),
  readings: [...externalAddProductsV1.readings, noDiscountWhenStoppedReading(2, SET_B.paymentExpired, 'Version 1')],
};

/** Version 3: the assignment of a review ends with the review. */
export const externalAddProductsV3: MachineDefinition = {
  ...externalAddProductsV2,
  version: 3,
  machine: externalAddProductsMachine({ noDiscountWhenStopped: true, releasesOnLeave: true }),
  readings: [...externalAddProductsV2.readings, RELEASES_ON_LEAVE_READING],
};
