import type { MachineDefinition } from './definition';
import { baseContext, entitySetup } from './entity-setup';
import { may } from './guards';
import type { BaseContext, MachineInput } from './types';

/** Delegation statuses: the spec has no catalogue for them, so these codes are ours. */
export const DELEGATION_CODES = {
  awaitingOtp: 1,
  pendingAcknowledgment: 2,
  active: 3,
  revoked: 4,
  cancelled: 5,
  expired: 6,
} as const;

/** Delegation type of spec 02 section 3 (Delegate): main=0, sub=1. */
export type DelegationType = 0 | 1;

export interface DelegationData {
  delegationType: DelegationType;
  /** The permissions delegated for the facility (what the history says was given). */
  permissions: string[];
}

export interface DelegationContext extends BaseContext {
  data: DelegationData;
}

/** The delegation's start data; bad data stops the start (the engine reports it). */
function delegationData(input: MachineInput): DelegationData {
  const type = input.data?.delegationType;
  const permissions = input.data?.permissions;
  if (type !== 0 && type !== 1) throw new Error('input.data.delegationType must be 0 (main) or 1 (sub)');
  if (!Array.isArray(permissions) || permissions.length === 0 || !permissions.every((p) => typeof p === 'string' && p !== '')) {
    throw new Error('input.data.permissions must list at least one permission');
  }
  return { delegationType: type, permissions: [...(permissions as string[])] };
}

const delegation = entitySetup<DelegationContext>();
const byDelegator = may({ relation: 'owner' });

const machine = delegation.createMachine({
  id: 'delegation',
  context: ({ input }) => ({ ...baseContext(input), data: delegationData(input) }),
  initial: 'pending',
  states: {
    pending: {
      meta: {
        deadline: { after: 'draftRetention', event: 'DRAFT_EXPIRED' },
        description: 'Not complete yet: it expires when the draft retention period ends.',
      },
      initial: 'awaitingOtp',
      on: {
        CANCEL: { guard: byDelegator, target: 'cancelled' },
        DRAFT_EXPIRED: { guard: may({ relation: 'system' }), target: 'expired' },
      },
      states: {
        // The delegator (a facility user) acts next in both steps; request lists leave delegations out all the same.
        awaitingOtp: {
          tags: ['applicant'],
          meta: {
            status: DELEGATION_CODES.awaitingOtp,
            description: 'A code went to the delegate’s mobile; the delegator enters it.',
          },
          on: { OTP_VERIFIED: { guard: may({ relation: 'system' }), target: 'pendingAcknowledgment' } },
        },
        pendingAcknowledgment: {
          tags: ['applicant'],
          meta: {
            status: DELEGATION_CODES.pendingAcknowledgment,
            description: 'The delegate’s mobile is confirmed; waiting for the delegator’s acknowledgment.',
          },
          on: {
            ACKNOWLEDGE: {
              guard: byDelegator,
              target: '#delegation.active',
              actions: [
                delegation.assign({ delegateUserId: ({ event }) => String(event.delegateUserId) }),
                { type: 'effect.grantDelegation', params: {} },
              ],
            },
          },
        },
      },
    },
    active: {
      tags: ['final'],
      meta: { status: DELEGATION_CODES.active, description: 'Acknowledged: the delegate acts for the facility within the delegated permissions.' },
      on: { REVOKE: { guard: byDelegator, target: 'revoked', actions: { type: 'effect.revokeDelegation', params: {} } } },
    },
    revoked: {
      type: 'final',
      tags: ['final'],
      meta: { status: DELEGATION_CODES.revoked, description: 'Revoked by the delegator: the access was withdrawn.' },
    },
    cancelled: {
      type: 'final',
      tags: ['final'],
      meta: { status: DELEGATION_CODES.cancelled, description: 'Cancelled by the delegator before it was complete.' },
    },
    expired: {
      type: 'final',
      tags: ['final'],
      meta: { status: DELEGATION_CODES.expired, description: 'Never completed: dropped when the retention period ended.' },
    },
  },
});

export const delegationV1: MachineDefinition = {
  kind: 'delegation',
  version: 1,
  title: 'Delegation',
  catalogue: 'Delegation (our codes 1 to 6; the spec has none)',
  machine,
  readings: [
    'The delegation wizards (cb-delegation and internal-delegation) run on this machine: the facility’s or CB’s main user starts it through the delegation calls only (the generic POST /api/requests refuses kind `delegation`, and POST /api/requests/:id/events refuses its events), so every step has the OTP service and the account creation behind it.',
    '"Delegation completes only after acknowledgment": started, a code goes to the delegate’s mobile (1); once the OTP service matched it, the system records OTP_VERIFIED (2) — nobody can claim it by hand; the attempt, resend and SMS limits stay the OTP service’s (spec 01 section 8). The delegator’s acknowledgment (declaration ticked) makes it active (3) and grants the access (effect.grantDelegation) to the account named in the event.',
    'The delegator may cancel it before it is complete (5) and revoke it once active (4), which withdraws the access (effect.revokeDelegation). An unfinished delegation expires (6) when the draft retention period (DRAFT_RETENTION_DAYS) ends, like a draft.',
    '"Main delegate has all permissions. Sub delegate has all except delegation" (spec 02 section 6): a facility has one main user, the one who added it. A delegation never makes another main user while one exists and never changes or removes an existing membership (effect.grantDelegation refuses a person who is already a member; effect.revokeDelegation removes only the membership this delegation created, never a main user’s); "a main user may authorize a sub-authorizer" is read as authorising a sub delegate with the chosen permissions.',
    'The spec has no delegation status catalogue; codes 1-6 are this project’s and are labelled in locales/*/status.json like the others.',
  ],
};
