import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { buildApp } from '../../server/app';
import { testConfig } from '../../server/config';
import { createTestDatabase } from '../helpers/db';
import type { Database } from '../../db/client';
import { ZInternalRequest, ZInternalRequestDraft } from '../../machines/forms';
import { goodRequest } from './fixtures';

/**
 * The form schemas used as route bodies: the server's error handler turns each issue into the same `validation`
 * text the web shows, in the caller's language.
 */
let app: FastifyInstance;
let database: Database;
beforeAll(async () => {
  database = await createTestDatabase({ seed: false });
  app = await buildApp({
    config: testConfig(),
    database,
    extra: [
      async (a) => {
        const z = a.withTypeProvider<ZodTypeProvider>();
        z.post('/api/test-forms/submit', { config: { policy: 'public' }, schema: { body: ZInternalRequest } }, async () => ({ ok: true }));
        z.post('/api/test-forms/draft', { config: { policy: 'public' }, schema: { body: ZInternalRequestDraft } }, async () => ({ ok: true }));
      },
    ],
  });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await database?.close();
});

const post = (url: string, payload: unknown, lang: string) => app.inject({ method: 'POST', url: `${url}?lang=${lang}`, payload: payload as object });

describe('form messages through the server', () => {
  it('a valid request passes the route schema', async () => {
    expect((await post('/api/test-forms/submit', goodRequest(), 'en')).statusCode).toBe(200);
  });

  it('refusals carry the bilingual validation texts with the field paths', async () => {
    const bad = goodRequest();
    (bad.production as Record<string, unknown>).productionArea = 1234567;
    (bad.agreement as Record<string, unknown>).accepted = false;
    const en = (await post('/api/test-forms/submit', bad, 'en')).json().error.validationErrors;
    expect(en).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ message: 'Enter a number of at most 6 digits with at most 2 decimals', members: ['production.productionArea'] }),
        expect.objectContaining({ message: 'You must tick the agreement checkbox', members: ['agreement.accepted'] }),
      ]),
    );
    const ar = (await post('/api/test-forms/submit', bad, 'ar')).json().error.validationErrors;
    expect(ar).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ message: 'أدخل رقمًا لا يتجاوز 6 خانات وبحد أقصى منزلتين عشريتين', members: ['production.productionArea'] }),
        expect.objectContaining({ message: 'يجب الموافقة على الإقرار بوضع علامة في مربع الاختيار', members: ['agreement.accepted'] }),
      ]),
    );
  });

  it('the schemas can describe a route body in the OpenAPI document', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().paths)).toEqual(expect.arrayContaining(['/api/test-forms/submit', '/api/test-forms/draft']));
  });

  it('a draft route takes partial data and still refuses a broken field', async () => {
    expect((await post('/api/test-forms/draft', { factory: { nameEn: 'Al Marai' } }, 'en')).statusCode).toBe(200);
    const res = await post('/api/test-forms/draft', { products: [{ brandAr: 'Almarai' }] }, 'en');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.validationErrors).toMatchObject([{ message: 'Use Arabic letters only', members: ['products.0.brandAr'] }]);
  });
});
