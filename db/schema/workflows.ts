import { sql } from 'drizzle-orm';
import { pgTable, pgSequence, text, timestamp, uuid, integer, jsonb, index, primaryKey } from 'drizzle-orm/pg-core';

/** Numbers shown to people: each kind of thing has its own series (requests, bills, certificates, Halal marks). */
export const requestNumberSeq = pgSequence('request_number_seq', { startWith: 1 });
export const billNumberSeq = pgSequence('bill_number_seq', { startWith: 1 });
export const certificateNumberSeq = pgSequence('certificate_number_seq', { startWith: 1 });
export const markNumberSeq = pgSequence('mark_number_seq', { startWith: 1 });

/**
 * One row per workflow instance (a certification request, a bill, a certificate lifecycle ...). The machine
 * snapshot is the truth; status, queue and the search columns are copies of it kept for lists and filters.
 * `version` increases by one with every accepted event (optimistic concurrency for the web's expectedVersion).
 * `historySeq`/`historyHash` are the head of the hash chain, so appending a history row needs no extra read.
 */
export const requests = pgTable(
  'requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: text('number').notNull().unique(),
    /** MachineKind of machines/index.ts ('internalCertificate', 'bill', ...). */
    kind: text('kind').notNull(),
    /** The machine version the request started with; it keeps it for life. */
    machineVersion: integer('machine_version').notNull(),
    /** The machine input the request started with; replaying history starts from it. */
    input: jsonb('input').$type<Record<string, unknown>>().notNull(),
    /** Persisted XState snapshot ({ value, context, status, historyValue, output }). */
    snapshot: jsonb('snapshot').$type<Record<string, unknown>>().notNull(),
    /** Numeric status code of the spec's catalogue (state meta.status). */
    status: integer('status').notNull(),
    /** Queue tag of the active state: registration | audit | committee | applicant | payment | final. */
    queue: text('queue'),
    /** The active state value, dotted (e.g. 'review.registration'), for logs and debugging. */
    stateValue: text('state_value').notNull(),
    version: integer('version').notNull(),
    facilityPublicId: text('facility_public_id').notNull(),
    ownerUserId: text('owner_user_id').notNull(),
    assigneeUserId: text('assignee_user_id'),
    creatorName: text('creator_name').notNull().default(''),
    /** Brand and trademark names of the request data, space separated, for the staff "brand name" filter. */
    brandNames: text('brand_names').notNull().default(''),
    historySeq: integer('history_seq').notNull().default(0),
    historyHash: text('history_hash').notNull().default(''),
    /** Set by the deleteDraft effect: the request disappears from lists, its history stays for audit. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The two list indexes lead with the list's filter (a queue, or a facility), follow the list's order (newest
  // first), and carry the columns the lists also filter on, so a page stops after its rows and a count reads only
  // the index (docs/performance-log.md). The price: updated_at is indexed, so no event is a HOT update any more (an event
  // that changes the queue or assignee never was one). Measured in docs/performance-log.md.
  (t) => [
    index('requests_queue_list_idx').on(t.queue, t.updatedAt.desc().nullsFirst(), t.number.desc().nullsFirst(), t.assigneeUserId, t.kind, t.deletedAt),
    index('requests_facility_list_idx').on(t.facilityPublicId, t.updatedAt.desc().nullsFirst(), t.number.desc().nullsFirst(), t.kind, t.deletedAt),
    index('requests_assignee_idx').on(t.assigneeUserId),
    index('requests_owner_idx').on(t.ownerUserId),
  ],
);

/**
 * The ordered log of accepted events of a request. Each row's hash is sha256(prev_hash + canonical row), so editing
 * or deleting a row breaks the chain (GET /api/requests/:id/history/verify finds the first broken row).
 * The full actor is kept because replaying the history re-evaluates the machine's guards with it.
 */
export const requestHistory = pgTable(
  'request_history',
  {
    requestId: uuid('request_id')
      .notNull()
      .references(() => requests.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    actorUserId: text('actor_user_id').notNull(),
    actor: jsonb('actor').$type<Record<string, unknown>>().notNull(),
    /** Event type (UPPER_SNAKE), or 'START' for the row that created the request. */
    event: text('event').notNull(),
    /** The event payload without type and actor (the start input for 'START'). */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    note: text('note'),
    fromStatus: integer('from_status'),
    toStatus: integer('to_status').notNull(),
    fromQueue: text('from_queue'),
    toQueue: text('to_queue'),
    at: timestamp('at', { withTimezone: true }).notNull(),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.requestId, t.seq] }),
    index('request_history_from_queue_idx').on(t.fromQueue),
    // The steps that move a request to another queue, for the lists' working-day clocks (server/modules/requests/clock.ts
    // queueMovesOf): a few rows per request where the history has thousands. Events that keep the queue (the busiest:
    // assignments, notes) write no entry. Measured in docs/performance-log.md, "Lists, third pass".
    index('request_history_queue_moves_idx')
      .on(t.requestId, t.seq, t.at, t.toQueue)
      .where(sql`${t.toQueue} is distinct from ${t.fromQueue}`),
  ],
);

/**
 * Durable deadline timers: armed when a state with `meta.deadline` is entered, cancelled when it is left, fired
 * once by the timer runner (claimed with FOR UPDATE SKIP LOCKED, marked fired in the transaction that sends the event).
 */
export const workflowTimers = pgTable(
  'workflow_timers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => requests.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    /** The configuration name of the duration ('paymentWindow', 'draftRetention', ...). */
    after: text('after').notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    firedAt: timestamp('fired_at', { withTimezone: true }),
    /** 'accepted' when the machine took the event, 'refused' when the request had moved on. */
    outcome: text('outcome'),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  },
  (t) => [
    index('workflow_timers_due_idx').on(t.dueAt).where(sql`fired_at is null and cancelled_at is null`),
    index('workflow_timers_request_idx').on(t.requestId),
  ],
);
