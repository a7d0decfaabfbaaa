import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../../db/client';
import { spawnServer, type RunningServer } from './spawn';

export { freePort, type RunningServer } from './spawn';

/** A fresh DATA_DIR: a copy of the one global-setup.ts migrated and seeded (the server's own start then seeds nothing new). */
function freshDataDir(): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'halal-e2e-'));
  cpSync(inject('dataTemplate'), dataDir, { recursive: true });
  return dataDir;
}

/**
 * The real server for a test file (spawn.ts), serving the web build made by global-setup.ts (so it must run under
 * tests/e2e/vitest.config.ts). `env` overrides settings (e.g. SESSION_TIME_MINUTES; a DATA_DIR given is used and
 * removed on stop).
 */
export function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  return spawnServer({
    // Tests sign in far more often than a person; the limit itself is covered by the server tests.
    LOGIN_RATE_LIMIT_PER_MINUTE: '10000',
    // This run's own build (global-setup.ts), safe from a rebuild of web/dist meanwhile.
    WEB_DIST: inject('webDist'),
    ...env,
    DATA_DIR: env.DATA_DIR ?? freshDataDir(),
  });
}

/**
 * A server on data prepared before it starts: a fresh DATA_DIR with the demo data (freshDataDir) and what `prepare` writes
 * there (issued certificates a walk starts from, ...); returns the server and what `prepare` returned.
 */
export async function startServerWithData<T>(
  prepare: (database: Database, dataDir: string) => Promise<T>,
  env: Record<string, string> = {},
): Promise<{ server: RunningServer; data: T }> {
  const dataDir = freshDataDir();
  let data: T;
  const database = await openDatabase({ dataDir });
  try {
    data = await prepare(database, dataDir);
  } finally {
    await database.close();
  }
  return { server: await startServer({ ...env, DATA_DIR: dataDir }), data };
}
