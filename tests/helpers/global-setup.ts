import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { drizzleOnPglite, MIGRATIONS_FOLDER } from '../../db/client';
import { TEMPLATE_ENV } from './db';

/**
 * Migrates one in-memory PGlite before the suite and dumps it to a file, which every test database on PGlite starts
 * from (tests/helpers/db.ts): initdb and the migrations took ~2 s of each of the suite's few hundred databases. Only
 * the schema: each database still runs the demo seed itself, so the seeded dates are the test's own day.
 */
export default async function setup(): Promise<(() => void) | undefined> {
  if (process.env.DATABASE_URL) return undefined;
  const client = new PGlite();
  try {
    await migrate(await drizzleOnPglite(client), { migrationsFolder: MIGRATIONS_FOLDER });
    const dump = await client.dumpDataDir('none');
    const dir = mkdtempSync(join(tmpdir(), 'halal-test-template-'));
    const file = join(dir, 'migrated.tar');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    // The forks inherit the environment they start with.
    process.env[TEMPLATE_ENV] = file;
    return () => rmSync(dir, { recursive: true, force: true });
  } finally {
    await client.close();
  }
}
