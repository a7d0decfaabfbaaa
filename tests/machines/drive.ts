import { initialTransition, transition, type AnyMachineSnapshot } from 'xstate';
import { SYSTEM_ACTOR, type Actor } from '../../machines/actor';
import { permissionsOf } from '../../machines/roles';
import {
  allowedActions,
  effectsOf,
  getMachine,
  statusOf,
  validateEvent,
  type Effect,
  type EventType,
  type MachineInput,
  type MachineKind,
} from '../../machines';
import { PLAN, NON_CONFORMITY } from './samples';

export const FACILITY = 'facility-f';

/** A user with the permissions of real roles (machines/roles.ts), member of `facilityIds`. */
export function user(userId: string, roles: string[], facilityIds: string[] = []): Actor {
  return { userId, roles, permissions: permissionsOf(roles), facilityIds };
}

export const people = {
  applicant: user('applicant-1', ['applicant'], [FACILITY]),
  otherApplicant: user('applicant-2', ['applicant'], ['facility-other']),
  registration: user('reg-1', ['registrationEmployee']),
  registration2: user('reg-2', ['registrationEmployee']),
  auditEmployee: user('audit-1', ['auditEmployee']),
  teamLeader: user('leader-1', ['teamLeader']),
  technicalAuditor: user('tech-1', ['technicalAuditor']),
  committee: user('committee-1', ['committeeMember']),
  committee2: user('committee-2', ['committeeMember']),
  admin: user('admin-1', ['admin']),
  system: SYSTEM_ACTOR,
};

/** Canonical payloads for driving a request through its life. */
export const payloads: Partial<Record<EventType, Record<string, unknown>>> = {
  SUBMIT: { agreementAccepted: true },
  DELETE: { confirmed: true },
  RETURN: { reason: 'Fix it' },
  RETURN_TO_REGISTRATION: { reason: 'Registration must check the CR' },
  RETURN_PLAN: { reason: 'Dates do not suit us' },
  APPROVE: { reason: 'Compliant' },
  RETURN_TO_AUDIT: { reason: 'Check line 2 again' },
  REJECT: { reason: 'Serious non-conformities' },
  SUBMIT_PLAN: { plan: PLAN },
  SAVE_PLAN: { plan: PLAN },
  SUBMIT_AUDIT_RESULT: { compliant: true },
  SUBMIT_REPORT: { summary: 'All good' },
  CHOOSE_PAYMENT_OPTION: { option: 'full' },
  ADD_NOTE: { note: 'Noted' },
  SUSPEND: { reason: 'Complaint under investigation' },
  REINSTATE: { reason: 'Complaint closed' },
  // Optional for requests, required for a Halal mark (machines/events.ts KIND_EVENT_DEFINITIONS).
  CANCEL: { reason: 'Product withdrawn' },
};

export { NON_CONFORMITY };

/** A request of `kind` driven through the pure machine, as the engine would, with checks on every event. */
export class Drive {
  snapshot: AnyMachineSnapshot;
  effects: Effect[] = [];
  readonly machine;

  constructor(
    readonly kind: MachineKind,
    input: Partial<MachineInput> = {},
  ) {
    this.machine = getMachine(kind);
    const [snapshot, actions] = initialTransition(this.machine, {
      requestId: 'req-1',
      ownerUserId: people.applicant.userId,
      facilityId: FACILITY,
      ...input,
    });
    this.snapshot = snapshot;
    this.effects = effectsOf(actions);
  }

  get status() {
    return statusOf(this.snapshot);
  }

  allowed(actor: Actor): EventType[] {
    return allowedActions(this.kind, this.snapshot, actor).map((a) => a.type);
  }

  /** Sends an event that must be valid and accepted; returns this for chaining. */
  send(type: EventType, actor: Actor, payload: Record<string, unknown> = payloads[type] ?? {}): this {
    const event = { type, actor, ...payload };
    const issues = validateEvent(this.kind, event);
    if (issues.length) throw new Error(`${type} payload invalid: ${JSON.stringify(issues)}`);
    if (!this.allowed(actor).includes(type))
      throw new Error(`${type} not allowed for ${actor.userId} in ${JSON.stringify(this.snapshot.value)}`);
    const [next, actions] = transition(this.machine, this.snapshot, event as never);
    if (next === this.snapshot) throw new Error(`${type} was refused in ${JSON.stringify(this.snapshot.value)}`);
    this.snapshot = next;
    this.effects = effectsOf(actions);
    return this;
  }

  /** Sends an event directly to the machine and reports whether it moved (no allowedActions/validation checks). */
  tries(type: EventType, actor: Actor, payload: Record<string, unknown> = payloads[type] ?? {}): boolean {
    const [next] = transition(this.machine, this.snapshot, { type, actor, ...payload } as never);
    return next !== this.snapshot;
  }
}
