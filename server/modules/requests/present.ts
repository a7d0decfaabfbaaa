import { inArray } from 'drizzle-orm';
import type { TFunction } from 'i18next';
import type { z } from 'zod';
import type { Db } from '../../../db/client';
import { users } from '../../../db/schema';
import { SYSTEM_ACTOR, type Actor } from '../../../machines/actor';
import { STAFF_ONLY_FIELDS, STAFF_ONLY_PAYLOAD_EVENTS } from '../../../machines/events';
import { isStaff } from '../../../machines/roles';
import { finishedOutcome } from '../../../machines/services/outcome';
import type { ServiceRegistry } from '../../../machines/services';
import type { AllowedAction, HistoryEntry, RequestSummaryView, RequestView } from '../../../workflows/engine';
import type { ZActions, ZHistoryEntry, ZRequest, ZRequestSummary } from './schemas';

/*
 * Turns engine views into the API's shapes, with labels in the caller's language (status labels and event names come
 * from the machines' catalogues in locales/<lang>/status.json and machines.json).
 */

/**
 * Labels already looked up with a `t`. server/i18n.ts tFor hands out one `t` per language and a new one when the texts
 * change (an administrator's override), so a label is looked up once per language and text version.
 */
const labelsOf = new WeakMap<TFunction, Map<string, string>>();

export function statusLabel(t: TFunction, kind: string, code: number): string {
  // A page of 20 rows has a handful of distinct statuses, and each i18next lookup costs tens of microseconds.
  const labels = labelsOf.get(t) ?? labelsOf.set(t, new Map()).get(t)!;
  const key = `status:${kind}.${code}`;
  let label = labels.get(key);
  if (label === undefined) labels.set(key, (label = t(key, { defaultValue: String(code) })));
  return label;
}

export function eventLabel(t: TFunction, type: string): string {
  return t(`machines:events.${type}`, { defaultValue: type });
}

export function presentSummary(t: TFunction, v: RequestSummaryView): z.infer<typeof ZRequestSummary> {
  return {
    id: v.id,
    number: v.number,
    kind: v.kind,
    machineVersion: v.machineVersion,
    status: { code: v.status, label: statusLabel(t, v.kind, v.status) },
    queue: v.queue,
    state: v.stateValue,
    version: v.version,
    facilityId: v.facilityId,
    ownerUserId: v.ownerUserId,
    assigneeUserId: v.assigneeUserId,
    creatorName: v.creatorName,
    finished: v.finished,
    createdAt: v.createdAt.toISOString(),
    updatedAt: v.updatedAt.toISOString(),
  };
}

/** `value` without the staff-only fields (STAFF_ONLY_FIELDS) at any depth; the same object when it holds none. */
function withoutStaffOnly<T>(value: T): T {
  if (Array.isArray(value)) {
    const items = value.map(withoutStaffOnly);
    return (items.some((x, i) => x !== value[i]) ? items : value) as T;
  }
  if (!value || typeof value !== 'object') return value;
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (STAFF_ONLY_FIELDS.includes(k)) {
      changed = true;
      continue;
    }
    const kept = withoutStaffOnly(v);
    if (kept !== v) changed = true;
    out[k] = kept;
  }
  return (changed ? out : value) as T;
}

/** What a reader may see of a request's case: staff everything, anyone else without the staff-only notes. */
export const forReader = <T>(reader: Actor, value: T): T => (isStaff(reader.permissions) ? value : withoutStaffOnly(value));

/** What a reader may see of a history entry's payload: none of a staff-only event's (audit's saved plan) unless staff. */
const payloadForReader = (reader: Actor, event: string, payload: Record<string, unknown>): Record<string, unknown> =>
  STAFF_ONLY_PAYLOAD_EVENTS.includes(event) && !isStaff(reader.permissions) ? {} : forReader(reader, payload);

/**
 * A request's answer; its outcome by the app's service registry (app.services), as every route reads services. The
 * reader's: an applicant's answer carries no staff-only note (the auditors' notes for the committee on the plan).
 */
export function presentRequest(t: TFunction, v: RequestView, services: ServiceRegistry, reader: Actor): z.infer<typeof ZRequest> {
  const { data, ...context } = v.context;
  const outcome = finishedOutcome(v, services);
  return { ...presentSummary(t, v), outcome: outcome ? { kind: outcome } : null, data: (data ?? {}) as Record<string, unknown>, context: forReader(reader, context) };
}

export function presentActions(t: TFunction, version: number, actions: AllowedAction[]): z.infer<typeof ZActions> {
  return {
    version,
    actions: actions.map((a) => ({
      type: a.type,
      label: eventLabel(t, a.type),
      ...(a.permission ? { permission: a.permission } : {}),
      requiresReason: a.requiresReason,
      ...(a.fullWaiverOnly ? { fullWaiverOnly: true } : {}),
    })),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The history timeline: who (by name), what, from and to which status, when; as `reader` may read it. */
export async function presentHistory(db: Db, t: TFunction, kind: string, entries: HistoryEntry[], reader: Actor): Promise<z.infer<typeof ZHistoryEntry>[]> {
  const ids = [...new Set(entries.map((e) => e.actor.userId).filter((id) => UUID.test(id)))];
  const names = new Map(
    ids.length ? (await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, ids))).map((u) => [u.id, u.name]) : [],
  );
  return entries.map((e) => ({
    seq: e.seq,
    event: e.event,
    actor: {
      userId: e.actor.userId,
      // The system's name also for what it did on a record's behalf (workflows/adopt.ts): a person's id is a UUID.
      name: e.actor.system || e.actor.userId === SYSTEM_ACTOR.userId ? t('requests:systemActor') : (names.get(e.actor.userId) ?? e.actor.userId),
      system: e.actor.system,
    },
    note: e.note,
    // The plan's and the report's notes for the committee and audit's unsent plans are the Halal center's.
    payload: payloadForReader(reader, e.event, e.payload),
    from: e.fromStatus === null ? null : { code: e.fromStatus, label: statusLabel(t, kind, e.fromStatus) },
    to: { code: e.toStatus, label: statusLabel(t, kind, e.toStatus) },
    at: e.at.toISOString(),
    hash: e.hash,
  }));
}

/** User ids in the request's case (its context, not the applicant's data): the assignee, the plan's auditors ... */
function userIdsIn(node: unknown, out: Set<string>, key = ''): Set<string> {
  if (typeof node === 'string') {
    if (UUID.test(node) && /user/i.test(key)) out.add(node);
  } else if (Array.isArray(node)) {
    for (const v of node) userIdsIn(v, out, key);
  } else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) userIdsIn(v, out, k);
  }
  return out;
}

/**
 * Names of the people the request's case names, so the applicant reads "Abdullah Al-Shehri", not an id; as `reader` may
 * read the case (an applicant is not told who audit's unsent plan names).
 */
export async function presentPeople(db: Db, v: RequestView, reader: Actor): Promise<Record<string, string>> {
  const { data: _data, ...context } = forReader(reader, v.context);
  const ids = [...userIdsIn({ ...context, assigneeUserId: v.assigneeUserId }, new Set())];
  if (!ids.length) return {};
  const rows = await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, ids));
  return Object.fromEntries(rows.map((u) => [u.id, u.name]));
}
