import type { FeeKind, PaymentService } from '../effects';
import { may } from '../guards';
import { Permissions as P } from '../permissions';
import type { RequestContext } from '../types';
import type { RequestStates, RequestTransitions } from '../request-setup';
import { stoppedState, type ApplicantPolicies, type Branch } from './common';

export interface PaymentStepOptions {
  /** State names and status codes. */
  pending: { name: string; code: number };
  /** `stopped`: the request stops (deleted after retention); otherwise the state is a plain resting state. */
  expired: { name: string; code: number; stopped: boolean; on?: RequestStates[string]['on'] };
  /**
   * Optional wait for the month-end bulk invoice before the bill can be paid (external set A: 128). While waiting
   * the charge is an invoice line, not a payable bill, so no payment can arrive that the request would not take.
   */
  invoiceWait?: { name: string; code: number };
  service: PaymentService | ((context: RequestContext) => PaymentService);
  feeKind: FeeKind;
  /** Where a confirmed payment leads, and what it does there. */
  paid: Branch;
  /**
   * Where cancelling leads. `toDraft`: a new request goes back to draft, which spec 02 section 4 allows only while
   * nothing has been paid ("after payment ... a request cannot be edited or cancelled"); `withdraw`: a change asked
   * of an issued certificate is withdrawn and the request returns to the certificate.
   */
  cancel: { target: string; actions?: Branch['actions']; kind: 'toDraft' | 'withdraw' };
  applicant: ApplicantPolicies;
  /** Give each state an id equal to its name (when targeted from elsewhere in the machine). */
  ids?: boolean;
}

/**
 * The payment step: entering it creates the bill; the payment portal's callback (PAYMENT_CONFIRMED) moves on;
 * the payment window's deadline (PAYMENT_EXPIRED) expires the bill and the request; the applicant may CANCEL, which
 * cancels the bill and goes back (spec: "cancelling a request awaiting payment moves it back to draft"); staff may
 * waive the fee (GRANT_DISCOUNT 100 %, reason required), which cancels the bill and goes on as if it were paid.
 * A 100% discount granted earlier never enters it: see enterPayment.
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
  const cancelBill = { type: 'effect.cancelBill' as const, params: {} };
  const cancel = {
    guard: may({ permission: o.applicant.request, relation: 'applicant', ...(o.cancel.kind === 'toDraft' ? { when: 'nothingPaid' as const } : {}) }),
    target: o.cancel.target,
    actions: [cancelBill, ...[o.cancel.actions ?? []].flat()],
  };
  const waive: RequestTransitions = {
    GRANT_DISCOUNT: {
      guard: may({ permission: P.payments.grantDiscount, when: 'grantsFullDiscount' }),
      target: o.paid.target,
      actions: ['grantDiscount', cancelBill, ...[o.paid.actions ?? []].flat()],
    },
  };
  const states: RequestStates = {
    [o.pending.name]: {
      tags: ['payment'],
      ...(o.invoiceWait ? {} : { entry: [createBill] }),
      meta: {
        status: o.pending.code,
        deadline: { after: 'paymentWindow', event: 'PAYMENT_EXPIRED' },
        description: o.invoiceWait ? 'The month-end bulk invoice is issued: awaiting its payment.' : `Awaiting payment of the ${o.feeKind} bill.`,
      },
      on: {
        PAYMENT_CONFIRMED: {
          guard: may({ relation: 'system' }),
          target: o.paid.target,
          actions: [{ type: 'effect.markBillPaid' as const, params: {} }, 'countPaidFee', ...[o.paid.actions ?? []].flat()],
        },
        PAYMENT_EXPIRED: {
          guard: may({ relation: 'system' }),
          target: o.expired.name,
          actions: { type: 'effect.expireBill', params: {} },
        },
        // A bulk invoice pays for other requests too: none of them can withdraw from it once it is issued.
        ...(o.invoiceWait ? {} : { CANCEL: cancel, ...waive }),
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
        description: 'Charged to the month-end bulk invoice, which is issued at the end of the Gregorian month.',
      },
      on: {
        INVOICE_ISSUED: { guard: may({ relation: 'system' }), target: o.pending.name, actions: { type: 'effect.issueMonthInvoice', params: {} } },
        CANCEL: cancel,
        ...waive,
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
