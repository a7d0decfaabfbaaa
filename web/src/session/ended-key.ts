/**
 * The localStorage mark an idle sign-out leaves for the next load ("the session-expired modal appears on the next
 * load"). web/public/after-paint.js, a plain script of every painted page, spells it too, to load the app at once and
 * show that dialog; tests/web/session-ended-key.test.ts holds the two spellings equal.
 */
export const SESSION_ENDED_KEY = 'halal.sessionEnded';
