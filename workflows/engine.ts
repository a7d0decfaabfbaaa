import type { Tx } from '../db/client';
import type { Actor } from '../machines/actor';
import type { AnnotationEvent } from './annotations';

/**
 * The workflow engine port. Two adapters implement it: `embedded/` (default; PGlite or PostgreSQL, one transaction per
 * event, durable timer rows) and `temporal/` (one Temporal workflow per request). Both write the same tables, so lists,
 * search and the web read one model whichever engine runs the machines.
 */
export interface WorkflowEngine {
  /** Starts a request of `kind` on the machine's current version; writes its first history row ('START'). */
  start(kind: string, input: StartInput, actor: Actor, options?: StartOptions): Promise<RequestView>;
  /**
   * Sends an event. Refusals are AppErrors: 'EntityNotFound' (404), 'ConcurrencyConflict' (409, stale
   * `expectedVersion`), 'NotAuthorized' (403, the state takes this event but not from this actor),
   * 'TransitionNotAllowed' (409, the state does not take it), 'ValidationFailed' (400, payload). A refusal writes nothing.
   * `expectedVersion` undefined skips the version check (the timer runner, which holds the row lock anyway).
   * `options.admit` sees the request the engine read (before the version check and the machine) and throws to refuse:
   * a caller's own check of who may act on the request, without a read of its own.
   */
  send(id: string, event: WorkflowEvent, actor: Actor, expectedVersion?: number, options?: SendOptions): Promise<RequestView>;
  /** The request, or null when there is none (deleted drafts included: they stay readable to their history). */
  get(id: string): Promise<RequestView | null>;
  /** Accepted events in order (seq 1 is 'START'). */
  history(id: string): Promise<HistoryEntry[]>;
  /** Recomputes the hash chain; reports the first row that does not match. */
  verifyHistory(id: string): Promise<VerifyResult>;
  /** The events this actor may send now (from the machine's guards); empty when the request does not exist. */
  allowedActions(id: string, actor: Actor): Promise<AllowedAction[]>;
  /**
   * Records an annotation in the request's history (not a machine event: state and version unchanged), e.g. a payment
   * the request refused. False when there is no such request.
   */
  annotate(id: string, annotation: { event: AnnotationEvent; payload: Record<string, unknown>; note: string | null }, actor: Actor): Promise<boolean>;
  /** A page of requests for a reviewer queue tab or an applicant list (see QueueQuery). */
  list(query: QueueQuery): Promise<Page<RequestSummaryView>>;
  /** Stops background work (timer runner, clients). Does not close the database. */
  close(): Promise<void>;
}

export interface SendOptions {
  /** Throws (an AppError) when this caller may not send to the request; the engine then writes nothing. */
  admit?: (request: { kind: string; facilityId: string }) => void;
  /**
   * A caller's own row (the API's audit row), written in the event's transaction: committed with the event or not at
   * all, and no commit of its own. Called once, at the transaction's start (before the engine decides): a refusal rolls
   * it back, and its failure refuses the event. An engine that has no such transaction (temporal/, for requests) does
   * not call it: a caller that sees it was not called writes its row itself.
   */
  alsoWrite?: (tx: Tx) => Promise<void>;
}

/** What the caller provides on start; `requestId` is created by the engine. */
export interface StartInput {
  ownerUserId: string;
  /** Public id of the facility or conformity body the request belongs to. */
  facilityId: string;
  discountPercent?: number;
  data?: Record<string, unknown>;
  /**
   * The certificate a renewal, a change or a mark request is about; a renewal also keeps the certificate's products it
   * was offered (their productKeys), which its renewal replaces.
   */
  subject?: { certificateId: string | null; offeredProducts?: string[] };
}

export interface StartOptions {
  /** Display name of the creator, stored for the staff "creator name" filter. */
  creatorName?: string;
}

/** An event as sent by a caller: UPPER_SNAKE type and its payload; the engine adds the actor. */
export interface WorkflowEvent {
  type: string;
  [field: string]: unknown;
}

export interface AllowedAction {
  type: string;
  permission?: string;
  requiresReason: boolean;
  /** GRANT_DISCOUNT taking only 100 % now (a bill awaiting payment is waived whole). */
  fullWaiverOnly?: true;
}

export interface RequestView {
  id: string;
  number: string;
  kind: string;
  machineVersion: number;
  status: number;
  queue: string | null;
  stateValue: string;
  /** Increases by one with every accepted event; send it back as expectedVersion. */
  version: number;
  facilityId: string;
  ownerUserId: string;
  assigneeUserId: string | null;
  creatorName: string;
  /** True when the machine reached a final state or the request is in the 'final' queue. */
  finished: boolean;
  deleted: boolean;
  /** The machine context (request data, returned sections, round ...). */
  context: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

/** A list row: the request without its machine context (a list reads neither the snapshot nor the input). */
export type RequestSummaryView = Omit<RequestView, 'context'>;

export interface HistoryEntry {
  seq: number;
  actor: { userId: string; roles: string[]; system: boolean };
  event: string;
  payload: Record<string, unknown>;
  note: string | null;
  fromStatus: number | null;
  toStatus: number;
  fromQueue: string | null;
  toQueue: string | null;
  at: Date;
  prevHash: string;
  hash: string;
}

export type VerifyResult =
  | { ok: true; rows: number }
  | { ok: false; rows: number; firstBrokenSeq: number; reason: 'hash' | 'prevHash' | 'sequence' | 'head' };

export const QUEUE_TABS = ['waiting', 'mine', 'finished', 'open', 'any', 'draft', 'active', 'completed'] as const;
export type QueueTab = (typeof QUEUE_TABS)[number];

/**
 * Queue listing. `queue` is a state tag ('registration', 'audit', ...) or 'all'.
 * - waiting: requests now in the queue and not assigned to the viewer (unassigned or someone else's);
 * - mine: requests now in the queue assigned to the viewer (for applicants: also the ones they own);
 * - finished: requests that were in the queue and have left it;
 * - open: requests now in the queue, whoever they are assigned to (a facility's "in progress" list);
 * - any: every request, wherever it is (a facility's full list);
 * - draft / active / completed: a facility's previous requests (spec 02 section 2): still a draft, submitted and not
 *   finished, finished (its state is final, whatever the outcome).
 * Visibility: staff (Portals.HalalCenter) see every request, anyone else only their facilities' requests.
 */
export interface QueueQuery {
  queue: string;
  tab: QueueTab;
  viewer: Actor;
  pageNumber: number;
  pageSize: number;
  kind?: string;
  /** Only this facility's (or CB's) requests; the caller checks the viewer may see that facility. */
  facilityId?: string;
  /** Only the requests about this certificate (a renewal's, an add-categories request's subject). */
  certificateId?: string;
  creatorName?: string;
  brandName?: string;
  requestNumber?: string;
  /** Matches request number, creator name or brand name. */
  any?: string;
}

export interface Page<T> {
  items: T[];
  /** Exact, unless totalCapped: then the list has more rows than this (COUNT_AHEAD in workflows/queries.ts). */
  totalCount: number;
  totalCapped?: boolean;
  pageNumber: number;
  pageSize: number;
}
