import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { testConfig } from '../../server/config';
import { acceptedEncoding, registerWeb } from '../../server/plugins/web';
import { createTestDatabase } from '../helpers/db';
import type { Database } from '../../db/client';

/**
 * Issue 18: the built web app is sent pre-compressed (the .br and .gz copies the build wrote) to clients that
 * accept it, hashed files cached for a year, index.html (plain or rewritten with a public page's title) revalidated
 * on every load and compressed too.
 */
let app: FastifyInstance;
let database: Database;
let root: string;
const INDEX = '<!doctype html><html lang="ar" dir="rtl"><head><meta name="description" content="default" /><title>Portal</title></head><body>' + '<!-- shell -->'.repeat(200) + '</body></html>';
const SCRIPT = 'console.log("' + 'x'.repeat(5000) + '");';

beforeAll(async () => {
  // The static plugin lists files at start, so the app is built after the files exist.
  root = mkdtempSync(join(tmpdir(), 'halal-web-assets-'));
  const write = (name: string, text: string) => {
    writeFileSync(join(root, name), text);
    writeFileSync(join(root, `${name}.br`), brotliCompressSync(text));
    writeFileSync(join(root, `${name}.gz`), gzipSync(text));
  };
  mkdirSync(join(root, 'assets'));
  write('index.html', INDEX);
  write('assets/index-abc123.js', SCRIPT);
  writeFileSync(join(root, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  database = await createTestDatabase();
  app = await buildApp({ config: testConfig(), database, extra: [(a) => registerWeb(a, { root })] });
  await app.ready();
}, 120_000);
afterAll(async () => {
  await app?.close();
  await database?.close();
  rmSync(root, { recursive: true, force: true });
});

const get = (url: string, encoding: string) => app.inject({ method: 'GET', url, headers: { 'accept-encoding': encoding } });

describe('static files of the web app', () => {
  it('sends a hashed script as the brotli or gzip copy the client accepts, cached for a year', async () => {
    const br = await get('/assets/index-abc123.js', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(SCRIPT.length / 10);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const gz = await get('/assets/index-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const plain = await get('/assets/index-abc123.js', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('sends index.html for an app path compressed and revalidated on every load', async () => {
    const br = await get('/dashboard', 'br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(INDEX);
    expect(br.headers['cache-control']).toBe('no-cache');
    const gz = await get('/dashboard', 'gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(INDEX);
    expect(gz.headers['cache-control']).toBe('no-cache');
  });

  it('compresses the index.html rewritten with a public page title, and revalidates it', async () => {
    const br = await get('/hs-code?lang=en', 'gzip, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toMatch(/<html lang="en" dir="ltr">[\s\S]*\| National Halal Center<\/title>/);
    const gz = await get('/hs-code?lang=en', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toContain('National Halal Center</title>');
    const plain = await get('/hs-code?lang=en', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('National Halal Center</title>');
  });

  it('revalidates the service worker script (a new build replaces it at once)', async () => {
    const sw = await get('/sw.js', 'identity');
    expect(sw.statusCode).toBe(200);
    expect(sw.headers['cache-control']).toBe('no-cache');
  });

  it('reads accept-encoding: brotli first, gzip next, a refused one skipped', () => {
    expect(acceptedEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(acceptedEncoding('gzip;q=1.0, br;q=0')).toBe('gzip');
    expect(acceptedEncoding('identity')).toBeUndefined();
    expect(acceptedEncoding(undefined)).toBeUndefined();
  });
});
