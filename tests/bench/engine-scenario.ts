import { SYSTEM_ACTOR, type Actor } from '../../machines/actor';
import type { MachineCatalogue } from '../../workflows/catalogue';
import type { RequestView, WorkflowEngine, WorkflowEvent } from '../../workflows/engine';
import { machinesCatalogue } from '../../workflows/machines-catalogue';
import { FACILITY, applicant, registration } from '../workflows/fixtures/internal-certificate-scenario';
import { internalCertificateData } from '../services/fixtures';

/**
 * What each bench client does: a production internal-certificate request waiting in the registration queue, which a
 * registration employee takes (ASSIGN_TO_ME: status 1 -> 4, assignee set) and gives back (CANCEL_ASSIGNMENT: 4 -> 1),
 * over and over. Real transitions of the real machine: guards, assign actions, status, queue and assignee changes.
 */
export const benchScenario: {
  kind: string;
  catalogue: MachineCatalogue;
  actor: Actor;
  /** Sent in turn, starting with the first. */
  loop: WorkflowEvent[];
  prepare(engine: WorkflowEngine): Promise<RequestView>;
} = {
  kind: 'internalCertificate',
  catalogue: machinesCatalogue,
  actor: registration,
  loop: [{ type: 'ASSIGN_TO_ME' }, { type: 'CANCEL_ASSIGNMENT', note: 'Back to the queue' }],
  async prepare(engine) {
    const r = await engine.start('internalCertificate', { ownerUserId: applicant.userId, facilityId: FACILITY, data: internalCertificateData() }, applicant);
    await engine.send(r.id, { type: 'SUBMIT', agreementAccepted: true }, applicant, r.version);
    return engine.send(r.id, { type: 'PAYMENT_CONFIRMED' }, SYSTEM_ACTOR, r.version + 1);
  },
};
