import type { Config } from '../server/config';
import type { Db } from '../db/client';
import type { MachineCatalogue } from './catalogue';
import type { WorkflowEngine } from './engine';
import { EmbeddedEngine } from './embedded/embedded-engine';
import type { StoreDeps } from './store';

export type { WorkflowEngine } from './engine';

/** Milliseconds of each deadline name a machine may declare in `meta.deadline.after`. */
export function deadlineDurations(config: Config): Record<string, number> {
  const HOUR = 3_600_000;
  return {
    paymentWindow: config.PAYMENT_WINDOW_HOURS * HOUR,
    draftRetention: config.DRAFT_RETENTION_DAYS * 24 * HOUR,
  };
}

export function storeDeps(config: Config): StoreDeps {
  return {
    durations: deadlineDurations(config),
    vatRate: config.VAT_RATE,
    paymentWindowMs: config.PAYMENT_WINDOW_HOURS * 3_600_000,
  };
}

export interface CreateEngineOptions {
  catalogue: MachineCatalogue;
  now?: () => Date;
}

/** The engine the configuration selects: embedded (default) or Temporal (WORKFLOW_ENGINE=temporal). */
export async function createEngine(config: Config, db: Db, opts: CreateEngineOptions): Promise<WorkflowEngine> {
  if (config.WORKFLOW_ENGINE === 'temporal') {
    throw new Error('WORKFLOW_ENGINE=temporal: the Temporal adapter is not available in this build');
  }
  return new EmbeddedEngine({ db, catalogue: opts.catalogue, deps: storeDeps(config), now: opts.now });
}
