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
