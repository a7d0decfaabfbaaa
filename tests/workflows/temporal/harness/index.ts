import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { bundleWorkflowCode } from '@temporalio/worker';
import { parseWorkflowCode } from '@temporalio/worker/lib/worker';
import { VMWorkflowCreator, type VMWorkflow } from '@temporalio/worker/lib/workflow/vm';
import { MockActivityEnvironment } from '@temporalio/testing';
import {
  ApplicationFailure,
  TypedSearchAttributes,
  defaultFailureConverter,
  defaultPayloadConverter,
  type Payload,
} from '@temporalio/common';
import type { WorkflowInfo } from '@temporalio/workflow';
import { createUnsafeRandomSource } from '@temporalio/workflow/lib/random-helpers';
import { msToTs, tsToMs } from '@temporalio/common/lib/time';
import type * as proto from '@temporalio/proto';
import { historyToJson } from './history-json';
import { randomnessSeedOf } from './siphash';

/*
 * A small stand-in for the Temporal server and for the Rust core between it and the TypeScript SDK, for offline
 * tests: it runs a real workflow bundle in the SDK's own sandbox (VMWorkflowCreator, as a worker does), delivers
 * activations (init, updates with their validators, activity results, fired timers, queries), executes the real
 * activities under MockActivityEnvironment, and writes the event history a server would write for the commands the
 * workflow answers with. The histories it writes are replayed by the real core (Worker.runReplayHistories) in
 * the tests (replayStandIn) and in replay.test.ts: if this stand-in wrote anything a real server and core would not,
 * that replay fails. It reaches into @temporalio/worker/lib internals (VMWorkflowCreator, parseWorkflowCode), as the
 * SDK's own workflow tests do; a version bump of the SDK may need a look here.
 *
 * What it models: one workflow task per activation; speculative tasks for updates (a rejected update leaves no
 * events); activities completed one at a time, each followed by a workflow task; timers on a virtual clock moved by
 * `advance`; core's SDK metadata (internal flags, SDK name and version) on workflow task completion; core's patch
 * marker and TemporalChangeVersion upsert; continue-as-new into a fresh run. Calls are served one at a time, like a
 * single-threaded server. Not modelled: activity timeouts and retries beyond a few immediate attempts, workflow task
 * failures, cancellation, child workflows.
 */

// @temporalio/proto is CommonJS whose exports Node's ESM loader cannot list (the recorder runs under tsx): require it.
const { coresdk, temporal } = createRequire(import.meta.url)('@temporalio/proto') as typeof proto;
const EventType = temporal.api.enums.v1.EventType;
type HistoryEvent = proto.temporal.api.history.v1.IHistoryEvent;
type Command = proto.coresdk.workflow_commands.IWorkflowCommand;
/** An activation job in the loose object form `WorkflowActivation.fromObject` takes (numbers for int64s). */
type Job = Record<string, unknown>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- activities of any shape, called with decoded payloads
export type ActivityFn = (...args: any[]) => Promise<unknown>;

const SDK_NAME = 'temporal-typescript';
const SDK_VERSION = '1.24.0';
/** Core's internal flags (IdAndTypeDeterminismChecks, UpsertSearchAttributeOnPatch, MoveTerminalCommands). */
const CORE_FLAGS = [1, 2, 3];
const IDENTITY = '4242@halal-worker';
const NAMESPACE = 'default';
const WORKFLOW_TASK_TIMEOUT_MS = 10_000;

/** What the server answers for a workflow that does not exist or has completed. */
export class WorkflowNotFound extends Error {}

export type UpdateResult =
  | { outcome: 'completed'; value: unknown }
  | { outcome: 'rejected'; failure: ApplicationFailure }
  | { outcome: 'failed'; failure: ApplicationFailure };

export interface StandInOptions {
  /** A module whose exports are workflow functions (bundled with bundleWorkflowCode). */
  workflowsPath: string;
  activities: Record<string, ActivityFn>;
  taskQueue?: string;
  /**
   * Epoch ms the clock starts at; 'real' follows the wall clock (never going back), so rows written by activities
   * compare with Date.now() as they would on a real cluster.
   */
  startTime?: number | 'real';
}

interface Execution {
  workflowId: string;
  firstRunId: string;
  runs: RunState[];
  updateResults: Map<string, UpdateResult>;
  result?: unknown;
}

interface RunState {
  execution: Execution;
  runId: string;
  events: HistoryEvent[];
  vm: VMWorkflow;
  workflowType: string;
  /** Activities scheduled and not yet resolved, by seq. */
  activities: Map<number, { scheduledEventId: number; activityType: string; activityId: string; args: Payload[] }>;
  /** Timers started and not yet fired or cancelled, by seq. */
  timers: Map<number, { startedEventId: number; dueAt: number }>;
  /** Accepted updates by protocol instance id -> UpdateAccepted event id. */
  accepted: Map<string, number>;
  requests: Map<string, { name: string; args: Payload[] }>;
  langFlags: Set<number>;
  completedTasks: number;
  patches: Set<string>;
  closed: boolean;
}

const json = (value: unknown): Payload => defaultPayloadConverter.toPayload(value);
const fromPayload = (p: Payload | null | undefined): unknown => (p ? defaultPayloadConverter.fromPayload(p) : undefined);
const coreJson = (value: unknown): Payload => ({
  metadata: { encoding: new TextEncoder().encode('json/plain') },
  data: new TextEncoder().encode(JSON.stringify(value)),
});

export class TemporalStandIn {
  private creator!: VMWorkflowCreator;
  private readonly executions = new Map<string, Execution>();
  /** Every call is one step of a single-threaded server: calls queue behind each other. */
  private queue: Promise<unknown> = Promise.resolve();
  private clock: number;
  private readonly realClock: boolean;
  readonly taskQueue: string;

  private constructor(private readonly opts: StandInOptions) {
    this.taskQueue = opts.taskQueue ?? 'halal-requests';
    this.realClock = opts.startTime === 'real';
    this.clock = typeof opts.startTime === 'number' ? opts.startTime : opts.startTime === 'real' ? Date.now() : Date.UTC(2026, 0, 15, 8, 0, 0);
  }

  static async create(opts: StandInOptions): Promise<TemporalStandIn> {
    const h = new TemporalStandIn(opts);
    const bundle = await bundleWorkflowCode({ workflowsPath: opts.workflowsPath, logger: quietLogger });
    h.creator = await VMWorkflowCreator.create(parseWorkflowCode(bundle.code), 5_000, new Set(Object.keys(opts.activities)));
    return h;
  }

  /** The stand-in's clock (epoch ms): the workflow clock of the next workflow task. */
  get now(): number {
    return this.clock;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private tick(): number {
    this.clock = Math.max(this.clock + 1, this.realClock ? Date.now() : 0);
    return this.clock;
  }

  /** Every run of a workflow so far, oldest first (continue-as-new adds one). */
  runs(workflowId: string): { runId: string; events: HistoryEvent[]; closed: boolean }[] {
    return this.execution(workflowId).runs;
  }

  /** True when the workflow's last run completed (not continued). */
  closed(workflowId: string): boolean {
    return this.current(this.execution(workflowId)).closed;
  }

  result(workflowId: string): unknown {
    return this.execution(workflowId).result;
  }

  has(workflowId: string): boolean {
    return this.executions.has(workflowId);
  }

  /** A run's history in the JSON form Temporal's CLI and UI export (what histories/*.json hold). */
  historyJson(workflowId: string, runIndex: number): string {
    return historyToJson(this.execution(workflowId).runs[runIndex].events);
  }

  async dispose(): Promise<void> {
    await this.queue;
    for (const e of this.executions.values()) for (const r of e.runs) await r.vm.dispose();
    await this.creator.destroy();
  }

  /**
   * Starts a workflow; with `update` it is update-with-start (the update is delivered in the first workflow task).
   * Runs until the workflow waits for the outside world.
   */
  start(workflowType: string, workflowId: string, args: unknown[], update?: { name: string; args: unknown[] }): Promise<UpdateResult | undefined> {
    return this.serial(async () => {
      if (this.executions.has(workflowId)) throw new Error(`workflow ${workflowId} already started`);
      const runId = randomUUID();
      const execution: Execution = { workflowId, firstRunId: runId, runs: [], updateResults: new Map() };
      this.executions.set(workflowId, execution);
      const input = args.map(json);
      const run = await this.newRun(execution, runId, workflowType, input, {});
      const jobs: Job[] = [this.initJob(run, input, {})];
      let updateId: string | undefined;
      if (update) {
        updateId = randomUUID();
        jobs.push(this.updateJob(run, updateId, update.name, update.args));
      }
      await this.workflowTask(run, jobs, false);
      await this.drain(execution);
      return updateId ? execution.updateResults.get(updateId) : undefined;
    });
  }

  /** Sends updates that arrive together (one workflow task validates them all), then runs until idle. */
  updates(workflowId: string, batch: { name: string; args: unknown[] }[]): Promise<UpdateResult[]> {
    return this.serial(async () => {
      const execution = this.execution(workflowId);
      const run = this.open(execution);
      const ids = batch.map(() => randomUUID());
      await this.workflowTask(
        run,
        batch.map((u, i) => this.updateJob(run, ids[i], u.name, u.args)),
        true,
      );
      await this.drain(execution);
      return ids.map((id) => {
        const r = execution.updateResults.get(id);
        if (!r) throw new Error(`update ${id} did not complete`);
        return r;
      });
    });
  }

  async update(workflowId: string, name: string, ...args: unknown[]): Promise<UpdateResult> {
    const [r] = await this.updates(workflowId, [{ name, args }]);
    return r;
  }

  signal(workflowId: string, name: string, ...args: unknown[]): Promise<void> {
    return this.serial(async () => {
      const execution = this.execution(workflowId);
      const run = this.open(execution);
      const input = args.map(json);
      const id = this.add(run, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED, 'workflowExecutionSignaledEventAttributes', {
        signalName: name,
        input: { payloads: input },
        identity: 'halal-server',
        header: {},
      });
      await this.workflowTask(run, [{ signalWorkflow: { signalName: name, input, identity: 'halal-server', headers: {}, originatingEventId: id } }], false);
      await this.drain(execution);
    });
  }

  /** A query: answered by the workflow's current (or last) run, writes nothing. */
  query<T>(workflowId: string, name: string, ...args: unknown[]): Promise<T> {
    return this.serial(async () => {
      const run = this.current(this.execution(workflowId));
      const queryId = randomUUID();
      const completion = await run.vm.activate(
        coresdk.workflow_activation.WorkflowActivation.fromObject({
          runId: run.runId,
          jobs: [{ queryWorkflow: { queryId, queryType: name, arguments: args.map(json), headers: {} } }],
        }),
      );
      const answer = completion.successful?.commands?.find((c) => c.respondToQuery)?.respondToQuery;
      if (!answer) throw new Error(`query ${name} got no answer`);
      if (answer.failed) throw defaultFailureConverter.failureToError(answer.failed, defaultPayloadConverter);
      return fromPayload(answer.succeeded?.response) as T;
    });
  }

  /** Moves the clock by `ms`; see advanceTo. */
  advance(ms: number): Promise<number> {
    return this.advanceTo(this.clock + ms);
  }

  /**
   * Moves the clock to `at`: every timer due by then fires, in due order across workflows, each in its own workflow
   * task followed by whatever it starts. Returns how many fired.
   */
  advanceTo(at: number): Promise<number> {
    return this.serial(async () => {
      let fired = 0;
      for (;;) {
        const due = [...this.executions.values()]
          .map((e) => this.current(e))
          .filter((r) => !r.closed)
          .flatMap((r) => [...r.timers.entries()].map(([seq, t]) => ({ run: r, seq, ...t })))
          .filter((t) => t.dueAt <= at)
          .sort((a, b) => a.dueAt - b.dueAt || a.seq - b.seq)[0];
        if (!due) break;
        this.clock = Math.max(this.clock, due.dueAt);
        due.run.timers.delete(due.seq);
        this.add(due.run, EventType.EVENT_TYPE_TIMER_FIRED, 'timerFiredEventAttributes', { timerId: String(due.seq), startedEventId: due.startedEventId });
        await this.workflowTask(due.run, [{ fireTimer: { seq: due.seq } }], false);
        await this.drain(due.run.execution);
        fired++;
      }
      this.clock = Math.max(this.clock, at);
      return fired;
    });
  }

  /** Pending timers of a workflow's current run. */
  pendingTimers(workflowId: string): { seq: number; dueAt: number }[] {
    return [...this.current(this.execution(workflowId)).timers.entries()].map(([seq, t]) => ({ seq, dueAt: t.dueAt }));
  }

  private execution(workflowId: string): Execution {
    const e = this.executions.get(workflowId);
    if (!e) throw new WorkflowNotFound(`workflow ${workflowId} not found`);
    return e;
  }

  private current(e: Execution): RunState {
    return e.runs[e.runs.length - 1];
  }

  private open(e: Execution): RunState {
    const run = this.current(e);
    if (run.closed) throw new WorkflowNotFound('workflow execution already completed');
    return run;
  }

  private async newRun(execution: Execution, runId: string, workflowType: string, input: Payload[], cont: { from?: string }): Promise<RunState> {
    const now = this.tick();
    const info: WorkflowInfo = {
      workflowId: execution.workflowId,
      runId,
      workflowType,
      searchAttributes: {},
      typedSearchAttributes: new TypedSearchAttributes(),
      taskQueue: this.taskQueue,
      namespace: NAMESPACE,
      firstExecutionRunId: execution.firstRunId,
      originalExecutionRunId: runId,
      continuedFromExecutionRunId: cont.from,
      startTime: new Date(now),
      runStartTime: new Date(now),
      taskTimeoutMs: WORKFLOW_TASK_TIMEOUT_MS,
      attempt: 1,
      historyLength: 3,
      historySize: 0,
      continueAsNewSuggested: false,
      targetWorkerDeploymentVersionChanged: false,
      currentBuildId: '',
      unsafe: { now: () => Date.now(), isReplaying: false, isReplayingHistoryEvents: false, random: createUnsafeRandomSource(Math.random) },
      priority: {},
    };
    const vm = (await this.creator.createWorkflow({
      info,
      randomnessSeed: seedBytes(randomnessSeedOf(runId)),
      now,
      showStackTraceSources: false,
    })) as VMWorkflow;
    const run: RunState = {
      execution,
      runId,
      events: [],
      vm,
      workflowType,
      activities: new Map(),
      timers: new Map(),
      accepted: new Map(),
      requests: new Map(),
      langFlags: new Set(),
      completedTasks: 0,
      patches: new Set(),
      closed: false,
    };
    execution.runs.push(run);
    this.add(run, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED, 'workflowExecutionStartedEventAttributes', {
      workflowType: { name: workflowType },
      taskQueue: { name: this.taskQueue, kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
      input: { payloads: input },
      workflowExecutionTimeout: msToTs(0),
      workflowRunTimeout: msToTs(0),
      workflowTaskTimeout: msToTs(WORKFLOW_TASK_TIMEOUT_MS),
      ...(cont.from
        ? { continuedExecutionRunId: cont.from, initiator: temporal.api.enums.v1.ContinueAsNewInitiator.CONTINUE_AS_NEW_INITIATOR_WORKFLOW }
        : {}),
      originalExecutionRunId: runId,
      identity: cont.from ? '' : 'halal-server',
      firstExecutionRunId: execution.firstRunId,
      attempt: 1,
      firstWorkflowTaskBackoff: msToTs(0),
      header: {},
      workflowId: execution.workflowId,
    });
    return run;
  }

  private initJob(run: RunState, input: Payload[], cont: { from?: string }): Job {
    return {
      initializeWorkflow: {
        workflowType: run.workflowType,
        workflowId: run.execution.workflowId,
        arguments: input,
        randomnessSeed: randomnessSeedOf(run.runId).toString(),
        headers: {},
        identity: cont.from ? '' : 'halal-server',
        workflowTaskTimeout: msToTs(WORKFLOW_TASK_TIMEOUT_MS),
        continuedFromExecutionRunId: cont.from ?? '',
        firstExecutionRunId: run.execution.firstRunId,
        attempt: 1,
        startTime: msToTs(tsToMs(run.events[0].eventTime)),
        originalExecutionRunId: run.runId,
      },
    };
  }

  private updateJob(run: RunState, id: string, name: string, args: unknown[]): Job {
    const input = args.map(json);
    run.requests.set(id, { name, args: input });
    return { doUpdate: { id, protocolInstanceId: id, name, input, headers: {}, meta: { updateId: id, identity: 'halal-server' }, runValidator: true } };
  }

  /** Appends an event to a run; returns its id. */
  private add(run: RunState, type: proto.temporal.api.enums.v1.EventType, attributesKey: string, attributes: Record<string, unknown>): number {
    const eventId = run.events.length + 1;
    run.events.push(
      temporal.api.history.v1.HistoryEvent.fromObject({
        eventId,
        eventTime: msToTs(this.tick()),
        eventType: type,
        taskId: 1_048_576 + eventId,
        [attributesKey]: attributes,
      }),
    );
    return eventId;
  }

  /** Runs until nothing is pending but the outside world: scheduled activities complete, one at a time. */
  private async drain(execution: Execution): Promise<void> {
    for (;;) {
      const run = this.current(execution);
      if (run.closed) return;
      const next = [...run.activities.entries()].sort((a, b) => a[0] - b[0])[0];
      if (!next) return;
      const [seq, act] = next;
      run.activities.delete(seq);
      const resolution = await this.executeActivity(run, act);
      await this.workflowTask(run, [{ resolveActivity: { seq, result: resolution } }], false);
    }
  }

  private async executeActivity(
    run: RunState,
    act: { scheduledEventId: number; activityType: string; activityId: string; args: Payload[] },
  ): Promise<Record<string, unknown>> {
    const fn = this.opts.activities[act.activityType];
    if (!fn) throw new Error(`activity ${act.activityType} is not registered`);
    const args = act.args.map((p) => fromPayload(p));
    const attempts = 3;
    for (let attempt = 1; ; attempt++) {
      const env = new MockActivityEnvironment({
        activityType: act.activityType,
        activityId: act.activityId,
        attempt,
        workflowType: run.workflowType,
        workflowExecution: { workflowId: run.execution.workflowId, runId: run.runId },
        workflowNamespace: NAMESPACE,
        taskQueue: this.taskQueue,
      });
      try {
        const value = await env.run(fn, ...args);
        const result = json(value);
        const startedEventId = this.add(run, EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED, 'activityTaskStartedEventAttributes', {
          scheduledEventId: act.scheduledEventId,
          identity: IDENTITY,
          requestId: randomUUID(),
          attempt,
        });
        this.add(run, EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED, 'activityTaskCompletedEventAttributes', {
          result: { payloads: [result] },
          scheduledEventId: act.scheduledEventId,
          startedEventId,
          identity: IDENTITY,
        });
        return { completed: { result } };
      } catch (err) {
        const nonRetryable = err instanceof ApplicationFailure && err.nonRetryable;
        if (!nonRetryable && attempt < attempts) continue;
        if (!nonRetryable) throw new Error(`activity ${act.activityType} kept failing: ${String(err)}`);
        const cause = defaultFailureConverter.errorToFailure(err, defaultPayloadConverter);
        const startedEventId = this.add(run, EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED, 'activityTaskStartedEventAttributes', {
          scheduledEventId: act.scheduledEventId,
          identity: IDENTITY,
          requestId: randomUUID(),
          attempt,
        });
        this.add(run, EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED, 'activityTaskFailedEventAttributes', {
          failure: cause,
          scheduledEventId: act.scheduledEventId,
          startedEventId,
          identity: IDENTITY,
          retryState: temporal.api.enums.v1.RetryState.RETRY_STATE_NON_RETRYABLE_FAILURE,
        });
        return {
          failed: {
            failure: {
              message: 'Activity task failed',
              cause,
              activityFailureInfo: {
                scheduledEventId: act.scheduledEventId,
                startedEventId,
                identity: IDENTITY,
                activityType: { name: act.activityType },
                activityId: act.activityId,
                retryState: temporal.api.enums.v1.RetryState.RETRY_STATE_NON_RETRYABLE_FAILURE,
              },
            },
          },
        };
      }
    }
  }

  /**
   * One workflow task: scheduled and started events, one activation, then the completed event and the events of the
   * commands, in command order with terminal commands last (core's MoveTerminalCommands). A speculative task (an
   * update on an idle workflow) that produces nothing but rejections is dropped, as the server drops it.
   */
  private async workflowTask(run: RunState, jobs: Job[], speculative: boolean): Promise<void> {
    const mark = run.events.length;
    const clockMark = this.clock;
    const scheduledEventId = this.add(run, EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, 'workflowTaskScheduledEventAttributes', {
      taskQueue: { name: this.taskQueue, kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
      startToCloseTimeout: msToTs(WORKFLOW_TASK_TIMEOUT_MS),
      attempt: 1,
    });
    const historySizeBytes = this.historySize(run);
    const startedEventId = this.add(run, EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED, 'workflowTaskStartedEventAttributes', {
      scheduledEventId,
      identity: IDENTITY,
      requestId: randomUUID(),
      historySizeBytes,
    });
    const startedAt = tsToMs(run.events[startedEventId - 1].eventTime);
    const isFirst = run.completedTasks === 0;
    const activation = coresdk.workflow_activation.WorkflowActivation.fromObject({
      runId: run.runId,
      timestamp: msToTs(startedAt),
      isReplaying: false,
      historyLength: startedEventId,
      jobs,
      availableInternalFlags: [...run.langFlags],
      historySizeBytes,
      continueAsNewSuggested: false,
    });
    const completion = await run.vm.activate(activation);
    if (completion.failed) {
      const err = defaultFailureConverter.failureToError(completion.failed.failure ?? {}, defaultPayloadConverter);
      throw new Error(`workflow task failed: ${err.message}\n${err.stack ?? ''}`);
    }
    const commands = reorderTerminal(completion.successful?.commands ?? []);
    const newFlags = (completion.successful?.usedInternalFlags ?? []).filter((f) => !run.langFlags.has(f));

    // Core drops a timer started and cancelled within the same task: neither command reaches the server.
    const startedHere = new Set(commands.filter((c) => c.startTimer).map((c) => c.startTimer!.seq ?? 0));
    const cancelledHere = new Set(commands.filter((c) => c.cancelTimer && startedHere.has(c.cancelTimer.seq ?? 0)).map((c) => c.cancelTimer!.seq ?? 0));
    const effective = commands.filter((c) => {
      if (c.startTimer && cancelledHere.has(c.startTimer.seq ?? 0)) return false;
      if (c.cancelTimer && cancelledHere.has(c.cancelTimer.seq ?? 0)) return false;
      return !c.respondToQuery;
    });
    for (const c of effective) {
      const r = c.updateResponse;
      if (r?.rejected && !run.accepted.has(r.protocolInstanceId ?? '')) {
        run.execution.updateResults.set(r.protocolInstanceId ?? '', {
          outcome: 'rejected',
          failure: defaultFailureConverter.failureToError(r.rejected, defaultPayloadConverter) as ApplicationFailure,
        });
      }
    }
    const writes = effective.filter((c) => !(c.updateResponse?.rejected && !run.accepted.has(c.updateResponse.protocolInstanceId ?? '')));
    if (speculative && writes.length === 0) {
      run.events.length = mark;
      this.clock = clockMark;
      return;
    }

    const completedEventId = this.add(run, EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, 'workflowTaskCompletedEventAttributes', {
      scheduledEventId,
      startedEventId,
      identity: IDENTITY,
      sdkMetadata: {
        coreUsedFlags: isFirst ? CORE_FLAGS : [],
        langUsedFlags: newFlags,
        ...(isFirst ? { sdkName: SDK_NAME, sdkVersion: SDK_VERSION } : {}),
      },
      meteringMetadata: {},
    });
    for (const f of newFlags) run.langFlags.add(f);
    run.completedTasks++;
    for (const c of writes) await this.commandEvent(run, c, completedEventId, scheduledEventId);
  }

  private async commandEvent(run: RunState, c: Command, completedEventId: number, scheduledEventId: number): Promise<void> {
    if (c.startTimer) {
      const seq = c.startTimer.seq ?? 0;
      const ms = tsToMs(c.startTimer.startToFireTimeout);
      const startedEventId = this.add(run, EventType.EVENT_TYPE_TIMER_STARTED, 'timerStartedEventAttributes', {
        timerId: String(seq),
        startToFireTimeout: c.startTimer.startToFireTimeout,
        workflowTaskCompletedEventId: completedEventId,
      });
      run.timers.set(seq, { startedEventId, dueAt: tsToMs(run.events[completedEventId - 1].eventTime) + ms });
    } else if (c.cancelTimer) {
      const seq = c.cancelTimer.seq ?? 0;
      const timer = run.timers.get(seq);
      if (!timer) return; // already fired: the SDK resolved it locally
      run.timers.delete(seq);
      this.add(run, EventType.EVENT_TYPE_TIMER_CANCELED, 'timerCanceledEventAttributes', {
        timerId: String(seq),
        startedEventId: timer.startedEventId,
        workflowTaskCompletedEventId: completedEventId,
        identity: IDENTITY,
      });
    } else if (c.scheduleActivity) {
      const a = c.scheduleActivity;
      const scheduledId = this.add(run, EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED, 'activityTaskScheduledEventAttributes', {
        activityId: a.activityId,
        activityType: { name: a.activityType },
        taskQueue: { name: a.taskQueue || this.taskQueue, kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
        header: {},
        input: { payloads: a.arguments ?? [] },
        scheduleToCloseTimeout: a.scheduleToCloseTimeout ?? msToTs(0),
        scheduleToStartTimeout: a.scheduleToStartTimeout ?? msToTs(0),
        startToCloseTimeout: a.startToCloseTimeout,
        heartbeatTimeout: a.heartbeatTimeout ?? msToTs(0),
        workflowTaskCompletedEventId: completedEventId,
        retryPolicy: a.retryPolicy,
      });
      run.activities.set(a.seq ?? 0, {
        scheduledEventId: scheduledId,
        activityType: a.activityType ?? '',
        activityId: a.activityId ?? '',
        args: (a.arguments ?? []) as Payload[],
      });
    } else if (c.updateResponse) {
      const r = c.updateResponse;
      const id = r.protocolInstanceId ?? '';
      const meta = { updateId: id, identity: 'halal-server' };
      if (r.accepted) {
        const request = run.requests.get(id);
        const acceptedId = this.add(run, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED, 'workflowExecutionUpdateAcceptedEventAttributes', {
          protocolInstanceId: id,
          acceptedRequestMessageId: `${id}/request`,
          acceptedRequestSequencingEventId: scheduledEventId,
          acceptedRequest: { meta, input: { header: {}, name: request?.name, args: { payloads: request?.args ?? [] } } },
        });
        run.accepted.set(id, acceptedId);
      } else {
        const acceptedEventId = run.accepted.get(id);
        if (acceptedEventId === undefined) throw new Error(`update ${id} completed before it was accepted`);
        const outcome = r.completed ? { success: { payloads: [r.completed] } } : { failure: r.rejected };
        this.add(run, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED, 'workflowExecutionUpdateCompletedEventAttributes', {
          meta,
          acceptedEventId,
          outcome,
        });
        run.execution.updateResults.set(
          id,
          r.completed
            ? { outcome: 'completed', value: fromPayload(r.completed) }
            : { outcome: 'failed', failure: defaultFailureConverter.failureToError(r.rejected ?? {}, defaultPayloadConverter) as ApplicationFailure },
        );
      }
    } else if (c.setPatchMarker) {
      const patchId = c.setPatchMarker.patchId ?? '';
      this.add(run, EventType.EVENT_TYPE_MARKER_RECORDED, 'markerRecordedEventAttributes', {
        markerName: 'core_patch',
        details: { 'patch-data': { payloads: [coreJson({ id: patchId, deprecated: c.setPatchMarker.deprecated ?? false })] } },
        workflowTaskCompletedEventId: completedEventId,
      });
      // Core (UpsertSearchAttributeOnPatch) keeps TemporalChangeVersion listing every patch the run has used.
      run.patches.add(patchId);
      const sa = coreJson([...run.patches].sort());
      sa.metadata = { ...sa.metadata, type: new TextEncoder().encode('KeywordList') };
      this.add(run, EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES, 'upsertWorkflowSearchAttributesEventAttributes', {
        workflowTaskCompletedEventId: completedEventId,
        searchAttributes: { indexedFields: { TemporalChangeVersion: sa } },
      });
    } else if (c.completeWorkflowExecution) {
      this.add(run, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED, 'workflowExecutionCompletedEventAttributes', {
        result: { payloads: c.completeWorkflowExecution.result ? [c.completeWorkflowExecution.result] : [] },
        workflowTaskCompletedEventId: completedEventId,
      });
      run.closed = true;
      run.execution.result = fromPayload(c.completeWorkflowExecution.result);
    } else if (c.failWorkflowExecution) {
      this.add(run, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED, 'workflowExecutionFailedEventAttributes', {
        failure: c.failWorkflowExecution.failure,
        retryState: temporal.api.enums.v1.RetryState.RETRY_STATE_RETRY_POLICY_NOT_SET,
        workflowTaskCompletedEventId: completedEventId,
      });
      run.closed = true;
      throw new Error(`workflow failed: ${c.failWorkflowExecution.failure?.message ?? ''}`);
    } else if (c.continueAsNewWorkflowExecution) {
      const can = c.continueAsNewWorkflowExecution;
      const newRunId = randomUUID();
      const workflowType = can.workflowType || run.workflowType;
      const input = (can.arguments ?? []) as Payload[];
      this.add(run, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW, 'workflowExecutionContinuedAsNewEventAttributes', {
        newExecutionRunId: newRunId,
        workflowType: { name: workflowType },
        taskQueue: { name: can.taskQueue || this.taskQueue, kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
        input: { payloads: input },
        workflowRunTimeout: msToTs(0),
        workflowTaskTimeout: msToTs(WORKFLOW_TASK_TIMEOUT_MS),
        workflowTaskCompletedEventId: completedEventId,
        initiator: temporal.api.enums.v1.ContinueAsNewInitiator.CONTINUE_AS_NEW_INITIATOR_WORKFLOW,
        header: {},
      });
      run.closed = true;
      // Pending activities and timers of the closed run die with it; the next run starts from its input.
      const next = await this.newRun(run.execution, newRunId, workflowType, input, { from: run.runId });
      await this.workflowTask(next, [this.initJob(next, input, { from: run.runId })], false);
    } else {
      throw new Error(`the stand-in does not model command ${JSON.stringify(Object.keys(c))}`);
    }
  }

  private historySize(run: RunState): number {
    return run.events.reduce((n, e) => n + temporal.api.history.v1.HistoryEvent.encode(e).finish().length, 0);
  }
}

/** Core sends every non-terminal command first, then the first terminal one (MoveTerminalCommands). */
function reorderTerminal(commands: Command[]): Command[] {
  const terminal = (c: Command) => !!(c.completeWorkflowExecution || c.failWorkflowExecution || c.continueAsNewWorkflowExecution || c.cancelWorkflowExecution);
  const first = commands.find(terminal);
  return [...commands.filter((c) => !terminal(c)), ...(first ? [first] : [])];
}

function seedBytes(seed: bigint): number[] {
  // Long.toBytes() order (big-endian), as the worker passes `randomnessSeed.toBytes()`.
  const out: number[] = [];
  for (let i = 7; i >= 0; i--) out.push(Number((seed >> BigInt(i * 8)) & 0xffn));
  return out;
}

const quietLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: (message: string, meta?: Record<string, unknown>) => console.error(message, meta),
};
