/** Readings of the spec shared by every lifecycle; printed in docs/machines/README.md. */
export const GENERAL_READINGS = [
  'Every resting state carries its numeric status (`meta.status`) and one queue tag (registration, audit, committee, applicant, payment, final); labels are in locales/<lang>/status.json under `<kind>.<code>`.',
  'Guards check the spec’s policy names (machines/permissions.ts) and the actor’s relation to the request: facility membership for applicant events, the assignee once a review is assigned, the system actor for payment callbacks and deadlines. Staff never send applicant events and people never send system events.',
  'Deadlines are explicit events declared in state meta and fired by the engine’s durable timers, never XState `after`: durations come from configuration (PAYMENT_WINDOW_HOURS, DRAFT_RETENTION_DAYS), dates from the context (certificate and mark expiry) or the calendar (month-end invoices), and steps the system performs at once use an immediate deadline so they are durable and in the history.',
  'A deleted draft or stopped request ("drafts and stopped requests are deleted automatically", "deleting ... deletes the draft") ends in a final tombstone state with code -1 (not in the spec): the engine hides the request (effect.deleteDraft) and its history stays verifiable. Stopped requests are those whose bill expired.',
  'Any Halal-center employee may add a note to an open request (ADD_NOTE): it is recorded in the history and changes nothing else, except the take-back by audit described in the request machines.',
  'Payment states create their bill on entry (effect.createBill) and close it on every way out (markBillPaid, expireBill, cancelBill), in the same transaction as the event; a 100% discount never enters them.',
  'Bad entity input (a certificate without an expiry date, a delegation without a delegate) makes the start fail: xstate returns a snapshot with status `error` and the reason.',
] as const;

/**
 * The reading a version adds when it stops offering a discount on a stopped request (`noDiscountWhenStopped`,
 * machines/fragments/common.ts withStaffNotes). `code`: the stopped status; `earlier`: the versions that still offer it.
 */
export function noDiscountWhenStoppedReading(version: number, code: number, earlier: string): string {
  return `Version ${version} offers no discount on a stopped request (${code}, its bill expired unpaid): nothing bills it again, so a discount there changed nothing. ${earlier} offered it; requests started on ${earlier.includes(' and ') ? 'them' : 'it'} keep doing so.`;
}
