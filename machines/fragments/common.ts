import { may, type MayParams } from '../guards';
import { Permissions as P } from '../permissions';
import type { Permissions } from '../permissions';
import type { RequestStateConfig, RequestTransitions } from '../request-setup';

/** The review-cycle policies of one request service (same shape for CB, internal and external services). */
export type ServicePolicies = { [K in keyof typeof Permissions.internalRequest]: string };

/** What the applicant needs: `request` to edit, delete and answer; `submit` to submit. */
export interface ApplicantPolicies {
  request: string;
  submit: string;
}

/** Status code of the tombstone state a deleted draft ends in (the spec deletes the row; we keep its history). */
export const DELETED_STATUS = -1;

/** A transition branch: an optional routing condition, a target, and the actions to run. */
export interface Branch {
  when?: MayParams['when'];
  target: string;
  actions?: RequestTransitionActions;
  reenter?: boolean;
}
type RequestTransitionActions = Extract<RequestTransitions[keyof RequestTransitions], { actions?: unknown }>['actions'];

/** Guarded branches of one event: same permission and relation, routed by `when`, first match wins. */
export function branches(guard: Omit<MayParams, 'when'>, list: readonly Branch[]) {
  return list.map((b) => ({
    guard: may({ ...guard, ...(b.when ? { when: b.when } : {}) }),
    target: b.target,
    ...(b.actions ? { actions: b.actions } : {}),
    ...(b.reenter ? { reenter: true } : {}),
  }));
}

/** DELETE (applicant, confirmed) and DRAFT_EXPIRED (retention deadline) both end in the `deleted` tombstone. */
export function deletionHandlers(applicant: ApplicantPolicies): RequestTransitions {
  return {
    DELETE: {
      guard: may({ permission: applicant.request, relation: 'applicant' }),
      target: '#deleted',
      actions: { type: 'effect.deleteDraft', params: { reason: 'applicant' } },
    },
    DRAFT_EXPIRED: {
      guard: may({ relation: 'system' }),
      target: '#deleted',
      actions: { type: 'effect.deleteDraft', params: { reason: 'retention' } },
    },
  };
}

/** A draft: the applicant edits any section, submits, or deletes it; it is deleted after the retention period. */
export function draftState(o: {
  code: number;
  applicant: ApplicantPolicies;
  submit: readonly Branch[];
  description?: string;
}): RequestStateConfig {
  return {
    id: 'draft',
    tags: ['applicant'],
    meta: {
      status: o.code,
      deadline: { after: 'draftRetention', event: 'DRAFT_EXPIRED' },
      description: o.description ?? 'Draft: the applicant edits, submits or deletes it.',
    },
    on: {
      EDIT: { guard: may({ permission: o.applicant.request, relation: 'applicant' }), actions: 'mergeData' },
      SUBMIT: branches({ permission: o.applicant.submit, relation: 'applicant' }, o.submit),
      ...deletionHandlers(o.applicant),
    },
  };
}

/** A stopped request (payment expired): nothing moves it on; it is deleted now or after the retention period. */
export function stoppedState(code: number, applicant: ApplicantPolicies, description: string): RequestStateConfig {
  return {
    tags: ['applicant'],
    meta: { status: code, deadline: { after: 'draftRetention', event: 'DRAFT_EXPIRED' }, description },
    on: deletionHandlers(applicant),
  };
}

/** The final tombstone of a deleted draft or stopped request. */
export const deletedState: RequestStateConfig = {
  id: 'deleted',
  type: 'final',
  tags: ['final'],
  meta: { status: DELETED_STATUS, description: 'Deleted by the applicant or after the retention period.' },
};

/**
 * What Halal-center staff may do in any resting state of a submitted request, besides its own events:
 * - ADD_NOTE: recorded in the history (the count in the context makes the accepted event visible in the snapshot);
 * - GRANT_DISCOUNT (PaymentManagement.GrantDiscount, reason required): later bills are reduced, and 100 % makes the
 *   rest of the request free of charge (payment states declare their own GRANT_DISCOUNT, which waives the open bill).
 * Not in a draft that was never submitted (staff do not act on an applicant's unsent draft), not in final states.
 * Added to each resting state rather than to the root, because xstate still runs root transitions on a finished snapshot.
 * `noDiscountWhenStopped`: not GRANT_DISCOUNT in a stopped request (its only events DELETE and DRAFT_EXPIRED): nothing
 * bills it again, so a discount there changes nothing (machines recorded before this option offer it).
 */
export function withStaffNotes<T extends Record<string, RequestStateConfig>>(
  states: T,
  staffPermission: string,
  o: { noDiscountWhenStopped?: boolean } = {},
): T {
  const note = { guard: may({ permission: staffPermission }), actions: 'countNote' as const };
  const discount = { guard: may({ permission: P.payments.grantDiscount }), actions: 'grantDiscount' as const };
  const visit = (config: RequestStateConfig): RequestStateConfig => {
    if (config.states) {
      const children = Object.fromEntries(Object.entries(config.states).map(([k, v]) => [k, visit(v as RequestStateConfig)]));
      return { ...config, states: children };
    }
    if (config.type === 'final' || config.id === 'draft') return config;
    const on = { ...(config.on ?? {}) } as Record<string, unknown>;
    on.ADD_NOTE = on.ADD_NOTE ? [...[on.ADD_NOTE].flat(), note] : note;
    const tags = [config.tags ?? []].flat();
    const stopped = o.noDiscountWhenStopped === true && Object.keys(config.on ?? {}).every((e) => e === 'DELETE' || e === 'DRAFT_EXPIRED');
    if (!on.GRANT_DISCOUNT && !stopped && !tags.includes('payment') && !tags.includes('final')) on.GRANT_DISCOUNT = discount;
    return { ...config, on: on as RequestStateConfig['on'] };
  };
  return Object.fromEntries(Object.entries(states).map(([k, v]) => [k, visit(v)])) as T;
}
