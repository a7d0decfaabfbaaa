import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { certificates, requests } from '../../db/schema';
import { seedDemoCertificates } from '../../db/seed-public';
import type { Actor } from '../../machines/actor';
import { ROLE_PERMISSIONS } from '../../machines/roles';
import { EmbeddedEngine } from '../../workflows/embedded/embedded-engine';
import { publicStatusOf } from '../../server/modules/public/certificate-status';
import { testStoreDeps } from '../helpers/deps';
import { createTestDatabase } from '../helpers/db';

/*
 * Certificates written without the engine (the demo seed, a migration from an earlier system) get their lifecycle when
 * the server starts (workflows/adopt.ts): after it, each one shows the status its record held, its history verifies,
 * and staff may act on it as on a certificate the portal issued.
 */

const committee: Actor = { userId: randomUUID(), roles: ['committeeMember'], permissions: [...ROLE_PERMISSIONS.committeeMember], facilityIds: [] };

let database: Database;
let engine: EmbeddedEngine;
const now = new Date();
let records: (typeof certificates.$inferSelect)[];

beforeAll(async () => {
  database = await createTestDatabase({ seed: false });
  await seedDemoCertificates(database.db, now);
  records = await database.db.select().from(certificates);
  engine = new EmbeddedEngine({ db: database.db, deps: testStoreDeps(), now: () => now });
});
afterAll(() => database?.close());

describe('certificates written without the engine', () => {
  it('each gets the lifecycle of what the verification page shows for it, keeps its suspension date, and its history verifies', async () => {
    const shown = new Map(records.map((r) => [r.id, publicStatusOf(r, now)]));
    // The seed holds every status a person can see: the test means something only while it does.
    expect(new Set(shown.values())).toEqual(new Set(['active', 'expiringSoon', 'expired', 'suspended', 'validSoon']));

    expect(await engine.adoptCertificates()).toBe(records.length);
    await engine.fireDueTimers(now);

    const after = new Map((await database.db.select().from(certificates)).map((r) => [r.id, r]));
    for (const r of records) {
      const row = after.get(r.id)!;
      // The lifecycle's state is named as the public status: the page and the machine agree, and the row is unchanged but
      // for a status code that lagged behind its dates.
      expect({ number: r.number, state: (await engine.get(r.id))?.stateValue, shown: publicStatusOf(row, now), suspendedAt: row.suspendedAt }).toEqual({
        number: r.number,
        state: shown.get(r.id),
        shown: shown.get(r.id),
        suspendedAt: r.suspendedAt,
      });
      expect((await engine.verifyHistory(r.id)).ok).toBe(true);
    }
  });

  it('staff act on them as on issued ones: suspend, reinstate with a reason, cancel a mark', async () => {
    const suspended = records.find((r) => r.kind === 'externalHalal' && r.status === 4)!;
    const active = records.find((r) => r.kind === 'internalHalal' && r.status === 1)!;
    const mark = records.find((r) => r.kind === 'halalMark')!;
    const types = async (id: string) => (await engine.allowedActions(id, committee)).map((a) => a.type);
    expect(await types(suspended.id)).toEqual(['REINSTATE']);
    expect(await types(active.id)).toEqual(['SUSPEND']);
    expect(await types(mark.id)).toEqual(['CANCEL']);

    const view = await engine.get(suspended.id);
    await engine.send(suspended.id, { type: 'REINSTATE', reason: 'Audit closed' }, committee, view!.version);
    const [row] = await database.db.select().from(certificates).where(eq(certificates.id, suspended.id));
    expect({ status: row.status, suspendedAt: row.suspendedAt }).toEqual({ status: 1, suspendedAt: null });
    const history = await engine.history(suspended.id);
    expect(history.map((h) => [h.event, h.toStatus])).toEqual([
      ['START', 1],
      ['SUSPEND', 4],
      ['REINSTATE', 1],
    ]);
  });

  it('is done once: a second start adopts nothing, and two at once adopt a new record once', async () => {
    const lifecycles = async () => (await database.db.select({ id: requests.id }).from(requests)).length;
    const before = await lifecycles();
    expect(await engine.adoptCertificates()).toBe(0);
    expect(await lifecycles()).toBe(before);

    const issuedAt = new Date(now.getTime() - 30 * 86_400_000);
    await database.db.insert(certificates).values({
      number: 'HC-LEGACY-000001',
      legacyNumber: 'HLL-1440-0001',
      kind: 'internalHalal',
      facilityPublicId: 'inf-najd-dairy',
      verificationCode: 'LEGACY000001',
      issuedAt,
      validFrom: issuedAt,
      expiresAt: new Date(now.getTime() + 300 * 86_400_000),
      products: [],
    });
    const other = new EmbeddedEngine({ db: database.db, deps: testStoreDeps(), now: () => now });
    const counts = await Promise.all([engine.adoptCertificates(), other.adoptCertificates()]);
    expect(counts.sort()).toEqual([0, 1]);
    expect(await lifecycles()).toBe(before + 1);
  });
});
