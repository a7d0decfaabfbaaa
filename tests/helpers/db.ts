import { readFileSync } from 'node:fs';
import postgres from 'postgres';
import { openDatabase, type Database } from '../../db/client';
import { seed } from '../../db/seed';

/** The PostgreSQL server the suite also runs against when DATABASE_URL is set (CI does); PGlite otherwise. */
export const TEST_DATABASE_URL = process.env.DATABASE_URL;
export const testDbKind = TEST_DATABASE_URL ? 'postgres' : 'pglite';

/** Where tests/helpers/global-setup.ts left the dump of a migrated PGlite (unset outside the suite, e.g. in benchmarks). */
export const TEMPLATE_ENV = 'HALAL_TEST_PGLITE_TEMPLATE';
let template: Blob | undefined;
function migratedTemplate(): Blob | undefined {
  const file = process.env[TEMPLATE_ENV];
  if (file && !template) template = new Blob([readFileSync(file)]);
  return template;
}

/**
 * A fresh, migrated and seeded database of its own: an in-memory PGlite, or a new database on the PostgreSQL
 * server (dropped again on close), so test files never see each other's rows.
 */
export async function createTestDatabase(opts: { seed?: boolean; maxConnections?: number } = {}): Promise<Database> {
  let database: Database;
  if (TEST_DATABASE_URL) {
    const name = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    const inner = await openDatabase({ databaseUrl: url.toString(), maxConnections: opts.maxConnections ?? 10 });
    database = {
      ...inner,
      async close() {
        await inner.close();
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  } else {
    database = await openDatabase({ template: migratedTemplate() });
  }
  if (opts.seed !== false) await seed(database.db);
  return database;
}
