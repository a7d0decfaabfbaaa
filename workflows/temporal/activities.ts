import { ApplicationFailure } from '@temporalio/activity';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { workflowTimers } from '../../db/schema';
import type { Actor } from '../../machines/actor';
import type { Deadline } from '../catalogue';
import type { WorkflowEvent } from '../engine';
import type { Derived, Effect } from '../step';
import { lockRequest, persistStart, persistTransition, type StoreDeps } from '../store';

/*
 * The request workflow's only side effects: they write the same tables as the embedded engine (requests, the
 * hash-chained history, bills and certificates through the effects, timer rows), through the same store functions,
 * so lists, search, history verification and the web read one model whichever engine runs the machines.
 * The workflow computes every transition; an activity only persists one, in one transaction, and is idempotent: a
 * retry after a commit whose answer was lost finds the version already moved and changes nothing.
 */

export interface ActivityDeps {
  db: Db;
  store: StoreDeps;
}

export interface RecordStartArgs {
  requestId: string;
  kind: string;
  machineVersion: number;
  /** The machine input (the caller's StartInput plus requestId), kept on the row for replays. */
  input: Record<string, unknown>;
  creatorName: string;
  actor: Actor;
  next: Derived;
  effects: Effect[];
  /** Workflow time (epoch ms) of the start: the START row's time and the base of the first deadlines. */
  now: number;
}

export interface RecordTransitionArgs {
  requestId: string;
  /** The version the workflow decided the event against; the row must still have it. */
  fromVersion: number;
  event: WorkflowEvent;
  actor: Actor;
  prev: Derived;
  next: Derived;
  effects: Effect[];
  armed: Deadline[];
  cancelled: Deadline[];
  /** Workflow time (epoch ms) of the decision, so timer rows get the same due time as the workflow's timers. */
  now: number;
  /** Set when a workflow timer sent the event: its timer row is marked fired in the same transaction. */
  firedDeadline?: Deadline;
}

export interface RecordDeadlineRefusedArgs {
  requestId: string;
  deadline: Deadline;
  now: number;
}

/** The workflow and the database disagree about a request: retrying cannot help, an operator must look. */
export const STORE_DIVERGED = 'StoreDiverged';

/** Marks the pending timer row of a deadline fired (the embedded runner does the same by row id). */
async function markDeadlineFired(tx: Tx, requestId: string, deadline: Deadline, outcome: 'accepted' | 'refused', now: Date): Promise<void> {
  await tx
    .update(workflowTimers)
    .set({ firedAt: now, outcome })
    .where(
      and(
        eq(workflowTimers.requestId, requestId),
        eq(workflowTimers.event, deadline.event),
        eq(workflowTimers.after, deadline.after),
        isNull(workflowTimers.firedAt),
        isNull(workflowTimers.cancelledAt),
      ),
    );
}

export function createActivities({ db, store }: ActivityDeps) {
  return {
    /** Inserts the request row, its START history row, its initial effects and timer rows. Returns its number. */
    async recordStart(args: RecordStartArgs): Promise<{ number: string; version: number }> {
      return db.transaction(async (tx) => {
        const existing = await lockRequest(tx, args.requestId);
        if (existing) {
          if (existing.kind !== args.kind) {
            throw ApplicationFailure.nonRetryable(`request ${args.requestId} exists with kind ${existing.kind}`, STORE_DIVERGED);
          }
          return { number: existing.number, version: existing.version };
        }
        const start = args.input as { facilityId?: unknown; ownerUserId?: unknown };
        const row = await persistStart(
          tx,
          {
            id: args.requestId,
            kind: args.kind,
            machineVersion: args.machineVersion,
            input: args.input,
            facilityPublicId: String(start.facilityId ?? ''),
            ownerUserId: String(start.ownerUserId ?? ''),
            creatorName: args.creatorName,
            next: args.next,
            effects: args.effects,
            actor: args.actor,
            now: new Date(args.now),
          },
          store,
        );
        return { number: row.number, version: row.version };
      });
    },

    /** Writes one accepted transition: row, history, effects and timer rows, in one transaction. */
    async recordTransition(args: RecordTransitionArgs): Promise<{ version: number }> {
      return db.transaction(async (tx) => {
        const row = await lockRequest(tx, args.requestId);
        if (!row) throw ApplicationFailure.nonRetryable(`request ${args.requestId} has no row`, STORE_DIVERGED);
        // The workflow is the request's only writer, so a version one ahead is this very transition, committed by an
        // attempt whose answer was lost.
        if (row.version === args.fromVersion + 1) return { version: row.version };
        if (row.version !== args.fromVersion) {
          throw ApplicationFailure.nonRetryable(
            `request ${args.requestId} is at version ${row.version}, the workflow expected ${args.fromVersion}`,
            STORE_DIVERGED,
          );
        }
        const now = new Date(args.now);
        // Before persistTransition: leaving the state cancels its pending timer rows, and this one fired.
        if (args.firedDeadline) await markDeadlineFired(tx, args.requestId, args.firedDeadline, 'accepted', now);
        const updated = await persistTransition(
          tx,
          row,
          { prev: args.prev, next: args.next, effects: args.effects, armed: args.armed, cancelled: args.cancelled, event: args.event, actor: args.actor, now },
          store,
        );
        return { version: updated.version };
      });
    },

    /** A deadline fired but the machine did not take its event: the timer row says so, nothing else changes. */
    async recordDeadlineRefused(args: RecordDeadlineRefusedArgs): Promise<void> {
      await db.transaction((tx) => markDeadlineFired(tx, args.requestId, args.deadline, 'refused', new Date(args.now)));
    },
  };
}

export type RequestActivities = ReturnType<typeof createActivities>;
