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
 * (the assignee, or a holder of AssignToOthers). `onAssign`/`onCancel` move between the queue's waiting and
 * under-review states where the catalogue has both; without them the assignment only changes the context.
 */
export function assignmentHandlers(p: QueuePolicies, moves: { onAssign?: string; onCancel?: string } = {}): RequestTransitions {
  const to = (target: string | undefined) => (target ? { target } : {});
  return {
    ASSIGN_TO_ME: { guard: may({ permission: p.review, relation: 'unassigned' }), ...to(moves.onAssign), actions: 'assignToActor' },
    ASSIGN_TO_EMPLOYEE: { guard: may({ permission: p.others }), ...to(moves.onAssign), actions: 'assignToEmployee' },
    CANCEL_ASSIGNMENT: [
      { guard: may({ permission: p.review, relation: 'assignee' }), ...to(moves.onCancel), actions: 'clearAssignee' },
      { guard: may({ permission: p.others, relation: 'assigned' }), ...to(moves.onCancel), actions: 'clearAssignee' },
    ],
  };
}
