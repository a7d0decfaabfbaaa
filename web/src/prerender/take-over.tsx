import { startTransition, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { hydrate, type QueryClient } from '@tanstack/react-query';
import type { AnyRouter } from '@tanstack/react-router';
import { PRERENDER_STATE_ID, type PrerenderState } from './state';

/** What the server's prerender left in the page (server/plugins/web.ts), or null for the plain shell. */
export function prerenderState(): PrerenderState | null {
  const script = document.getElementById(PRERENDER_STATE_ID);
  if (!script?.textContent) return null;
  try {
    return JSON.parse(script.textContent) as PrerenderState;
  } catch {
    return null;
  }
}

/**
 * Mounts the app. On a page the server painted, the app first reaches the same state (the server's answers in the
 * query cache, the route and its lazy screen loaded, the session known) and then hydrates the painted page, so
 * nothing on screen changes; on the plain shell it renders from nothing.
 */
export async function mountApp(app: ReactNode, state: PrerenderState | null, router: AnyRouter, queryClient: QueryClient): Promise<void> {
  const root = document.getElementById('root')!;
  if (!state || !root.firstChild) {
    createRoot(root).render(app);
    return;
  }
  // Fresh as of now: a page cached for a while on the server must not read everything again the moment it boots.
  const now = Date.now();
  for (const query of state.queries.queries) query.state.dataUpdatedAt = now;
  hydrate(queryClient, state.queries);
  await router.load();
  // What TanStack's own SSR hydration sets: the router renders its root without the Suspense boundary it adds for a
  // client-only app, as it did on the server.
  router.ssr = { manifest: undefined };
  // In a transition, so React hydrates in slices of ~5 ms and lets the browser in between: at its default priority
  // the hydration of a page is one task (~190 ms at a phone's speed), all of it blocking input and counted by
  // Lighthouse's TBT. The painted page stays on screen meanwhile and is hydrated, not replaced (tests/e2e/prerender.e2e.ts).
  startTransition(() => {
    hydrateRoot(root, app);
  });
}
