import type { MachineDefinition } from './definition';
import { may } from './guards';
import { Permissions as P } from './permissions';
import { requestContext, requestSetup, type RequestStateConfig, type RequestTransitions } from './request-setup';
import { deletedState, draftState, withStaffNotes } from './fragments/common';
import { enterPayment, paymentStep } from './fragments/payment';
import { RELEASES_ON_LEAVE_READING, registrationStates, reviewQueueStates } from './fragments/review-queue';
import { noDiscountWhenStoppedReading } from './readings';

const policies = P.externalRequest;
const applicant = { request: policies.request, submit: policies.submit };

/** External facility request, set A (spec 02 section 4). */
export const SET_A = {
  draft: 100,
  newRequest: 101,
  pendingPayment: 102,
  feesPaid: 103,
  billExpired: 104,
  issued: 105,
  addProductsInProgress: 107,
  productsUpdated: 108,
  waitingInvoice: 128,
  invoicePending: 129,
  invoiceExpired: 130,
  addingCategories: 131,
  categoriesAdded: 132,
  underRegistrationReview: 204,
  returned: 205,
} as const;

const updateProducts = { type: 'effect.updateCertificateProducts' as const, params: {} };

/** From a certificate at rest the applicant may ask to add products or categories (one change at a time). */
const changeRequests: RequestTransitions = {
  ADD_PRODUCTS: {
    guard: may({ permission: policies.request, relation: 'applicant' }),
    target: '#productsReview',
    actions: 'recordRequestedProducts',
  },
  ADD_CATEGORIES: {
    guard: may({ permission: policies.request, relation: 'applicant' }),
    target: '#categoriesReview',
    actions: 'recordRequestedCategories',
  },
};

const resting = (status: number, description: string): RequestStateConfig => ({
  tags: ['final'],
  meta: { status, description },
  on: changeRequests,
});

/**
 * `noDiscountWhenStopped` (version 2): no GRANT_DISCOUNT in the stopped state (104); see withStaffNotes.
 * `releasesOnLeave` (version 3): see ReviewQueueOptions.releasesOnLeave.
 */
const externalCertificateMachine = (o: { noDiscountWhenStopped?: boolean; releasesOnLeave?: boolean } = {}) => requestSetup.createMachine({
  id: 'externalCertificate',
  context: ({ input }) => requestContext(input),
  initial: 'draft',
  states: withStaffNotes({
    draft: draftState({ code: SET_A.draft, applicant, submit: [{ target: '#registration' }] }),
    ...registrationStates({
      codes: { waiting: SET_A.newRequest, underReview: SET_A.underRegistrationReview, returned: SET_A.returned },
      policies,
      applicant,
      accept: enterPayment({ free: { target: '#feesPaid' }, paymentTarget: '#certificateFees' }),
      ...(o.releasesOnLeave ? { releasesOnLeave: true } : {}),
    }),
    ...paymentStep({
      pending: { name: 'certificateFees', code: SET_A.pendingPayment },
      expired: { name: 'billExpired', code: SET_A.billExpired, stopped: true },
      service: 7,
      feeKind: 'certificate',
      paid: { target: '#feesPaid' },
      cancel: { target: '#draft', actions: 'resetToDraft', kind: 'toDraft' },
      applicant,
      ids: true,
    }),
    feesPaid: {
      id: 'feesPaid',
      tags: ['payment'],
      meta: {
        status: SET_A.feesPaid,
        deadline: { after: 'immediately', event: 'ISSUE_CERTIFICATE' },
        description: 'Fees paid: the system issues the certificate at once.',
      },
      on: {
        ISSUE_CERTIFICATE: {
          guard: may({ relation: 'system' }),
          target: '#certified',
          actions: { type: 'effect.issueCertificate', params: { certificateKind: 'external' } },
        },
      },
    },
    certified: {
      id: 'certified',
      initial: 'issued',
      states: {
        issued: resting(SET_A.issued, 'Certificate issued; products or categories may be added.'),
        productsUpdated: resting(SET_A.productsUpdated, 'Products added to the certificate.'),
        categoriesAdded: resting(SET_A.categoriesAdded, 'Categories added to the certificate.'),
        ...reviewQueueStates({
          id: 'productsReview',
          tag: 'registration',
          codes: { waiting: SET_A.addProductsInProgress, underReview: SET_A.addProductsInProgress },
          queue: { review: policies.registrationReview, others: policies.registrationAssignToOthers },
          decide: policies.registrationReview,
          applicant,
          accept: enterPayment({
            free: { target: '#certified.productsUpdated', actions: updateProducts },
            paymentTarget: '#certified.waitingInvoice',
          }),
          returnTarget: { target: '#certified.issued' },
          waitingDescription: 'Products to add: waiting in the registration queue.',
          ...(o.releasesOnLeave ? { releasesOnLeave: true } : {}),
        }),
        ...paymentStep({
          invoiceWait: { name: 'waitingInvoice', code: SET_A.waitingInvoice },
          pending: { name: 'invoicePayment', code: SET_A.invoicePending },
          expired: { name: 'invoiceExpired', code: SET_A.invoiceExpired, stopped: false, on: changeRequests },
          service: 7,
          feeKind: 'addProducts',
          paid: { target: 'productsUpdated', actions: updateProducts },
          cancel: { target: 'issued', kind: 'withdraw' },
          applicant,
        }),
        ...reviewQueueStates({
          id: 'categoriesReview',
          tag: 'audit',
          codes: { waiting: SET_A.addingCategories, underReview: SET_A.addingCategories },
          queue: { review: [policies.auditSubmitPlan, policies.auditSubmitReport], others: policies.auditAssignToOthers },
          decide: policies.auditSubmitReport,
          applicant,
          accept: [
            { target: '#certified.categoriesAdded', actions: { type: 'effect.addCertificateCategories', params: {} } },
          ],
          returnTarget: { target: '#certified.issued' },
          waitingDescription: 'Categories to add: waiting in the audit queue.',
          ...(o.releasesOnLeave ? { releasesOnLeave: true } : {}),
        }),
      },
    },
    deleted: deletedState,
  }, P.portals.halalCenter, o.noDiscountWhenStopped ? { noDiscountWhenStopped: true } : {}),
});

export const externalCertificateV1: MachineDefinition = {
  kind: 'externalCertificate',
  version: 1,
  title: 'External facility Halal certificate',
  catalogue: 'External facility request, set A',
  requestTypes: [10],
  requestKind: 2,
  machine: externalCertificateMachine(),
  readings: [
    'Request type 10 (request kind 2, ExternalFacility) starts this machine. Set A is used for the certificate request itself and for the changes made on it after issue; set B belongs to the renewal, the standalone add-products request, the external Halal-mark request and the shipment.',
    'Flow: draft (100) -> new request in the registration queue (101) -> under registration review once assigned (204) -> accepted: pending payment of the certificate fees (102; bill service 7), or returned whole or by section with a note (205) -> paid (103) -> issued (105). "The certificate is issued immediately after payment": 103 declares an immediate deadline, so the system issues it at once and durably. An unpaid bill expires (104), a stopped state deleted after the retention period. Cancelling while awaiting payment returns the request to draft and cancels the bill.',
    'After issue the request stays open for changes to the certificate, one at a time: add products (107 in the registration queue; accepted -> 128 waiting for the month-end bulk invoice -> 129 pending payment -> 108 certificate products updated; an unpaid invoice expires to 130) and add categories (131 in the audit queue -> 132 categories added). A returned change goes back to 105 with its note; cancelling the invoice payment goes back to 105 and cancels the bill (the certificate, not a draft, is what the request returns to).',
    'The products an ADD_PRODUCTS asks for obey the rules of the wizard’s products section (the parsed ones are kept as `requestedProducts`); 108 adds them to the certificate this request issued, those it already lists are not added twice. ADD_CATEGORIES (`requestedCategories`) adds to that certificate’s categories at 132; earlier categories are never removed.',
    'The payment way (yearly or full) is chosen in the wizard (section `paymentWay`), not as a separate status.',
    'A 100% discount skips the payment states: acceptance goes straight to 103, an accepted product change straight to 108.',
  ],
};

/** Version 2: no discount on a stopped request (104). */
export const externalCertificateV2: MachineDefinition = {
  ...externalCertificateV1,
  version: 2,
  machine: externalCertificateMachine({ noDiscountWhenStopped: true }),
  readings: [...externalCertificateV1.readings, noDiscountWhenStoppedReading(2, SET_A.billExpired, 'Version 1')],
};

/** Version 3: the assignment of a review ends with the review. */
export const externalCertificateV3: MachineDefinition = {
  ...externalCertificateV2,
  version: 3,
  machine: externalCertificateMachine({ noDiscountWhenStopped: true, releasesOnLeave: true }),
  readings: [...externalCertificateV2.readings, RELEASES_ON_LEAVE_READING],
};
