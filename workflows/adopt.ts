import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { certificates, requests } from '../db/schema';
import { SYSTEM_ACTOR, type Actor } from '../machines/actor';
import { Permissions as P } from '../machines/permissions';
import { entityPort, sendToEntity, type StoreDeps } from './store';
import { NEWEST_CERTIFICATE_FIRST } from './newest-certificate';

/*
 * Certificates written without the engine — the demo seed, or the certificates of an earlier system migrated into the
 * table — get their lifecycle here, so that each one has the history, the deadlines and the actions of a certificate
 * the portal issued (machines/certificate.ts, machines/halal-mark.ts): staff can suspend or cancel it, its expiry
 * moves its status, and its page reads its history.
 *
 * The row is the record: the lifecycle starts as the engine would have started it on the row's dates (its expiry and
 * "expiring soon" deadlines, a mark's start date; those already past fire at the next timer sweep), and a certificate
 * the row holds suspended is suspended in the same transaction, its suspension date kept. A mark the row holds at code 2
 * (its validity ended) before its expiry date was cancelled: that is how the mark's own lifecycle records a cancellation
 * (the catalogue has no cancelled code), so it is cancelled in the same transaction, not revived by its dates.
 */

/**
 * Who suspends a certificate that was suspended before its lifecycle started: its record, through the system's name.
 * Not the system actor itself, which may send only the system's own events (deadlines, payment callbacks); this one
 * holds the one permission SUSPEND needs, and its history row records it, so a replay decides as this did.
 */
const ADOPTION_ACTOR: Actor = Object.freeze({ userId: SYSTEM_ACTOR.userId, roles: ['system'], permissions: [P.certificates.suspend], facilityIds: [] });
const ADOPTED_SUSPENSION_REASON = 'موقوفة في سجلها قبل بدء دورة حياتها — suspended in its record before its lifecycle started';
const ADOPTED_CANCELLATION_REASON = 'ملغاة في سجلها قبل بدء دورة حياتها — cancelled in its record before its lifecycle started';

const SUSPENDED = 4;
/** A mark's code 2: its validity ended, by its expiry or (before it) by a cancellation (machines/halal-mark.ts). */
const MARK_ENDED = 2;
/** One key for every process: two servers starting together adopt each certificate once. */
const ADOPTION_LOCK = sql`select pg_advisory_xact_lock(hashtext('halal.adopt-certificates'))`;

const withoutLifecycle = sql`not exists (select 1 from ${requests} where ${requests.id} = ${certificates.id})`;

/**
 * Starts the lifecycle of every certificate and mark that has none; returns how many were adopted. One that fails
 * (a record its machine refuses) is reported to `onError` and left as it was: it must not keep the others, or the
 * server, from starting.
 */
export async function adoptCertificates(db: Db, deps: StoreDeps, now: Date, onError: (err: unknown, id: string) => void = () => {}): Promise<number> {
  const ids = await db.select({ id: certificates.id }).from(certificates).where(withoutLifecycle).orderBy(certificates.issuedAt);
  let adopted = 0;
  for (const { id } of ids) {
    try {
      if (await db.transaction((tx) => adoptOne(tx, deps, now, id))) adopted++;
    } catch (err) {
      onError(err, id);
    }
  }
  return adopted;
}

async function adoptOne(tx: Tx, deps: StoreDeps, now: Date, id: string): Promise<boolean> {
  await tx.execute(ADOPTION_LOCK);
  const [cert] = await tx.select().from(certificates).where(and(eq(certificates.id, id), withoutLifecycle));
  if (!cert) return false; // another process adopted it meanwhile
  const mark = cert.kind === 'halalMark';
  const base = { id: cert.id, number: cert.number, facilityPublicId: cert.facilityPublicId, ownerUserId: SYSTEM_ACTOR.userId, status: cert.status };
  const entities = entityPort(tx, deps, now);
  if (mark) {
    const certificateId = await markedCertificate(tx, cert.facilityPublicId);
    await entities.start('halalMark', {
      ...base,
      data: { validFrom: cert.validFrom.toISOString(), expiresAt: cert.expiresAt.toISOString(), ...(certificateId ? { certificateId } : {}) },
    });
    if (cert.status === MARK_ENDED && cert.expiresAt > now) {
      const cancelled = await sendToEntity(tx, deps, now, cert.id, { type: 'CANCEL', reason: ADOPTED_CANCELLATION_REASON }, ADOPTION_ACTOR);
      if (!cancelled) throw new Error(`mark ${cert.number} refused its cancellation`);
    }
    return true;
  }
  await entities.start('certificate', { ...base, data: { expiresAt: cert.expiresAt.toISOString() } });
  if (cert.status === SUSPENDED) {
    const suspended = await sendToEntity(tx, deps, now, cert.id, { type: 'SUSPEND', reason: ADOPTED_SUSPENSION_REASON }, ADOPTION_ACTOR);
    if (!suspended) throw new Error(`certificate ${cert.number} refused its suspension`);
    // The lifecycle's mirror dates the suspension today; the record's own date stands.
    await tx.update(certificates).set({ suspendedAt: cert.suspendedAt ?? now }).where(eq(certificates.id, cert.id));
  }
  return true;
}

/** The Halal certificate a migrated mark stands on: its facility's newest (NEWEST_CERTIFICATE_FIRST). */
async function markedCertificate(tx: Tx, facilityPublicId: string): Promise<string | null> {
  const [row] = await tx
    .select({ id: certificates.id })
    .from(certificates)
    .where(and(eq(certificates.facilityPublicId, facilityPublicId), inArray(certificates.kind, ['internalHalal', 'externalHalal'])))
    .orderBy(...NEWEST_CERTIFICATE_FIRST)
    .limit(1);
  return row?.id ?? null;
}
