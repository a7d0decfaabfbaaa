import { openDatabase } from '../db/client';
import { FirstAdminRefused, createFirstAdmin } from '../db/first-admin';
import { ConfigError, loadConfig } from '../server/config';

/* `npm run admin:create -- <user name> <email>`: the first administrator (db/first-admin.ts). Works in production. */
const [userName, email] = process.argv.slice(2);
try {
  if (!userName || !email) throw new FirstAdminRefused('usage: npm run admin:create -- <user name> <email>');
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, maxConnections: 2 });
  try {
    const created = await createFirstAdmin(database.db, { userName, email, password: process.env.ADMIN_PASSWORD || undefined });
    console.log(`administrator ${created.userName} created${process.env.ADMIN_PASSWORD ? '' : `; password (shown once): ${created.password}`}`);
  } finally {
    await database.close();
  }
} catch (err) {
  console.error(err instanceof ConfigError || err instanceof FirstAdminRefused ? err.message : err);
  process.exit(1);
}
