import { CB_ISSUED_ALIASES, CB_READINGS, CB_READINGS_V2, CB_READING_V3, cbRequestMachine } from './cb-request';
import type { MachineDefinition } from './definition';
import { PLAN_DRAFT_READING } from './fragments/audit-cycle';
import { RELEASES_ON_LEAVE_READING } from './fragments/review-queue';

export const cbDesignationV1: MachineDefinition = {
  kind: 'cbDesignation',
  version: 1,
  title: 'CB designation certificate',
  catalogue: 'CB accreditation request statuses (1000 to 1007)',
  requestTypes: [0],
  machine: cbRequestMachine({
    kind: 'cbDesignation',
    issueEffect: { type: 'effect.issueCertificate', params: { certificateKind: 'cbDesignation' } },
  }),
  aliases: CB_ISSUED_ALIASES,
  readings: [...CB_READINGS],
};

/** Version 2: the appointment request (service 1) is billed when the plan is accepted, the appointment (service 5) at approval. */
export const cbDesignationV2: MachineDefinition = {
  ...cbDesignationV1,
  version: 2,
  machine: cbRequestMachine({
    kind: 'cbDesignation',
    issueEffect: { type: 'effect.issueCertificate', params: { certificateKind: 'cbDesignation' } },
    fees: { auditFees: { service: 1 }, certificateFees: { service: 5, feeKind: 'certificate' } },
  }),
  readings: [
    ...CB_READINGS_V2,
    'The appointment request (payment service 1) is billed when the applicant accepts the audit plan, the appointment (service 5) when the committee approves; both are shown excluding VAT.',
  ],
};

/** Version 3: only audit staff who may submit a plan take a plan to draft; no discount on a stopped request. */
export const cbDesignationV3: MachineDefinition = {
  ...cbDesignationV2,
  version: 3,
  machine: cbRequestMachine({
    kind: 'cbDesignation',
    issueEffect: { type: 'effect.issueCertificate', params: { certificateKind: 'cbDesignation' } },
    fees: { auditFees: { service: 1 }, certificateFees: { service: 5, feeKind: 'certificate' } },
    plannersTakePlans: true,
    noDiscountWhenStopped: true,
  }),
  readings: [...cbDesignationV2.readings, CB_READING_V3],
};

/** Version 4: a saved plan stays audit's draft until it is sent; the registration assignment ends with the review. */
export const cbDesignationV4: MachineDefinition = {
  ...cbDesignationV3,
  version: 4,
  machine: cbRequestMachine({
    kind: 'cbDesignation',
    issueEffect: { type: 'effect.issueCertificate', params: { certificateKind: 'cbDesignation' } },
    fees: { auditFees: { service: 1 }, certificateFees: { service: 5, feeKind: 'certificate' } },
    plannersTakePlans: true,
    noDiscountWhenStopped: true,
    keepsPlanDraft: true,
    releasesOnLeave: true,
  }),
  readings: [...cbDesignationV3.readings, PLAN_DRAFT_READING, RELEASES_ON_LEAVE_READING],
};
