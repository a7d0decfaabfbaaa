// Imports nothing: the pure step (bundled into Temporal workflows) reads it as the store does.
/**
 * Events recorded in a request's history that are not events of its machine: they change neither its state nor its
 * version, and a replay skips them. PAYMENT_REFUSED: the payment portal confirmed a payment the request no longer
 * waited for (it moved on, or its bill had expired); staff must refund it. REFUND_RECORDED: staff recorded that refund
 * as made (its reference and day), on the bill and on each request it paid. ASSIGNMENT_RELEASE_FAILED: the request's
 * assignee was locked but the release of the assignment (server/modules/admin/release-assignments.ts) was refused or
 * failed; the request stays assigned to them until staff release it (or the user is locked again).
 */
export const ANNOTATION_EVENTS = ['PAYMENT_REFUSED', 'REFUND_RECORDED', 'ASSIGNMENT_RELEASE_FAILED'] as const;
export type AnnotationEvent = (typeof ANNOTATION_EVENTS)[number];
