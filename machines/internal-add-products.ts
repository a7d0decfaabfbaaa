import type { MachineDefinition } from './definition';
import { Permissions as P } from './permissions';
import { SIMPLE_CODES, SIMPLE_READINGS, simpleRequestMachine } from './simple-request';
import { noDiscountWhenStoppedReading } from './readings';
import { RELEASES_ON_LEAVE_READING } from './fragments/review-queue';

const policies = P.internalRequest;

const OPTIONS = {
  kind: 'internalAddProducts',
  applicant: { request: policies.request, submit: policies.submit },
  review: policies,
  service: 6,
  feeKind: 'addProducts',
  issue: { guard: { permission: policies.committeeReview }, effect: { type: 'effect.updateCertificateProducts', params: {} } },
} as const;

export const internalAddProductsV1: MachineDefinition = {
  kind: 'internalAddProducts',
  version: 1,
  title: 'Add products to an internal facility certificate',
  catalogue: 'Internal facility request (simple set 1001 to 1005)',
  machine: simpleRequestMachine(OPTIONS),
  readings: [
    ...SIMPLE_READINGS,
    'Products added to a certificate are checked by the registration department first (assignment, accept, or return with a note; a returned request shows 1001 again); the simple set has no review code, so the review also shows 1001. Products already on the certificate are excluded by the server before submission.',
    'The updated certificate is issued by a decision-committee member (1004 -> 1005), as for the full set.',
  ],
};

/**
 * Version 2: the draft shows the internal service's draft code 0, "Draft" (spec 02 section 4, internal full set "0 and
 * 106 Draft"), as every other service's draft reads, instead of 1001 "New": the simple set has no draft code, and its
 * 1001 "new request" is the request submitted and under registration review (returned to the applicant, it shows 1001
 * again). Cancelling a bill awaiting payment brings it back to 0. And no discount on a stopped request (1003).
 * Requests started on version 1 keep 1001 in their draft and the discount offer.
 */
export const internalAddProductsV2: MachineDefinition = {
  ...internalAddProductsV1,
  version: 2,
  catalogue: 'Internal facility request (simple set 1001 to 1005; the draft 0 of the internal full set)',
  machine: simpleRequestMachine({ ...OPTIONS, draftCode: 0, noDiscountWhenStopped: true }),
  readings: [
    '0 "Draft" is the request the applicant is preparing (edited, submitted or deleted, and deleted automatically after the draft retention period): the simple set has no draft code, so the internal service\'s draft code (full set, "0 and 106 Draft") is used, as every other service\'s draft reads "Draft". 1001 "New" is the submitted request.',
    ...SIMPLE_READINGS.slice(1),
    ...internalAddProductsV1.readings.slice(SIMPLE_READINGS.length),
    noDiscountWhenStoppedReading(2, SIMPLE_CODES.expired, 'Version 1'),
  ],
};

/** Version 3: the registration assignment ends with the review. */
export const internalAddProductsV3: MachineDefinition = {
  ...internalAddProductsV2,
  version: 3,
  machine: simpleRequestMachine({ ...OPTIONS, draftCode: 0, noDiscountWhenStopped: true, releasesOnLeave: true }),
  readings: [...internalAddProductsV2.readings, RELEASES_ON_LEAVE_READING],
};
