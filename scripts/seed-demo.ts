import { openDatabase } from '../db/client';
import { DemoSeedRefused, seedBase, seedDemo } from '../db/seed';
import { ConfigError, loadConfig } from '../server/config';

/*
 * `npm run seed:demo`: the demo facilities, one account per role (password Demo@12345, README "Demo accounts"), the
 * demo certificates, and the demo requests of every service in their statuses (scripts/lib/demo-requests.ts), into
 * the configured database (DATABASE_URL, else PGlite in DATA_DIR). Refused with NODE_ENV=production. Idempotent.
 * `npm start` seeds the accounts and certificates only; the requests come with this command (README).
 */
try {
  const config = loadConfig();
  if (config.NODE_ENV === 'production') throw new DemoSeedRefused();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, maxConnections: 2 });
  try {
    await seedBase(database.db);
    await seedDemo(database.db, config.NODE_ENV);
    // Loaded only past the production refusal: it builds the whole server to drive the requests through it.
    const { formatSummary, seedDemoRequests, withDemoApp } = await import('./lib/demo-requests');
    const summary = await withDemoApp(config, database, seedDemoRequests);
    console.log(formatSummary(summary));
  } finally {
    await database.close();
  }
  console.log('demo data seeded');
} catch (err) {
  console.error(err instanceof ConfigError || err instanceof DemoSeedRefused ? err.message : err);
  process.exit(1);
}
