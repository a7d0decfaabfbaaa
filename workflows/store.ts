import { and, asc, eq, getTableColumns, isNull, lte, notInArray, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../db/client';
import { requestHistory, requests, workflowTimers } from '../db/schema';
import { SYSTEM_ACTOR, type Actor } from '../machines/actor';
import { serviceOf, type EntityKind } from '../machines/services';
import type { RequestContext } from '../machines/types';
import type { Deadline, MachineCatalogue } from './catalogue';
import type { HistoryEntry, RequestView, WorkflowEvent } from './engine';
import { applyEffects, mirrorEntityStatus, type EffectDeps, type EntityPort } from './effects';
import { checkChain, historyHash, rememberCanonical, type ChainCheck, type HashedRow } from './hash-chain';
import { nextNumber } from './numbers';
import { HotStatement, fieldsOf, param } from './hot-statements';
import { sendStep, snapshotText, startStep, toJson, type Derived, type Effect, type StoredSnapshot } from './step';

/*
 * Persistence of workflow instances, shared by both engine adapters: the embedded engine calls these inside its one
 * transaction per event; the Temporal adapter's activities call them in theirs. The statements every event runs (lock,
 * then history + request in one statement) are HotStatements: built once, prepared by name on each connection
 * (with postgres.js a server-side prepared statement, parsed once per connection; PGlite ignores the name).
 */

export type RequestRow = typeof requests.$inferSelect;
/** A request row as the per-event path reads it: everything but the start input (only replays need that). */
export type LockedRow = Omit<RequestRow, 'input'>;
export type TimerRow = typeof workflowTimers.$inferSelect;
type Executor = Db | Tx;

export interface StoreDeps extends EffectDeps {
  /** Milliseconds of each configured deadline duration ('paymentWindow', 'draftRetention'), as the settings say now. */
  durations: () => Record<string, number>;
  /** The machines: entity lifecycles (bills, certificates, marks) are started and moved by effects with it. */
  catalogue: MachineCatalogue;
}

/** Kinds whose lifecycle mirrors its status into an entity table (effects.ts mirrorEntityStatus). */
const ENTITY_KINDS = new Set<string>(['bill', 'certificate', 'halalMark', 'delegation']);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids come from URLs: anything that is not a uuid cannot name a request (and must not reach a uuid column). */
export const isRequestId = (id: string): boolean => UUID.test(id);

export async function readRequest(db: Executor, id: string): Promise<RequestRow | undefined> {
  if (!isRequestId(id)) return undefined;
  const [row] = await db.select().from(requests).where(eq(requests.id, id)).prepare('wf_read_request').execute();
  return row;
}

const LOCKED_COLUMNS = Object.keys(getTableColumns(requests)).filter((c) => c !== 'input');
const lockStatement = new HotStatement<LockedRow>(
  'wf_lock_request',
  (db) =>
    db
      .select(Object.fromEntries(LOCKED_COLUMNS.map((c) => [c, getTableColumns(requests)[c as keyof RequestRow]])))
      .from(requests)
      .where(eq(requests.id, param('id')))
      .for('update'),
  fieldsOf(requests, LOCKED_COLUMNS),
);

/**
 * The same lock, for a caller that holds the snapshot it wrote at `known` (version and history head): the row comes
 * without its snapshot (null) when it is still at that version and head, so the database neither sends it nor the
 * driver parses it again.
 */
const lockKnownStatement = new HotStatement<LockedRow>(
  'wf_lock_request_known',
  (db) =>
    db
      .select(
        Object.fromEntries(
          LOCKED_COLUMNS.map((c) => [
            c,
            c === 'snapshot'
              ? sql`case when ${requests.version} = ${param('version')} and ${requests.historyHash} = ${param('historyHash')} then null else ${requests.snapshot} end`
              : getTableColumns(requests)[c as keyof RequestRow],
          ]),
        ),
      )
      .from(requests)
      .where(eq(requests.id, param('id')))
      .for('update'),
  fieldsOf(requests, LOCKED_COLUMNS),
);

/**
 * SELECT ... FOR UPDATE: serialises every writer of one request until the transaction ends. With `known` (the
 * snapshot this process wrote, at that version and history head) the stored snapshot is read only when the row has
 * moved since; otherwise the row carries `known.snapshot`, the very object that was written.
 */
export async function lockRequest(tx: Tx, id: string, known?: KnownRow): Promise<LockedRow | undefined> {
  if (!isRequestId(id)) return undefined;
  if (!known) {
    const [row] = await lockStatement.execute(tx, { id });
    return row;
  }
  const [row] = await lockKnownStatement.execute(tx, { id, version: known.version, historyHash: known.historyHash });
  // The snapshot column is never null: null says the row is at `known`.
  return row && row.snapshot === null ? { ...row, snapshot: known.snapshot } : row;
}

/** Like lockRequest but gives up at once when another transaction holds the row (the timer runner never waits). */
export async function tryLockRequest(tx: Tx, id: string): Promise<LockedRow | undefined> {
  const [row] = await tx
    .select()
    .from(requests)
    .where(eq(requests.id, id))
    .for('update', { skipLocked: true })
    .prepare('wf_try_lock_request')
    .execute();
  return row;
}

/** '2026-000123': the year the request was created and the requests' own number series. */
export const nextRequestNumber = (tx: Tx, now: Date): Promise<string> => nextNumber(tx, 'request', now);

/** Brand and trademark names of a request (its service's projection), for the staff "brand name" filter. */
export function brandNamesOf(kind: string, context: Record<string, unknown>, deps: Pick<StoreDeps, 'services'>): string {
  const def = serviceOf(kind, deps.services);
  if (!def) return '';
  const c = context as unknown as RequestContext;
  return def.project(c.data ?? {}, c).brandNames.join(' | ');
}

export function viewOf(row: LockedRow): RequestView {
  const stored = row.snapshot as unknown as StoredSnapshot;
  return {
    id: row.id,
    number: row.number,
    kind: row.kind,
    machineVersion: row.machineVersion,
    status: row.status,
    queue: row.queue,
    stateValue: row.stateValue,
    version: row.version,
    facilityId: row.facilityPublicId,
    ownerUserId: row.ownerUserId,
    assigneeUserId: row.assigneeUserId,
    creatorName: row.creatorName,
    finished: stored.status === 'done' || row.queue === 'final',
    deleted: row.deletedAt !== null,
    context: stored.context,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * The stored forms of the actors seen lately, by their JSON text, frozen at every depth: one actor sends many events,
 * and the history hash then reads the canonical text of its stored form once (hash-chain.ts rememberCanonical).
 */
const actorJsons = new Map<string, Record<string, unknown>>();
const actorTexts = new WeakMap<object, string>();
const ACTOR_JSONS_MAX = 1000;

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** The actor as its history row stores it (a JSON copy; frozen, shared by the rows of one actor). */
export function actorJson(actor: Actor): Record<string, unknown> {
  const text = JSON.stringify({
    userId: actor.userId,
    roles: actor.roles,
    permissions: actor.permissions,
    facilityIds: actor.facilityIds,
    // Guards read the per-facility (delegated) permissions: a replay needs them to decide as the event did.
    ...(actor.facilityPermissions ? { facilityPermissions: actor.facilityPermissions } : {}),
    ...(actor.system ? { system: true } : {}),
  });
  let json = actorJsons.get(text);
  if (!json) {
    json = deepFreeze(JSON.parse(text) as Record<string, unknown>);
    rememberCanonical(json);
    actorTexts.set(json, text);
    actorJsons.set(text, json);
    if (actorJsons.size > ACTOR_JSONS_MAX) actorJsons.delete(actorJsons.keys().next().value!);
  }
  return json;
}

/** The note of a history row: the event's `note`, else its `reason`. */
function noteOf(payload: Record<string, unknown>): string | null {
  for (const key of ['note', 'reason']) if (typeof payload[key] === 'string' && payload[key]) return payload[key] as string;
  return null;
}

/** The next history row after `head`, with its hash (not yet written). */
export function chainRow(head: { seq: number; hash: string }, row: Omit<HashedRow, 'seq'>): HashedRow & { prevHash: string; hash: string } {
  const full: HashedRow = { ...row, seq: head.seq + 1 };
  return { ...full, prevHash: head.hash, hash: historyHash(head.hash, full) };
}

const HISTORY_COLUMNS = [
  'requestId',
  'seq',
  'actorUserId',
  'actor',
  'event',
  'payload',
  'note',
  'fromStatus',
  'toStatus',
  'fromQueue',
  'toQueue',
  'at',
  'prevHash',
  'hash',
] as const satisfies readonly (keyof typeof requestHistory.$inferInsert)[];

/**
 * A chained history row as the `h_` placeholders of a write statement (jsonb as JSON text, time as ISO text:
 * placeholders are not encoded). `payloadText`: the payload's JSON text when the caller already has it.
 */
function historyValues(row: HashedRow & { prevHash: string; hash: string }, payloadText?: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of HISTORY_COLUMNS) out[`h_${c}`] = row[c];
  out.h_actor = actorTexts.get(row.actor) ?? JSON.stringify(row.actor);
  out.h_payload = payloadText ?? JSON.stringify(row.payload);
  out.h_at = row.at.toISOString();
  return out;
}

/** When a deadline entered at `now` is due: the machine's computed time, else now + the configured duration. */
export function dueAtOf(d: Deadline, now: Date, deps: Pick<StoreDeps, 'durations'>): Date {
  if (d.computedDueAt) return new Date(d.computedDueAt);
  const ms = deps.durations()[d.after];
  if (ms === undefined) throw new Error(`No duration configured for deadline '${d.after}' (event ${d.event})`);
  return new Date(now.getTime() + ms);
}

export interface StartRecord {
  id: string;
  /** The number people see; a request draws the next of its series, an entity brings its own (bill, certificate ...). */
  number?: string;
  kind: string;
  machineVersion: number;
  input: Record<string, unknown>;
  facilityPublicId: string;
  ownerUserId: string;
  creatorName: string;
  next: Derived;
  effects: Effect[];
  actor: Actor;
  now: Date;
  /** An entity whose row the caller inserted with this status: the lifecycle's first status is mirrored only when it differs. */
  entityStatus?: number;
  /** The rows this process wrote (the embedded engine's): entity lifecycles started or moved by effects use it too. */
  written?: WrittenRows;
}

/** A request row as this process last wrote it: its version and history head then, and the snapshot object written. */
export interface KnownRow {
  version: number;
  historyHash: string;
  snapshot: LockedRow['snapshot'];
}

/**
 * What the embedded engine remembers of the rows it wrote (embedded-engine.ts `written`), handed down to the entity
 * lifecycles effects move inside a request's transaction: their locks read the snapshot only when the row moved since
 * (lockRequest's `known`), and the rows they write are reported, to be remembered once that transaction commits.
 */
export interface WrittenRows {
  get(id: string): KnownRow | undefined;
  wrote(row: LockedRow): void;
}

const START_COLUMNS = [
  'id',
  'number',
  'kind',
  'machineVersion',
  'input',
  'snapshot',
  'status',
  'queue',
  'stateValue',
  'version',
  'facilityPublicId',
  'ownerUserId',
  'assigneeUserId',
  'creatorName',
  'brandNames',
  'historySeq',
  'historyHash',
  'createdAt',
  'updatedAt',
] as const satisfies readonly (keyof RequestRow)[];

/** The history row's insert, as a CTE of the statement that writes the request row. */
function historyInsert() {
  const h = getTableColumns(requestHistory);
  const columns = sql.join(HISTORY_COLUMNS.map((c) => sql.identifier(h[c].name)), sql`, `);
  const values = sql.join(HISTORY_COLUMNS.map((c) => sql`${sql.placeholder(`h_${c}`)}`), sql`, `);
  return sql`insert into ${requestHistory} (${columns}) values (${values})`;
}

/**
 * Timer rows as CTEs of the same statement, for any number of deadlines: `arm` and `cancel` are JSON arrays
 * ([{ event, after, due_at }] / [{ event, after }]). A cancel sees the table as it was before the statement, so a
 * deadline cancelled and armed again (a changed due date) cancels the old row and keeps the new one, as two
 * statements in that order did.
 */
const armTimersCte = () =>
  sql`insert into ${workflowTimers} ("request_id", "event", "after", "due_at", "created_at")
      select ${sql.placeholder('id')}::uuid, t."event", t."after", t."due_at", ${sql.placeholder('now')}::timestamptz
      from jsonb_to_recordset(${sql.placeholder('arm')}::jsonb) as t("event" text, "after" text, "due_at" timestamptz)`;
const cancelTimersCte = () =>
  sql`update ${workflowTimers} set "cancelled_at" = ${sql.placeholder('now')}::timestamptz
      where "request_id" = ${sql.placeholder('id')}::uuid and "fired_at" is null and "cancelled_at" is null
        and ("event", "after") in (select t."event", t."after" from jsonb_to_recordset(${sql.placeholder('cancel')}::jsonb) as t("event" text, "after" text))`;

const query = (q: ReturnType<typeof sql>) => ({ toSQL: () => new PgDialect().sqlToQuery(q) });

/** The request row, its START history row and its first timers, in one statement (one round trip). */
const startStatements = [false, true].map(
  (withTimers) =>
    new HotStatement(withTimers ? 'wf_write_start_timers' : 'wf_write_start', () => {
      const r = getTableColumns(requests);
      const columns = sql.join(START_COLUMNS.map((c) => sql.identifier(r[c].name)), sql`, `);
      const values = sql.join(START_COLUMNS.map((c) => sql`${sql.placeholder(c)}`), sql`, `);
      return query(
        withTimers
          ? sql`with history as (${historyInsert()}), armed as (${armTimersCte()}) insert into ${requests} (${columns}) values (${values})`
          : sql`with history as (${historyInsert()}) insert into ${requests} (${columns}) values (${values})`,
      );
    }),
);

/** Deadlines as the JSON parameter of the timer CTEs. */
const armParam = (deadlines: Deadline[], now: Date, deps: StoreDeps) =>
  JSON.stringify(deadlines.map((d) => ({ event: d.event, after: d.after, due_at: dueAtOf(d, now, deps).toISOString() })));
const cancelParam = (deadlines: Deadline[]) => JSON.stringify(deadlines.map((d) => ({ event: d.event, after: d.after })));

/** Inserts a new request with its 'START' history row, applies its initial effects and arms its first deadlines. */
export async function persistStart(tx: Tx, rec: StartRecord, deps: StoreDeps): Promise<RequestRow> {
  const number = rec.number ?? (await nextRequestNumber(tx, rec.now));
  // The input's JSON text serves the write as is (its parse is the stored input: the same text again).
  const inputText = JSON.stringify(rec.input);
  const input = JSON.parse(inputText) as Record<string, unknown>;
  const first = chainRow({ seq: 0, hash: '' }, {
    requestId: rec.id,
    actorUserId: rec.actor.userId,
    actor: actorJson(rec.actor),
    event: 'START',
    payload: input,
    note: null,
    fromStatus: null,
    toStatus: rec.next.status,
    fromQueue: null,
    toQueue: rec.next.queue,
    at: rec.now,
  });
  // The row as written (not read back: the input and the snapshot are the largest things a start moves).
  const row: RequestRow = {
    id: rec.id,
    number,
    kind: rec.kind,
    machineVersion: rec.machineVersion,
    input,
    snapshot: rec.next.stored as unknown as Record<string, unknown>,
    status: rec.next.status,
    queue: rec.next.queue,
    stateValue: rec.next.stateValue,
    version: 1,
    facilityPublicId: rec.facilityPublicId,
    ownerUserId: rec.ownerUserId,
    assigneeUserId: rec.next.assigneeUserId,
    creatorName: rec.creatorName,
    brandNames: brandNamesOf(rec.kind, rec.next.stored.context, deps),
    historySeq: first.seq,
    historyHash: first.hash,
    deletedAt: null,
    createdAt: rec.now,
    updatedAt: rec.now,
  };
  const deadlines = rec.next.deadlines;
  await startStatements[deadlines.length ? 1 : 0].execute(tx, {
    ...historyValues({ ...first, payload: input }, inputText),
    ...row,
    input: inputText,
    snapshot: snapshotText(rec.next.stored),
    createdAt: rec.now.toISOString(),
    updatedAt: rec.now.toISOString(),
    ...(deadlines.length ? { arm: armParam(deadlines, rec.now, deps), now: rec.now.toISOString() } : {}),
  });
  if (ENTITY_KINDS.has(rec.kind) && rec.entityStatus !== rec.next.status) await mirrorEntityStatus(tx, rec.kind, rec.id, rec.next.status, rec.now);
  rec.written?.wrote(row);
  await applyEffects(tx, rec.effects, { request: row, actor: rec.actor, now: rec.now, entities: entityPort(tx, deps, rec.now, rec.written) }, deps);
  return row;
}

/**
 * Starting and moving entity lifecycles from a request's effects, inside its transaction: the entity's workflow row,
 * history and timers are written with the same store code, by the system actor.
 */
export function entityPort(tx: Tx, deps: StoreDeps, now: Date, written?: WrittenRows): EntityPort {
  return {
    async start(kind: EntityKind, rec) {
      const machineVersion = deps.catalogue.currentVersion(kind);
      const machine = deps.catalogue.getMachine(kind, machineVersion);
      const input = { requestId: rec.id, ownerUserId: rec.ownerUserId, facilityId: rec.facilityPublicId, data: rec.data };
      const started = startStep(deps.catalogue, kind, machine, input, now);
      if (!started.ok) throw new Error(`the ${kind} lifecycle refused its start: ${JSON.stringify(started.refusal)}`);
      await persistStart(
        tx,
        {
          id: rec.id,
          number: rec.number,
          kind,
          machineVersion,
          input: started.input,
          facilityPublicId: rec.facilityPublicId,
          ownerUserId: rec.ownerUserId,
          creatorName: '',
          next: started.step.next,
          effects: started.step.effects,
          actor: SYSTEM_ACTOR,
          now,
          entityStatus: rec.status,
          written,
        },
        deps,
      );
    },
    send: (id, event) => sendToEntity(tx, deps, now, id, event, SYSTEM_ACTOR, written),
  };
}

/** An event to an entity's lifecycle inside the caller's transaction; false when there is none or it refuses. */
export async function sendToEntity(tx: Tx, deps: StoreDeps, now: Date, id: string, event: WorkflowEvent, actor: Actor, written?: WrittenRows): Promise<boolean> {
  const row = await lockRequest(tx, id, written?.get(id));
  if (!row) return false;
  const machine = deps.catalogue.getMachine(row.kind, row.machineVersion);
  const step = sendStep(deps.catalogue, row.kind, row.machineVersion, machine, row.snapshot as unknown as StoredSnapshot, event, actor, now);
  if (!step.ok) return false;
  await persistTransition(tx, row, { ...step, actor, now, written }, deps);
  return true;
}

const UPDATE_COLUMNS = [
  'snapshot',
  'status',
  'queue',
  'stateValue',
  'assigneeUserId',
  'brandNames',
  'version',
  'historySeq',
  'historyHash',
  'updatedAt',
] as const satisfies readonly (keyof RequestRow)[];

/**
 * The history row and the request row of one transition in one statement (a data-modifying CTE): one round trip
 * instead of two, on the path every event takes.
 */
const transitionStatement = new HotStatement('wf_write_transition', () => {
  const r = getTableColumns(requests);
  const sets = sql.join(UPDATE_COLUMNS.map((c) => sql`${sql.identifier(r[c].name)} = ${sql.placeholder(c)}`), sql`, `);
  return query(sql`with history as (${historyInsert()}) update ${requests} set ${sets} where ${sql.identifier(r.id.name)} = ${sql.placeholder('id')}`);
});

/**
 * A transition's timer changes, after its effects (as before: a timer runner's transaction takes its row locks in
 * that order), in one statement: the cancels and the arms. Moving them into the transition's own write, before the
 * effects, made two timer runners fire fewer timers (docs/performance-log.md, third pass).
 */
const timersStatement = new HotStatement('wf_transition_timers', () =>
  query(sql`with cancelled as (${cancelTimersCte()}) ${armTimersCte()}`),
);

/** Effects that write the request's own row (so the row is read again after them). */
const ROW_EFFECTS = new Set(['effect.deleteDraft']);

export interface TransitionRecord {
  prev: Derived;
  next: Derived;
  effects: Effect[];
  armed: Deadline[];
  cancelled: Deadline[];
  event: WorkflowEvent;
  actor: Actor;
  now: Date;
  /** false when the transition left the data as it was: the stored brand names stay (absent: recomputed). */
  dataChanged?: boolean;
  /** See StartRecord.written. */
  written?: WrittenRows;
}

/**
 * Writes an accepted transition: snapshot, status, queue and version + 1 on the (locked) request row, the history
 * row chained to the previous one, the database effects, and the timer changes. The caller owns the transaction.
 */
export async function persistTransition(tx: Tx, row: LockedRow, rec: TransitionRecord, deps: StoreDeps): Promise<LockedRow> {
  const { type, actor: _ignored, ...rest } = rec.event;
  // The payload's JSON text serves the history row's write as is (its parse is the stored payload: the same text again).
  const payloadText = JSON.stringify(rest);
  const payload = JSON.parse(payloadText) as Record<string, unknown>;
  const history = chainRow({ seq: row.historySeq, hash: row.historyHash }, {
    requestId: row.id,
    actorUserId: rec.actor.userId,
    actor: actorJson(rec.actor),
    event: type,
    payload,
    note: noteOf(payload),
    fromStatus: rec.prev.status,
    toStatus: rec.next.status,
    fromQueue: rec.prev.queue,
    toQueue: rec.next.queue,
    at: rec.now,
  });
  const changes = {
    snapshot: rec.next.stored as unknown as Record<string, unknown>,
    status: rec.next.status,
    queue: rec.next.queue,
    stateValue: rec.next.stateValue,
    assigneeUserId: rec.next.assigneeUserId,
    // The projection parses the data's sections: only worth doing when the data changed.
    brandNames: rec.dataChanged === false ? row.brandNames : brandNamesOf(row.kind, rec.next.stored.context, deps),
    version: row.version + 1,
    historySeq: history.seq,
    historyHash: history.hash,
    updatedAt: rec.now,
  };
  await transitionStatement.execute(tx, {
    ...historyValues(history, payloadText),
    ...changes,
    id: row.id,
    snapshot: snapshotText(rec.next.stored),
    updatedAt: rec.now.toISOString(),
  });
  // The row as written, without reading it back (the snapshot is the largest thing an event moves).
  let updated: LockedRow = { ...row, ...changes };
  if (ENTITY_KINDS.has(row.kind) && rec.prev.status !== rec.next.status) await mirrorEntityStatus(tx, row.kind, row.id, rec.next.status, rec.now);
  if (rec.effects.length) {
    await applyEffects(tx, rec.effects, { request: updated, actor: rec.actor, now: rec.now, entities: entityPort(tx, deps, rec.now, rec.written) }, deps);
    // An effect may have changed the row itself (a deleted draft).
    if (rec.effects.some((e) => ROW_EFFECTS.has(e.type))) updated = (await lockRequest(tx, row.id)) ?? updated;
  }
  if (rec.cancelled.length || rec.armed.length) {
    await timersStatement.execute(tx, { id: row.id, now: rec.now.toISOString(), arm: armParam(rec.armed, rec.now, deps), cancel: cancelParam(rec.cancelled) });
  }
  rec.written?.wrote(updated);
  return updated;
}

export { ANNOTATION_EVENTS, type AnnotationEvent } from './annotations';
import type { AnnotationEvent } from './annotations';

/** Appends an annotation to a request's hash-chained history, in the caller's transaction, with the row locked. */
export async function appendAnnotation(
  tx: Tx,
  requestId: string,
  annotation: { event: AnnotationEvent; payload: Record<string, unknown>; note: string | null },
  actor: Actor,
  now: Date,
): Promise<boolean> {
  const row = await lockRequest(tx, requestId);
  if (!row) return false;
  const history = chainRow({ seq: row.historySeq, hash: row.historyHash }, {
    requestId,
    actorUserId: actor.userId,
    actor: actorJson(actor),
    event: annotation.event,
    payload: toJson(annotation.payload),
    note: annotation.note,
    fromStatus: row.status,
    toStatus: row.status,
    fromQueue: row.queue,
    toQueue: row.queue,
    at: now,
  });
  await tx.insert(requestHistory).values(history);
  await tx.update(requests).set({ historySeq: history.seq, historyHash: history.hash }).where(eq(requests.id, requestId));
  return true;
}

type HistoryRow = typeof requestHistory.$inferSelect;

export async function readHistoryRows(db: Executor, requestId: string): Promise<HistoryRow[]> {
  if (!isRequestId(requestId)) return [];
  return db.select().from(requestHistory).where(eq(requestHistory.requestId, requestId)).orderBy(asc(requestHistory.seq));
}

export function historyEntryOf(r: HistoryRow): HistoryEntry {
  const actor = r.actor as { userId?: string; roles?: string[]; system?: boolean };
  return {
    seq: r.seq,
    actor: { userId: r.actorUserId, roles: actor.roles ?? [], system: actor.system === true },
    event: r.event,
    payload: r.payload,
    note: r.note,
    fromStatus: r.fromStatus,
    toStatus: r.toStatus,
    fromQueue: r.fromQueue,
    toQueue: r.toQueue,
    at: r.at,
    prevHash: r.prevHash,
    hash: r.hash,
  };
}

/** Recomputes the hash chain of a request against the head stored on its row. */
export async function verifyChain(db: Executor, row: LockedRow): Promise<ChainCheck> {
  const rows = await readHistoryRows(db, row.id);
  return checkChain(rows, { seq: row.historySeq, hash: row.historyHash });
}

/**
 * Claims the oldest due timer no other transaction holds (FOR UPDATE SKIP LOCKED), skipping `exclude`; with
 * `onlyEntities` only the timers of entity lifecycles (under Temporal the requests' deadlines are workflow timers); with
 * `only`, that one timer.
 */
export async function claimDueTimer(tx: Tx, now: Date, exclude: string[], onlyEntities = false, only?: string): Promise<TimerRow | undefined> {
  const [timer] = await tx
    .select()
    .from(workflowTimers)
    .where(
      and(
        isNull(workflowTimers.firedAt),
        isNull(workflowTimers.cancelledAt),
        lte(workflowTimers.dueAt, now),
        exclude.length ? notInArray(workflowTimers.id, exclude) : undefined,
        onlyEntities ? sql`${workflowTimers.requestId} in (select ${requests.id} from ${requests} where ${requests.kind} in ${[...ENTITY_KINDS]})` : undefined,
        only ? eq(workflowTimers.id, only) : undefined,
      ),
    )
    .orderBy(asc(workflowTimers.dueAt))
    .limit(1)
    .for('update', { skipLocked: true });
  return timer;
}

/** Puts a due timer that could not fire yet back to `dueAt` (workflows/waiting.ts). */
export async function postponeTimer(db: Db | Tx, timerId: string, dueAt: Date): Promise<void> {
  await db.update(workflowTimers).set({ dueAt }).where(and(eq(workflowTimers.id, timerId), isNull(workflowTimers.firedAt)));
}

export async function markTimerFired(tx: Tx, timerId: string, outcome: 'accepted' | 'refused', now: Date): Promise<void> {
  await tx.update(workflowTimers).set({ firedAt: now, outcome }).where(eq(workflowTimers.id, timerId));
}
