import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../../db/client';
import { seed } from '../../../db/seed';
import { spawnServer, type RunningServer } from './spawn';

export { freePort, type RunningServer } from './spawn';

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
  });
}

/**
 * A server on data prepared before it starts: a fresh DATA_DIR with the demo data (seed) and what `prepare` writes
 * there (issued certificates a walk starts from, ...); returns the server and what `prepare` returned.
 */
export async function startServerWithData<T>(
  prepare: (database: Database, dataDir: string) => Promise<T>,
  env: Record<string, string> = {},
): Promise<{ server: RunningServer; data: T }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'halal-e2e-'));
  let data: T;
  const database = await openDatabase({ dataDir });
  try {
    await seed(database.db);
    data = await prepare(database, dataDir);
  } finally {
    await database.close();
  }
  return { server: await startServer({ ...env, DATA_DIR: dataDir }), data };
}
