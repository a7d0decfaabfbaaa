import { fileURLToPath } from 'node:url';
import { readFileSync, readdirSync } from 'node:fs';
import { ApplicationFailure } from '@temporalio/common';
import { DefaultLogger, Runtime, Worker, bundleWorkflowCode, type ReplayResult } from '@temporalio/worker';
import type { temporal } from '@temporalio/proto';
import type { Db } from '../../../db/client';
import type { Actor } from '../../../machines/actor';
import { testStoreDeps } from '../../helpers/deps';
import type { StoreDeps } from '../../../workflows/store';
import { createActivities } from '../../../workflows/temporal/activities';
import { WorkflowGone, type RequestWorkflowGateway } from '../../../workflows/temporal/client';
import {
  REQUEST_WORKFLOW_TYPE,
  allowedActionsQuery,
  sendEventUpdate,
  startedUpdate,
  workflowIdOf,
  type RequestWorkflowInput,
  type TransitionOutcome,
} from '../../../workflows/temporal/shared';
import type { AllowedAction } from '../../../workflows/engine';
import { FACILITY, applicant } from '../fixtures/actors';
import { TemporalStandIn, WorkflowNotFound, type StandInOptions, type UpdateResult } from './harness';
import { historyFromJson } from './harness/history-json';
import { FIXTURE_KIND } from './fixtures/catalogues';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Workflow entry points: the production one and fixture workers knowing machine versions 1 or 1..2. */
export const WORKFLOWS = {
  production: here('../../../workflows/temporal/workflows.ts'),
  fixtureV1: here('./fixtures/workflows-v1.ts'),
  fixtureV2: here('./fixtures/workflows-v2.ts'),
} as const;

export const HISTORIES_DIR = here('./histories');

/**
 * Store dependencies as the server and the worker build them, with the test configuration: 72 h payment window,
 * 30 days draft retention, the payments module's fee schedule.
 */
export const testDeps = (): StoreDeps => testStoreDeps();

export function activitiesFor(db: Db, deps: StoreDeps = testDeps()) {
  return createActivities({ db, store: deps });
}

export function createStandIn(db: Db, opts: Omit<StandInOptions, 'activities'> & { deps?: StoreDeps }): Promise<TemporalStandIn> {
  const { deps, ...rest } = opts;
  return TemporalStandIn.create({ ...rest, activities: activitiesFor(db, deps) });
}

/** The input of a fixture request's first run. */
export function fixtureInput(
  requestId: string,
  opts: { discountPercent?: number; starter?: Actor; continueAsNewAfterEvents?: number; deps?: StoreDeps } = {},
): RequestWorkflowInput {
  const starter = opts.starter ?? applicant;
  return {
    requestId,
    kind: FIXTURE_KIND,
    durations: (opts.deps ?? testDeps()).durations(),
    start: {
      input: {
        ownerUserId: starter.userId,
        facilityId: FACILITY,
        data: { trademarks: [{ nameAr: 'مراعي', nameEn: 'Marai' }] },
        ...(opts.discountPercent !== undefined ? { discountPercent: opts.discountPercent } : {}),
      },
      actor: starter,
      creatorName: 'Khalid Al-Harbi',
    },
    ...(opts.continueAsNewAfterEvents !== undefined ? { continueAsNewAfterEvents: opts.continueAsNewAfterEvents } : {}),
  };
}

/** A request's gateway onto the stand-in, so TemporalEngine runs offline exactly as against a cluster. */
export class StandInGateway implements RequestWorkflowGateway {
  constructor(readonly standIn: TemporalStandIn) {}

  async start(input: RequestWorkflowInput): Promise<TransitionOutcome> {
    const r = await this.standIn.start(REQUEST_WORKFLOW_TYPE, workflowIdOf(input.requestId), [input], { name: startedUpdate.name, args: [] });
    return settled(r);
  }

  async sendEvent(requestId: string, args: Parameters<RequestWorkflowGateway['sendEvent']>[1]): Promise<TransitionOutcome> {
    try {
      return settled(await this.standIn.update(workflowIdOf(requestId), sendEventUpdate.name, args));
    } catch (err) {
      if (err instanceof WorkflowNotFound) throw new WorkflowGone(err.message);
      throw err;
    }
  }

  async allowedActions(requestId: string, actor: Actor): Promise<AllowedAction[] | null> {
    if (!this.standIn.has(workflowIdOf(requestId))) return null;
    return this.standIn.query<AllowedAction[]>(workflowIdOf(requestId), allowedActionsQuery.name, actor);
  }

  close(): Promise<void> {
    return this.standIn.dispose();
  }
}

/** An update's value, or its failure thrown as the client would throw it. */
export function settled<T>(r: UpdateResult | undefined): T {
  if (!r) throw new Error('the update got no answer');
  if (r.outcome === 'completed') return r.value as T;
  throw r.failure;
}

export function failureOf(r: UpdateResult): ApplicationFailure {
  if (r.outcome === 'completed') throw new Error(`expected a refusal, got ${JSON.stringify(r.value)}`);
  return r.failure;
}

/** The event types of a history, without the EVENT_TYPE_ prefix (readable assertions). */
export function eventTypes(events: temporal.api.history.v1.IHistoryEvent[]): string[] {
  return events.map((e) => {
    const json = JSON.parse(JSON.stringify(e)) as { eventType?: string | number };
    return String(json.eventType).replace(/^EVENT_TYPE_/, '');
  });
}

let runtimeInstalled = false;
/**
 * The SDK's runtime logs every worker state change at INFO, and core warns about each nondeterminism it finds (which
 * the negative replay tests provoke on purpose); tests assert on results instead.
 */
export function quietRuntime(): void {
  if (runtimeInstalled) return;
  Runtime.install({ logger: new DefaultLogger('ERROR'), telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' } } } });
  runtimeInstalled = true;
}

const bundles = new Map<string, Promise<string>>();
/** Bundles a workflows module once per test file (the same bundler the worker uses). */
export function bundleOf(workflowsPath: string): Promise<string> {
  let b = bundles.get(workflowsPath);
  if (!b) {
    b = bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') }).then((r) => r.code);
    bundles.set(workflowsPath, b);
  }
  return b;
}

/** Replays histories with the real core (what a worker does when it picks up a workflow it has not cached). */
export async function replay(
  workflowsPath: string,
  histories: { workflowId: string; history: temporal.api.history.v1.IHistory | ReturnType<typeof historyFromJson> }[],
): Promise<ReplayResult[]> {
  quietRuntime();
  const code = await bundleOf(workflowsPath);
  const results: ReplayResult[] = [];
  for await (const r of Worker.runReplayHistories({ workflowBundle: { code } }, histories)) results.push(r);
  return results;
}

/** Every run the stand-in wrote for a workflow, as history files would hold them, replayed by the real core. */
export async function replayStandIn(standIn: TemporalStandIn, workflowId: string, workflowsPath: string): Promise<ReplayResult[]> {
  const runs = standIn.runs(workflowId).map((_, i) => ({ workflowId, history: historyFromJson(JSON.parse(standIn.historyJson(workflowId, i))) }));
  return replay(workflowsPath, runs);
}

export interface HistoryFile {
  file: string;
  /** Which workflows module replays it (see histories/README.md). */
  workflows: keyof typeof WORKFLOWS;
  workflowId: string;
  json: unknown;
}

/** The committed histories, with the worker each must replay on (named in histories/index.json). */
export function committedHistories(): HistoryFile[] {
  const index = JSON.parse(readFileSync(`${HISTORIES_DIR}/index.json`, 'utf8')) as Record<string, { workflows: keyof typeof WORKFLOWS; workflowId: string }>;
  const files = readdirSync(HISTORIES_DIR).filter((f) => f.endsWith('.json') && f !== 'index.json');
  return files.map((file) => {
    const entry = index[file];
    if (!entry) throw new Error(`histories/${file} is not listed in histories/index.json`);
    return { file, ...entry, json: JSON.parse(readFileSync(`${HISTORIES_DIR}/${file}`, 'utf8')) };
  });
}
