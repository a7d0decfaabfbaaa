import type { Actor } from '../../machines/actor';
import type { MachineCatalogue } from '../../workflows/catalogue';
import type { RequestView, WorkflowEngine, WorkflowEvent } from '../../workflows/engine';
import { fixtureCatalogue } from '../workflows/fixtures/payment-machine';
import { FACILITY, applicant, reviewer } from '../workflows/fixtures/actors';

/** The request each bench client works on and the event it sends over and over (a review note: status unchanged). */
export const benchScenario: {
  kind: string;
  catalogue: MachineCatalogue;
  actor: Actor;
  loopEvent: WorkflowEvent;
  prepare(engine: WorkflowEngine): Promise<RequestView>;
} = {
  kind: 'fixturePayment',
  catalogue: fixtureCatalogue(),
  actor: reviewer,
  loopEvent: { type: 'ADD_NOTE', note: 'Checked the HACCP plan' },
  async prepare(engine) {
    const r = await engine.start('fixturePayment', { ownerUserId: applicant.userId, facilityId: FACILITY }, applicant);
    return engine.send(r.id, { type: 'SUBMIT' }, applicant, r.version);
  },
};
