import type { MachineDefinition } from './definition';
import { INTERNAL_READINGS, INTERNAL_READING_V2, internalRequestMachine } from './internal-request';
import { PLAN_DRAFT_READING } from './fragments/audit-cycle';
import { RELEASES_ON_LEAVE_READING } from './fragments/review-queue';

const OPTIONS = {
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
} as const;

export const internalCertificateV1: MachineDefinition = {
  kind: 'internalCertificate',
  version: 1,
  title: 'Internal facility Halal certificate',
  catalogue: 'Internal service full set (0 to 33)',
  requestTypes: [201, 1],
  machine: internalRequestMachine(OPTIONS),
  readings: [
    'Request type 201 and its other spelling 1 both start this machine.',
    'The draft, registration and returned codes 106, 204 and 205 of the same catalogue belong to the renewal (internal renewal machine); this one uses 0, 4 and 5.',
    ...INTERNAL_READINGS,
  ],
};

/** Version 2: only audit staff who may submit a plan take a plan to draft; no discount on a stopped request. */
export const internalCertificateV2: MachineDefinition = {
  ...internalCertificateV1,
  version: 2,
  machine: internalRequestMachine({ ...OPTIONS, plannersTakePlans: true, noDiscountWhenStopped: true }),
  readings: [...internalCertificateV1.readings, INTERNAL_READING_V2],
};

/** Version 3: a saved plan stays audit's draft until it is sent; the registration assignment ends with the review. */
export const internalCertificateV3: MachineDefinition = {
  ...internalCertificateV2,
  version: 3,
  machine: internalRequestMachine({ ...OPTIONS, plannersTakePlans: true, noDiscountWhenStopped: true, keepsPlanDraft: true, releasesOnLeave: true }),
  readings: [...internalCertificateV2.readings, PLAN_DRAFT_READING, RELEASES_ON_LEAVE_READING],
};
