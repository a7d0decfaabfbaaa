import type { MachineDefinition } from './definition';
import { may } from './guards';
import { Permissions as P } from './permissions';
import { requestContext, requestSetup } from './request-setup';
import { CB_CODES, CB_ISSUED_ALIASES } from './cb-request';
import { deletedState, draftState, withStaffNotes } from './fragments/common';
import { RELEASES_ON_LEAVE_READING, reviewQueueStates } from './fragments/review-queue';

const policies = P.cbAccreditation;
const applicant = { request: policies.request, submit: policies.submit };

/**
 * Add categories to a CB certificate in three steps: submit, audit review, certificate issue (spec 02 section 4).
 * `releasesOnLeave` (version 2): see ReviewQueueOptions.releasesOnLeave.
 */
const cbAddCategoriesMachine = (o: { releasesOnLeave?: boolean } = {}) => requestSetup.createMachine({
  id: 'cbAddCategories',
  context: ({ input }) => requestContext(input),
  initial: 'draft',
  states: withStaffNotes({
    draft: draftState({ code: CB_CODES.draft, applicant, submit: [{ target: '#auditReview' }] }),
    ...reviewQueueStates({
      id: 'auditReview',
      tag: 'audit',
      codes: { waiting: CB_CODES.newRequest, underReview: CB_CODES.newRequest, returned: CB_CODES.draft },
      queue: { review: [policies.auditSubmitPlan, policies.auditSubmitReport], others: policies.auditAssignToOthers },
      decide: policies.auditSubmitReport,
      applicant,
      accept: [{ target: '#waitingIssue' }],
      waitingDescription: 'Submitted: waiting in the audit queue.',
      ...(o.releasesOnLeave ? { releasesOnLeave: true } : {}),
    }),
    waitingIssue: {
      id: 'waitingIssue',
      tags: ['committee'],
      meta: { status: CB_CODES.waitingIssue, description: 'Audit accepted the categories: the certificate is re-issued.' },
      on: {
        ISSUE_CERTIFICATE: {
          guard: may({ permission: policies.committeeReview }),
          target: 'issued',
          actions: { type: 'effect.addCertificateCategories', params: {} },
        },
      },
    },
    issued: {
      type: 'final',
      tags: ['final'],
      meta: { status: CB_CODES.issued, description: 'Categories added to the certificate.' },
    },
    deleted: deletedState,
  }, P.portals.halalCenter),
});

/**
 * The three steps of spec 02 section 4 in order, with the top-level states each covers: a request returned to the CB
 * is still in audit review (it goes back to the auditors when resubmitted), and a deleted draft never left the first
 * step. Every top-level state is in one step (tests/machines/cb-add-categories-steps.test.ts).
 */
export const CB_ADD_CATEGORIES_STEPS = [
  { key: 'submit', states: ['draft', 'deleted'] },
  { key: 'auditReview', states: ['auditReview', 'returned'] },
  { key: 'issue', states: ['waitingIssue', 'issued'] },
] as const;
export type CbAddCategoriesStepKey = (typeof CB_ADD_CATEGORIES_STEPS)[number]['key'];

export interface CbAddCategoriesStep {
  key: CbAddCategoriesStepKey;
  /** From 0. */
  index: number;
  count: number;
}

/**
 * Where a request in `stateValue` (e.g. `auditReview.underReview`) is among the three steps, or null for a state in
 * none of them: never some step it is not. The CB's list shows such a row without a step (and logs it) rather than
 * failing the whole list.
 */
export function findCbAddCategoriesStep(stateValue: string): CbAddCategoriesStep | null {
  const top = stateValue.split('.')[0]!;
  const index = CB_ADD_CATEGORIES_STEPS.findIndex((s) => (s.states as readonly string[]).includes(top));
  return index < 0 ? null : { key: CB_ADD_CATEGORIES_STEPS[index]!.key, index, count: CB_ADD_CATEGORIES_STEPS.length };
}

export const cbAddCategoriesV1: MachineDefinition = {
  kind: 'cbAddCategories',
  version: 1,
  title: 'Add categories to a CB certificate',
  catalogue: 'CB accreditation request statuses (1000 to 1007)',
  requestTypes: [300],
  machine: cbAddCategoriesMachine(),
  aliases: CB_ISSUED_ALIASES,
  readings: [
    'The three steps of spec 02 section 4 ("request, audit review, certificate issuance") are draft/submit (1000), audit review (1001, audit queue with assignment) and waiting certificate issue (1002); the certificate with the added categories is issued by a decision-committee member (1003).',
    'Audit may return the request with a required note (whole or by section); it shows 1000 again and the applicant edits the returned sections and resubmits. There is no rejection in the three steps.',
    'Categories added earlier cannot be removed and, once the request is completed, cannot be edited or deleted: the issued state is final. The prerequisite check (ValidateRequestPrerequisites) belongs to the server.',
  ],
};

/** Version 2: the audit review's assignment ends with the review. */
export const cbAddCategoriesV2: MachineDefinition = {
  ...cbAddCategoriesV1,
  version: 2,
  machine: cbAddCategoriesMachine({ releasesOnLeave: true }),
  readings: [...cbAddCategoriesV1.readings, RELEASES_ON_LEAVE_READING],
};
