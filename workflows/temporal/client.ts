import { randomUUID } from 'node:crypto';
import { ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';
import { Client, Connection, WithStartWorkflowOperation, WorkflowUpdateFailedError } from '@temporalio/client';
import type { Db } from '../../db/client';
import type { Actor } from '../../machines/actor';
import type { EngineConfig } from '../index';
import { EmbeddedEngine } from '../embedded/embedded-engine';
import { ENTITY_KINDS } from '../../machines/services/types';
import { AppError, AppErrorCode, type ValidationDetail } from '../../lib/app-error';
import type { MachineCatalogue } from '../catalogue';
import type {
  AllowedAction,
  HistoryEntry,
  Page,
  QueueQuery,
  RequestSummaryView,
  RequestView,
  SendOptions,
  StartInput,
  StartOptions,
  VerifyResult,
  WorkflowEngine,
  WorkflowEvent,
} from '../engine';
import { getRequestView, listRequests, requestHistoryOf, verifyRequestHistory } from '../queries';
import { restoreSnapshot, type StoredSnapshot } from '../step';
import { appendAnnotation, readRequest, viewOf, type StoreDeps } from '../store';
import {
  REQUEST_WORKFLOW_TYPE,
  allowedActionsQuery,
  sendEventUpdate,
  startedUpdate,
  workflowIdOf,
  type RequestWorkflowInput,
  type SendEventArgs,
  type TransitionOutcome,
} from './shared';

/**
 * What the engine needs from Temporal: start a request's workflow, send it an event, ask what an actor may do.
 * TemporalGateway is the real one; the offline tests put an in-process stand-in of the server behind the same port,
 * so the engine's own logic (reads, refusals, error mapping) runs in every CI run.
 */
export interface RequestWorkflowGateway {
  /** Starts the request's workflow; resolves once its row and START history row are written. */
  start(input: RequestWorkflowInput): Promise<TransitionOutcome>;
  /**
   * Sends an event and resolves once it is persisted. A refusal rejects with the workflow's ApplicationFailure
   * (`type` = AppErrorCode); a workflow that does not exist or has completed rejects with WorkflowGone.
   */
  sendEvent(requestId: string, args: SendEventArgs): Promise<TransitionOutcome>;
  /** The workflow's answer to allowedActions; null when there is no such workflow (any more). */
  allowedActions(requestId: string, actor: Actor): Promise<AllowedAction[] | null>;
  close(): Promise<void>;
}

/** The request's workflow does not exist or has completed: it takes no events. */
export class WorkflowGone extends Error {}

/** The gateway over a Temporal cluster. */
export class TemporalGateway implements RequestWorkflowGateway {
  constructor(
    private readonly client: Client,
    private readonly taskQueue: string,
    private readonly onClose: () => Promise<void> = async () => undefined,
  ) {}

  async start(input: RequestWorkflowInput): Promise<TransitionOutcome> {
    try {
      // Update-with-start: the workflow starts and `started` answers once the row exists, in one round trip.
      return await this.client.workflow.executeUpdateWithStart(startedUpdate, {
        args: [],
        startWorkflowOperation: new WithStartWorkflowOperation(REQUEST_WORKFLOW_TYPE, {
          workflowId: workflowIdOf(input.requestId),
          taskQueue: this.taskQueue,
          args: [input],
          workflowIdConflictPolicy: 'FAIL',
        }),
      });
    } catch (err) {
      if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) throw err.cause;
      throw err;
    }
  }

  async sendEvent(requestId: string, args: SendEventArgs): Promise<TransitionOutcome> {
    try {
      return await this.client.workflow.getHandle(workflowIdOf(requestId)).executeUpdate(sendEventUpdate, { args: [args] });
    } catch (err) {
      if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) throw err.cause;
      if (err instanceof WorkflowNotFoundError) throw new WorkflowGone(err.message);
      throw err;
    }
  }

  async allowedActions(requestId: string, actor: Actor): Promise<AllowedAction[] | null> {
    try {
      return await this.client.workflow.getHandle(workflowIdOf(requestId)).query(allowedActionsQuery, actor);
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return null;
      throw err;
    }
  }

  close(): Promise<void> {
    return this.onClose();
  }
}

const REFUSALS = new Set<string>([
  AppErrorCode.ConcurrencyConflict,
  AppErrorCode.NotAuthorized,
  AppErrorCode.TransitionNotAllowed,
  AppErrorCode.ValidationFailed,
  AppErrorCode.EntityNotFound,
]);

/** A workflow refusal as the AppError the embedded engine raises for the same case. */
export function refusalFromFailure(failure: ApplicationFailure): AppError | undefined {
  if (!failure.type || !REFUSALS.has(failure.type)) return undefined;
  const issues = failure.type === AppErrorCode.ValidationFailed && Array.isArray(failure.details?.[0]) ? (failure.details[0] as ValidationDetail[]) : [];
  return new AppError(failure.type, {}, issues);
}

export interface TemporalEngineOptions {
  db: Db;
  catalogue: MachineCatalogue;
  deps: StoreDeps;
  gateway: RequestWorkflowGateway;
  /** Passed to every new workflow (see RequestWorkflowInput); tests set it low to exercise continue-as-new. */
  continueAsNewAfterEvents?: number;
}

/**
 * The engine at scale: each request is a Temporal workflow hosting its machine (request-workflow.ts), and the
 * workflow's activities write the same tables as the embedded engine, so every read (get, history, verify, lists)
 * is the embedded engine's read. See WorkflowEngine for the contract.
 */
export class TemporalEngine implements WorkflowEngine {
  private readonly db: Db;
  private readonly catalogue: MachineCatalogue;
  private readonly deps: StoreDeps;
  private readonly gateway: RequestWorkflowGateway;
  private readonly continueAsNewAfterEvents?: number;
  /**
   * Entity lifecycles (bills, certificates, marks, delegations) are started by requests' effects inside their
   * transactions and run on the embedded engine in both modes; their timers are fired by the embedded timer runner.
   */
  readonly entities: EmbeddedEngine;

  constructor(opts: TemporalEngineOptions) {
    this.db = opts.db;
    this.catalogue = opts.catalogue;
    this.deps = opts.deps;
    this.gateway = opts.gateway;
    this.continueAsNewAfterEvents = opts.continueAsNewAfterEvents;
    this.entities = new EmbeddedEngine({ db: opts.db, catalogue: opts.catalogue, deps: opts.deps });
  }

  async start(kind: string, input: StartInput, actor: Actor, options: StartOptions = {}): Promise<RequestView> {
    if (!this.catalogue.hasKind(kind)) throw new AppError(AppErrorCode.BadRequest, { kind });
    const requestId = randomUUID();
    try {
      await this.gateway.start({
        requestId,
        kind,
        durations: this.deps.durations(),
        start: { input, actor, creatorName: options.creatorName ?? '' },
        ...(this.continueAsNewAfterEvents !== undefined ? { continueAsNewAfterEvents: this.continueAsNewAfterEvents } : {}),
      });
    } catch (err) {
      // The workflow refuses an input its machine cannot start from (BadRequest) before anything is written.
      if (err instanceof ApplicationFailure && err.type === AppErrorCode.BadRequest) throw new AppError(AppErrorCode.BadRequest, { kind });
      throw err;
    }
    return this.mustRead(requestId);
  }

  async send(id: string, event: WorkflowEvent, actor: Actor, expectedVersion?: number, options: SendOptions = {}): Promise<RequestView> {
    const row = await readRequest(this.db, id);
    if (!row || row.deletedAt) throw new AppError(AppErrorCode.EntityNotFound);
    if ((ENTITY_KINDS as readonly string[]).includes(row.kind)) return this.entities.send(id, event, actor, expectedVersion, options);
    options.admit?.({ kind: row.kind, facilityId: row.facilityPublicId });
    // options.alsoWrite is not called: the event commits in Temporal's history, not in a transaction of ours, so the
    // caller writes its row itself (the API's audit row: once the answer is sent).
    // The workflow checks the version too; answering a stale one here saves the round trip.
    if (expectedVersion !== undefined && row.version !== expectedVersion) throw new AppError(AppErrorCode.ConcurrencyConflict);
    try {
      await this.gateway.sendEvent(id, { event, actor, ...(expectedVersion !== undefined ? { expectedVersion } : {}) });
    } catch (err) {
      if (err instanceof ApplicationFailure) throw refusalFromFailure(err) ?? err;
      // A completed workflow: its machine reached a final state and takes no more events.
      if (err instanceof WorkflowGone) throw new AppError(AppErrorCode.TransitionNotAllowed);
      throw err;
    }
    return this.mustRead(id);
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
    if ((ENTITY_KINDS as readonly string[]).includes(row.kind)) return this.entities.allowedActions(id, actor);
    const fromWorkflow = await this.gateway.allowedActions(id, actor);
    if (fromWorkflow) return fromWorkflow;
    // The workflow is gone (completed past the namespace's retention): the stored snapshot answers the same.
    const machine = this.catalogue.getMachine(row.kind, row.machineVersion);
    const snapshot = restoreSnapshot(machine, row.snapshot as unknown as StoredSnapshot);
    return snapshot.status === 'active' ? this.catalogue.allowedActions(row.kind, snapshot, actor, row.machineVersion) : [];
  }

  annotate(id: string, annotation: Parameters<WorkflowEngine['annotate']>[1], actor: Actor): Promise<boolean> {
    // The same table write in both adapters: an annotation is not an event of the workflow.
    return this.db.transaction((tx) => appendAnnotation(tx, id, annotation, actor, new Date()));
  }

  list(query: QueueQuery): Promise<Page<RequestSummaryView>> {
    return listRequests(this.db, query);
  }

  close(): Promise<void> {
    return this.gateway.close();
  }

  private async mustRead(id: string): Promise<RequestView> {
    const row = await readRequest(this.db, id);
    if (!row) throw new Error(`request ${id} has no row after its workflow answered`);
    return viewOf(row);
  }
}

/** Connects to TEMPORAL_ADDRESS and builds the engine (WORKFLOW_ENGINE=temporal). */
export async function createTemporalEngine(config: EngineConfig, db: Db, opts: { catalogue: MachineCatalogue; deps: StoreDeps }): Promise<TemporalEngine> {
  if (!config.TEMPORAL_ADDRESS) throw new Error('TEMPORAL_ADDRESS is required when WORKFLOW_ENGINE=temporal');
  const connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
  const client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
  const gateway = new TemporalGateway(client, config.TEMPORAL_TASK_QUEUE, () => connection.close());
  return new TemporalEngine({ db, catalogue: opts.catalogue, deps: opts.deps, gateway });
}
