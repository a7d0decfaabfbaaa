import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { initialTransition, transition, type AnyMachineSnapshot } from 'xstate';
import { EVENT_TYPES, MACHINE_KINDS, allowedActionsOf, getMachine, mayAct } from '../../machines';
import { canonicalJson, historyHash, type HashedRow } from '../../workflows/hash-chain';
import { persistSnapshot, restoreSnapshot, snapshotText } from '../../workflows/step';
import { actorJson } from '../../workflows/store';
import { eventsFor, actorFor, inputFor } from '../machines/samples';
import { people } from '../machines/drive';
import { guardParamsOf } from '../../machines';
import { getNextTransitions } from 'xstate';

/** canonicalJson as it was before its fast paths: the reference the fast paths must equal. */
function reference(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return '[' + value.map((v) => reference(v)).join(',') + ']';
  const record = value as Record<string, unknown>;
  let out = '{';
  for (const key of Object.keys(record).sort()) {
    const v = record[key];
    if (v === undefined) continue;
    out += (out.length > 1 ? ',' : '') + JSON.stringify(key) + ':' + reference(v);
  }
  return out + '}';
}

describe('the engine per-event shortcuts write what the plain way writes', () => {
  it('canonicalJson: arrays of primitives and sorted flat records as JSON.stringify, the same text as the reference', () => {
    const fn = () => 1;
    const values: unknown[] = [
      [1, 'a', null, true, undefined, fn, Symbol('s'), NaN, -0, 1e21],
      { a: 1, b: 'x', c: null, d: true },
      { b: 1, a: 2 },
      { a: 1, b: undefined, c: fn },
      { 10: 'x', 9: 'y', a: 'z' },
      { a: new Date('2026-01-01T00:00:00Z'), b: [{ y: 1, x: 2 }, [3, [4]]] },
      { toJSON: () => 'no', a: 1 },
      Object.assign(Object.create(null), { a: 1, b: 2 }),
      Object.assign([1, 2], { toJSON: () => 'arr' }),
      { 'é': 1, e: 2, E: 3, '': 4, 'a\u0000': 5 },
      { nested: { permissions: ['x', 'y'], facilityPermissions: { f: ['p'] } } },
    ];
    for (const v of values) expect(canonicalJson(v)).toBe(reference(v));
  });

  it('the history hash of a row with a remembered (frozen) actor equals the hash over the plain canonical text', () => {
    const actor = actorJson(people.registration);
    expect(Object.isFrozen(actor)).toBe(true);
    expect(actorJson(people.registration)).toBe(actor);
    const row: HashedRow = {
      requestId: 'r', seq: 3, actorUserId: 'reg-1', actor, event: 'ASSIGN_TO_ME', payload: { note: 'n', b: [1, { z: 1, a: 2 }] },
      note: 'n', fromStatus: 1, toStatus: 4, fromQueue: 'registration', toQueue: null, at: new Date('2026-01-02T03:04:05Z'),
    };
    const mac = (r: HashedRow) =>
      `h1:dev:${createHmac('sha256', 'dev-only-history-key-not-for-production-0123456789').update('prev').update('\n').update(reference(r)).digest('hex')}`;
    expect(historyHash('prev', row)).toBe(mac(row));
    // Undefined fields are left out in both.
    const partial = { ...row, fromQueue: undefined, note: undefined } as unknown as HashedRow;
    expect(historyHash('prev', partial)).toBe(mac(partial));
    // An unfrozen copy of the actor hashes the same.
    expect(historyHash('prev', { ...row, actor: JSON.parse(JSON.stringify(actor)) })).toBe(historyHash('prev', row));
  });

  it('persistSnapshot: the text is JSON.stringify of the copy and of the live snapshot, the copy its JSON round trip', () => {
    const machine = getMachine('internalCertificate');
    const data = { b: { text: 'a "quoted" \u0001stored-data: line\n', n: 1.5 }, a: [1, 2, { x: undefined, y: 'é' }] };
    const [live] = initialTransition(machine, { ...inputFor('internalCertificate'), data });
    const plain = JSON.stringify({ value: live.value, context: live.context, status: live.status, historyValue: {} });
    const fresh = persistSnapshot(live);
    expect(snapshotText(fresh)).toBe(plain);
    expect(JSON.stringify(fresh)).toBe(plain);
    expect(fresh.context.data).toEqual(JSON.parse(JSON.stringify(data)));
    // The next event leaves the data alone: the copy keeps the stored data object, the text is the same.
    const restored = restoreSnapshot(machine, fresh);
    const kept = persistSnapshot(restored, fresh.context.data);
    expect(kept.context.data).toBe(fresh.context.data);
    expect(snapshotText(kept)).toBe(plain);
    expect(JSON.stringify(kept)).toBe(plain);
    expect(Object.keys(kept.context)).toEqual(Object.keys(fresh.context));
  });

  it('mayAct answers as allowedActionsOf does, for every event type, along random walks of every machine', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    let checked = 0;
    for (const kind of MACHINE_KINDS) {
      const machine = getMachine(kind);
      const events = eventsFor(kind, machine);
      for (let walk = 0; walk < 3; walk++) {
        let [snapshot] = initialTransition(machine, inputFor(kind)) as [AnyMachineSnapshot, unknown];
        for (let step = 0; step < 25 && snapshot.status === 'active'; step++) {
          const actors = [...Object.values(people), ...getNextTransitions(snapshot).flatMap((t) => { const p = guardParamsOf(t); return p ? [actorFor(p, snapshot)] : []; })];
          for (const actor of actors) {
            const listed = new Set(allowedActionsOf(snapshot, actor, kind).map((a) => a.type));
            for (const type of EVENT_TYPES) expect(mayAct(snapshot, actor, type), `${kind} ${JSON.stringify(snapshot.value)} ${type}`).toBe(listed.has(type));
            checked++;
          }
          const next = events(snapshot);
          if (!next.length) break;
          [snapshot] = transition(machine, snapshot, next[Math.floor(random() * next.length)]) as [AnyMachineSnapshot, unknown];
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});
