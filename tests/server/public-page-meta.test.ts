import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { testConfig } from '../../server/config';
import { registerWeb } from '../../server/plugins/web';
import { withLanguage, withTitle } from '../../server/modules/public/page-meta';
import { createTestDatabase } from '../helpers/db';
import type { Database } from '../../db/client';

/** The HTML the server sends for public pages carries their title and meta description in the visitor's language. */
let app: FastifyInstance;
let database: Database;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'halal-web-'));
  writeFileSync(
    join(root, 'index.html'),
    '<!doctype html><html lang="ar" dir="rtl"><head><meta name="description" content="default" /><title>Portal</title></head><body><div id="root"></div></body></html>',
  );
  database = await createTestDatabase();
  app = await buildApp({ config: testConfig(), database, extra: [(a) => registerWeb(a, { root })] });
  await app.ready();
}, 120_000);
afterAll(async () => {
  await app?.close();
  await database?.close();
  rmSync(root, { recursive: true, force: true });
});

const page = async (url: string, headers: Record<string, string> = {}) => {
  const res = await app.inject({ method: 'GET', url, headers });
  expect(res.statusCode, url).toBe(200);
  return res.body;
};

describe('server-rendered titles and descriptions of public pages', () => {
  it('sends the Arabic title and description by default, right-to-left', async () => {
    const html = await page('/hs-code');
    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(html).toContain('<title>رموز النظام المنسق | المركز الوطني للحلال</title>');
    expect(html).toMatch(/<meta name="description" content="ابحثوا في رموز النظام المنسق/);
    expect(html).not.toContain('content="default"');
  });

  it('follows the language of ?lang=, the lang cookie and Accept-Language', async () => {
    expect(await page('/accredited-cb?lang=en')).toContain('<title>Accredited conformity bodies | National Halal Center</title>');
    expect(await page('/privacy', { cookie: 'lang=en' })).toContain('<html lang="en" dir="ltr">');
    expect(await page('/faq', { 'accept-language': 'en-US,en;q=0.9' })).toContain('<title>Frequently asked questions | National Halal Center</title>');
  });

  it('titles the home page, a verification page and a news item', async () => {
    expect(await page('/home?lang=en')).toMatch(/<title>National Halal Center \| Trusted Halal certification/);
    expect(await page('/verify/VQ7K2M9XPA4T?lang=en')).toContain('<title>Certificate verification | National Halal Center</title>');
    const news = (await app.inject({ method: 'GET', url: '/api/public/news?pageSize=1' })).json().items[0];
    expect(await page(`/media-center/${news.id}?lang=en`)).toContain(`<title>${news.titleEn} | National Halal Center</title>`);
  });

  it('escapes an edited title, adds one where the page has none, and keeps the other attributes of <html>', () => {
    expect(withTitle('<head><title>Portal</title></head>', 'A <b>&</b> "B"')).toBe('<head><title>A &lt;b&gt;&amp;&lt;/b&gt; &quot;B&quot;</title></head>');
    expect(withTitle('<head></head>', 'X')).toBe('<head><title>X</title></head>');
    expect(withLanguage('<html class="c" lang="ar" dir="rtl">', 'en')).toBe('<html lang="en" dir="ltr" class="c">');
  });

  it('leaves other pages as built', async () => {
    expect(await page('/dashboard')).toContain('<title>Portal</title>');
  });

  it('answers 404 for a built file that is not there, never the page (the service worker would keep it as the file)', async () => {
    for (const url of ['/assets/index-0ldBu1ld.js', '/assets/chunk.css?v=1', '/after-paint-old.js', '/fonts/inter.woff2', '/favicon.ico', '/manifest.webmanifest']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
    }
    // Pages whose address has a dot or a query with one are still the app's.
    for (const url of ['/hs-code?q=0201.10', '/verify/VQ7K2M9XPA4T', '/media-center/x.y/z']) expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
  });
});

describe('compressed assets', () => {
  it('sends the brotli or gzip copy the build wrote to a client that accepts it, and the plain file otherwise', async () => {
    const { brotliCompressSync, gzipSync, brotliDecompressSync } = await import('node:zlib');
    const { mkdirSync } = await import('node:fs');
    // The static plugin lists files at start, so this app is built after the files exist.
    const dir = mkdtempSync(join(tmpdir(), 'halal-web-assets-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Portal</title>');
    mkdirSync(join(dir, 'assets'));
    const js = 'console.log("' + 'x'.repeat(5000) + '");';
    writeFileSync(join(dir, 'assets', 'index-abc123.js'), js);
    writeFileSync(join(dir, 'assets', 'index-abc123.js.br'), brotliCompressSync(js));
    writeFileSync(join(dir, 'assets', 'index-abc123.js.gz'), gzipSync(js));
    const web = await buildApp({ config: testConfig(), database, extra: [(a) => registerWeb(a, { root: dir })] });
    try {
      const br = await web.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.rawPayload.length).toBeLessThan(js.length / 10);
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(js);
      expect(br.headers['cache-control']).toContain('immutable');
      const gz = await web.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      const plain = await web.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(js);
    } finally {
      await web.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('compresses JSON answers of 1 KB or more for a client that accepts it, and not the small ones', async () => {
    const { brotliDecompressSync, gunzipSync } = await import('node:zlib');
    const plain = await app.inject({ method: 'GET', url: '/api/public/news?lang=en' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    const br = await app.inject({ method: 'GET', url: '/api/public/news?lang=en', headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(plain.body.length / 2);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    const gz = await app.inject({ method: 'GET', url: '/api/public/news?lang=en', headers: { 'accept-encoding': 'gzip' } });
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
    const small = await app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});
