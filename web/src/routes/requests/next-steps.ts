/**
 * What the confirmation after submitting says comes next, as i18next keys to try in order: the service's own steps,
 * else the payment when the request now waits for it (a shipment or a Halal mark request goes straight to its bill,
 * with no reviewers), else the review.
 */
export function nextStepsKeys(kind: string, queue: string | null): string[] {
  return [`requests:confirmation.next.${kind}`, queue === 'payment' ? 'requests:confirmation.next.payment' : 'requests:confirmation.next.default'];
}
