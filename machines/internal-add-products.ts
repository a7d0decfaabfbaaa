import type { MachineDefinition } from './definition';
import { Permissions as P } from './permissions';
import { SIMPLE_CODES, SIMPLE_READINGS, simpleRequestMachine } from './simple-request';
import { noDiscountWhenStoppedReading } from './readings';

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

/** Version 2: no discount on a stopped request (1003). */
export const internalAddProductsV2: MachineDefinition = {
  ...internalAddProductsV1,
  version: 2,
  machine: simpleRequestMachine({ ...OPTIONS, noDiscountWhenStopped: true }),
  readings: [...internalAddProductsV1.readings, noDiscountWhenStoppedReading(2, SIMPLE_CODES.expired, 'Version 1')],
};
