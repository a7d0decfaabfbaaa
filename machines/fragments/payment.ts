import type { FeeKind, PaymentService } from '../effects';
import { may } from '../guards';
import type { RequestContext } from '../types';
import type { RequestStates } from '../request-setup';
import { stoppedState, type ApplicantPolicies, type Branch } from './common';

export interface PaymentStepOptions {
  /** State names and status codes. */
  pending: { name: string; code: number };
  /** `stopped`: the request stops (deleted after retention); otherwise the state is a plain resting state. */
  expired: { name: string; code: number; stopped: boolean; on?: RequestStates[string]['on'] };
  /** Optional wait for the month-end bulk invoice before the bill can be paid (external set A: 128). */
  invoiceWait?: { name: string; code: number };
  service: PaymentService | ((context: RequestContext) => PaymentService);
  feeKind: FeeKind;
  /** Where a confirmed payment leads, and what it does there. */
  paid: Branch;
  /** Where cancelling leads (a new request goes back to draft). */
  cancelTarget: string;
  cancelActions?: Branch['actions'];
  applicant: ApplicantPolicies;
  /** Give each state an id equal to its name (when targeted from elsewhere in the machine). */
  ids?: boolean;
}

/**
 * The payment step: entering it creates the bill; the payment portal's callback (PAYMENT_CONFIRMED) moves on;
 * the payment window's deadline (PAYMENT_EXPIRED) expires the bill and the request; the applicant may CANCEL, which
 * cancels the bill and goes back (spec: "cancelling a request awaiting payment moves it back to draft").
 * A 100% discount never enters it: see enterPayment.
 */
export function paymentStep(o: PaymentStepOptions): RequestStates {
  const createBill = {
    type: 'effect.createBill' as const,
    params: ({ context }: { context: RequestContext }) => ({
      service: typeof o.service === 'function' ? o.service(context) : o.service,
      feeKind: o.feeKind,
      paymentOption: context.paymentOption,
      bulk: o.invoiceWait !== undefined,
    }),
  };
  const cancel = {
    guard: may({ permission: o.applicant.request, relation: 'applicant' }),
    target: o.cancelTarget,
    actions: [{ type: 'effect.cancelBill' as const, params: {} }, ...[o.cancelActions ?? []].flat()],
  };
  const states: RequestStates = {
    [o.pending.name]: {
      tags: ['payment'],
      ...(o.invoiceWait ? {} : { entry: [createBill] }),
      meta: {
        status: o.pending.code,
        deadline: { after: 'paymentWindow', event: 'PAYMENT_EXPIRED' },
        description: `Awaiting payment of the ${o.feeKind} bill.`,
      },
      on: {
        PAYMENT_CONFIRMED: {
          guard: may({ relation: 'system' }),
          target: o.paid.target,
          actions: [{ type: 'effect.markBillPaid' as const, params: {} }, ...[o.paid.actions ?? []].flat()],
        },
        PAYMENT_EXPIRED: {
          guard: may({ relation: 'system' }),
          target: o.expired.name,
          actions: { type: 'effect.expireBill', params: {} },
        },
        CANCEL: cancel,
      },
    },
    [o.expired.name]: o.expired.stopped
      ? stoppedState(o.expired.code, o.applicant, `The ${o.feeKind} bill expired unpaid; the request is stopped.`)
      : {
          tags: ['applicant'],
          meta: { status: o.expired.code, description: `The ${o.feeKind} bill expired unpaid.` },
          ...(o.expired.on ? { on: o.expired.on } : {}),
        },
  };
  if (o.invoiceWait) {
    states[o.invoiceWait.name] = {
      tags: ['payment'],
      entry: [createBill],
      meta: {
        status: o.invoiceWait.code,
        deadline: { after: 'endOfMonth', event: 'INVOICE_ISSUED' },
        description: 'Waiting for the month-end bulk invoice.',
      },
      on: {
        INVOICE_ISSUED: { guard: may({ relation: 'system' }), target: o.pending.name },
        CANCEL: cancel,
      },
    };
  }
  if (o.ids) for (const [name, state] of Object.entries(states)) states[name] = { ...state, id: name };
  return states;
}

/**
 * Branches of an event that leads into a payment step: with a 100% discount straight to `free` (no bill),
 * otherwise into the step (`paymentTarget`).
 */
export function enterPayment(o: { free: Branch; paymentTarget: string; actions?: Branch['actions'] }): Branch[] {
  return [
    { ...o.free, when: 'discountFull', actions: [o.actions ?? [], o.free.actions ?? []].flat() },
    { target: o.paymentTarget, ...(o.actions ? { actions: o.actions } : {}) },
  ];
}
