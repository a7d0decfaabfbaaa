import type { DehydratedState } from '@tanstack/react-query';
import type { Language } from '../i18n';

/**
 * What the server's prerender hands to the app (in `<script type="application/json" id="prerender-state">`, the CSP
 * allows no inline script): the language it painted the page in and the answers it rendered with, so the app's first
 * render is the same page (hydration) without asking the API again.
 */
export interface PrerenderState {
  lang: Language;
  queries: DehydratedState;
}

export const PRERENDER_STATE_ID = 'prerender-state';
