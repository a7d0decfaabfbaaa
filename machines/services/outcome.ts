import { serviceOf, type ServiceRegistry } from './index';
import type { ServiceOutcome } from './types';

/** What a finished request produced, as the request answer names it (GET /api/requests/{id}: `outcome.kind`). */
export type FinishedOutcome = 'certificate-issued' | 'certificate-changed' | 'marks';

/** End states in which a request produced nothing: it issued no certificate or marks and changed none. */
export const UNCHANGED_ENDS: ReadonlySet<string> = new Set(['rejected', 'cancelled', 'deleted', 'expired']);

const FINISHED: Record<ServiceOutcome, FinishedOutcome> = {
  issuesCertificate: 'certificate-issued',
  changesCertificate: 'certificate-changed',
  issuesMarks: 'marks',
};

/**
 * What a request produced: its service's declared outcome (ServiceDefinition.outcome), once it is finished in an end
 * that produced it; null while it is open, when it ended rejected, cancelled, deleted or expired (UNCHANGED_ENDS), and
 * for lifecycles that are not services (delegation, bills, certificates, marks). The request answer carries it, and
 * GET /api/requests/{id}/certificate and /marks answer only a request it names. The registry is the caller's (the
 * server's app.services), never a default, so the answer and those calls read the same definitions.
 */
export function finishedOutcome(
  view: { kind: string; stateValue: string; finished: boolean; deleted?: boolean },
  registry: ServiceRegistry,
): FinishedOutcome | null {
  if (!view.finished || view.deleted || UNCHANGED_ENDS.has(view.stateValue)) return null;
  const def = serviceOf(view.kind, registry);
  return def ? FINISHED[def.outcome] : null;
}
