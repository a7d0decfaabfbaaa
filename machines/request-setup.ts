import { assign, setup } from 'xstate';
import { effectActions } from './effects';
import { mayGuard } from './guards';
import type { MachineEvent, MachineInput, Queue, RequestContext, StateMeta } from './types';

/** Builds the context every request machine starts with. */
export function requestContext(input: MachineInput): RequestContext {
  return {
    requestId: input.requestId,
    ownerUserId: input.ownerUserId,
    facilityId: input.facilityId,
    assigneeUserId: null,
    returnedSections: [],
    returnedByAudit: false,
    discountPercent: Math.min(100, Math.max(0, input.discountPercent ?? 0)),
    round: 1,
    paymentOption: null,
    paidFees: 0,
    subject: { certificateId: input.subject?.certificateId ?? null },
    openNonConformities: [],
    auditPlan: null,
    notesCount: 0,
    data: { ...(input.data ?? {}) },
  };
}

const payload = <T>(event: MachineEvent, key: string, fallback: T): T => (event[key] as T | undefined) ?? fallback;

/**
 * The one setup all certification request machines share: the `may` guard, the context updates, and the effect
 * actions. Fragments (machines/fragments/) build state configs against it.
 */
export const requestSetup = setup({
  types: {} as {
    context: RequestContext;
    events: MachineEvent;
    input: MachineInput;
    tags: Queue;
    meta: StateMeta;
  },
  guards: { may: mayGuard },
  actions: {
    ...effectActions,
    mergeData: assign({
      data: ({ context, event }) => ({ ...context.data, ...payload<Record<string, unknown>>(event, 'data', {}) }),
    }),
    assignToActor: assign({ assigneeUserId: ({ event }) => event.actor.userId }),
    assignToEmployee: assign({ assigneeUserId: ({ event }) => payload<string | null>(event, 'assigneeUserId', null) }),
    clearAssignee: assign({ assigneeUserId: null }),
    recordReturnedSections: assign({ returnedSections: ({ event }) => payload<string[]>(event, 'sections', []) }),
    clearReturnedSections: assign({ returnedSections: [] as string[] }),
    markReturnedByAudit: assign({ returnedByAudit: true }),
    clearReturnedByAudit: assign({ returnedByAudit: false }),
    startRound2: assign({ round: 2 as const, openNonConformities: [] as string[] }),
    resetToDraft: assign({
      round: 1 as const,
      assigneeUserId: null,
      returnedSections: [] as string[],
      returnedByAudit: false,
      paymentOption: null,
      openNonConformities: [] as string[],
      auditPlan: null,
    }),
    countPaidFee: assign({ paidFees: ({ context }) => context.paidFees + 1 }),
    grantDiscount: assign({ discountPercent: ({ event }) => Math.min(100, Math.max(0, Number(payload<number>(event, 'percent', 0)))) }),
    countNote: assign({ notesCount: ({ context }) => context.notesCount + 1 }),
    savePlan: assign({ auditPlan: ({ event }) => payload<unknown>(event, 'plan', null) }),
    // Versions that keep the draft apart: a saved plan stays audit's until SUBMIT_PLAN sends it (sendPlan).
    saveDraftPlan: assign({ auditPlanDraft: ({ event }) => payload<unknown>(event, 'plan', null) }),
    sendPlan: assign({ auditPlan: ({ event }) => payload<unknown>(event, 'plan', null), auditPlanDraft: null }),
    clearPlanDraft: assign({ auditPlanDraft: null }),
    openNonConformities: assign({
      openNonConformities: ({ event }) =>
        payload<{ id: string }[]>(event, 'nonConformities', []).map((n) => n.id),
    }),
    keepRejectedNonConformities: assign({
      openNonConformities: ({ event }) =>
        payload<{ nonConformityId: string; accepted: boolean }[]>(event, 'decisions', [])
          .filter((d) => !d.accepted)
          .map((d) => d.nonConformityId),
    }),
    recordRequestedProducts: assign({
      data: ({ context, event }) => ({ ...context.data, requestedProducts: payload<unknown[]>(event, 'products', []) }),
    }),
    recordRequestedCategories: assign({
      data: ({ context, event }) => ({ ...context.data, requestedCategories: payload<unknown[]>(event, 'categories', []) }),
    }),
    choosePaymentOption: assign({
      paymentOption: ({ event }) => payload<'yearly' | 'full' | null>(event, 'option', null),
    }),
  },
});

/** A state config typed against requestSetup (what fragments return). */
export type RequestStateConfig = Parameters<typeof requestSetup.createStateConfig>[0];
export type RequestStates = Record<string, RequestStateConfig>;
export type RequestTransitions = NonNullable<RequestStateConfig['on']>;
