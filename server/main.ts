import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { seed } from '../db/seed';

const WEB_DIST = fileURLToPath(new URL('../web/dist', import.meta.url));

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  const app = await buildApp({
    config,
    extra: [
      async (app) => {
        if (!existsSync(WEB_DIST)) {
          app.log.warn('web/dist is missing: run `npm run build` to serve the portal pages');
          return;
        }
        await app.register(fastifyStatic, { root: WEB_DIST, wildcard: false, index: false });
        // The SPA owns every non-API path: serve index.html and let the router (and its 404 screen) decide.
        app.get('/*', { config: { policy: 'public' } }, (request, reply) => {
          if (request.url.startsWith('/api/')) return reply.callNotFound();
          return reply.type('text/html').sendFile('index.html');
        });
      },
    ],
  });
  await seed(app.db);
  await app.listen({ port: config.PORT, host: config.HOST });
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => void app.close().then(() => process.exit(0)));
}

void main();
