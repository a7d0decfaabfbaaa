import { httpStatusOf } from '../../../server/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { requestHistory } from '../../../db/schema';
import { AppError } from '../../../server/errors';
import { TemporalEngine } from '../../../workflows/temporal/client';
import { workflowIdOf } from '../../../workflows/temporal/shared';
import { createTestDatabase, testDbKind } from '../../helpers/db';
import { engineContract } from '../contract';
import { FACILITY, applicant, reviewer } from '../fixtures/actors';
import { fixtureScenario } from '../fixtures/scenario';
import { FIXTURE_KIND, versionedCatalogue } from './fixtures/catalogues';
import type { TemporalStandIn } from './harness';
import { StandInGateway, WORKFLOWS, createStandIn, replayStandIn, testDeps } from './helpers';

/*
 * TemporalEngine (client.ts) against the in-process stand-in of the server: the same engine contract the embedded
 * engine passes, offline, in every run. Against a live Temporal the same contract runs in contract-live.test.ts.
 */

async function standInEngine(database: Database) {
  // Real clock: the contract compares timer rows with Date.now(), as it would on a cluster.
  const standIn = await createStandIn(database.db, { workflowsPath: WORKFLOWS.fixtureV1, startTime: 'real' });
  const engine = new TemporalEngine({ db: database.db, catalogue: versionedCatalogue(1), deps: testDeps(), gateway: new StandInGateway(standIn) });
  return { standIn, engine };
}

engineContract(
  `temporal adapter on the in-process stand-in, ${testDbKind} (fixture machine)`,
  async () => {
    const database = await createTestDatabase({ seed: false });
    const { standIn, engine } = await standInEngine(database);
    return {
      engine,
      db: database.db,
      fireDueTimers: (at) => standIn.advanceTo(at.getTime()),
      close: async () => {
        await engine.close();
        await database.close();
      },
    };
  },
  fixtureScenario,
);

describe('temporal adapter specifics', () => {
  let database: Database;
  let standIn: TemporalStandIn;
  let engine: TemporalEngine;
  beforeAll(async () => {
    database = await createTestDatabase({ seed: false });
    ({ standIn, engine } = await standInEngine(database));
  });
  afterAll(async () => {
    await engine?.close();
    await database?.close();
  });

  it('32 clients send the same event with the same expectedVersion: one succeeds, 31 get 409, one history row', async () => {
    const req = await engine.start(FIXTURE_KIND, { ownerUserId: applicant.userId, facilityId: FACILITY }, applicant);
    const results = await Promise.allSettled(Array.from({ length: 32 }, () => engine.send(req.id, { type: 'SUBMIT' }, applicant, req.version)));
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(refused).toHaveLength(31);
    for (const e of refused) expect([e instanceof AppError, (e as AppError).code, httpStatusOf(e as AppError)]).toEqual([true, 'ConcurrencyConflict', 409]);
    const rows = await database.db.select().from(requestHistory).where(eq(requestHistory.requestId, req.id));
    expect(rows.map((r) => r.event)).toEqual(['START', 'SUBMIT']);
    // The refused updates were rejected by the validator (or before, on the row's version): the workflow history
    // holds one accepted update besides the start.
    const results2 = await replayStandIn(standIn, workflowIdOf(req.id), WORKFLOWS.fixtureV1);
    expect(results2.map((r) => r.error)).toEqual([undefined]);
  });

  it('an unknown kind is a BadRequest and starts nothing', async () => {
    await expect(engine.start('noSuchKind', { ownerUserId: applicant.userId, facilityId: FACILITY }, applicant)).rejects.toMatchObject({ code: 'BadRequest' });
  });

  it('a request whose workflow completed takes no events (TransitionNotAllowed) and allows no actions', async () => {
    const req = await engine.start(FIXTURE_KIND, { ownerUserId: applicant.userId, facilityId: FACILITY, discountPercent: 100 }, applicant);
    await engine.send(req.id, { type: 'SUBMIT' }, applicant, 1);
    const issued = await engine.send(req.id, { type: 'APPROVE' }, reviewer, 2);
    expect([issued.stateValue, issued.finished]).toEqual(['issued', true]);
    expect(standIn.closed(workflowIdOf(req.id))).toBe(true);
    const refused = await engine.send(req.id, { type: 'SUBMIT' }, applicant, 3).catch((e: unknown) => e);
    expect([(refused as AppError).code, httpStatusOf(refused as AppError)]).toEqual(['TransitionNotAllowed', 409]);
    expect(await engine.allowedActions(req.id, applicant)).toEqual([]);
  });

  it('allowedActions comes from the workflow, and from the stored snapshot once the workflow is gone', async () => {
    const req = await engine.start(FIXTURE_KIND, { ownerUserId: applicant.userId, facilityId: FACILITY }, applicant);
    expect((await engine.allowedActions(req.id, applicant)).map((a) => a.type).sort()).toEqual(['SAVE', 'SUBMIT']);
    const noWorkflow = new TemporalEngine({
      db: database.db,
      catalogue: versionedCatalogue(1),
      deps: testDeps(),
      gateway: {
        start: () => Promise.reject(new Error('not used')),
        sendEvent: () => Promise.reject(new Error('not used')),
        allowedActions: async () => null,
        close: async () => undefined,
      },
    });
    expect((await noWorkflow.allowedActions(req.id, applicant)).map((a) => a.type).sort()).toEqual(['SAVE', 'SUBMIT']);
  });
});
