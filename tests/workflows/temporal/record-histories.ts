import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { initialTransition, transition, type AnyMachineSnapshot } from 'xstate';
import { getMachine, registry, type MachineEvent, type MachineKind } from '../../../machines';
import { eventsFor, inputFor } from '../../machines/samples';
import { systemEventSignal } from '../../../workflows/temporal/shared';
import type { RequestWorkflowInput } from '../../../workflows/temporal/shared';
import type { StartInput } from '../../../workflows/engine';
import { openDatabase } from '../../../db/client';
import { REQUEST_WORKFLOW_TYPE, sendEventUpdate, startedUpdate, workflowIdOf } from '../../../workflows/temporal/shared';
import type { Actor } from '../../../machines/actor';
import { applicant, reviewer } from '../fixtures/actors';
import type { TemporalStandIn, UpdateResult } from './harness';
import { HISTORIES_DIR, WORKFLOWS, createStandIn, fixtureInput, settled, testDeps } from './helpers';
import { isRequestKind } from '../../../machines/services';
import { VALID_DATA } from '../../services/fixtures';

/*
 * Writes the committed histories (histories/*.json) by running real lifecycles through the stand-in: the workflow
 * bundle, the real activities on a throwaway database. Run it only when the workflow changes on purpose and new
 * histories are wanted; the old files stay useful as long as the code still replays them (replay.test.ts):
 *
 *   npx tsx tests/workflows/temporal/record-histories.ts
 *
 * histories/index.json names, per file, the worker that replays it (see helpers.ts WORKFLOWS).
 */

const HOUR = 3_600_000;
const START = Date.UTC(2026, 0, 15, 8, 0, 0);

type Index = Record<string, { workflows: keyof typeof WORKFLOWS; workflowId: string; story: string }>;

async function lifecycle(
  workflows: keyof typeof WORKFLOWS,
  input: (requestId: string) => RequestWorkflowInput,
  story: (ctx: { standIn: TemporalStandIn; workflowId: string; send: (type: string, actor: Actor, expectedVersion?: number, payload?: Record<string, unknown>) => Promise<UpdateResult> }) => Promise<void>,
) {
  // A throwaway in-memory PGlite: the histories record workflow commands, not this database's rows.
  const database = await openDatabase({});
  const standIn = await createStandIn(database.db, { workflowsPath: WORKFLOWS[workflows], startTime: START });
  const requestId = randomUUID();
  const workflowId = workflowIdOf(requestId);
  settled(await standIn.start(REQUEST_WORKFLOW_TYPE, workflowId, [input(requestId)], { name: startedUpdate.name, args: [] }));
  const send = (type: string, actor: Actor, expectedVersion?: number, payload: Record<string, unknown> = {}) =>
    standIn.update(workflowId, sendEventUpdate.name, { event: { type, ...payload }, actor, ...(expectedVersion !== undefined ? { expectedVersion } : {}) });
  await story({ standIn, workflowId, send });
  const runs = standIn.runs(workflowId).map((_, i) => standIn.historyJson(workflowId, i));
  await standIn.dispose();
  await database.close();
  return { workflowId, runs };
}

/**
 * The shortest way through a production machine to a state, with events the machines' model tests use (valid
 * payloads, actors that satisfy each guard): a real lifecycle, not one written by hand for the test.
 */
function pathTo(kind: MachineKind, goal: (s: AnyMachineSnapshot) => boolean): MachineEvent[] {
  const machine = getMachine(kind, registry[kind].current);
  const next = eventsFor(kind, machine);
  const seen = new Set<string>();
  let frontier = [{ snapshot: initialTransition(machine, inputFor(kind))[0] as AnyMachineSnapshot, path: [] as MachineEvent[] }];
  while (frontier.length) {
    const following: typeof frontier = [];
    for (const { snapshot, path } of frontier) {
      if (goal(snapshot)) return path;
      const key = JSON.stringify(snapshot.value);
      if (seen.has(key)) continue;
      seen.add(key);
      for (const event of next(snapshot)) following.push({ snapshot: transition(machine, snapshot, event)[0], path: [...path, event] });
    }
    frontier = following;
  }
  throw new Error(`no path through ${kind}`);
}

function productionInput(kind: MachineKind, requestId: string, starter: Actor): RequestWorkflowInput {
  const { ownerUserId, facilityId, discountPercent, data } = inputFor(kind);
  // A request starts with complete data: the service contract refuses to submit anything less.
  const input: StartInput = { ownerUserId, facilityId, discountPercent, data: isRequestKind(kind) ? VALID_DATA[kind]() : data };
  return { requestId, kind, durations: testDeps().durations(), start: { input, actor: starter, creatorName: 'Khalid Al-Harbi' } };
}

/** Sends a path's events, each with its own actor and the version it expects. */
async function walk(send: (type: string, actor: Actor, expectedVersion?: number, payload?: Record<string, unknown>) => Promise<UpdateResult>, path: MachineEvent[], from = 1) {
  let version = from;
  for (const event of path) {
    const { type, actor, ...payload } = event as MachineEvent & { actor: Actor };
    settled(await send(type, actor, version, payload));
    version++;
  }
  return version;
}

async function main() {
  mkdirSync(HISTORIES_DIR, { recursive: true });
  const index: Index = {};
  const write = (file: string, workflows: keyof typeof WORKFLOWS, workflowId: string, story: string, json: string) => {
    writeFileSync(`${HISTORIES_DIR}/${file}`, json);
    index[file] = { workflows, workflowId, story };
  };

  {
    const story =
      'Draft submitted; a stale SUBMIT refused by the validator (no events); assigned, returned with a reason, resubmitted ' +
      'twice at once without expectedVersion (the second accepted then refused by the handler); approved (bill, payment timer); paid (timer cancelled, certificate); completed.';
    const { workflowId, runs } = await lifecycle('fixtureV2', (id) => fixtureInput(id), async ({ standIn, workflowId, send }) => {
      settled(await send('SUBMIT', applicant, 1));
      const stale = await send('SUBMIT', applicant, 1);
      if (stale.outcome !== 'rejected') throw new Error('expected the stale SUBMIT to be rejected');
      settled(await send('ASSIGN_TO_ME', reviewer, 2));
      settled(await send('RETURN', reviewer, 3, { reason: 'The quality manual is missing' }));
      const both = await standIn.updates(workflowId, [
        { name: sendEventUpdate.name, args: [{ event: { type: 'SUBMIT' }, actor: applicant }] },
        { name: sendEventUpdate.name, args: [{ event: { type: 'SUBMIT' }, actor: applicant }] },
      ]);
      if (both.map((r) => r.outcome).join() !== 'completed,failed') throw new Error(`unexpected outcomes ${both.map((r) => r.outcome).join()}`);
      settled(await send('APPROVE', reviewer, 5));
      settled(await send('PAY', applicant, 6));
    });
    write('fixture-accepted-and-refused.json', 'fixtureV2', workflowId, story, runs[0]);
  }
  {
    const story = 'Submitted and approved; nobody pays; the 72 h payment timer fires PAYMENT_EXPIRED as the system; completed.';
    const { workflowId, runs } = await lifecycle('fixtureV2', (id) => fixtureInput(id), async ({ standIn, send }) => {
      settled(await send('SUBMIT', applicant, 1));
      settled(await send('APPROVE', reviewer, 2));
      await standIn.advance(72 * HOUR + 60_000);
    });
    write('fixture-payment-deadline.json', 'fixtureV2', workflowId, story, runs[0]);
  }
  {
    const story =
      'A draft saved again and again: past 20 events the run continues as new, carrying snapshot, version and the draft ' +
      'deadline; in the second run the retention timer fires DRAFT_EXPIRED and the draft is deleted.';
    const { workflowId, runs } = await lifecycle('fixtureV2', (id) => fixtureInput(id, { continueAsNewAfterEvents: 20 }), async ({ standIn, workflowId, send }) => {
      let version = 1;
      while (standIn.runs(workflowId).length === 1) settled(await send('SAVE', applicant, version++, { data: { round: version } }));
      settled(await send('SAVE', applicant, version, { data: { round: 'second run' } }));
      await standIn.advance(31 * 24 * HOUR);
    });
    if (runs.length !== 2) throw new Error(`expected two runs, got ${runs.length}`);
    write('fixture-continue-as-new-run1.json', 'fixtureV2', workflowId, story, runs[0]);
    write('fixture-continue-as-new-run2.json', 'fixtureV2', workflowId, story, runs[1]);
  }
  {
    const story =
      'Recorded on a worker that knew version 1 only: a 50 % discount request goes through payment. Replayed on the ' +
      'worker that knows version 2, which must keep it on version 1 (no patch marker in this history).';
    const { workflowId, runs } = await lifecycle('fixtureV1', (id) => fixtureInput(id, { discountPercent: 50 }), async ({ send }) => {
      settled(await send('SUBMIT', applicant, 1));
      settled(await send('APPROVE', reviewer, 2));
      settled(await send('PAY', applicant, 3));
    });
    write('fixture-machine-v1.json', 'fixtureV2', workflowId, story, runs[0]);
  }
  {
    const story = 'Started on version 2 (patch marker recorded): the same 50 % discount request is issued without payment.';
    const { workflowId, runs } = await lifecycle('fixtureV2', (id) => fixtureInput(id, { discountPercent: 50 }), async ({ send }) => {
      settled(await send('SUBMIT', applicant, 1));
      settled(await send('APPROVE', reviewer, 2));
    });
    write('fixture-machine-v2.json', 'fixtureV2', workflowId, story, runs[0]);
  }

  {
    const kind = 'internalCertificate' as const;
    const path = pathTo(kind, (s) => s.value === 'completed');
    const story =
      `A production internal certificate request, start to certificate (${path.map((e) => e.type).join(', ')}); along the ` +
      'way a stale event and an event from the wrong user are refused (no events), and the first payment ' +
      'confirmation arrives as a systemEvent signal (as a payment callback that nobody waits for would).';
    const starter = (path[0] as MachineEvent & { actor: Actor }).actor;
    const { workflowId, runs } = await lifecycle('production', (id) => productionInput(kind, id, starter), async ({ standIn, workflowId, send }) => {
      const [submit, confirm, ...rest] = path;
      let version = await walk(send, [submit]);
      if ((await send('SUBMIT', starter, 1)).outcome !== 'rejected') throw new Error('expected a stale SUBMIT to be refused');
      if (confirm.type !== 'PAYMENT_CONFIRMED') throw new Error(`expected the application fee next, got ${confirm.type}`);
      await standIn.signal(workflowId, systemEventSignal.name, { event: { type: 'PAYMENT_CONFIRMED' } });
      version++;
      const [assign, ...tail] = rest;
      const stranger: Actor = { userId: 'stranger', roles: [], permissions: [], facilityIds: [] };
      if ((await send(assign.type, stranger, version)).outcome !== 'rejected') throw new Error('expected the stranger to be refused');
      await walk(send, [assign, ...tail], version);
    });
    write('internal-certificate-issued.json', 'production', workflowId, story, runs[0]);
  }
  {
    const kind = 'internalCertificate' as const;
    const path = pathTo(kind, (s) => s.matches('applicationFee'));
    const story =
      'A production internal certificate request submitted; its application fee is never paid: the payment window ' +
      'fires PAYMENT_EXPIRED (the request stops), later the retention deadline deletes it.';
    const starter = (path[0] as MachineEvent & { actor: Actor }).actor;
    const { workflowId, runs } = await lifecycle('production', (id) => productionInput(kind, id, starter), async ({ standIn, send }) => {
      await walk(send, path);
      await standIn.advance(72 * HOUR + 60_000);
      await standIn.advance(31 * 24 * HOUR);
    });
    write('internal-certificate-payment-expired.json', 'production', workflowId, story, runs[0]);
  }

  writeFileSync(`${HISTORIES_DIR}/index.json`, `${JSON.stringify(index, null, 2)}\n`);
  console.log(`wrote ${Object.keys(index).length} histories to ${HISTORIES_DIR}`);
}

await main();
