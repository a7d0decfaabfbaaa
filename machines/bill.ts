import type { MachineDefinition } from './definition';
import { baseContext, entitySetup } from './entity-setup';
import { may } from './guards';
import type { BaseContext } from './types';

/** Bill statuses (spec 02 section 4). */
export const BILL_CODES = { awaitingPayment: 1, paid: 2, expired: 3, cancelled: 4 } as const;

const machine = entitySetup<BaseContext>().createMachine({
  id: 'bill',
  context: ({ input }) => baseContext(input),
  initial: 'awaitingPayment',
  states: {
    awaitingPayment: {
      tags: ['payment'],
      meta: {
        status: BILL_CODES.awaitingPayment,
        deadline: { after: 'paymentWindow', event: 'PAYMENT_EXPIRED' },
        description: 'Issued, awaiting payment through the government payment portal.',
      },
      on: {
        PAYMENT_CONFIRMED: { guard: may({ relation: 'system' }), target: 'paid' },
        PAYMENT_EXPIRED: { guard: may({ relation: 'system' }), target: 'expired' },
        CANCEL: { guard: may({ relation: 'system' }), target: 'cancelled' },
      },
    },
    paid: { type: 'final', tags: ['final'], meta: { status: BILL_CODES.paid, description: 'Paid.' } },
    expired: {
      type: 'final',
      tags: ['final'],
      meta: { status: BILL_CODES.expired, description: 'Expired due to late payment.' },
    },
    cancelled: { type: 'final', tags: ['final'], meta: { status: BILL_CODES.cancelled, description: 'Cancelled.' } },
  },
});

export const billV1: MachineDefinition = {
  kind: 'bill',
  version: 1,
  title: 'Bill (invoice)',
  catalogue: 'Bill (1 to 4)',
  machine,
  readings: [
    'Every event of a bill comes from the system: the payment portal’s callback (PAYMENT_CONFIRMED), the payment window’s deadline (PAYMENT_EXPIRED, PAYMENT_WINDOW_HOURS) and the cancellation of the request it belongs to (CANCEL: "cancelling a request awaiting payment ... deletes its current invoice"). Paid, expired and cancelled are final.',
    'A request machine does not wait on this machine: its payment step emits effect.createBill / markBillPaid / expireBill / cancelBill, which the engine applies to the bill row in the same transaction, so the two never disagree. This machine is for bills that live on their own (bulk invoices, Halal-mark packages) and documents the catalogue.',
  ],
};
