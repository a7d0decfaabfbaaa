/**
 * Announced on document when the app has hydrated what the server painted (web/public/after-paint.js replays the
 * visitor's early clicks and typing then): 'root' once the page's frame has been (app.tsx), 'content' once a route's
 * screen has been (router.tsx). React hydrates a Suspense boundary — the route's screen sits in one — in a pass of its
 * own after the frame, so the frame alone is not the whole page.
 */
// The name web/public/after-paint.js listens for (a plain script: it cannot import it).
const HYDRATED_EVENT = 'halal:hydrated';

export function announceHydrated(part: 'root' | 'content'): void {
  document.dispatchEvent(new CustomEvent(HYDRATED_EVENT, { detail: part }));
}
