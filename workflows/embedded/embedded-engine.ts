import { randomUUID } from 'node:crypto';
import type { Db, Tx } from '../../db/client';
import { SYSTEM_ACTOR, type Actor } from '../../machines/actor';
import { AppError, AppErrorCode } from '../../lib/app-error';
import { adoptCertificates } from '../adopt';
import type { MachineCatalogue } from '../catalogue';
import type { AllowedAction, HistoryEntry, Page, QueueQuery, RequestSummaryView, RequestView, SendOptions, StartInput, StartOptions, VerifyResult, WorkflowEngine, WorkflowEvent } from '../engine';
import { getRequestView, listRequests, requestHistoryOf, verifyRequestHistory } from '../queries';
import { restoreSnapshot, sendStep, startStep, type Refusal, type StoredSnapshot } from '../step';
import {
  appendAnnotation,
  claimDueTimer,
  lockRequest,
  markTimerFired,
  persistStart,
  persistTransition,
  postponeTimer,
  readRequest,
  tryLockRequest,
  viewOf,
  type LockedRow,
  type StoreDeps,
  type WrittenRows,
} from '../store';
import { StepWaits, WAITING_RETRY_MS } from '../waiting';

export interface EmbeddedEngineOptions {
  db: Db;
  /** The machines; default the store's (deps.catalogue), which must also know the entity lifecycles effects start. */
  catalogue?: MachineCatalogue;
  deps: StoreDeps;
  /** The engine's clock (tests move it forward to make deadlines due). */
  now?: () => Date;
}

/** Requests whose last written snapshot the engine keeps (a few MB at ~2 KB each). */
const WRITTEN_MAX = 2000;

export function refusalError(refusal: Refusal): AppError {
  if (refusal.code === 'ValidationFailed') return new AppError(AppErrorCode.ValidationFailed, {}, refusal.issues);
  return new AppError(refusal.code === 'NotAuthorized' ? AppErrorCode.NotAuthorized : AppErrorCode.TransitionNotAllowed);
}

/**
 * The default engine: the machines run inside the server process and every event is one database transaction
 * (PGlite or PostgreSQL). See WorkflowEngine for the contract.
 */
export class EmbeddedEngine implements WorkflowEngine {
  readonly db: Db;
  private readonly catalogue: MachineCatalogue;
  private readonly deps: StoreDeps;
  private readonly now: () => Date;
  /**
   * The stored snapshot this process last wrote for each request, with the row's version and history head at that
   * write. A locked row with the same version and head still holds that snapshot (only the engine writes it, and every
   * write moves both), so the event runs on the very object written instead of the driver's fresh parse of it: the
   * projections and the submission check then find the sections already parsed (machines/services/project.ts
   * parseComplete remembers per object). Stored snapshots are never mutated. Bounded; the oldest entry goes first.
   */
  private readonly written = new Map<string, { version: number; historyHash: string; snapshot: LockedRow['snapshot'] }>();

  constructor(opts: EmbeddedEngineOptions) {
    this.db = opts.db;
    this.catalogue = opts.catalogue ?? opts.deps.catalogue;
    this.deps = opts.deps;
    this.now = opts.now ?? (() => new Date());
  }

  async start(kind: string, input: StartInput, actor: Actor, options: StartOptions = {}): Promise<RequestView> {
    if (!this.catalogue.hasKind(kind)) throw new AppError(AppErrorCode.BadRequest, { kind });
    const machineVersion = this.catalogue.currentVersion(kind);
    const machine = this.catalogue.getMachine(kind, machineVersion);
    const id = randomUUID();
    const now = this.now();
    const started = startStep(this.catalogue, kind, machine, { ...input, requestId: id }, now);
    if (!started.ok) throw refusalError(started.refusal);
    const { step: { next, effects }, input: fullInput } = started;
    const written = this.writtenRows();
    const row = await this.db.transaction((tx) =>
      persistStart(
        tx,
        {
          id,
          kind,
          machineVersion,
          input: fullInput,
          facilityPublicId: input.facilityId,
          ownerUserId: input.ownerUserId,
          creatorName: options.creatorName ?? '',
          next,
          effects,
          actor,
          now,
          written,
        },
        this.deps,
      ),
    );
    written.commit();
    return viewOf(row);
  }

  private remember(row: LockedRow): void {
    this.written.delete(row.id);
    this.written.set(row.id, { version: row.version, historyHash: row.historyHash, snapshot: row.snapshot });
    if (this.written.size > WRITTEN_MAX) this.written.delete(this.written.keys().next().value!);
  }

  /**
   * The remembered rows for one transaction, as the store sees them (entity lifecycles moved by effects lock with
   * them too): the rows it writes are remembered by `commit`, called once the transaction committed.
   */
  private writtenRows(): WrittenRows & { commit(): void } {
    const rows: LockedRow[] = [];
    return {
      get: (id) => this.written.get(id),
      wrote: (row) => void rows.push(row),
      commit: () => rows.forEach((row) => this.remember(row)),
    };
  }

  /** The locked row with the snapshot object this process wrote, when the row has not moved since. */
  private withWritten(row: LockedRow): LockedRow {
    const w = this.written.get(row.id);
    return w && w.version === row.version && w.historyHash === row.historyHash ? { ...row, snapshot: w.snapshot } : row;
  }

  async send(id: string, event: WorkflowEvent, actor: Actor, expectedVersion?: number, options: SendOptions = {}): Promise<RequestView> {
    const written = this.writtenRows();
    const row = await this.db.transaction(async (tx) => {
      // The caller's own row (SendOptions.alsoWrite) is sent with the lock read, one round trip for both; a refusal
      // below rolls it back with the rest.
      const also = options.alsoWrite?.(tx);
      also?.catch(() => {});
      const locked = await lockRequest(tx, id, this.written.get(id));
      if (!locked || locked.deletedAt) throw new AppError(AppErrorCode.EntityNotFound);
      options.admit?.({ kind: locked.kind, facilityId: locked.facilityPublicId });
      if (expectedVersion !== undefined && locked.version !== expectedVersion) throw new AppError(AppErrorCode.ConcurrencyConflict);
      const result = await this.apply(tx, locked, event, actor, written);
      if (!result.ok) throw refusalError(result.refusal);
      await also;
      return result.row;
    });
    // Only once committed: a rolled-back write leaves the row at a version and head the entry does not match anyway.
    written.commit();
    return viewOf(row);
  }

  /** Decides and, when accepted, persists one event on a locked row: the one send path of users and timers. */
  private async apply(
    tx: Tx,
    row: LockedRow,
    event: WorkflowEvent,
    actor: Actor,
    written: WrittenRows,
  ): Promise<{ ok: true; row: LockedRow } | { ok: false; refusal: Refusal }> {
    const machine = this.catalogue.getMachine(row.kind, row.machineVersion);
    const stored = row.snapshot as unknown as StoredSnapshot;
    const now = this.now();
    const step = sendStep(this.catalogue, row.kind, row.machineVersion, machine, stored, event, actor, now);
    if (!step.ok) return step;
    const updated = await persistTransition(tx, row, { ...step, actor, now, written }, this.deps);
    return { ok: true, row: updated };
  }

  get(id: string): Promise<RequestView | null> {
    return getRequestView(this.db, id);
  }

  history(id: string): Promise<HistoryEntry[]> {
    return requestHistoryOf(this.db, id);
  }

  verifyHistory(id: string): Promise<VerifyResult> {
    return verifyRequestHistory(this.db, id);
  }

  async allowedActions(id: string, actor: Actor): Promise<AllowedAction[]> {
    const row = await readRequest(this.db, id);
    if (!row || row.deletedAt) return [];
    const machine = this.catalogue.getMachine(row.kind, row.machineVersion);
    const snapshot = restoreSnapshot(machine, row.snapshot as unknown as StoredSnapshot);
    if (snapshot.status !== 'active') return [];
    return this.catalogue.allowedActions(row.kind, snapshot, actor, row.machineVersion);
  }

  annotate(id: string, annotation: Parameters<WorkflowEngine['annotate']>[1], actor: Actor): Promise<boolean> {
    // The same table write in both adapters: an annotation is not an event of the workflow.
    return this.db.transaction((tx) => appendAnnotation(tx, id, annotation, actor, new Date()));
  }

  list(query: QueueQuery): Promise<Page<RequestSummaryView>> {
    return listRequests(this.db, query);
  }

  /**
   * Fires every timer due at `now`, each in its own transaction: the timer row is claimed with FOR UPDATE SKIP LOCKED
   * (two server processes never take the same one), its request is locked without waiting (a busy request is
   * retried on the next sweep, so the runner never holds a timer while waiting for a user's transaction), the event
   * goes through the same send path as a user's with SYSTEM_ACTOR, and the timer is marked fired in that same
   * transaction: a timer fires exactly once, also when the process dies half-way.
   * Returns the number of timers fired (accepted or refused by the machine). A timer whose transaction fails is
   * reported to `onError` and left due for the next sweep.
   */
  /**
   * Starts the lifecycle of every certificate and mark written without the engine (workflows/adopt.ts); their deadlines
   * already past fire at the next sweep. Returns how many were adopted.
   */
  adoptCertificates(onError?: (err: unknown, certificateId: string) => void): Promise<number> {
    return adoptCertificates(this.db, this.deps, this.now(), onError);
  }

  async fireDueTimers(
    now: Date = this.now(),
    limit = 1000,
    onError: (err: unknown, timerId: string) => void = () => {},
    onlyEntities = false,
  ): Promise<number> {
    const skip: string[] = [];
    let fired = 0;
    while (fired < limit) {
      let claimed: string | undefined;
      let outcome: 'none' | 'busy' | 'fired';
      const written = this.writtenRows();
      try {
        outcome = await this.db.transaction(async (tx) => {
          const timer = await claimDueTimer(tx, now, skip, onlyEntities);
          if (!timer) return 'none' as const;
          claimed = timer.id;
          const row = await tryLockRequest(tx, timer.requestId);
          if (!row) return 'busy' as const;
          const result = row.deletedAt ? ({ ok: false } as const) : await this.apply(tx, this.withWritten(row), { type: timer.event }, SYSTEM_ACTOR, written);
          await markTimerFired(tx, timer.id, result.ok ? 'accepted' : 'refused', this.now());
          return 'fired' as const;
        });
        written.commit();
      } catch (err) {
        // A timer whose event fails (a bug in an effect, a lost connection) is retried next sweep; it must not
        // hold back the timers behind it. One whose step waits by design rests WAITING_RETRY_MS, unlogged.
        if (!claimed) throw err;
        if (err instanceof StepWaits) {
          const ended = err.instead ? await this.endWait(claimed, err.instead, now) : false;
          if (!ended) await postponeTimer(this.db, claimed, new Date(now.getTime() + WAITING_RETRY_MS));
        }
        else onError(err, claimed);
        outcome = 'busy';
      }
      if (outcome === 'none') break;
      if (outcome === 'busy') skip.push(claimed!);
      else fired++;
    }
    return fired;
  }

  /**
   * Sends the event a waiting step named instead of waiting (StepWaits.instead) to the timer's request, as the system,
   * in a transaction of its own; leaving the state cancels the waiting timer. False when the timer or its request is
   * busy or gone, or the machine refuses the event (an earlier version keeps waiting).
   */
  private async endWait(timerId: string, event: string, now: Date): Promise<boolean> {
    const written = this.writtenRows();
    try {
      const ended = await this.db.transaction(async (tx) => {
        const timer = await claimDueTimer(tx, now, [], false, timerId);
        if (!timer) return false;
        const row = await tryLockRequest(tx, timer.requestId);
        if (!row || row.deletedAt) return false;
        const result = await this.apply(tx, this.withWritten(row), { type: event }, SYSTEM_ACTOR, written);
        return result.ok;
      });
      if (ended) written.commit();
      return ended;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {}
}
