import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { Actor } from '../../machines/actor';
import type { Deadline } from '../catalogue';
import type { AllowedAction, StartInput, WorkflowEvent } from '../engine';
import type { StoredSnapshot } from '../step';

/*
 * The messages of the request workflow, shared by the workflow (workflows.ts), its client (client.ts) and the tests.
 * Types only besides the definitions, so the workflow bundle and the server import the same names.
 */

/** The exported name of the workflow function: its Temporal workflow type. */
export const REQUEST_WORKFLOW_TYPE = 'requestWorkflow';

/** One workflow per request; its id is derived from the request id so a request can never have two. */
export const workflowIdOf = (requestId: string): string => `request-${requestId}`;

/** The patch id that marks a run started on `version` of a machine (see pinMachineVersion in request-workflow.ts). */
export const machineVersionPatch = (kind: string, version: number): string => `machine:${kind}:v${version}`;

/** A deadline the workflow has armed as a timer, with the absolute time it fires (epoch ms, workflow clock). */
export interface PendingDeadline extends Deadline {
  dueAt: number;
}

/** What the workflow holds about its request; also what continueAsNew carries into the next run. */
export interface RequestState {
  requestId: string;
  number: string;
  kind: string;
  machineVersion: number;
  /** The request's version: increases by one with every accepted event, equal to the requests row's. */
  version: number;
  stored: StoredSnapshot;
  status: number;
  queue: string | null;
  stateValue: string;
  finished: boolean;
  deadlines: PendingDeadline[];
}

/** How a request starts: the first run gets `start`, a continued run gets `carried` instead. */
export interface RequestWorkflowInput {
  requestId: string;
  kind: string;
  /** Milliseconds of each deadline duration name (workflows/index.ts deadlineDurations). */
  durations: Record<string, number>;
  start?: { input: StartInput; actor: Actor; creatorName: string };
  carried?: RequestState;
  /**
   * Continue as new once the run's history has this many events, even before the server suggests it (the server's
   * own suggestion comes at about 4K events or 4 MB). Small values are for tests.
   */
  continueAsNewAfterEvents?: number;
}

export interface SendEventArgs {
  event: WorkflowEvent;
  actor: Actor;
  /** The version the caller last saw; a different current version refuses the event (ConcurrencyConflict). */
  expectedVersion?: number;
}

/** The answer to an accepted event (and to `started`): the request as the workflow now holds it. */
export interface TransitionOutcome {
  version: number;
  status: number;
  queue: string | null;
  stateValue: string;
  finished: boolean;
}

/** An event from the system that no caller waits for (a payment portal callback, an operator's tool). */
export interface SystemEventArgs {
  event: WorkflowEvent;
}

/**
 * A user's or the server's event. The validator refuses it (nothing is written, not even to the workflow history)
 * when the version is stale, the machine does not take it from this actor, or the payload is invalid; the refusal is
 * an ApplicationFailure whose `type` is the AppErrorCode and whose first detail holds validation issues.
 */
export const sendEventUpdate = defineUpdate<TransitionOutcome, [SendEventArgs]>('sendEvent');

/** Completes once the request row and its START history row are written (used with update-with-start). */
export const startedUpdate = defineUpdate<TransitionOutcome, []>('started');

/** Delivers a system event through the same path as sendEvent; a refusal is logged and dropped. */
export const systemEventSignal = defineSignal<[SystemEventArgs]>('systemEvent');

/** The workflow's current state (snapshot, version, pending deadlines); throws until the request row exists. */
export const stateQuery = defineQuery<RequestState>('state');

/** The events this actor may send now, from the machine's guards (same function as the embedded engine). */
export const allowedActionsQuery = defineQuery<AllowedAction[], [Actor]>('allowedActions');
