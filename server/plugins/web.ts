import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { injectPageMeta, publicPageMeta, withLanguage, withTitle } from '../modules/public/page-meta';
import { pickLanguage } from '../i18n';
import { secureCookies } from '../config';
import { SESSION_COOKIE } from './auth';
import { loadPrerender, SIGNED_IN_PAINTED, withPrerendered } from './prerender';

export const WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Paths the SPA never answers: the API and the external-service simulators keep their own 404s. */
const NOT_SPA = /^\/(api|simulators)(\/|$)/;
/**
 * A built file that is not there (a chunk of another build, during or after a deploy): 404, never the shell. The shell
 * with 200 would be cached by the service worker as that immutable file, breaking it for the whole build.
 */
const MISSING_FILE = /^\/(assets\/|[^?#]*\.(js|mjs|css|map|woff2?|png|svg|ico|json|webmanifest|txt|pdf)(\?|#|$))/;

export interface WebOptions {
  /** The built web app (vite build); defaults to web/dist. */
  root?: string;
  /** The prerender of public pages (vite build --ssr); defaults to `<root>-ssr`, skipped when not built. */
  ssr?: string;
}

/**
 * Serves the built web app: hashed assets with a long cache, and index.html (never cached, so a new version is
 * picked up on reload) for every other GET path that is not an API or simulator path, so the client router
 * decides what to show, its 404 screen included. Registered by server/main.ts.
 */
export async function registerWeb(app: FastifyInstance, { root = WEB_DIST, ssr = `${root}-ssr` }: WebOptions = {}): Promise<void> {
  if (!existsSync(`${root}/index.html`)) {
    app.log.warn(`${root} has no index.html: run \`npm run build\` to serve the portal pages`);
    return;
  }
  await app.register(fastifyStatic, {
    root,
    // Files are listed once at start (the build is done by then): no wildcard route competing with the SPA's.
    wildcard: false,
    index: false,
    // The build wrote .br and .gz copies (vite.config.ts): sent with content-encoding to clients that accept them.
    preCompressed: true,
    setHeaders(reply, path) {
      const hashed = /[\\/]assets[\\/]/.test(path);
      reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // Read once, like the file list above: a new build is served after a restart.
  const shell = readFileSync(`${root}/index.html`, 'utf8');
  const prerender = await loadPrerender(app, ssr);
  app.get('/*', { config: { policy: 'public' }, schema: { hide: true } }, async (request, reply) => {
    if (NOT_SPA.test(request.url) || MISSING_FILE.test(request.url)) return reply.callNotFound();
    // Public pages get their title and meta description in the visitor's language in the HTML itself, for search
    // engines and link previews that do not run the app (issue 7).
    // The language is picked again here: cookies are parsed by now (request.lang may have been set before they were).
    // Anonymous visitors get the page itself, painted before the app loads (plugins/prerender.ts); signed-in users
    // the shell, so their header never shows the anonymous one first. A painted page is in the language the app
    // starts in (web/src/i18n.ts: ?lang=, the remembered choice, else Arabic; not the browser's Accept-Language,
    // spec 01 section 9), and its title with it.
    const sessionToken = request.cookies?.[SESSION_COOKIE];
    if (prerender !== null && sessionToken && SIGNED_IN_PAINTED.test(request.url)) {
      // A signed-in user's request page, painted with their own data (issue 18): private HTML, kept by no cache —
      // neither a shared one nor the browser's (the page after a sign-out must not come back from it).
      reply.header('cache-control', 'private, no-store').header('vary', 'Cookie').type('text/html; charset=utf-8');
      const lang = pickLanguage(request.query, request.cookies?.lang, undefined);
      const page = await prerender.signedIn(request.url, lang, sessionToken, request.ip);
      // Not painted (an ended or forged session, someone else's request, a failed read): the plain shell, and the
      // app decides in the browser as before (the sign-in page, the 403 screen).
      // Its title is the one the page's header set while rendering ("Request 2026-000009 | …"), not the shell's.
      if (page?.kind !== 'page') return reply.send(shell);
      const html = withLanguage(shell, lang);
      return reply.code(page.status).send(withPrerendered(page.title === null ? html : withTitle(html, page.title), page));
    }
    const painted = prerender !== null && !sessionToken;
    const lang = pickLanguage(request.query, request.cookies?.lang, painted ? undefined : request.headers['accept-language']);
    const meta = await publicPageMeta(app.db, request.url, lang);
    if (meta) {
      const html = injectPageMeta(shell, meta);
      const page = painted ? await prerender(request.url, lang, request.ip) : null;
      if (page?.kind === 'redirect') return reply.redirect(page.href);
      reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8');
      // A language asked for with ?lang= is remembered as the app remembers a choice (web/src/i18n.ts, same cookie):
      // a link followed before the app has taken over the painted page opens the next page in that language too.
      const asked = (request.query as { lang?: unknown }).lang;
      if (page && asked === lang) reply.setCookie('lang', lang, { path: '/', maxAge: 365 * 24 * 3600, sameSite: 'lax', secure: secureCookies(app.config) });
      return page ? reply.code(page.status).send(withPrerendered(html, page)) : reply.send(html);
    }
    return reply.type('text/html; charset=utf-8').sendFile('index.html');
  });
}
