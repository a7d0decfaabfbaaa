import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { seedBase, seedDemo } from '../db/seed';
import { registerWeb } from './plugins/web';

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
    extra: [(app) => registerWeb(app, { root: config.WEB_DIST })],
  });
  await seedBase(app.db);
  // Demo accounts carry a published password: outside production only (production: no demo data, ever).
  if (config.NODE_ENV !== 'production') await seedDemo(app.db, config.NODE_ENV);
  await app.listen({ port: config.PORT, host: config.HOST });
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => void app.close().then(() => process.exit(0)));
}

void main();
