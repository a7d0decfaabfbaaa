import { createStore } from '../lib/create-store';

/**
 * How many HTTP requests are in flight. The full-page loader (spec 01 section 2) shows while it is above zero;
 * background polls pass `silent` so that a version check does not flash the loader every minute.
 */
export const pendingRequests = createStore(0);

export function trackRequest(): () => void {
  pendingRequests.set((n) => n + 1);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    pendingRequests.set((n) => Math.max(0, n - 1));
  };
}
