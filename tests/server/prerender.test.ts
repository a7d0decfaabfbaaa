import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'vite';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { testConfig } from '../../server/config';
import { registerWeb } from '../../server/plugins/web';
import { loadPrerender } from '../../server/plugins/prerender';
import { createTestDatabase } from '../helpers/db';
import type { Database } from '../../db/client';

/**
 * Public pages painted by the server (server/plugins/prerender.ts, web/src/prerender/render.tsx): an anonymous
 * visitor gets the page itself in #root, in their language, with its styles and the state the app hydrates from.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SHELL =
  '<!doctype html><html lang="ar" dir="rtl"><head><title>Portal</title></head><body><div id="root"></div><script type="module" src="/assets/index.js"></script></body></html>';

let app: FastifyInstance;
let database: Database;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'halal-web-'));
  writeFileSync(join(root, 'index.html'), SHELL);
  // The SSR build of the prerender, beside the (fake) client build, as `npm run build` makes it.
  await build({ configFile: join(ROOT, 'vite.config.ts'), logLevel: 'warn', build: { ssr: true, outDir: `${root}-ssr`, emptyOutDir: true } });
  database = await createTestDatabase();
  app = await buildApp({ config: testConfig(), database, extra: [(a) => registerWeb(a, { root })] });
  await app.ready();
}, 300_000);
afterAll(async () => {
  await app?.close();
  await database?.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(`${root}-ssr`, { recursive: true, force: true });
});

const rootOf = (html: string) => /<div id="root">([\s\S]*)<\/div><script type="application\/json"/.exec(html)?.[1] ?? '';
const stateOf = (html: string) => JSON.parse(/<script type="application\/json" id="prerender-state">([^<]*)<\/script>/.exec(html)?.[1] ?? 'null');

describe('public pages painted by the server', () => {
  it('sends the Arabic home page, right-to-left, with its styles and the answers it was rendered with', async () => {
    const res = await app.inject({ method: 'GET', url: '/home?lang=ar' });
    expect(res.statusCode).toBe(200);
    const html = res.body;
    expect(html).toContain('<html lang="ar" dir="rtl">');
    const main = rootOf(html);
    expect(main).toMatch(/<h1[^>]*data-testid="page-title"[^>]*>[^<]*[\u0600-\u06FF]/);
    expect(main).toContain('التحقق من شهادة');
    // Real links: a visitor can go on before the app has loaded.
    expect(main).toMatch(/<a [^>]*href="\/hs-code"/);
    // The page's classes, in <head> (Chakra's tokens and reset are in the build's stylesheet: vite.config.ts).
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toMatch(/<style data-emotion="css [^"]+">/);
    const classes = [...main.matchAll(/class="(css-[a-z0-9]+)/g)].map((m) => m[1]!.slice(4));
    expect(classes.length).toBeGreaterThan(10);
    for (const id of classes) expect(head).toContain(`.css-${id}`);
    // The app's entry script is asked for after the first paint (web/public/after-paint.js), not with the page.
    expect(html).toContain('<script defer src="/after-paint.js" data-entry="/assets/index.js"></script>');
    expect(html).not.toContain('<script type="module"');
    const state = stateOf(html);
    expect(state.lang).toBe('ar');
    expect(state.queries.queries.map((q: { queryKey: unknown[] }) => q.queryKey[0])).toEqual(expect.arrayContaining(['/api/public/pages/{key}', '/api/public/news']));
  });

  it('sends the English home page left-to-right for the remembered choice; Arabic otherwise, whatever the browser accepts', async () => {
    const arabic = (await app.inject({ method: 'GET', url: '/home', headers: { 'accept-language': 'en-US,en;q=0.9' } })).body;
    expect(arabic).toContain('<html lang="ar" dir="rtl">');
    expect(stateOf(arabic).lang).toBe('ar');
    const html = (await app.inject({ method: 'GET', url: '/home', headers: { cookie: 'lang=en', 'accept-language': 'ar' } })).body;
    expect(html).toContain('<html lang="en" dir="ltr">');
    const main = rootOf(html);
    expect(main).toMatch(/<h1[^>]*data-testid="page-title"[^>]*>Trusted Halal certification/);
    expect(main).toContain('Verify a certificate');
    expect(stateOf(html).lang).toBe('en');
  });

  it('remembers a language asked for with ?lang=, so a link followed before the app loads keeps it', async () => {
    const res = await app.inject({ method: 'GET', url: '/home?lang=en' });
    expect(res.headers['set-cookie']).toMatch(/^lang=en; Max-Age=31536000; Path=\/; SameSite=Lax/);
    expect((await app.inject({ method: 'GET', url: '/home' })).headers['set-cookie']).toBeUndefined();
  });

  it('sends the HS code list with its rows', async () => {
    const html = (await app.inject({ method: 'GET', url: '/hs-code?lang=en' })).body;
    const hs = (await app.inject({ method: 'GET', url: '/api/public/hs-codes?pageSize=1', headers: { 'accept-language': 'en' } })).json();
    expect(rootOf(html)).toContain(hs.items[0].code);
  });

  it('redirects / to the home page, keeping the language asked for', async () => {
    const res = await app.inject({ method: 'GET', url: '/?lang=en' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/home?lang=en');
  });

  it('sends signed-in users the plain shell', async () => {
    const html = (await app.inject({ method: 'GET', url: '/home?lang=en', headers: { cookie: 'halal_session=x' } })).body;
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toContain('prerender-state');
  });
});

/** Signs a seeded user in: the session cookies and the CSRF token, as the browser holds them. */
async function login(userName: string): Promise<{ cookie: string; csrf: string }> {
  const cookiesOf = (res: { headers: Record<string, unknown> }) => [res.headers['set-cookie'] ?? []].flat().map((c) => String(c).split(';')[0]);
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { userName, password: 'Demo@12345' } });
  expect(res.statusCode).toBe(200);
  const session = cookiesOf(res).join('; ');
  const s = await app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie: session } });
  return { cookie: [session, ...cookiesOf(s)].join('; '), csrf: s.json().csrfToken };
}

describe("a signed-in user's request page painted by the server", () => {
  let owner: { cookie: string; csrf: string };
  let id: string;
  let number: string;
  beforeAll(async () => {
    owner = await login('internal.main');
    const started = await app.inject({
      method: 'POST',
      url: '/api/requests',
      headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrf },
      payload: { kind: 'internalCertificate', facilityId: 'inf-almarai-foods', data: {} },
    });
    expect(started.statusCode).toBe(201);
    id = started.json().id;
    number = (await app.inject({ method: 'GET', url: `/api/requests/${id}`, headers: { cookie: owner.cookie } })).json().number;
  });

  it("holds the owner's request, in their language, and is kept by no cache", async () => {
    for (const [lang, dir] of [['ar', 'rtl'], ['en', 'ltr']] as const) {
      const res = await app.inject({ method: 'GET', url: `/requests/${id}?lang=${lang}`, headers: { cookie: owner.cookie } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(String(res.headers.vary)).toMatch(/cookie/i);
      expect(res.body).toContain(`<html lang="${lang}" dir="${dir}">`);
      expect(rootOf(res.body)).toContain(number);
      expect(rootOf(res.body)).toContain('Khalid Al-Harbi');
      const state = stateOf(res.body);
      expect(state.lang).toBe(lang);
      expect(state.queries.queries.map((q: { queryKey: unknown[] }) => q.queryKey[0])).toContain('/api/requests/{id}');
      // The session (its CSRF token) is not in the page: the app asks for it as on any load.
      expect(res.body).not.toContain(owner.csrf);
    }
  });

  it("paints nothing for another facility's user, without a session, with a forged or ended one", async () => {
    const other = await login('external');
    const ended = await login('internal.main');
    await app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: ended.cookie, 'x-csrf-token': ended.csrf } });
    const forged = owner.cookie.replace(/halal_session=([^;]+)/, (_m, token: string) => `halal_session=${token.slice(0, -4)}AAAA`);
    for (const [who, cookie] of [
      ['another facility', other.cookie],
      ['no session', undefined],
      ['forged', forged],
      ['ended', ended.cookie],
    ] as const) {
      const res = await app.inject({ method: 'GET', url: `/requests/${id}?lang=en`, headers: cookie ? { cookie } : {} });
      expect(res.body, who).toContain('<div id="root"></div>');
      expect(res.body, who).not.toContain('prerender-state');
      expect(res.body, who).not.toContain(number);
      expect(String(res.headers['cache-control']), who).not.toMatch(/public/);
    }
  });

  it("leaves nothing of the user's page to the next anonymous page", async () => {
    await app.inject({ method: 'GET', url: `/requests/${id}?lang=en`, headers: { cookie: owner.cookie } });
    const html = (await app.inject({ method: 'GET', url: '/faq?lang=en&after=signed-in' })).body;
    expect(html).toContain('prerender-state');
    expect(html).not.toContain('Khalid Al-Harbi');
    expect(html).not.toContain('data-testid="sign-out"');
    expect(JSON.stringify(stateOf(html))).not.toContain(id);
  });

  it('sends other signed-in pages the plain shell, as before', async () => {
    const res = await app.inject({ method: 'GET', url: '/halal-request?lang=en', headers: { cookie: owner.cookie } });
    expect(res.body).toContain('<div id="root"></div>');
    expect(res.body).not.toContain('prerender-state');
  });
});

describe('the prerender under a flood of uncached pages', () => {
  it('renders a few at a time and sends the plain shell for the rest, then paints again', async () => {
    // A render.js that takes 100 ms (the contract server/plugins/prerender.ts loads), so the renders overlap.
    const dir = mkdtempSync(join(tmpdir(), 'halal-ssr-'));
    writeFileSync(
      join(dir, 'render.js'),
      "export async function render({ url }) { await new Promise((r) => setTimeout(r, 100)); return { kind: 'page', html: url, styles: '', state: null, status: 200 }; }",
    );
    const server = Fastify();
    try {
      const prerender = (await loadPrerender(server, dir))!;
      const pages = await Promise.all(Array.from({ length: 10 }, (_, i) => prerender(`/hs-code?flood=${i}`, 'en')));
      expect(pages.filter((page) => page !== null)).toHaveLength(4);
      expect(await prerender('/hs-code?flood=after', 'en')).toMatchObject({ kind: 'page', html: '/hs-code?flood=after' });
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
