import { z } from 'zod';

/** A Gregorian calendar date YYYY-MM-DD that exists (2026-02-30 does not). */
const isCalendarDate = (s: string) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s;

/**
 * Staff recording that a refund owed was made (POST /api/payments/:id/refund): the reference the bank or the payment
 * portal gave the refund, and the day it was made (a Riyadh date). Messages are keys of locales/<lang>/validation.json,
 * so the dialog and the server say the same words. The day's bounds (not after today, not before the payment) need the
 * clock and the payment: the server checks them (server/modules/payments/record-refund.ts).
 */
export const ZRefundRecord = z.object({
  reference: z
    .string({ error: 'refund.referenceRequired' })
    .trim()
    .min(1, 'refund.referenceRequired')
    .max(64, 'refund.referenceTooLong')
    .regex(/^[A-Za-z0-9][A-Za-z0-9 ._/-]*$/, 'refund.referenceFormat'),
  refundedOn: z
    .string({ error: 'refund.dateRequired' })
    .min(1, 'refund.dateRequired')
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'refund.dateInvalid')
    .refine(isCalendarDate, 'refund.dateInvalid'),
});
export type TRefundRecord = z.infer<typeof ZRefundRecord>;

/** A refund recorded on a payment of a bill, as the bill shows it to its payer and to staff. */
export const ZBillRefund = z.object({ reference: z.string(), refundedOn: z.string(), amount: z.string() });
