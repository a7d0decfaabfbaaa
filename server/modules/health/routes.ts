import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { z } from 'zod';

const health: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health',
    {
      config: { policy: 'public' },
      schema: {
        tags: ['health'],
        response: { 200: z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']), version: z.string() }) },
      },
    },
    async () => {
      await app.db.execute(sql`select 1`);
      return { status: 'ok' as const, database: app.database.kind, version: app.config.APP_VERSION };
    },
  );
};
export default health;
