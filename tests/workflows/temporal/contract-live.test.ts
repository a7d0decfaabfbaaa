import { describe, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { and, isNotNull, isNull, lte } from 'drizzle-orm';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { workflowTimers } from '../../../db/schema';
import { TemporalEngine, TemporalGateway } from '../../../workflows/temporal/client';
import { createTestDatabase, testDbKind } from '../../helpers/db';
import { engineContract, type ContractScenario } from '../contract';
import { fixtureScenario } from '../fixtures/scenario';
import { versionedCatalogue } from './fixtures/catalogues';
import { WORKFLOWS, activitiesFor, quietRuntime, testDeps } from './helpers';

/*
 * The engine contract against a live Temporal (docker compose up temporal, then TEMPORAL_ADDRESS=localhost:7233).
 * This file runs its own worker on a task queue of its own, hosting the fixture machine, on the test database.
 * Timers are real: the payment window is 3 seconds here and fireDueTimers waits for the cluster to fire them.
 */

const address = process.env.TEMPORAL_ADDRESS;
const namespace = process.env.TEMPORAL_NAMESPACE ?? 'default';
const WINDOW_MS = 3_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (!address) {
  console.log('temporal contract suite skipped: TEMPORAL_ADDRESS not set');
  describe.skip('engine contract: temporal adapter on a live cluster', () => {
    it('needs TEMPORAL_ADDRESS', () => undefined);
  });
} else {
  const scenario: ContractScenario = { ...fixtureScenario, deadline: { ...fixtureScenario.deadline, durationMs: WINDOW_MS } };
  engineContract(
    `temporal adapter on ${address}, ${testDbKind} (fixture machine)`,
    async () => {
      quietRuntime();
      const base = testDeps();
      const deps = { ...base, durations: () => ({ ...base.durations(), paymentWindow: WINDOW_MS }), settings: () => ({ ...base.settings(), paymentWindowHours: WINDOW_MS / 3_600_000 }) };
      const database = await createTestDatabase({ seed: false });
      const taskQueue = `halal-contract-${randomUUID()}`;
      const workerConnection = await NativeConnection.connect({ address });
      const worker = await Worker.create({
        connection: workerConnection,
        namespace,
        taskQueue,
        workflowsPath: WORKFLOWS.fixtureV1,
        activities: activitiesFor(database.db, deps),
      });
      const running = worker.run();
      const connection = await Connection.connect({ address });
      const gateway = new TemporalGateway(new Client({ connection, namespace }), taskQueue, () => connection.close());
      const engine = new TemporalEngine({ db: database.db, catalogue: versionedCatalogue(1), deps, gateway });
      return {
        engine,
        db: database.db,
        // The cluster fires timers on its own clock: wait until `at` (at most a few seconds: a later `at` only asks
        // that nothing more fires), then until every timer row due by then is fired or cancelled.
        async fireDueTimers(at: Date): Promise<number> {
          const from = new Date();
          const wait = Math.min(at.getTime() - Date.now(), 5_000);
          if (wait > 0) await sleep(wait);
          const until = Date.now() + 15_000;
          for (;;) {
            const pending = await database.db
              .select()
              .from(workflowTimers)
              .where(and(isNull(workflowTimers.firedAt), isNull(workflowTimers.cancelledAt), lte(workflowTimers.dueAt, at)));
            if (!pending.length || Date.now() > until) break;
            await sleep(200);
          }
          const fired = await database.db.select().from(workflowTimers).where(and(isNotNull(workflowTimers.firedAt)));
          return fired.filter((t) => t.firedAt! >= from).length;
        },
        async close() {
          await engine.close();
          worker.shutdown();
          await running;
          await workerConnection.close();
          await database.close();
        },
      };
    },
    scenario,
  );
}
