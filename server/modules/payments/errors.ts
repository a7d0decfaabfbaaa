import { registerErrorStatus } from '../../errors';

/** The payment module's own refusals (messages in locales/<lang>/errors.json). */
registerErrorStatus({
  /** A callback whose HMAC does not verify: forged, or signed with another secret. */
  PaymentSignatureInvalid: 400,
  /** A correctly signed callback that names another bill or another amount than the payment we started. */
  PaymentDataMismatch: 400,
  /** The bill is paid, cancelled or expired, or has nothing to pay. */
  BillNotPayable: 409,
  /** The payment window of the bill has passed (spec 02 section 8: request expired for late payment). */
  BillExpired: 409,
  /** The Halal certificate a shipment or mark bill rests on is suspended or expired: payable once it is in force again. */
  BillCertificateNotInForce: 409,
  /**
   * The bill was paid on the portal and the request is about to hear it: cancelling (or waiving) it now would lose the
   * payment, so the cancellation is refused (workflows/effects.ts effect.cancelBill).
   */
  BillAlreadyPaid: 409,
  /** Staff asked the portal about a payment an answer already settled (paid, cancelled or refused): nothing to ask. */
  PaymentAlreadySettled: 409,
  /** Staff recorded a refund for a payment that already has one recorded: a payment is refunded once. */
  RefundAlreadyRecorded: 409,
  /** Staff recorded a refund for a payment that is owed none (pending, paid and taken by its request, or cancelled). */
  RefundNotOwed: 409,
  /** Staff asked to tell the request of a payment that is not paid (pending, cancelled, or taken for a closed bill). */
  PaymentNotPaid: 409,
});
