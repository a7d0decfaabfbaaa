import type { MachineDefinition } from './definition';
import { INTERNAL_READINGS, internalRequestMachine } from './internal-request';

export const internalCertificateV1: MachineDefinition = {
  kind: 'internalCertificate',
  version: 1,
  title: 'Internal facility Halal certificate',
  catalogue: 'Internal service full set (0 to 33)',
  requestTypes: [201, 1],
  machine: internalRequestMachine({
    kind: 'internalCertificate',
    codes: {
      draft: 0,
      newRequest: 1,
      applicationFee: 2,
      applicationFeeExpired: 3,
      underRegistrationReview: 4,
      returned: 5,
      rejected: 15,
      completed: 25,
    },
    certificateFeeKind: 'certificate',
    issueEffect: { type: 'effect.issueCertificate', params: { certificateKind: 'internal' } },
  }),
  readings: [
    'Request type 201 and its other spelling 1 both start this machine.',
    'The draft, registration and returned codes 106, 204 and 205 of the same catalogue belong to the renewal (internal renewal machine); this one uses 0, 4 and 5.',
    ...INTERNAL_READINGS,
  ],
};
