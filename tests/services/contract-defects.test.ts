import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { bills, requests } from '../../db/schema';
import { SERVICES } from '../../machines/services';
import { accept, completeDraft, send, type RequestJson } from '../helpers/requests';
import { VALID_DATA, shipmentData } from './fixtures';
import { billsOf, createWorld, payBill, planOf, type World, lapseDesignations } from './walk';

/**
 * Issue 10 proof: the generic request door keeps the service contract (a property over whatever EDIT accepts), and
 * the defects the issue names stay fixed. Each test names the behaviour a person would notice.
 */
const INTERNAL = 'inf-almarai-foods';
const FACTORY = 'exf-anatolia-meat';
let w: World;

beforeAll(async () => {
  w = await createWorld();
}, 120_000);
afterAll(() => w?.t.close());

const errorOf = (res: { json(): unknown }) =>
  (res.json() as { error: { code: string; message: string; validationErrors?: { members: string[]; message: string }[] } }).error;
const members = (res: { json(): unknown }) => (errorOf(res).validationErrors ?? []).flatMap((v) => v.members);
const read = async (id: string) => (await w.as.registration.get(`/api/requests/${id}`)).json() as RequestJson;
const start = async (kind: 'internalCertificate' | 'shipment', facilityId: string, user: 'internal.main' | 'external') => {
  const res = await w.as[user].post('/api/requests', { kind, facilityId });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as RequestJson;
};

describe('POST /api/requests/:id/events EDIT stores only what the contract accepts', () => {
  it('whatever EDIT accepts, the stored data parses back through the kind’s section schemas', async () => {
    // The kinds a facility starts without a subject certificate, each with a draft of its own applicant.
    const kinds = [
      { kind: 'internalCertificate', facility: INTERNAL, user: 'internal.main' },
      { kind: 'externalCertificate', facility: FACTORY, user: 'external' },
      { kind: 'shipment', facility: FACTORY, user: 'external' },
      { kind: 'cbDesignation', facility: 'cb-global-halal', user: 'cb.main' },
    ] as const;
    const drafts: Record<string, string> = {};
    // The demo CB asks for a designation only while it holds none in force (README, choices).
    const restore = await lapseDesignations(w.t.database.db, 'cb-global-halal');
    for (const k of kinds) {
      const res = await w.as[k.user].post('/api/requests', { kind: k.kind, facilityId: k.facility });
      expect(res.statusCode, res.body).toBe(201);
      drafts[k.kind] = res.json().id;
    }
    await restore();
    // What a form (or a script) may send for a field holding `v`: the same value written differently (numbers as
    // strings, padded text), or junk.
    const junk = fc.oneof(fc.string({ maxLength: 8 }), fc.integer({ min: -5, max: 1000 }), fc.double({ noNaN: true, min: -10, max: 1e6 }), fc.constantFrom(null, true, '', '1e3', '٣'));
    const variant = (v: unknown): fc.Arbitrary<unknown> => {
      const rarely = { arbitrary: junk, weight: 1 };
      if (typeof v === 'number') return fc.oneof({ arbitrary: fc.constant(v), weight: 6 }, { arbitrary: fc.constantFrom(String(v), ` ${v} `), weight: 6 }, rarely);
      if (typeof v === 'string') return fc.oneof({ arbitrary: fc.constant(v), weight: 6 }, { arbitrary: fc.constant(`  ${v} `), weight: 6 }, rarely);
      return fc.oneof({ arbitrary: fc.constant(v), weight: 12 }, rarely);
    };
    /** An object with some of its fields written differently (an extra field now and then). */
    const variantObject = (o: Record<string, unknown>): fc.Arbitrary<unknown> =>
      fc.tuple(...Object.entries(o).map(([k, v]) => variant(v).map((x) => [k, x] as const)), fc.option(junk, { freq: 20 })).map((entries) => {
        const extra = entries.pop() as unknown;
        return { ...Object.fromEntries(entries as (readonly [string, unknown])[]), ...(extra === null ? {} : { extra }) };
      });
    /** The fixture's section written differently. */
    const mutated = (fixture: Record<string, unknown>, section: string): fc.Arbitrary<unknown> => {
      const base = fixture[section];
      if (Array.isArray(base)) {
        const item = base[0];
        if (item === undefined) return fc.oneof(fc.constant([]), fc.array(junk, { maxLength: 2 }));
        return fc.array(item && typeof item === 'object' ? variantObject(item as Record<string, unknown>) : variant(item), { minLength: 1, maxLength: 2 });
      }
      if (base && typeof base === 'object') return variantObject(base as Record<string, unknown>);
      return variant(base);
    };
    const edit = fc.constantFrom(...kinds).chain((k) => {
      const fixture = VALID_DATA[k.kind]();
      const names = [...Object.keys(SERVICES[k.kind].sections), 'notASection'];
      return fc
        .uniqueArray(fc.constantFrom(...names), { minLength: 1, maxLength: 3 })
        .chain((chosen) => fc.tuple(...chosen.map((n) => mutated(fixture, n).map((v) => [n, v] as const))))
        .map((entries) => ({ k, data: Object.fromEntries(entries) }));
    });

    const outcomes = { accepted: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(edit, async ({ k, data }) => {
        const id = drafts[k.kind];
        const before = await read(id);
        const res = await send(w.as[k.user], id, 'EDIT', before.version, { data });
        expect([200, 400], res.body).toContain(res.statusCode);
        const after = await read(id);
        if (res.statusCode === 400) {
          // Refused, with the fields named: nothing was written.
          outcomes.refused++;
          expect(members(res).length).toBeGreaterThan(0);
          expect(after.version).toBe(before.version);
          expect(after.data).toEqual(before.data);
          return;
        }
        outcomes.accepted++;
        const def = SERVICES[k.kind];
        for (const [section, value] of Object.entries(after.data)) {
          const parsed = def.sections[section]?.draft.safeParse(value);
          expect(parsed?.success, `${k.kind}.${section}: ${JSON.stringify(value)}`).toBe(true);
          // The stored value is the parsed one: parsing it again changes nothing.
          expect(parsed!.data).toEqual(value);
        }
      }),
      { numRuns: 50, seed: 20261125 },
    );
    expect(outcomes.accepted).toBeGreaterThan(5);
    expect(outcomes.refused).toBeGreaterThan(5);
  }, 120_000);

  it('numbers sent as strings are stored as numbers', async () => {
    const draft = await start('internalCertificate', INTERNAL, 'internal.main');
    const production = { productionLines: '3', haccpCriticalPoints: '5', permanentHalalEmployees: '40', shifts: '2', productionArea: '2500.5' };
    const res = await send(w.as['internal.main'], draft.id, 'EDIT', draft.version, { data: { production, validity: { years: '2' } } });
    expect(res.statusCode, res.body).toBe(200);
    expect((await read(draft.id)).data).toEqual({
      production: { productionLines: 3, haccpCriticalPoints: 5, permanentHalalEmployees: 40, shifts: 2, productionArea: 2500.5 },
      validity: { years: 2 },
    });
  });

  it('a 55 MB EDIT is refused with a message, and nothing is written', async () => {
    const draft = await start('internalCertificate', INTERNAL, 'internal.main');
    const huge = 'x'.repeat(55 * 1024 * 1024);
    const res = await send(w.as['internal.main'], draft.id, 'EDIT', draft.version, { data: { factory: { activityName: huge } } });
    expect([400, 413]).toContain(res.statusCode);
    expect(errorOf(res).message).toMatch(/\S/);
    expect((await read(draft.id)).version).toBe(draft.version);
  }, 60_000);
});

describe('shipments are priced from validated weights', () => {
  it('an empty shipment is refused at submission, not billed 0.00', async () => {
    const draft = await start('shipment', FACTORY, 'external');
    const data = { ...shipmentData(), products: [], slaughters: [] };
    const edited = await send(w.as.external, draft.id, 'EDIT', draft.version, { data });
    expect(edited.statusCode, edited.body).toBe(200);
    const res = await send(w.as.external, draft.id, 'SUBMIT', edited.json().version, { agreementAccepted: true });
    expect(res.statusCode).toBe(400);
    expect(members(res)).toContain('products');
    expect((await read(draft.id)).status.code).toBe(0);
    expect(await billsOf(w.as.external, draft.id)).toEqual([]);
  });

  it('a date that is not one is refused with a 400 naming it, never a 500 (found by the property above)', async () => {
    const draft = await start('shipment', FACTORY, 'external');
    const slaughter = (shipmentData().slaughters as Record<string, unknown>[])[0];
    for (const slaughterDate of [' ', 'soon', '2026-13-45']) {
      const res = await send(w.as.external, draft.id, 'EDIT', draft.version, { data: { slaughters: [{ ...slaughter, slaughterDate }] } });
      expect(res.statusCode, JSON.stringify(slaughterDate)).toBe(400);
      expect(members(res)).toContain('slaughters.0.slaughterDate');
    }
  });

  it('negative, zero and non-numeric weights are refused when entered', async () => {
    const draft = await start('shipment', FACTORY, 'external');
    const line = (shipmentData().products as Record<string, unknown>[])[0];
    for (const netWeight of [-5, 0, 'heavy']) {
      const res = await send(w.as.external, draft.id, 'EDIT', draft.version, { data: { products: [{ ...line, netWeight }] } });
      expect(res.statusCode, `netWeight ${String(netWeight)}`).toBe(400);
      expect(members(res)).toContain('products.0.netWeight');
    }
  });
});

describe('cancelling and discounts', () => {
  it('cancelling while the bill awaits payment returns to draft and cancels the bill; after a paid fee it is refused', async () => {
    const draft = await completeDraft(w.as['internal.main'], 'internalCertificate', INTERNAL);
    const submitted = await accept(w.as['internal.main'], draft.id, 'SUBMIT', { agreementAccepted: true });
    expect(submitted.status.code).toBe(2);
    const cancelled = await accept(w.as['internal.main'], draft.id, 'CANCEL', {});
    expect(cancelled.status.code).toBe(0);
    const [bill] = await billsOf(w.as['internal.main'], draft.id);
    expect(bill).toMatchObject({ feeKind: { code: 'application' }, status: { code: 4 } });

    // Submitted again and the application fee paid: the next bill (audit fees) can no longer be cancelled to draft.
    await accept(w.as['internal.main'], draft.id, 'SUBMIT', { agreementAccepted: true });
    const fee = (await billsOf(w.as['internal.main'], draft.id)).find((b) => b.status.code === 1)!;
    await payBill(w.t, fee.id, fee);
    expect((await read(draft.id)).status.code).toBe(1);
    await accept(w.as.registration, draft.id, 'ASSIGN_TO_ME');
    await accept(w.as.registration, draft.id, 'ACCEPT');
    await accept(w.as.audit, draft.id, 'ASSIGN_TO_ME');
    await accept(w.as.audit, draft.id, 'SUBMIT_PLAN', { plan: planOf(w) });
    const awaiting = await accept(w.as['internal.main'], draft.id, 'ACCEPT_PLAN');
    expect(awaiting.status.code).toBe(26);
    const refused = await send(w.as['internal.main'], draft.id, 'CANCEL', awaiting.version, {});
    expect(refused.statusCode).not.toBe(200);
    expect((await read(draft.id)).status.code).toBe(26);
    const audit = (await billsOf(w.as['internal.main'], draft.id)).find((b) => b.feeKind.code === 'auditFees')!;
    expect(audit.status.code).toBe(1);
  });

  it('registration staff grant a 100% discount with a reason: the bill is waived, the request moves on, the history says so', async () => {
    const draft = await completeDraft(w.as['internal.main'], 'internalCertificate', INTERNAL);
    const submitted = await accept(w.as['internal.main'], draft.id, 'SUBMIT', { agreementAccepted: true });
    expect(submitted.status.code).toBe(2);
    // Without a reason it is refused; an applicant may not grant one at all.
    expect((await send(w.as.registration, draft.id, 'GRANT_DISCOUNT', submitted.version, { percent: 100 })).statusCode).toBe(400);
    expect((await send(w.as['internal.main'], draft.id, 'GRANT_DISCOUNT', submitted.version, { percent: 100, reason: 'Free' })).statusCode).toBe(403);
    const granted = await accept(w.as.registration, draft.id, 'GRANT_DISCOUNT', { percent: 100, reason: 'Exempted by decision of the center' });
    expect(granted.status.code).toBe(1);
    const [bill] = await billsOf(w.as['internal.main'], draft.id);
    expect(bill.status.code).toBe(4);
    const history = (await w.as.registration.get(`/api/requests/${draft.id}/history`)).json().items as { event: string; note: string | null; payload: Record<string, unknown> }[];
    const entry = history.find((h) => h.event === 'GRANT_DISCOUNT')!;
    expect(entry).toMatchObject({ note: 'Exempted by decision of the center', payload: { percent: 100 } });
    // Free of charge from here on: the audit plan's acceptance creates no bill.
    await accept(w.as.registration, draft.id, 'ASSIGN_TO_ME');
    await accept(w.as.registration, draft.id, 'ACCEPT');
    await accept(w.as.audit, draft.id, 'ASSIGN_TO_ME');
    await accept(w.as.audit, draft.id, 'SUBMIT_PLAN', { plan: planOf(w) });
    expect((await accept(w.as['internal.main'], draft.id, 'ACCEPT_PLAN')).status.code).toBe(28);
    expect((await billsOf(w.as['internal.main'], draft.id)).map((b) => b.status.code)).toEqual([4]);
  });
});

describe('a payment the workflow cannot take', () => {
  it('is recorded in the request history and flagged for staff to refund', async () => {
    const draft = await completeDraft(w.as['internal.main'], 'internalCertificate', INTERNAL);
    await accept(w.as['internal.main'], draft.id, 'SUBMIT', { agreementAccepted: true });
    const [bill] = await billsOf(w.as['internal.main'], draft.id);
    // The applicant withdraws to draft (the bill is cancelled) while the portal is still taking the money.
    await accept(w.as['internal.main'], draft.id, 'CANCEL', {});
    const answer = await payBill(w.t, bill.id, bill);
    expect(answer.outcome).toBe('rejected');
    expect((await read(draft.id)).status.code).toBe(0);
    const history = (await w.as.registration.get(`/api/requests/${draft.id}/history`)).json().items as { event: string; payload: Record<string, unknown> }[];
    expect(history.find((h) => h.event === 'PAYMENT_REFUSED')?.payload).toMatchObject({ billNumber: bill.number });
    const attention = await w.as.registration.get('/api/payments/attention');
    expect(attention.statusCode).toBe(200);
    expect(attention.json().items).toContainEqual(expect.objectContaining({ billId: bill.id, billNumber: bill.number, amount: bill.total, reason: 'billNotPayable' }));
    // Staff only.
    expect((await w.as['internal.main'].get('/api/payments/attention')).statusCode).toBe(403);
  });

  it('a payment the request refuses (it no longer waits for one) is recorded and flagged as well', async () => {
    const draft = await start('internalCertificate', INTERNAL, 'internal.main');
    // A bill of the request that is still payable, while the request itself (a draft) awaits no payment.
    const [bill] = await w.t.database.db
      .insert(bills)
      .values({ number: `B-REFUSED-${draft.number}`, requestId: draft.id, facilityPublicId: INTERNAL, service: 6, feeKind: 'application', amount: '1000.00', vat: '150.00', total: '1150.00', status: 1, dueAt: new Date(Date.now() + 3_600_000) })
      .returning();
    expect((await payBill(w.t, bill.id, bill)).outcome).toBe('paid');
    const history = (await w.as['internal.main'].get(`/api/requests/${draft.id}/history`)).json().items as { event: string; payload: Record<string, unknown> }[];
    expect(history.find((h) => h.event === 'PAYMENT_REFUSED')?.payload).toMatchObject({ billNumber: bill.number, refusal: expect.any(String) });
    expect((await read(draft.id)).status.code).toBe(0);
    expect((await w.as.registration.get('/api/payments/attention')).json().items).toContainEqual(
      expect.objectContaining({ billId: bill.id, reason: 'refusedByRequest', amount: '1150.00' }),
    );
  });
});

describe('staff and the queues', () => {
  it('ASSIGN_TO_EMPLOYEE names only a Halal-center employee holding the queue permission', async () => {
    const draft = await completeDraft(w.as['internal.main'], 'internalCertificate', INTERNAL);
    await accept(w.as['internal.main'], draft.id, 'SUBMIT', { agreementAccepted: true });
    const [fee] = await billsOf(w.as.registration, draft.id);
    await payBill(w.t, fee.id, fee);
    const waiting = await read(draft.id);
    expect(waiting.status.code).toBe(1);
    for (const name of ['committee', 'audit', 'internal.main'] as const) {
      const res = await send(w.as.registration, draft.id, 'ASSIGN_TO_EMPLOYEE', waiting.version, { assigneeUserId: w.userId(name) });
      expect(res.statusCode, name).toBe(400);
      expect(members(res), name).toContain('assigneeUserId');
    }
    expect((await read(draft.id)).version).toBe(waiting.version);
    const ok = await send(w.as.registration, draft.id, 'ASSIGN_TO_EMPLOYEE', waiting.version, { assigneeUserId: w.userId('registration') });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('staff can neither act on nor add notes to a draft that was never submitted', async () => {
    const draft = await completeDraft(w.as['internal.main'], 'internalCertificate', INTERNAL);
    for (const staff of ['registration', 'audit', 'committee', 'admin'] as const) {
      const note = await send(w.as[staff], draft.id, 'ADD_NOTE', draft.version, { note: 'Looked at it' });
      expect(note.statusCode, `${staff} ADD_NOTE`).not.toBe(200);
      const actions = await w.as[staff].get(`/api/requests/${draft.id}/actions`);
      expect(actions.statusCode === 404 || actions.json().actions.length === 0, `${staff} actions`).toBe(true);
    }
    const [row] = await w.t.database.db.select({ version: requests.version }).from(requests).where(eq(requests.id, draft.id));
    expect(row.version).toBe(draft.version);
    expect(await billsOf(w.as['internal.main'], draft.id)).toEqual([]);
  });
});
