import { may } from '../guards';
import type { RequestTransitions } from '../request-setup';

/** Who works a queue: `review` may take it (assign to self) and act; `others` may assign anyone or take it back. */
export interface QueuePolicies {
  review: string | readonly string[];
  others: string;
}

/**
 * Review assignment handlers of a staff queue state (spec 02 section 4 step 7): assign to me while unassigned,
 * assign to an employee (also how an assignment is edited; needs the queue's AssignToOthers), cancel the assignment
 * (the assignee, or a holder of AssignToOthers). Where the catalogue has separate waiting and under-review codes,
 * the waiting state gets the assign events (`onAssign`: to under review) and the under-review state gets edit and
 * cancel (`onCancel`: back to waiting); elsewhere the assignment only changes the context.
 */
export function assignmentHandlers(p: QueuePolicies, moves: { onAssign?: string; onCancel?: string } = {}): RequestTransitions {
  const to = (target: string | undefined) => (target ? { target } : {});
  const assignToMe = { guard: may({ permission: p.review, relation: 'unassigned' }), ...to(moves.onAssign), actions: 'assignToActor' as const };
  const assignToEmployee = { guard: may({ permission: p.others }), ...to(moves.onAssign), actions: 'assignToEmployee' as const };
  const cancel = [
    { guard: may({ permission: p.review, relation: 'assignee' }), ...to(moves.onCancel), actions: 'clearAssignee' as const },
    { guard: may({ permission: p.others, relation: 'assigned' }), ...to(moves.onCancel), actions: 'clearAssignee' as const },
  ];
  if (moves.onAssign) return { ASSIGN_TO_ME: assignToMe, ASSIGN_TO_EMPLOYEE: assignToEmployee };
  if (moves.onCancel) return { ASSIGN_TO_EMPLOYEE: { ...assignToEmployee }, CANCEL_ASSIGNMENT: cancel };
  return { ASSIGN_TO_ME: assignToMe, ASSIGN_TO_EMPLOYEE: assignToEmployee, CANCEL_ASSIGNMENT: cancel };
}
