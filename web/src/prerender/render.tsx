import { renderToString } from 'react-dom/server';
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { dehydrate, QueryClient, type Query } from '@tanstack/react-query';
import { createMemoryHistory, createRouter } from '@tanstack/react-router';
import { App } from '../app';
import { configureApi } from '../api/client';
import { queryClient as appQueryClient } from '../api/query';
import { initServerI18n, type Language } from '../i18n';
import { primeSession, sessionStore, type Session } from '../session/session-store';
import { routerOptions } from '../router';
import { takeRenderedTitle } from '../lib/page-title';
import type { PrerenderState } from './state';

/**
 * The server's prerender of a public page (server/plugins/prerender.ts loads the SSR build of this file): the page as
 * the app renders it for an anonymous visitor (or, for a request's page, for its signed-in user), in the visitor's
 * language, with its styles and the API answers it was rendered with. The app then hydrates it (main.tsx) instead of
 * painting from nothing.
 */
export interface RenderInput {
  /** Path and query, e.g. '/home?lang=en'. */
  url: string;
  lang: Language;
  /** Answers the app's API calls in-process (GET only; anonymous, or as the signed-in user for `signedIn`). */
  fetch: (request: Request) => Promise<Response>;
  /**
   * A signed-in user's own page (server/plugins/prerender.ts `signedIn`: a request's page): `fetch` answers as that
   * user, through the API's own authorisation. The session must then be authenticated (an anonymous one must not
   * be, otherwise).
   */
  signedIn?: boolean;
}

export type RenderResult =
  | { kind: 'page'; html: string; styles: string; state: PrerenderState; status: number; title: string | null }
  | { kind: 'redirect'; href: string };

/** Each page sets the app's module-level state (language, session, API client) while it renders: one at a time. */
let queue: Promise<unknown> = Promise.resolve();

export function render(input: RenderInput): Promise<RenderResult> {
  const run = queue.then(() => renderNow(input));
  queue = run.catch(() => undefined);
  return run;
}

async function getJson<T>(fetchApi: RenderInput['fetch'], path: string, lang: Language): Promise<T> {
  const res = await fetchApi(new Request(`http://localhost${path}`, { headers: { accept: 'application/json', 'accept-language': lang } }));
  if (!res.ok) throw new Error(`prerender: ${path} answered ${res.status}`);
  return (await res.json()) as T;
}

async function renderNow(input: RenderInput): Promise<RenderResult> {
  try {
    return await renderWith(input);
  } finally {
    // Nothing of a signed-in user's page stays in the module's state for the next (maybe anonymous) render.
    sessionStore.set(null);
    configureApi({ fetch: refuse });
  }
}

const refuse = () => Promise.reject(new Error('prerender: no render is running'));

async function renderWith({ url, lang, fetch: fetchApi, signedIn = false }: RenderInput): Promise<RenderResult> {
  const [overrides, session] = await Promise.all([
    getJson<Parameters<typeof initServerI18n>[1]>(fetchApi, '/api/texts/overrides', lang),
    getJson<Session>(fetchApi, '/api/auth/session', lang),
  ]);
  if (session.authenticated !== signedIn) throw new Error(`prerender: the session is ${session.authenticated ? '' : 'not '}signed in`);
  await initServerI18n(lang, overrides);
  configureApi({ language: () => lang, fetch: fetchApi });
  primeSession(session);

  const queryClient = new QueryClient({ defaultOptions: appQueryClient.getDefaultOptions() });
  const router = createRouter({
    ...routerOptions,
    history: createMemoryHistory({ initialEntries: [url] }),
    context: { session: sessionStore, queryClient },
    isServer: true,
    // On the server the router would add its inline scroll-restoration <script>: the CSP allows no inline script, and
    // a fresh page has no scroll position to restore. The browser's router keeps restoring scroll as before.
    scrollRestoration: false,
  });
  await router.load();
  // How the router settled on the server (router-core's load-server.ts sets it; typed by the router, so an upgrade that
  // changes it fails the type check rather than the prerender).
  const settled = router._serverResult;
  if (settled?.type === 'redirect') {
    // '/' -> '/home': the query (?lang=) goes along, so the page comes in the language asked for.
    const href = settled.redirect.headers.get('Location') ?? settled.redirect.options.href ?? '/';
    const search = new URL(url, 'http://localhost').search;
    return { kind: 'redirect', href: href.includes('?') ? href : href + search };
  }

  // The screens start their reads while rendering: render, answer the reads they started, until none is left
  // (a page reads what an earlier answer names at most a couple of levels deep).
  let html = '';
  let cache: ReturnType<typeof createCache>;
  for (let pass = 0; ; pass++) {
    takeRenderedTitle();
    // A compat cache keeps the rules in `inserted` instead of writing <style> tags among the page's elements:
    // they go into <head> at once (what @emotion/server's extraction does).
    cache = createCache({ key: 'css' });
    cache.compat = true;
    html = renderToString(
      <CacheProvider value={cache}>
        <App router={router} queryClient={queryClient} painted />
      </CacheProvider>,
    );
    const pending = queryClient.getQueryCache().findAll({ predicate: (q) => q.state.status === 'pending' && q.state.fetchStatus === 'idle' && enabled(q) });
    if (pending.length === 0) break;
    if (pass === 3) throw new Error(`prerender: ${url} still starts reads after 4 renders`);
    await Promise.all(pending.map((q) => q.fetch().catch(() => undefined)));
  }
  // A read that failed (a 404 verification code, a 429) is not shipped: the app would render it differently on its
  // first render; the server sends the plain shell instead (server/plugins/prerender.ts).
  if (queryClient.getQueryCache().findAll({ predicate: (q) => q.state.status === 'error' }).length > 0) throw new Error(`prerender: a read of ${url} failed`);
  const notFound = router.state.matches.some((m) => m.status === 'notFound');
  const queries = dehydrate(queryClient);
  queryClient.clear();
  // The title the last pass's PageHeader set (with the page's data in it, e.g. the request's number).
  return { kind: 'page', html, styles: styleTags(cache), state: { lang, queries }, status: notFound ? 404 : 200, title: takeRenderedTitle() };
}

/** A read the screen asked for now (`useApi(..., { enabled })`: e.g. the HS tree only once its tab is open). */
function enabled(query: Query): boolean {
  const option = (query.options as { enabled?: boolean | ((q: Query) => boolean) }).enabled;
  return typeof option === 'function' ? option(query) : option !== false;
}

/** The emotion rules the page used, as the tag emotion's cache picks up in the browser (data-emotion="css ids"). */
function styleTags(cache: ReturnType<typeof createCache>): string {
  const ids: string[] = [];
  let css = '';
  for (const [id, rules] of Object.entries(cache.inserted)) {
    if (typeof rules !== 'string') continue;
    ids.push(id);
    css += rules;
  }
  return `<style data-emotion="css ${ids.join(' ')}">${css}</style>`;
}
