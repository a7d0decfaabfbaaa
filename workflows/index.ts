import type { Db } from '../db/client';
import { SERVICES, type ServiceRegistry } from '../machines/services';
import type { BusinessSettings } from '../machines/services/settings';
import type { MachineCatalogue } from './catalogue';
import type { WorkflowEngine } from './engine';
import { EmbeddedEngine } from './embedded/embedded-engine';
import { createMachinesCatalogue } from './machines-catalogue';
import type { StoreDeps } from './store';

export type { WorkflowEngine } from './engine';

/** The settings the engine needs to choose and reach an adapter (a subset of the server's configuration). */
export interface EngineConfig {
  WORKFLOW_ENGINE: 'embedded' | 'temporal';
  TEMPORAL_ADDRESS?: string;
  TEMPORAL_NAMESPACE: string;
  TEMPORAL_TASK_QUEUE: string;
}

/**
 * Milliseconds of each deadline a machine may declare with a configured duration (machines/deadlines.ts, `config`
 * rules), as the settings say now; the others (context dates, month end, immediately) come with their due time.
 */
export function deadlineDurations(settings: BusinessSettings): Record<string, number> {
  const HOUR = 3_600_000;
  return { paymentWindow: settings.paymentWindowHours * HOUR, draftRetention: settings.draftRetentionDays * 24 * HOUR };
}

/** What the store and the effects need: the current settings, the service contract and the machines. */
export function storeDeps(o: { settings: () => BusinessSettings; services?: ServiceRegistry; catalogue?: MachineCatalogue }): StoreDeps {
  const services = o.services ?? SERVICES;
  return {
    settings: o.settings,
    services,
    durations: () => deadlineDurations(o.settings()),
    catalogue: o.catalogue ?? createMachinesCatalogue(services),
  };
}

/** The engine the configuration selects: embedded (default) or Temporal (WORKFLOW_ENGINE=temporal). */
export async function createEngine(config: EngineConfig, db: Db, deps: StoreDeps, opts: { now?: () => Date } = {}): Promise<WorkflowEngine> {
  if (config.WORKFLOW_ENGINE === 'temporal') {
    // Loaded only when selected: the embedded default never loads the Temporal client.
    const { createTemporalEngine } = await import('./temporal/client');
    return createTemporalEngine(config, db, { catalogue: deps.catalogue, deps });
  }
  return new EmbeddedEngine({ db, catalogue: deps.catalogue, deps, now: opts.now });
}
