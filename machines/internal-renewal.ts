import type { MachineDefinition } from './definition';
import { INTERNAL_READINGS, INTERNAL_READING_V2, internalRequestMachine } from './internal-request';
import { PLAN_DRAFT_READING } from './fragments/audit-cycle';
import { RELEASES_ON_LEAVE_READING } from './fragments/review-queue';

const OPTIONS = {
  kind: 'internalRenewal',
  codes: {
    draft: 106,
    newRequest: 1,
    applicationFee: 2,
    applicationFeeExpired: 3,
    underRegistrationReview: 204,
    returned: 205,
    rejected: 15,
    completed: 25,
  },
  certificateFeeKind: 'renewal',
  issueEffect: { type: 'effect.renewCertificate', params: { certificateKind: 'internal' } },
} as const;

export const internalRenewalV1: MachineDefinition = {
  kind: 'internalRenewal',
  version: 1,
  title: 'Internal facility Halal certificate renewal',
  catalogue: 'Internal service full set (0 to 33)',
  requestTypes: [202],
  machine: internalRequestMachine(OPTIONS),
  readings: [
    'The catalogue gives two codes for draft (0 and 106), registration review (4 and 204) and returned (5 and 205) without saying which request uses which; the renewal uses 106, 204 and 205 so that lists can tell a renewal from a first certificate by status alone. Every other code is shared with the internal certificate.',
    'A renewal follows the same workflow (spec 02 section 4: "a renewal rejection is also possible"); its certificate fee bill has fee kind `renewal` and completion renews the existing certificate (effect.renewCertificate) instead of issuing a new one.',
    ...INTERNAL_READINGS,
  ],
};

/** Version 2: only audit staff who may submit a plan take a plan to draft; no discount on a stopped request. */
export const internalRenewalV2: MachineDefinition = {
  ...internalRenewalV1,
  version: 2,
  machine: internalRequestMachine({ ...OPTIONS, plannersTakePlans: true, noDiscountWhenStopped: true }),
  readings: [...internalRenewalV1.readings, INTERNAL_READING_V2],
};

/** Version 3: a saved plan stays audit's draft until it is sent; the registration assignment ends with the review. */
export const internalRenewalV3: MachineDefinition = {
  ...internalRenewalV2,
  version: 3,
  machine: internalRequestMachine({ ...OPTIONS, plannersTakePlans: true, noDiscountWhenStopped: true, keepsPlanDraft: true, releasesOnLeave: true }),
  readings: [...internalRenewalV2.readings, PLAN_DRAFT_READING, RELEASES_ON_LEAVE_READING],
};
