import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZPortalSettings } from '../../../machines/admin-settings';
import { Permissions } from '../../../machines/permissions';
import { errorResponses } from '../../schemas';

const ZSnapshot = z.object({
  value: ZPortalSettings,
  defaults: ZPortalSettings,
  version: z.number(),
  updatedAt: z.string().nullable(),
});

/** setting-management: the business settings in force, their defaults, and saving a change (audited). */
const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/settings',
    {
      config: { policy: Permissions.settings.manage },
      schema: { tags: ['admin'], summary: 'The settings in force and the environment defaults', response: { 200: ZSnapshot, ...errorResponses } },
    },
    async () => {
      await app.settingsStore.refresh();
      return app.settingsStore.snapshot();
    },
  );

  app.put(
    '/api/admin/settings',
    {
      config: { policy: Permissions.settings.manage },
      schema: {
        tags: ['admin'],
        summary: 'Saves the settings (validated; 409 when expectedVersion is stale); in force at once, audited with old and new values',
        body: z.object({ value: z.record(z.string(), z.unknown()), expectedVersion: z.number().int().min(0) }),
        response: { 200: ZSnapshot.extend({ changes: z.array(z.object({ path: z.string(), old: z.unknown(), new: z.unknown() })) }), ...errorResponses },
      },
    },
    async (request) => {
      const u = request.sessionUser!;
      const { snapshot, changes } = await app.settingsStore.update(request.body.value, request.body.expectedVersion, {
        userId: u.id,
        userName: u.userName,
        ip: request.ip,
      });
      return { ...snapshot, changes };
    },
  );
};
export default settingsRoutes;
