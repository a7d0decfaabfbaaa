import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker } from '@temporalio/worker';
import { openDatabase } from '../db/client';
import { createServices } from '../machines/services';
import { storeDeps } from '../workflows';
import { createActivities } from '../workflows/temporal/activities';
import { businessDefaults } from './business-defaults';
import { configureHistoryKeys } from '../workflows/hash-chain';
import { ConfigError, loadConfig, type Config } from './config';

/*
 * `npm run worker`: polls the request task queue, runs the request workflows (bundled from workflows.ts) and their
 * activities against the same database as the server. Several workers may run side by side; Temporal gives each
 * workflow task and activity to one of them.
 */

export const WORKFLOWS_PATH = fileURLToPath(new URL('../workflows/temporal/workflows.ts', import.meta.url));

/** The settings the worker needs beyond the server's, checked before anything connects. */
export function workerSettings(config: Config): { address: string; databaseUrl: string } {
  const problems: string[] = [];
  if (!config.TEMPORAL_ADDRESS) problems.push('  TEMPORAL_ADDRESS: required by the worker (host:port of the Temporal frontend)');
  // PGlite lives inside one process; the worker and the server can only share a PostgreSQL database.
  if (!config.DATABASE_URL) problems.push('  DATABASE_URL: required by the worker (the PostgreSQL database the server uses)');
  if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  return { address: config.TEMPORAL_ADDRESS!, databaseUrl: config.DATABASE_URL! };
}

/** Runs the worker until SIGINT/SIGTERM (the SDK's runtime shuts it down gracefully), then closes the database. */
export async function runWorker(config: Config): Promise<void> {
  const { address, databaseUrl } = workerSettings(config);
  configureHistoryKeys({ keys: config.HISTORY_KEYS, acceptLegacy: config.HISTORY_ACCEPT_LEGACY });
  const database = await openDatabase({ databaseUrl, maxConnections: config.DATABASE_POOL_SIZE });
  const connection = await NativeConnection.connect({ address });
  try {
    const worker = await Worker.create({
      connection,
      namespace: config.TEMPORAL_NAMESPACE,
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      workflowsPath: WORKFLOWS_PATH,
      // The same service contract and business settings as the server's engine, so bills come out identical.
      activities: createActivities({
        db: database.db,
        store: storeDeps({ settings: () => businessDefaults(config), services: createServices({ hsRules: config.HALAL_HS_PREFIXES }) }),
      }),
    });
    await worker.run();
  } finally {
    await connection.close();
    await database.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    await runWorker(loadConfig());
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  }
}
