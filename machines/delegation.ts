import type { MachineDefinition } from './definition';
import { baseContext, entitySetup, inputString } from './entity-setup';
import { may } from './guards';
import type { BaseContext } from './types';

/** Delegation statuses: the spec has no catalogue for them, so these codes are ours. */
export const DELEGATION_CODES = { pendingAcknowledgment: 1, active: 2, revoked: 3, declined: 4 } as const;

interface DelegationContext extends BaseContext {
  delegateUserId: string;
}

const revoke = { guard: may({ relation: 'owner' }), target: '#delegation.revoked' } as const;

const machine = entitySetup<DelegationContext>().createMachine({
  id: 'delegation',
  context: ({ input }) => ({ ...baseContext(input), delegateUserId: inputString(input, 'delegateUserId') }),
  initial: 'pendingAcknowledgment',
  states: {
    pendingAcknowledgment: {
      tags: ['applicant'],
      meta: { status: DELEGATION_CODES.pendingAcknowledgment, description: 'Waiting for the delegate’s acknowledgment.' },
      on: {
        ACKNOWLEDGE: {
          guard: may({ relation: 'delegate' }),
          target: 'active',
          actions: { type: 'effect.grantDelegation', params: {} },
        },
        DECLINE: { guard: may({ relation: 'delegate' }), target: 'declined' },
        REVOKE: revoke,
      },
    },
    active: {
      tags: ['final'],
      meta: { status: DELEGATION_CODES.active, description: 'Acknowledged: the delegate acts for the facility.' },
      on: { REVOKE: { ...revoke, actions: { type: 'effect.revokeDelegation', params: {} } } },
    },
    revoked: { type: 'final', tags: ['final'], meta: { status: DELEGATION_CODES.revoked, description: 'Revoked.' } },
    declined: {
      type: 'final',
      tags: ['final'],
      meta: { status: DELEGATION_CODES.declined, description: 'Declined by the delegate.' },
    },
  },
});

export const delegationV1: MachineDefinition = {
  kind: 'delegation',
  version: 1,
  title: 'Delegation',
  catalogue: 'Delegation (our codes 1 to 4; the spec has none)',
  machine,
  readings: [
    '"Delegation completes only after acknowledgment": the delegation is created pending (1) and grants access (effect.grantDelegation) only when the delegated user acknowledges it (2). The delegate may decline (4).',
    'The user who created it (the facility’s main user: the server checks main-user membership before starting it) may revoke it, pending or active (3); revoking an active one withdraws the access (effect.revokeDelegation).',
    'The spec has no delegation status catalogue; codes 1-4 are this project’s and are labelled in locales/*/status.json like the others.',
  ],
};
