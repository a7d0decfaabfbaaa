import { setup, transition } from 'xstate';

/**
 * The delegation lifecycle (spec 02: "delegation completes only after acknowledgment"): the delegate's mobile
 * confirms with an OTP, then the delegating main user acknowledges, and only then does the delegate become a user
 * of the facility. Only the delegating user moves it. The delegations row keeps the state name in `status`.
 */
export const DELEGATION_STATUSES = ['awaitingOtp', 'awaitingAcknowledgment', 'completed', 'cancelled'] as const;
export type DelegationStatus = (typeof DELEGATION_STATUSES)[number];

export type DelegationEvent = { type: 'OTP_VERIFIED' | 'ACKNOWLEDGE' | 'CANCEL'; actorUserId: string };

export const delegationMachine = setup({
  types: {
    context: {} as { delegatorUserId: string },
    input: {} as { delegatorUserId: string },
    events: {} as DelegationEvent,
  },
  guards: {
    byDelegator: ({ context, event }) => event.actorUserId === context.delegatorUserId,
  },
}).createMachine({
  id: 'facilityDelegation',
  context: ({ input }) => ({ delegatorUserId: input.delegatorUserId }),
  initial: 'awaitingOtp',
  states: {
    awaitingOtp: {
      on: {
        OTP_VERIFIED: { target: 'awaitingAcknowledgment', guard: 'byDelegator' },
        CANCEL: { target: 'cancelled', guard: 'byDelegator' },
      },
    },
    awaitingAcknowledgment: {
      on: {
        ACKNOWLEDGE: { target: 'completed', guard: 'byDelegator' },
        CANCEL: { target: 'cancelled', guard: 'byDelegator' },
      },
    },
    completed: { type: 'final' },
    cancelled: { type: 'final' },
  },
});

/** The status after `event`, or null when the machine refuses it in `status` (wrong step, or not the delegator). */
export function nextDelegationStatus(status: DelegationStatus, delegatorUserId: string, event: DelegationEvent): DelegationStatus | null {
  const snapshot = delegationMachine.resolveState({ value: status, context: { delegatorUserId } });
  if (!snapshot.can(event)) return null;
  const [next] = transition(delegationMachine, snapshot, event);
  return next.value as DelegationStatus;
}
