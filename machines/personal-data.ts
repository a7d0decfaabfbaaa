/**
 * The limits of personal-data requests. The specification names the three refusals (spec 01 §8) but not their
 * numbers; these are the portal's reading, written in the README's choices.
 */
export const PERSONAL_DATA = {
  /** One request per user in this window: within it the earlier request "is still pending". */
  requestIntervalHours: 24,
  /** How long a prepared file can be downloaded; afterwards it is deleted and no token is given. */
  keepDays: 7,
  /** How long a download token is accepted (it is also used up by the download). */
  tokenMinutes: 5,
  /** Failed preparations before the request is marked failed. */
  maxAttempts: 5,
  /** How often the runner looks for waiting requests besides being nudged by a new one. */
  pollMs: 15_000,
} as const;
