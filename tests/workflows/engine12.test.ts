import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMachine, type AnyMachineSnapshot } from 'xstate';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { requests } from '../../db/schema';
import { SYSTEM_ACTOR } from '../../machines/actor';
import { deadlinesOf, queueOf, statusOf } from '../../machines/snapshot';
import { AppErrorCode } from '../../lib/app-error';
import { EmbeddedEngine } from '../../workflows/embedded/embedded-engine';
import { machinesCatalogue } from '../../workflows/machines-catalogue';
import { RESOLVED_MAX, resolvedCount, restoreSnapshot, type StoredSnapshot } from '../../workflows/step';
import { readHistoryRows, readRequest } from '../../workflows/store';
import { createTestDatabase } from '../helpers/db';
import { testStoreDeps } from '../helpers/deps';
import { internalCertificateData } from '../services/fixtures';
import { FACILITY, applicant, otherApplicant, registration } from './fixtures/internal-certificate-scenario';

/*
 * Issue 18, the engine's twelfth look: a restore remembers what xstate resolves from a state value (the active nodes,
 * the value, the tags), status and deadlines read one walk of the nodes' declarations per node list, and an accepted
 * event walks the next transitions once. What a user sees must not change: the same decisions (403 against 409), the
 * same rows, a row another server wrote read from the row, and refusals changing nothing.
 */
let database: Database;
let engine: EmbeddedEngine;
let other: EmbeddedEngine;

beforeAll(async () => {
  database = await createTestDatabase();
  engine = new EmbeddedEngine({ db: database.db, deps: testStoreDeps({ catalogue: machinesCatalogue }) });
  // A second server on the same database: its own memory, the same rows.
  other = new EmbeddedEngine({ db: database.db, deps: testStoreDeps({ catalogue: machinesCatalogue }) });
});
afterAll(() => database?.close());

const machineOf = (row: { kind: string; machineVersion: number }) => machinesCatalogue.getMachine(row.kind, row.machineVersion);

/** What xstate's own resolveState gives for a stored snapshot (the engine's restore before this pass). */
function xstateRestore(row: { kind: string; machineVersion: number; snapshot: unknown }): AnyMachineSnapshot {
  const machine = machineOf(row);
  const stored = row.snapshot as StoredSnapshot;
  const historyValue = Object.fromEntries(Object.entries(stored.historyValue ?? {}).map(([k, nodes]) => [k, nodes.map((n) => machine.getStateNodeById(n.id))]));
  return machine.resolveState({ value: stored.value, context: stored.context, status: stored.status, output: stored.output, historyValue });
}

/** The parts of a live snapshot the machines and the engine read. */
function shape(s: AnyMachineSnapshot, now: Date) {
  const nodes = (s as unknown as { _nodes: { id: string }[] })._nodes;
  return {
    nodes: nodes.map((n) => n.id),
    value: s.value,
    status: s.status,
    output: s.output,
    tags: [...s.tags].sort(),
    meta: s.getMeta(),
    historyValue: Object.fromEntries(Object.entries(s.historyValue ?? {}).map(([k, v]) => [k, (v as { id: string }[]).map((n) => n.id)])),
    children: s.children,
    statusOf: (() => {
      try {
        return statusOf(s);
      } catch {
        return 'none';
      }
    })(),
    queueOf: queueOf(s),
    deadlinesOf: deadlinesOf(s, now),
  };
}

async function startRequest() {
  return engine.start('internalCertificate', { ownerUserId: applicant.userId, facilityId: FACILITY, data: internalCertificateData() }, applicant);
}

describe('a stored snapshot restores as xstate restores it', () => {
  it("every state of a request's working life (and of its bill) restores to the same nodes, in the same order, with the row's own context", async () => {
    const r = await startRequest();
    const steps: [Parameters<EmbeddedEngine['send']>[1], Parameters<EmbeddedEngine['send']>[2]][] = [
      [{ type: 'SUBMIT', agreementAccepted: true }, applicant],
      [{ type: 'PAYMENT_CONFIRMED' }, SYSTEM_ACTOR],
      [{ type: 'ASSIGN_TO_ME' }, registration],
      [{ type: 'ADD_NOTE', note: 'Called the factory' }, registration],
      [{ type: 'ACCEPT' }, registration],
    ];
    const now = new Date();
    const rows = [await readRequest(database.db, r.id)];
    for (const [event, actor] of steps) {
      await engine.send(r.id, event, actor);
      rows.push(await readRequest(database.db, r.id));
    }
    const bills = await database.db.select().from(requests).where(eq(requests.kind, 'bill'));
    const all = [...rows, ...bills];
    expect(new Set(all.map((row) => JSON.stringify(row!.snapshot.value))).size).toBeGreaterThanOrEqual(5);
    for (const row of all) {
      // Twice: the second restore of the same value finds it resolved.
      for (let i = 0; i < 2; i++) {
        const ours = restoreSnapshot(machineOf(row!), row!.snapshot as StoredSnapshot);
        expect(shape(ours, now)).toEqual(shape(xstateRestore(row!), now));
        expect(ours.context).toBe(row!.snapshot.context);
      }
    }
  });

  it('a final state restores as done, whatever status the row says', () => {
    const m = createMachine({ id: 'engine12-final', initial: 'a', states: { a: { on: { GO: 'b' } }, b: { type: 'final' } } });
    for (const status of ['active', 'done'] as const) {
      const stored = { value: 'b', context: {}, status } as StoredSnapshot;
      expect(restoreSnapshot(m, stored).status).toBe(m.resolveState({ value: 'b', context: {}, status }).status);
    }
    expect(restoreSnapshot(m, { value: 'a', context: {}, status: 'stopped' } as StoredSnapshot).status).toBe('stopped');
  });

  it(`remembers at most ${RESOLVED_MAX} state values per machine, and one it let go restores again the same`, () => {
    const states = Object.fromEntries(Array.from({ length: RESOLVED_MAX + 50 }, (_, i) => [`s${i}`, { meta: { status: i } }]));
    const m = createMachine({ id: 'engine12-many', initial: 's0', states });
    for (let i = 0; i < RESOLVED_MAX + 50; i++) {
      const s = restoreSnapshot(m, { value: `s${i}`, context: { i }, status: 'active' } as StoredSnapshot);
      expect(s.value).toBe(`s${i}`);
      expect(statusOf(s)).toBe(i);
      expect(resolvedCount(m)).toBeLessThanOrEqual(RESOLVED_MAX);
    }
    expect(resolvedCount(m)).toBe(RESOLVED_MAX);
    const again = restoreSnapshot(m, { value: 's0', context: { i: 0 }, status: 'active' } as StoredSnapshot);
    expect(shape(again, new Date())).toEqual(shape(m.resolveState({ value: 's0', context: { i: 0 } }), new Date()));
  });
});

describe('what this server remembers never stands for a row another one moved', () => {
  it('a request moved by a second server between two events of the first is read from the row', async () => {
    const r = await startRequest();
    const submitted = await engine.send(r.id, { type: 'SUBMIT', agreementAccepted: true }, applicant, r.version);
    // The other server confirms the payment: the first one still remembers the snapshot it wrote at SUBMIT.
    const paid = await other.send(r.id, { type: 'PAYMENT_CONFIRMED' }, SYSTEM_ACTOR, submitted.version);
    expect(paid.status).not.toBe(submitted.status);
    // Taking the request is open only after the payment: the first server must decide on the row the other wrote.
    const taken = await engine.send(r.id, { type: 'ASSIGN_TO_ME' }, registration);
    expect(taken.version).toBe(paid.version + 1);
    expect(taken.assigneeUserId).toBe(registration.userId);
    const history = await readHistoryRows(database.db, r.id);
    expect(history.map((h) => h.event)).toEqual(['START', 'SUBMIT', 'PAYMENT_CONFIRMED', 'ASSIGN_TO_ME']);
    expect(history[3].fromStatus).toBe(paid.status);
    expect(await engine.verifyHistory(r.id)).toMatchObject({ ok: true });
    // And back: the other server decides on the row the first one wrote since.
    const noted = await other.send(r.id, { type: 'ADD_NOTE', note: 'Seen by the second server' }, registration);
    expect(noted.version).toBe(taken.version + 1);
    expect(await engine.verifyHistory(r.id)).toMatchObject({ ok: true });
  });
});

describe('refusals change nothing, and the remembered snapshot stays as it was', () => {
  it('403, 409 and 400 as before; the row, its history and the snapshot this server remembers unchanged; the next event accepted', async () => {
    const r = await startRequest();
    const submitted = await engine.send(r.id, { type: 'SUBMIT', agreementAccepted: true }, applicant, r.version);
    const before = await readRequest(database.db, r.id);
    const remembered = (engine as unknown as { written: Map<string, { snapshot: unknown }> }).written.get(r.id)!.snapshot;
    const rememberedCopy = structuredClone(remembered);
    const historyBefore = await readHistoryRows(database.db, r.id);
    const refusals: [Parameters<EmbeddedEngine['send']>[1], Parameters<EmbeddedEngine['send']>[2], string][] = [
      // A state that takes the event, an actor who may not send it: 403.
      [{ type: 'PAYMENT_CONFIRMED' }, otherApplicant, AppErrorCode.NotAuthorized],
      // The state does not take the event at all: 409, whoever sends it.
      [{ type: 'ACCEPT' }, registration, AppErrorCode.TransitionNotAllowed],
      [{ type: 'SUBMIT', agreementAccepted: true }, applicant, AppErrorCode.TransitionNotAllowed],
      [{ type: 'NO_SUCH_EVENT' }, SYSTEM_ACTOR, AppErrorCode.TransitionNotAllowed],
    ];
    for (const [event, actor, code] of refusals) {
      await expect(engine.send(r.id, event, actor)).rejects.toMatchObject({ code });
      expect(await readRequest(database.db, r.id)).toEqual(before);
      expect(await readHistoryRows(database.db, r.id)).toEqual(historyBefore);
      expect(remembered).toEqual(rememberedCopy);
    }
    const paid = await engine.send(r.id, { type: 'PAYMENT_CONFIRMED' }, SYSTEM_ACTOR, submitted.version);
    expect(paid.version).toBe(submitted.version + 1);
    // An invalid payload on a state that takes the event: 400, nothing written.
    const taken = await engine.send(r.id, { type: 'ASSIGN_TO_ME' }, registration);
    const atTaken = await readRequest(database.db, r.id);
    await expect(engine.send(r.id, { type: 'ADD_NOTE', note: 42 } as never, registration)).rejects.toMatchObject({ code: AppErrorCode.ValidationFailed });
    expect(await readRequest(database.db, r.id)).toEqual(atTaken);
    const noted = await engine.send(r.id, { type: 'ADD_NOTE', note: 'After the refusals' }, registration);
    expect(noted.version).toBe(taken.version + 1);
    expect(await engine.verifyHistory(r.id)).toMatchObject({ ok: true });
  });
});
