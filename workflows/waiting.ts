/**
 * A deadline's step that cannot happen yet by design: the certificate it issues against is suspended or expired, or the
 * bill it would expire was paid on the portal and the request not yet told. The effect throws StepWaits; the timer
 * runner then puts the timer back by WAITING_RETRY_MS instead of trying it every sweep and logging an error each time
 * (a suspension can last weeks).
 */
export class StepWaits extends Error {
  /**
   * An event that ends the wait instead, when the request's machine accepts it (e.g. CERTIFICATE_EXPIRED for a mark
   * package whose certificate expired: it will never be in force for the months it was priced for). The timer runner
   * sends it as the system in a transaction of its own; a machine that refuses it (an earlier version) keeps waiting.
   */
  constructor(
    message: string,
    readonly instead?: string,
  ) {
    super(message);
  }
}

/** How long a waiting timer rests before it is tried again. */
export const WAITING_RETRY_MS = 60_000;
