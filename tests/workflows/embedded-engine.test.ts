import { testStoreDeps } from '../helpers/deps';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { auditLogs, bills, certificates, requestHistory, requests, workflowTimers } from '../../db/schema';
import { AppError } from '../../server/errors';
import { EmbeddedEngine } from '../../workflows/embedded/embedded-engine';
import { TimerRunner } from '../../workflows/embedded/timer-runner';
import { EFFECT_HANDLERS } from '../../workflows/effects';
import { EFFECT_NAMES } from '../../machines/effects';
import { replay, type StoredSnapshot } from '../../workflows/step';
import type { MachineCatalogue } from '../../workflows/catalogue';
import type { SendOptions } from '../../workflows/engine';
import { createTestDatabase } from '../helpers/db';
import { fixtureCatalogue } from './fixtures/payment-machine';
import { FACILITY, applicant, otherApplicant, reviewer, reviewer2 } from './fixtures/actors';
import type { Actor } from '../../machines/actor';

const KIND = 'fixturePayment';
let database: Database;
let catalogue: ReturnType<typeof fixtureCatalogue>;
let engine: EmbeddedEngine;

beforeAll(async () => {
  database = await createTestDatabase({ seed: false });
  catalogue = fixtureCatalogue();
  engine = new EmbeddedEngine({ db: database.db, deps: testStoreDeps({ catalogue }) });
});
afterAll(() => database?.close());

const start = (data: Record<string, unknown> = {}, discountPercent?: number, creatorName = 'Khalid Al-Harbi') =>
  engine.start(KIND, { ownerUserId: applicant.userId, facilityId: FACILITY, data, discountPercent }, applicant, { creatorName });

async function refusal(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

async function toPayment(discountPercent?: number) {
  const r = await start({}, discountPercent);
  await engine.send(r.id, { type: 'SUBMIT' }, applicant, 1);
  return engine.send(r.id, { type: 'APPROVE' }, reviewer, 2);
}

const billsOf = (id: string) => database.db.select().from(bills).where(eq(bills.requestId, id));

describe('machine versions', () => {
  it('a request keeps the machine version it started with; a new version applies to new requests only', async () => {
    catalogue.current = 1;
    const old = await start();
    catalogue.current = 2;
    try {
      const fresh = await start();
      expect([old.machineVersion, fresh.machineVersion]).toEqual([1, 2]);
      for (const r of [old, fresh]) {
        await engine.send(r.id, { type: 'SUBMIT' }, applicant, 1);
        await engine.send(r.id, { type: 'APPROVE' }, reviewer, 2);
      }
      // Version 2 renumbered the payment state's status: only the new request sees it.
      expect((await engine.get(old.id))!.status).toBe(16);
      expect((await engine.get(fresh.id))!.status).toBe(17);
    } finally {
      catalogue.current = 1;
    }
  });
});

describe('database effects', () => {
  it('approval creates the bill in the same transaction (amount, VAT, due date from the payment window)', async () => {
    const r = await toPayment();
    const [bill] = await billsOf(r.id);
    expect(bill).toMatchObject({ status: 1, service: 6, feeKind: 'certificate', amount: '1000.00', vat: '150.00', total: '1150.00' });
    expect(bill.facilityPublicId).toBe(FACILITY);
    expect(bill.dueAt!.getTime() - r.updatedAt.getTime()).toBe(72 * 3_600_000);
  });

  it('payment issues the certificate', async () => {
    const r = await toPayment();
    await engine.send(r.id, { type: 'PAY' }, applicant, r.version);
    const [cert] = await database.db.select().from(certificates).where(eq(certificates.requestId, r.id));
    expect(cert.kind).toBe('internalHalal');
    const months = (cert.expiresAt.getUTCFullYear() - cert.issuedAt.getUTCFullYear()) * 12 + cert.expiresAt.getUTCMonth() - cert.issuedAt.getUTCMonth();
    expect(months).toBe(12);
  });

  it('cancelling while awaiting payment cancels the bill and returns to draft', async () => {
    const r = await toPayment();
    const after = await engine.send(r.id, { type: 'CANCEL' }, applicant, r.version);
    expect(after.status).toBe(0);
    expect((await billsOf(r.id))[0].status).toBe(4);
  });

  it('an expired payment window expires the bill', async () => {
    const r = await toPayment();
    const [bill] = await billsOf(r.id);
    await engine.fireDueTimers(new Date(bill.dueAt!.getTime() + 1));
    expect((await engine.get(r.id))!.status).toBe(3);
    expect((await billsOf(r.id))[0].status).toBe(3);
  });

  it('a 50% discount halves the bill', async () => {
    const r = await toPayment(50);
    expect((await billsOf(r.id))[0]).toMatchObject({ amount: '500.00', vat: '75.00', total: '575.00' });
  });

  it('every effect the machines declare has a handler', () => {
    expect(EFFECT_NAMES.filter((name) => !EFFECT_HANDLERS[name])).toEqual([]);
  });

  it('a free request (100% discount) is issued without a bill', async () => {
    const r = await toPayment(100);
    expect(r.status).toBe(25);
    expect(await billsOf(r.id)).toHaveLength(0);
  });

  it('a refused event creates no bill', async () => {
    const r = await start();
    await engine.send(r.id, { type: 'SUBMIT' }, applicant, 1);
    await engine.send(r.id, { type: 'ASSIGN_TO_ME' }, reviewer, 2);
    const err = await refusal(engine.send(r.id, { type: 'APPROVE' }, reviewer2, 3));
    expect(err.code).toBe('NotAuthorized');
    expect(await billsOf(r.id)).toHaveLength(0);
    expect((await engine.get(r.id))!.assigneeUserId).toBe(reviewer.userId);
  });

  it('an effect without a handler aborts the whole transaction', async () => {
    const broken = setup({ actions: { 'effect.launchRocket': () => {} } }).createMachine({
      initial: 'a',
      states: { a: { meta: { status: 1 }, on: { GO: { target: 'b', actions: { type: 'effect.launchRocket' } } } }, b: { meta: { status: 2 } } },
    });
    const cat: MachineCatalogue = {
      ...catalogue,
      hasKind: (k) => k === 'broken',
      currentVersion: () => 1,
      getMachine: () => broken,
      allowedActions: () => [{ type: 'GO', requiresReason: false }],
      parseEvent: (_k, { type: _t, ...payload }) => ({ ok: true, payload }),
    };
    const e2 = new EmbeddedEngine({ db: database.db, deps: testStoreDeps({ catalogue: cat }) });
    const r = await e2.start('broken', { ownerUserId: applicant.userId, facilityId: FACILITY }, applicant);
    await expect(e2.send(r.id, { type: 'GO' }, applicant, 1)).rejects.toThrow(/No handler for effect.launchRocket/);
    const [row] = await database.db.select().from(requests).where(eq(requests.id, r.id));
    expect(row.version).toBe(1);
    expect(await database.db.select().from(requestHistory).where(eq(requestHistory.requestId, r.id))).toHaveLength(1);
  });
});

describe('events', () => {
  it("alsoWrite's row commits with the event or not at all: a refusal rolls it back, its failure refuses the event", async () => {
    const r = await start();
    const rowsOf = () => database.db.select().from(auditLogs).where(eq(auditLogs.requestId, r.id));
    const alsoWrite = async (tx: Parameters<NonNullable<SendOptions['alsoWrite']>>[0]) => {
      await tx.insert(auditLogs).values({ action: 'engine.test', outcome: 'success', requestId: r.id });
    };
    expect((await refusal(engine.send(r.id, { type: 'APPROVE' }, applicant, 1, { alsoWrite }))).code).toBe('TransitionNotAllowed');
    expect((await refusal(engine.send(r.id, { type: 'SUBMIT' }, applicant, 9, { alsoWrite }))).code).toBe('ConcurrencyConflict');
    const refuse = () => {
      throw new AppError('EntityNotFound');
    };
    expect((await refusal(engine.send(r.id, { type: 'SUBMIT' }, applicant, 1, { alsoWrite, admit: refuse }))).code).toBe('EntityNotFound');
    expect(await rowsOf()).toEqual([]);
    const failing = async () => {
      throw new Error('the extra row failed');
    };
    await expect(engine.send(r.id, { type: 'SUBMIT' }, applicant, 1, { alsoWrite: failing })).rejects.toThrow('the extra row failed');
    expect((await engine.get(r.id))!.version).toBe(1);
    expect(await engine.history(r.id)).toHaveLength(1);
    expect((await engine.send(r.id, { type: 'SUBMIT' }, applicant, 1, { alsoWrite })).version).toBe(2);
    expect(await rowsOf()).toHaveLength(1);
  });

  it('a targetless event (a note) is accepted: history row with the note, status unchanged', async () => {
    const r = await start();
    await engine.send(r.id, { type: 'SUBMIT' }, applicant, 1);
    const after = await engine.send(r.id, { type: 'ADD_NOTE', note: 'Called the factory' }, reviewer, 2);
    expect(after.version).toBe(3);
    expect(after.status).toBe(4);
    const last = (await engine.history(r.id)).at(-1)!;
    expect(last).toMatchObject({ event: 'ADD_NOTE', note: 'Called the factory', fromStatus: 4, toStatus: 4 });
  });

  it('the reason of a return is the history note; a missing reason names the field', async () => {
    const r = await start();
    await engine.send(r.id, { type: 'SUBMIT' }, applicant, 1);
    const err = await refusal(engine.send(r.id, { type: 'RETURN' }, reviewer, 2));
    expect(err.details).toEqual([{ field: 'reason', message: 'reasonRequired' }]);
    await engine.send(r.id, { type: 'RETURN', reason: 'Trademark certificate expired' }, reviewer, 2);
    expect((await engine.history(r.id)).at(-1)).toMatchObject({ event: 'RETURN', note: 'Trademark certificate expired', fromQueue: 'registration', toQueue: 'applicant' });
  });

  it('an event another server process sent in between is seen: the next event is decided on the state it left', async () => {
    // Two engines on one database, as two server processes: each remembers the snapshots it wrote.
    const other = new EmbeddedEngine({ db: database.db, deps: testStoreDeps({ catalogue }) });
    const r = await start();
    await engine.send(r.id, { type: 'SUBMIT' }, applicant, 1);
    const returned = await other.send(r.id, { type: 'RETURN', reason: 'Missing trademark' }, reviewer, 2);
    expect(returned.queue).toBe('applicant');
    // Back with the applicant: SUBMIT is taken again (on the snapshot this engine wrote, it would be refused).
    const resubmitted = await engine.send(r.id, { type: 'SUBMIT' }, applicant, 3);
    expect([resubmitted.version, resubmitted.queue]).toEqual([4, 'registration']);
    expect((await engine.history(r.id)).map((h) => h.event)).toEqual(['START', 'SUBMIT', 'RETURN', 'SUBMIT']);
    // And the other engine, whose last write is now behind, sees this one's.
    expect((await other.send(r.id, { type: 'RETURN', reason: 'Still missing' }, reviewer, 4)).queue).toBe('applicant');
  });

  it('the stored snapshot equals the replay of the history', async () => {
    const r = await start({ trademarks: [{ nameEn: 'Replay' }] });
    await engine.send(r.id, { type: 'SUBMIT' }, applicant, 1);
    await engine.send(r.id, { type: 'ASSIGN_TO_ME' }, reviewer, 2);
    await engine.send(r.id, { type: 'RETURN', reason: 'again' }, reviewer, 3);
    await engine.send(r.id, { type: 'SUBMIT' }, applicant, 4);
    const [row] = await database.db.select().from(requests).where(eq(requests.id, r.id));
    const history = await database.db.select().from(requestHistory).where(eq(requestHistory.requestId, r.id)).orderBy(requestHistory.seq);
    const replayed = replay(
      catalogue.getMachine(KIND, row.machineVersion),
      row.input,
      history.slice(1).map((h) => ({ event: h.event, payload: h.payload, actor: h.actor as unknown as Actor })),
    );
    expect(replayed).toEqual(row.snapshot as unknown as StoredSnapshot);
    expect((row.snapshot as unknown as StoredSnapshot).value).toBe('registrationReview');
  });

  it('an expired draft is deleted: gone from sends and lists, its history kept', async () => {
    const r = await start();
    const [timer] = await database.db.select().from(workflowTimers).where(eq(workflowTimers.requestId, r.id));
    expect(timer.event).toBe('DRAFT_EXPIRED');
    expect(timer.dueAt.getTime() - r.createdAt.getTime()).toBe(30 * 86_400_000);
    await engine.fireDueTimers(new Date(timer.dueAt.getTime() + 1));
    const view = await engine.get(r.id);
    expect(view).toMatchObject({ deleted: true, status: 106 });
    expect((await refusal(engine.send(r.id, { type: 'SUBMIT' }, applicant, view!.version))).code).toBe('EntityNotFound');
    expect(await engine.allowedActions(r.id, applicant)).toEqual([]);
    const list = await engine.list({ queue: 'all', tab: 'finished', viewer: applicant, pageNumber: 1, pageSize: 100 });
    expect(list.items.map((i) => i.id)).not.toContain(r.id);
    expect((await engine.history(r.id)).map((h) => h.event)).toEqual(['START', 'DRAFT_EXPIRED']);
  });

  it('a timer whose event the machine no longer takes is marked refused and changes nothing', async () => {
    const r = await toPayment();
    // Simulate a timer left behind (e.g. armed by an older machine version): the machine refuses it.
    await database.db.insert(workflowTimers).values({ requestId: r.id, event: 'DRAFT_EXPIRED', after: 'draftRetention', dueAt: new Date(0) });
    await engine.fireDueTimers(new Date(1000));
    const [t] = await database.db.select().from(workflowTimers).where(eq(workflowTimers.dueAt, new Date(0)));
    expect(t.outcome).toBe('refused');
    expect((await engine.get(r.id))!.version).toBe(r.version);
  });
});

describe('timer failures', () => {
  it('a timer whose transition fails is reported, stays due, and does not hold back the timers after it', async () => {
    const boom = setup({ actions: { 'effect.launchRocket': () => {} } }).createMachine({
      initial: 'a',
      states: {
        a: {
          meta: { status: 1, deadline: { after: 'paymentWindow', event: 'BOOM' } },
          on: { BOOM: { target: 'b', actions: { type: 'effect.launchRocket' } } },
        },
        b: { meta: { status: 2 } },
      },
    });
    const both: MachineCatalogue = {
      ...catalogue,
      hasKind: (k) => k === 'boom' || catalogue.hasKind(k),
      currentVersion: (k) => (k === 'boom' ? 1 : catalogue.current),
      getMachine: (k, v) => (k === 'boom' ? boom : catalogue.getMachine(k, v)),
      allowedActions: (k, snap, actor, v) => (k === 'boom' ? [{ type: 'BOOM', requiresReason: false }] : catalogue.allowedActions(k, snap, actor, v)),
      parseEvent: (k, e, c) => (k === 'boom' ? { ok: true, payload: {} } : catalogue.parseEvent(k, e, c)),
    };
    const e2 = new EmbeddedEngine({ db: database.db, deps: testStoreDeps({ catalogue: both }) });
    const bad = await e2.start('boom', { ownerUserId: applicant.userId, facilityId: FACILITY }, applicant);
    const good = await toPayment();
    // The failing timer is due first.
    await database.db.update(workflowTimers).set({ dueAt: new Date(Date.now() - 60_000) }).where(eq(workflowTimers.requestId, bad.id));
    const errors: string[] = [];
    const [goodTimer] = await database.db.select().from(workflowTimers).where(eq(workflowTimers.requestId, good.id));
    const fired = await e2.fireDueTimers(new Date(goodTimer.dueAt.getTime() + 1), 1000, (err) => errors.push(String(err)));
    expect(errors).toEqual([expect.stringMatching(/No handler for effect.launchRocket/)]);
    expect(fired).toBeGreaterThanOrEqual(1);
    expect((await e2.get(good.id))!.status).toBe(3);
    const [badTimer] = await database.db.select().from(workflowTimers).where(eq(workflowTimers.requestId, bad.id));
    expect(badTimer.firedAt).toBeNull();
    expect((await e2.get(bad.id))!.version).toBe(1);
  });
});

describe('queues and search', () => {
  let ids: Record<string, string>;
  const staffViewer: Actor = reviewer;
  beforeAll(async () => {
    const mk = async (name: string, brand: string, creator: string) => {
      const r = await start({ products: [{ nameEn: 'Milk', brandEn: brand }] }, undefined, creator);
      await engine.send(r.id, { type: 'SUBMIT' }, applicant, 1);
      return r.id;
    };
    ids = {
      a: await mk('a', 'Nadec Fresh', 'Aisha Queue'),
      b: await mk('b', 'Safi Dairy', 'Bandar Queue'),
      c: await mk('c', 'Nadec Laban', 'Bandar Queue'),
    };
    await engine.send(ids.b, { type: 'ASSIGN_TO_ME' }, reviewer, 2);
    await engine.send(ids.c, { type: 'ASSIGN_TO_ME' }, reviewer, 2);
    await engine.send(ids.c, { type: 'APPROVE' }, reviewer, 3);
  });
  const list = (q: Partial<Parameters<EmbeddedEngine['list']>[0]>) =>
    engine.list({ queue: 'registration', tab: 'waiting', viewer: staffViewer, pageNumber: 1, pageSize: 50, ...q });
  const idsOf = async (q: Partial<Parameters<EmbeddedEngine['list']>[0]>) => (await list(q)).items.map((i) => i.id);

  it('waiting, mine and finished tabs of the registration queue', async () => {
    const waiting = await idsOf({ any: 'Queue' });
    expect(waiting).toContain(ids.a);
    expect(waiting).not.toContain(ids.b);
    expect(await idsOf({ tab: 'mine', any: 'Queue' })).toEqual([ids.b]);
    expect(await idsOf({ tab: 'mine', any: 'Queue', viewer: reviewer2 })).toEqual([]);
    expect(await idsOf({ tab: 'waiting', any: 'Queue', viewer: reviewer2 })).toEqual(expect.arrayContaining([ids.a, ids.b]));
    expect(await idsOf({ tab: 'finished', any: 'Queue' })).toEqual([ids.c]);
  });

  // The brand filter reads the service's projection; tests/server/requests.test.ts checks it on a real service.
  it('filters: creator name, request number, any', async () => {
    expect((await idsOf({ creatorName: 'bandar q', tab: 'mine' }))).toEqual([ids.b]);
    const number = (await engine.get(ids.a))!.number;
    expect(await idsOf({ requestNumber: number })).toEqual([ids.a]);
    expect(await idsOf({ any: number })).toEqual([ids.a]);
    expect(await idsOf({ any: 'bandar', tab: 'mine' })).toEqual([ids.b]);
    expect(await idsOf({ any: '100%' })).toEqual([]);
  });

  it('pages with a total count', async () => {
    const p1 = await list({ any: 'Queue', tab: 'waiting', viewer: reviewer2, pageSize: 1 });
    const p2 = await list({ any: 'Queue', tab: 'waiting', viewer: reviewer2, pageSize: 1, pageNumber: 2 });
    expect(p1.totalCount).toBe(2);
    expect(p1.items).toHaveLength(1);
    expect(p2.items).toHaveLength(1);
    expect(p1.items[0].id).not.toBe(p2.items[0].id);
  });

  it('applicants see only their facilities', async () => {
    expect(await idsOf({ viewer: otherApplicant, queue: 'all', tab: 'waiting', any: 'Queue' })).toEqual([]);
    expect(await idsOf({ viewer: otherApplicant, queue: 'all', tab: 'mine', any: 'Queue' })).toEqual([]);
    expect((await idsOf({ viewer: applicant, queue: 'all', tab: 'mine', any: 'Queue' })).sort()).toEqual([ids.a, ids.b, ids.c].sort());
  });
});

describe('timer runner', () => {
  it('sweeps until stopped and waits for the running sweep on stop', async () => {
    let sweeps = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const runner = new TimerRunner(
      async () => {
        sweeps++;
        if (sweeps === 2) await gate;
        return 0;
      },
      1,
      (e) => {
        throw e;
      },
    );
    runner.start();
    await expect.poll(() => sweeps).toBe(2);
    let stopped = false;
    const stopping = runner.stop().then(() => (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(sweeps).toBe(2);
  });
});
