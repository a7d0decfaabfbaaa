/**
 * A deadline's step that cannot happen yet by design: the certificate it issues against is suspended or expired, or the
 * bill it would expire was paid on the portal and the request not yet told. The effect throws StepWaits; the timer
 * runner then puts the timer back by WAITING_RETRY_MS instead of trying it every sweep and logging an error each time
 * (a suspension can last weeks).
 */
export class StepWaits extends Error {}

/** How long a waiting timer rests before it is tried again. */
export const WAITING_RETRY_MS = 60_000;
