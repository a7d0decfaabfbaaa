import { CB_ISSUED_ALIASES, CB_READINGS, CB_READINGS_V2, CB_READING_V3, cbRequestMachine } from './cb-request';
import type { MachineDefinition } from './definition';
import { PLAN_DRAFT_READING } from './fragments/audit-cycle';
import { RELEASES_ON_LEAVE_READING } from './fragments/review-queue';

export const cbRenewalV1: MachineDefinition = {
  kind: 'cbRenewal',
  version: 1,
  title: 'CB designation certificate renewal',
  catalogue: 'CB accreditation request statuses (1000 to 1007)',
  requestTypes: [2, 600, 'CbaRenewalRequest'],
  machine: cbRequestMachine({
    kind: 'cbRenewal',
    // Spec 02 section 1: "Certificate validity is 3 years on renewal."
    issueEffect: { type: 'effect.renewCertificate', params: { certificateKind: 'cbDesignation', validityMonths: 36 } },
  }),
  aliases: CB_ISSUED_ALIASES,
  readings: [
    'Request types 2, 600 and `CbaRenewalRequest` are three spellings of the CB renewal; all start this machine.',
    'The renewal follows the designation workflow; completion renews the existing certificate for 3 years (spec 02 section 1) instead of issuing a new one.',
    ...CB_READINGS,
  ],
};

/** Version 2: the renewal fee (payment service 5, shown including VAT) is billed when the committee approves. */
export const cbRenewalV2: MachineDefinition = {
  ...cbRenewalV1,
  version: 2,
  machine: cbRequestMachine({
    kind: 'cbRenewal',
    issueEffect: { type: 'effect.renewCertificate', params: { certificateKind: 'cbDesignation', validityMonths: 36 } },
    fees: { certificateFees: { service: 5, feeKind: 'renewal' } },
  }),
  readings: [
    'Request types 2, 600 and `CbaRenewalRequest` are three spellings of the CB renewal; all start this machine.',
    'The renewal follows the designation workflow; completion renews the existing certificate for 3 years (spec 02 section 1) instead of issuing a new one.',
    'The renewal fee (payment service 5) is billed when the committee approves and shown including VAT.',
    ...CB_READINGS_V2,
  ],
};

/** Version 3: only audit staff who may submit a plan take a plan to draft; no discount on a stopped request. */
export const cbRenewalV3: MachineDefinition = {
  ...cbRenewalV2,
  version: 3,
  machine: cbRequestMachine({
    kind: 'cbRenewal',
    issueEffect: { type: 'effect.renewCertificate', params: { certificateKind: 'cbDesignation', validityMonths: 36 } },
    fees: { certificateFees: { service: 5, feeKind: 'renewal' } },
    plannersTakePlans: true,
    noDiscountWhenStopped: true,
  }),
  readings: [...cbRenewalV2.readings, CB_READING_V3],
};

/** Version 4: a saved plan stays audit's draft until it is sent; the registration assignment ends with the review. */
export const cbRenewalV4: MachineDefinition = {
  ...cbRenewalV3,
  version: 4,
  machine: cbRequestMachine({
    kind: 'cbRenewal',
    issueEffect: { type: 'effect.renewCertificate', params: { certificateKind: 'cbDesignation', validityMonths: 36 } },
    fees: { certificateFees: { service: 5, feeKind: 'renewal' } },
    plannersTakePlans: true,
    noDiscountWhenStopped: true,
    keepsPlanDraft: true,
    releasesOnLeave: true,
  }),
  readings: [...cbRenewalV3.readings, PLAN_DRAFT_READING, RELEASES_ON_LEAVE_READING],
};
