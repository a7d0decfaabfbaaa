import type { BaseContext, MachineEvent, RequestContext } from './types';

/**
 * Routing conditions a transition may add to its guard (`when`). They choose between targets; they never grant
 * anything. `reads: 'context'` conditions are evaluated by allowedActions as they are; `reads: 'event'` ones depend
 * on the payload, so allowedActions treats them as satisfiable and the engine's transition decides with the payload.
 */
interface Condition {
  reads: 'context' | 'event';
  description: string;
  test(context: BaseContext, event: MachineEvent | undefined): boolean;
}

const req = (c: BaseContext) => c as RequestContext;

interface Decision {
  nonConformityId: string;
  accepted: boolean;
}

const decisionsOf = (e: MachineEvent | undefined): Decision[] =>
  Array.isArray(e?.decisions) ? (e.decisions as Decision[]) : [];

export const CONDITIONS = {
  discountFull: {
    reads: 'context',
    description: 'the request has a 100% discount (no bill)',
    test: (c) => req(c).discountPercent >= 100,
  },
  nothingPaid: {
    reads: 'context',
    description: 'no fee of the request has been paid yet (after a payment it can no longer be cancelled back to draft)',
    test: (c) => req(c).paidFees === 0,
  },
  grantsFullDiscount: {
    reads: 'event',
    description: 'the discount granted is 100% (the request becomes free of charge)',
    test: (_c, e) => Number(e?.percent) >= 100,
  },
  round2: {
    reads: 'context',
    description: 'the decision committee has returned the request to audit before',
    test: (c) => req(c).round === 2,
  },
  returnedByAudit: {
    reads: 'context',
    description: 'audit returned the request to registration',
    test: (c) => req(c).returnedByAudit,
  },
  editsReturnedSections: {
    reads: 'event',
    description: 'the edit touches only the sections registration returned (any section when the whole request was)',
    test: (c, e) => {
      const returned = req(c).returnedSections;
      const touched = Object.keys((e?.data as Record<string, unknown> | undefined) ?? {});
      return returned.length === 0 || touched.every((s) => returned.includes(s));
    },
  },
  compliant: {
    reads: 'event',
    description: 'the audit result is compliant',
    test: (_c, e) => e?.compliant === true,
  },
  nonCompliant: {
    reads: 'event',
    description: 'the audit result lists non-conformities',
    test: (_c, e) => e?.compliant === false,
  },
  allCorrectiveActionsAccepted: {
    reads: 'event',
    description: 'every open non-conformity has an accepted corrective action',
    test: (c, e) => {
      const decisions = decisionsOf(e);
      const accepted = new Set(decisions.filter((d) => d.accepted).map((d) => d.nonConformityId));
      return decisions.every((d) => d.accepted) && req(c).openNonConformities.every((id) => accepted.has(id));
    },
  },
  someCorrectiveActionsRejected: {
    reads: 'event',
    description: 'at least one corrective action is rejected (with a reason)',
    test: (c, e) => {
      const open = req(c).openNonConformities;
      return decisionsOf(e).some((d) => !d.accepted && open.includes(d.nonConformityId));
    },
  },
} satisfies Record<string, Condition>;

export type ConditionName = keyof typeof CONDITIONS;

export function testCondition(name: ConditionName, context: BaseContext, event: MachineEvent | undefined): boolean {
  return (CONDITIONS[name] as Condition).test(context, event);
}

export const conditionReadsEvent = (name: ConditionName) => CONDITIONS[name].reads === 'event';
