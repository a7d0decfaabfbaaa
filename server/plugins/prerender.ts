import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Language } from '../i18n';
import { SESSION_COOKIE } from './auth';

/**
 * The public pages painted by the server (issue 18 item 1, "usable before the whole app loads"): the SSR build of
 * web/src/prerender/render.tsx (`vite build --ssr`, beside the web build: <web root>-ssr/render.js) renders a page
 * as the app would for an anonymous visitor; server/plugins/web.ts puts it into index.html and the app hydrates it.
 * Without that build (server tests, a client-only build) pages go out as the plain shell, as before.
 */

/** What render.js returns (web/src/prerender/render.tsx RenderResult). */
export type Prerendered =
  | { kind: 'page'; html: string; styles: string; state: unknown; status: number; title: string | null }
  | { kind: 'redirect'; href: string };

type RenderFn = (input: { url: string; lang: Language; fetch: (request: Request) => Promise<Response>; signedIn?: boolean }) => Promise<Prerendered>;

/** A rendered page is kept this long at most; any write through this server empties the cache at once. */
const CACHE_MS = 60_000;
const CACHE_ENTRIES = 500;
/**
 * Renders run one at a time in the server's thread (~30 ms each when warm). Beyond this many waiting, a page goes
 * out as the plain shell (the app paints it in the browser): a flood of distinct URLs, which no cache absorbs, cannot
 * queue up server time or memory.
 */
const MAX_WAITING = 4;

/** The page of `url` in `lang` for a visitor at `ip`, or null: send the plain shell. */
export type Prerender = ((url: string, lang: Language, ip?: string) => Promise<Prerendered | null>) & {
  /**
   * A signed-in user's own page (issue 18: the request page painted), or null: send the plain shell. Rendered as
   * that user: every read the page makes goes through the API with their session cookie, so the API's own
   * authentication and authorisation decide what is in it (another facility's request answers 403 and nothing is
   * painted). Never cached, here or by anyone else (server/plugins/web.ts: private, no-store).
   */
  signedIn: (url: string, lang: Language, sessionToken: string, ip?: string) => Promise<Prerendered | null>;
};

/** The signed-in routes painted by the server: a request's page (the app's `requests/$requestId`). */
export const SIGNED_IN_PAINTED = /^\/requests\/[^/?#]+(\?[^#]*)?$/;

/**
 * Loads the prerender of `ssrDir`, or returns null when it is not built. Pages are cached per (URL, language):
 * they change when an administrator edits a page, a news item or a text override (writes, which empty the cache)
 * or with time (the 60 s bound: e.g. a certificate expiring on /verify, a write made by the worker process).
 */
export async function loadPrerender(app: FastifyInstance, ssrDir: string): Promise<Prerender | null> {
  const entry = `${ssrDir}/render.js`;
  if (!existsSync(entry)) return null;
  const { render } = (await import(pathToFileURL(entry).href)) as { render: RenderFn };

  // The app's reads, answered in-process by the public API (GET only, no cookie: what an anonymous visitor gets),
  // from the visitor's address so per-address rate limits (verification) count them as theirs.
  // A signed-in page's reads carry the user's session cookie (and nothing else of the browser's request).
  const fetchFrom = (remoteAddress: string, sessionToken?: string) => async (request: Request): Promise<Response> => {
    if (request.method !== 'GET') return new Response(null, { status: 405 });
    const url = new URL(request.url);
    const res = await app.inject({
      method: 'GET',
      url: url.pathname + url.search,
      remoteAddress,
      headers: {
        accept: 'application/json',
        'accept-language': request.headers.get('accept-language') ?? 'ar',
        ...(sessionToken ? { cookie: `${SESSION_COOKIE}=${encodeURIComponent(sessionToken)}` } : {}),
      },
    });
    return new Response(res.statusCode === 204 ? null : res.body, { status: res.statusCode, headers: { 'content-type': String(res.headers['content-type'] ?? 'application/json') } });
  };

  const cache = new Map<string, { page: Prerendered; at: number }>();
  app.addHook('onResponse', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400) cache.clear();
  });

  let waiting = 0;
  const prerender = async (url: string, lang: Language, ip = '127.0.0.1'): Promise<Prerendered | null> => {
    const key = `${lang} ${url}`;
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.page;
    if (waiting >= MAX_WAITING) return null;
    waiting++;
    try {
      const page = await render({ url, lang, fetch: fetchFrom(ip) });
      if (cache.size >= CACHE_ENTRIES) cache.clear();
      cache.set(key, { page, at: Date.now() });
      return page;
    } catch (error) {
      app.log.warn({ err: error, url }, 'prerender failed: the plain shell is sent');
      return null;
    } finally {
      waiting--;
    }
  };
  const signedIn = async (url: string, lang: Language, sessionToken: string, ip = '127.0.0.1'): Promise<Prerendered | null> => {
    if (waiting >= MAX_WAITING) return null;
    waiting++;
    try {
      return await render({ url, lang, fetch: fetchFrom(ip, sessionToken), signedIn: true });
    } catch (error) {
      // An ended or forged session, a request of someone else's (403), a read that failed: the plain shell, and the
      // app decides in the browser as before (sign-in page, 403 screen).
      app.log.debug({ err: error, url }, 'signed-in prerender not painted: the plain shell is sent');
      return null;
    } finally {
      waiting--;
    }
  };
  // The first page rendered pays for loading the screens and warming the JIT (seconds on a busy 2-core machine):
  // the home page is rendered once in each language as soon as the server listens, not for the first visitor.
  app.addHook('onListen', async () => {
    void (async () => {
      for (const lang of ['ar', 'en'] as const) await prerender(`/home?lang=${lang}`, lang);
    })();
  });
  return Object.assign(prerender, { signedIn });
}

/** The JSON for a `<script type="application/json">`: nothing in it can close the tag. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** index.html with the page in #root, its styles in <head> and the state the app hydrates from. */
export function withPrerendered(html: string, page: Extract<Prerendered, { kind: 'page' }>): string {
  return html
    .replace('</head>', () => `${page.styles}</head>`)
    // The page is on screen without the app: its entry script is requested after the first paint (web/public/
    // after-paint.js), so what paints the page (HTML, styles, fonts) does not share the connection with it.
    .replace(/<script type="module"[^>]*\ssrc="([^"]+)"[^>]*><\/script>/, (_, entry: string) => `<script defer src="/after-paint.js" data-entry="${entry}"></script>`)
    .replace(
      '<div id="root"></div>',
      () => `<div id="root">${page.html}</div><script type="application/json" id="prerender-state">${scriptJson(page.state)}</script>`,
    );
}
