import type { Config } from '../server/config';
import type { Db } from '../db/client';
import type { MachineCatalogue } from './catalogue';
import type { WorkflowEngine } from './engine';
import type { EffectDeps } from './effects';
import { EmbeddedEngine } from './embedded/embedded-engine';
import { machinesCatalogue } from './machines-catalogue';
import type { StoreDeps } from './store';

export type { WorkflowEngine } from './engine';

/**
 * Milliseconds of each deadline a machine may declare with a configured duration (machines/deadlines.ts, `config`
 * rules); the others (context dates, month end, immediately) come with their due time from the machine.
 */
export function deadlineDurations(config: Config): Record<string, number> {
  const HOUR = 3_600_000;
  return {
    paymentWindow: config.PAYMENT_WINDOW_HOURS * HOUR,
    draftRetention: config.DRAFT_RETENTION_DAYS * 24 * HOUR,
  };
}

export function storeDeps(config: Config, billAmount?: EffectDeps['billAmount']): StoreDeps {
  return {
    durations: deadlineDurations(config),
    vatRate: config.VAT_RATE,
    paymentWindowMs: config.PAYMENT_WINDOW_HOURS * 3_600_000,
    billAmount,
  };
}

export interface CreateEngineOptions {
  /** The machines; default: machines/ (tests pass their own). */
  catalogue?: MachineCatalogue;
  /** The fee schedule bills are created with (server/modules/payments). */
  billAmount?: EffectDeps['billAmount'];
  now?: () => Date;
}

/** The engine the configuration selects: embedded (default) or Temporal (WORKFLOW_ENGINE=temporal). */
export async function createEngine(config: Config, db: Db, opts: CreateEngineOptions = {}): Promise<WorkflowEngine> {
  const catalogue = opts.catalogue ?? machinesCatalogue;
  const deps = storeDeps(config, opts.billAmount);
  if (config.WORKFLOW_ENGINE === 'temporal') {
    // Loaded only when selected: the embedded default never loads the Temporal client.
    const { createTemporalEngine } = await import('./temporal/client');
    return createTemporalEngine(config, db, { catalogue, deps });
  }
  return new EmbeddedEngine({ db, catalogue, deps, now: opts.now });
}
