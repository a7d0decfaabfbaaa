import { may } from '../guards';
import type { RequestStates, RequestStateConfig } from '../request-setup';
import type { Queue } from '../types';
import { assignmentHandlers, type QueuePolicies } from './assignment';
import { branches, deletionHandlers, type ApplicantPolicies, type Branch, type ServicePolicies } from './common';

/** The reading of the versions whose assignment ends with the review (ReviewQueueOptions.releasesOnLeave). */
export const RELEASES_ON_LEAVE_READING =
  'The assignment of a review ends when the review does: a request the department accepted, returned, or that audit took back has no assignee until someone takes it in the next queue. The assignee is who works on the request now (staff dashboard counts, "mine" tabs). Earlier versions kept the registration employee on a returned request, or on one awaiting payment, until the next queue took it.';

export interface ReviewQueueOptions {
  /** State ids: the queue (waiting, underReview) and the returned state. */
  id: string;
  returnedId?: string;
  tag: Extract<Queue, 'registration' | 'audit'>;
  codes: { waiting: number; underReview: number; returned?: number };
  queue: QueuePolicies;
  /** Permission to ACCEPT or RETURN (as reviewer: the assignee, or anyone while unassigned). */
  decide: string;
  applicant: ApplicantPolicies;
  /** Where ACCEPT leads (routed by round or discount). */
  accept: readonly Branch[];
  /** Where RETURN leads when there is no returned state (a change request dropped back to the certificate). */
  returnTarget?: Branch;
  /** Where ADD_NOTE by audit leads when audit had returned the request (absent: audit never returns here). */
  auditTakesBack?: { permission: readonly string[]; to: readonly Branch[] };
  /** The returned request is a draft again (catalogues without a "returned" code): it may be deleted. */
  returnedIsDraft?: boolean;
  waitingDescription?: string;
  /**
   * Leaving the review (accepted, returned, taken back by audit) ends the assignment: the assignee is who works on the
   * request now, not who last reviewed it. Versions recorded before this option kept the reviewer on a returned or
   * awaiting-payment request.
   */
  releasesOnLeave?: boolean;
}

/**
 * A department's review of a submitted request (spec 02 section 4 steps 1-2 and 7): it waits unassigned, is taken
 * (assigned to me or to an employee), then accepted, or returned whole or by section with a required note. The
 * applicant edits only the returned sections and resubmits to the same queue.
 */
export function reviewQueueStates(o: ReviewQueueOptions): RequestStates {
  const returnedId = o.returnedId ?? 'returned';
  const reviewer = { permission: o.decide, relation: 'reviewer' } as const;
  const takeBack = o.auditTakesBack
    ? {
        ADD_NOTE: branches(
          { permission: o.auditTakesBack.permission },
          o.auditTakesBack.to.map((b) => ({
            ...b,
            when: ['returnedByAudit' as const, ...[b.when ?? []].flat()],
            actions: ['clearReturnedByAudit' as const, ...[b.actions ?? []].flat()],
          })),
        ),
      }
    : {};
  const states: RequestStates = {
    [o.id]: {
      id: o.id,
      initial: 'waiting',
      entry: 'clearAssignee',
      ...(o.releasesOnLeave ? { exit: 'clearAssignee' as const } : {}),
      states: {
        waiting: {
          tags: [o.tag],
          meta: { status: o.codes.waiting, description: o.waitingDescription ?? `Waiting unassigned in the ${o.tag} queue.` },
          on: { ...assignmentHandlers(o.queue, { onAssign: 'underReview' }), ...takeBack },
        },
        underReview: {
          tags: [o.tag],
          meta: { status: o.codes.underReview, description: `Under review by the assigned ${o.tag} employee.` },
          on: {
            ...assignmentHandlers(o.queue, { onCancel: 'waiting' }),
            ...takeBack,
            ACCEPT: branches(
              reviewer,
              o.accept.map((b) => ({ ...b, actions: ['clearReturnedByAudit' as const, ...[b.actions ?? []].flat()] })),
            ),
            RETURN: o.returnTarget
              ? branches(reviewer, [o.returnTarget])
              : {
                  guard: may(reviewer),
                  target: `#${returnedId}`,
                  actions: ['recordReturnedSections', 'clearReturnedByAudit'],
                },
          },
        },
      },
    },
  };
  if (!o.returnTarget) states[returnedId] = returnedState(o, returnedId);
  return states;
}

function returnedState(o: ReviewQueueOptions, id: string): RequestStateConfig {
  if (o.codes.returned === undefined) throw new Error(`review queue ${o.id}: a returned state needs a code`);
  return {
    id,
    tags: ['applicant'],
    meta: {
      status: o.codes.returned,
      ...(o.returnedIsDraft ? { deadline: { after: 'draftRetention' as const, event: 'DRAFT_EXPIRED' as const } } : {}),
      description: 'Returned: the applicant edits the returned sections and resubmits.',
    },
    on: {
      EDIT: {
        guard: may({ permission: o.applicant.request, relation: 'applicant', when: 'editsReturnedSections' }),
        actions: 'mergeData',
      },
      RESUBMIT: {
        guard: may({ permission: o.applicant.submit, relation: 'applicant' }),
        target: `#${o.id}`,
        actions: 'clearReturnedSections',
      },
      ...(o.returnedIsDraft ? deletionHandlers(o.applicant) : {}),
    },
  };
}

/** The registration department's queue of a service (ids `registration` and `returned`). */
export function registrationStates(
  o: Omit<ReviewQueueOptions, 'id' | 'tag' | 'queue' | 'decide'> & { policies: ServicePolicies },
): RequestStates {
  const p = o.policies;
  return reviewQueueStates({
    ...o,
    id: 'registration',
    tag: 'registration',
    queue: { review: p.registrationReview, others: p.registrationAssignToOthers },
    decide: p.registrationReview,
    waitingDescription: o.waitingDescription ?? 'Submitted: waiting unassigned in the registration department’s queue.',
  });
}
