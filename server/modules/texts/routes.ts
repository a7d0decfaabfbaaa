import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Permissions } from '../../../machines/permissions';
import { MAX_TEXT_LENGTH } from '../../../machines/text-overrides';
import { errorResponses, zSearchText } from '../../schemas';
import { registerErrorStatus } from '../../errors';
import { TextStore } from '../../admin/text-store';

registerErrorStatus({ TextKeyUnknown: 400, TextVariablesDiffer: 400 });

declare module 'fastify' {
  interface FastifyInstance {
    /** The administrator's text overrides (language-management, text-template-management). */
    textStore: TextStore;
  }
}

const ZLang = z.enum(['ar', 'en']);
const ZOverrides = z.object({ ar: z.record(z.string(), z.record(z.string(), z.string())), en: z.record(z.string(), z.record(z.string(), z.string())) });
const ZText = z.object({ original: z.string(), override: z.string().nullable(), variables: z.array(z.string()) }).nullable();
const ZEntry = z.object({ namespace: z.string(), key: z.string(), template: z.boolean(), texts: z.object({ ar: ZText, en: ZText }) });
const ZTarget = z.object({
  lang: ZLang,
  namespace: z.string().trim().min(1).max(100),
  key: z.string().trim().min(1).max(300),
});
const ZFlag = z
  .enum(['true', 'false'])
  .optional()
  .transform((v) => v === 'true');

/**
 * Text overrides (issue 15 item 5): the web reads the overrides in force; an administrator lists the bundled texts
 * with their overrides and changes or resets one (parity rule enforced, audited like a settings change).
 */
const textRoutes: FastifyPluginAsyncZod = async (app) => {
  const store = new TextStore(app.db, 2_000, (msg, err) => app.log.warn({ err }, msg));
  await store.refresh();
  app.decorate('textStore', store);
  // A change saved by another server process reaches this one's messages within the refresh interval.
  app.addHook('onRequest', async () => store.touch());
  app.addHook('onClose', async () => store.close());

  app.get(
    '/api/texts/overrides',
    {
      config: { policy: 'public' },
      schema: {
        tags: ['texts'],
        summary: 'The text overrides in force, per language and namespace (dotted keys), laid by the web over its bundled texts',
        response: { 200: ZOverrides, ...errorResponses },
      },
    },
    async (_request, reply) => {
      void reply.header('cache-control', 'no-store');
      return store.resources();
    },
  );

  app.get(
    '/api/admin/texts',
    {
      config: { policy: Permissions.settings.manage },
      schema: {
        tags: ['admin'],
        summary: 'The bundled texts with their overrides, by namespace, searchable (templates: only SMS and notification texts)',
        querystring: z.object({
          namespace: z.string().trim().max(100).optional(),
          search: zSearchText(200),
          templates: ZFlag,
          overriddenOnly: ZFlag,
          skipCount: z.coerce.number().int().min(0).default(0),
          maxResultCount: z.coerce.number().int().min(1).max(200).default(25),
        }),
        response: { 200: z.object({ totalCount: z.number(), items: z.array(ZEntry), namespaces: z.array(z.string()) }), ...errorResponses },
      },
    },
    async (request) => {
      await store.refresh();
      return store.list(request.query);
    },
  );

  app.put(
    '/api/admin/texts',
    {
      config: { policy: Permissions.settings.manage },
      schema: {
        tags: ['admin'],
        summary: 'Overrides one text in one language: the key must exist in both languages and keep its {{variables}}; in force at once, audited',
        body: ZTarget.extend({ value: z.string().max(MAX_TEXT_LENGTH) }),
        response: { 200: z.object({ entry: ZEntry }), ...errorResponses },
      },
    },
    async (request) => {
      const u = request.sessionUser!;
      const { lang, namespace, key, value } = request.body;
      await store.set(lang, namespace, key, value, { userId: u.id, userName: u.userName, ip: request.ip });
      return { entry: entryOf(store, namespace, key) };
    },
  );

  app.post(
    '/api/admin/texts/reset',
    {
      config: { policy: Permissions.settings.manage },
      schema: {
        tags: ['admin'],
        summary: 'Removes the override of one text in one language: the bundled text is in force again (audited)',
        body: ZTarget,
        response: { 200: z.object({ entry: ZEntry }), ...errorResponses },
      },
    },
    async (request) => {
      const u = request.sessionUser!;
      const { lang, namespace, key } = request.body;
      await store.reset(lang, namespace, key, { userId: u.id, userName: u.userName, ip: request.ip });
      return { entry: entryOf(store, namespace, key) };
    },
  );
};

function entryOf(store: TextStore, namespace: string, key: string) {
  return store.list({ namespace, skipCount: 0, maxResultCount: 100_000 }).items.find((e) => e.key === key)!;
}

// Not encapsulated: the refresh hook runs on every request, and app.textStore is visible to every module.
export default fp(textRoutes, { name: 'texts' });
