import type { EffectName } from './types';

/**
 * Database side effects. Machines stay pure: a transition that needs one carries an XState action with one of these
 * names and the params below; xstate's `transition()` returns it and the engine applies it in the same transaction
 * as the event (workflows/). The action implementations here do nothing on purpose.
 */

/** Payment services of spec 02 section 3 (bill `service`). */
export const PAYMENT_SERVICES = {
  1: 'cbAppointmentRequest',
  2: 'otherShipmentCertificates',
  3: 'poultryShipment',
  4: 'meatShipment',
  5: 'cbAppointment',
  6: 'internalFacilityCertificate',
  7: 'externalFacilityCertificate',
  8: 'technicalReviewAndAudit',
} as const;
export type PaymentService = keyof typeof PAYMENT_SERVICES;

export type FeeKind =
  | 'certificateInstallment'
  | 'application'
  | 'auditFees'
  | 'certificate'
  | 'renewal'
  | 'addProducts'
  | 'halalMark'
  | 'shipment';

export type CertificateKind = 'cbDesignation' | 'internal' | 'external' | 'shipment';

export interface EffectParams {
  /** Create the request's current bill (one open bill per request at a time). */
  'effect.createBill': {
    service: PaymentService;
    feeKind: FeeKind;
    /** `yearly` or `full` when the applicant chose a payment option. */
    paymentOption?: 'yearly' | 'full' | null;
    /** True when the bill is part of the month-end bulk invoice (the request waits for the invoice). */
    bulk?: boolean;
  };
  /** Cancel the request's open bill (bill status 4). */
  'effect.cancelBill': Record<string, never>;
  /** Expire the request's open bill (bill status 3). */
  'effect.expireBill': Record<string, never>;
  /** Mark the request's open bill paid (bill status 2) when the payment portal confirms it. */
  'effect.markBillPaid': Record<string, never>;
  /** `whileFactoryCertified`: a shipment's, issued only while the factory's Halal certificate is in force (else it fails, to be retried). */
  'effect.issueCertificate': { certificateKind: CertificateKind; validityMonths?: number; whileFactoryCertified?: boolean };
  'effect.renewCertificate': { certificateKind: CertificateKind; validityMonths?: number };
  /** Add the products of the request to the facility's certificate. */
  'effect.updateCertificateProducts': Record<string, never>;
  /** Add the categories of the request to the certificate. */
  'effect.addCertificateCategories': Record<string, never>;
  'effect.issueHalalMarks': Record<string, never>;
  /** A mark package ended unissued (its certificate expired): the credit it took from earlier packages is given back. */
  'effect.returnMarkCredit': Record<string, never>;
  /** Delete the draft or stopped request (the spec: "deletes the draft"). */
  'effect.deleteDraft': { reason: 'applicant' | 'retention' };
  'effect.grantDelegation': Record<string, never>;
  'effect.revokeDelegation': Record<string, never>;
  /** Month end: the facility's invoice lines of the month become one bulk bill (spec 02 section 9), which this request now awaits. */
  'effect.issueMonthInvoice': Record<string, never>;
}

export const EFFECT_NAMES = [
  'effect.createBill',
  'effect.cancelBill',
  'effect.expireBill',
  'effect.markBillPaid',
  'effect.issueCertificate',
  'effect.renewCertificate',
  'effect.updateCertificateProducts',
  'effect.addCertificateCategories',
  'effect.issueHalalMarks',
  'effect.returnMarkCredit',
  'effect.deleteDraft',
  'effect.grantDelegation',
  'effect.revokeDelegation',
  'effect.issueMonthInvoice',
] as const satisfies readonly EffectName[];

/** A DB effect as the engine reads it from the actions `transition()` returns. */
export type Effect = { [K in EffectName]: { type: K; params: EffectParams[K] } }[EffectName];

export const isEffectName = (type: string): type is EffectName => (EFFECT_NAMES as readonly string[]).includes(type);

/** Picks the DB effects out of the actions returned by xstate's `transition()` / `initialTransition()`. */
export function effectsOf(actions: readonly { type: string; params?: unknown }[]): Effect[] {
  return actions.filter((a) => isEffectName(a.type)).map((a) => ({ type: a.type, params: a.params ?? {} }) as Effect);
}

const noop = () => undefined;
/** The no-op implementations registered in every machine's setup (typed params, no behaviour). */
export const effectActions = {
  'effect.createBill': (_: unknown, _params: EffectParams['effect.createBill']) => noop(),
  'effect.cancelBill': (_: unknown, _params: EffectParams['effect.cancelBill']) => noop(),
  'effect.expireBill': (_: unknown, _params: EffectParams['effect.expireBill']) => noop(),
  'effect.markBillPaid': (_: unknown, _params: EffectParams['effect.markBillPaid']) => noop(),
  'effect.issueCertificate': (_: unknown, _params: EffectParams['effect.issueCertificate']) => noop(),
  'effect.renewCertificate': (_: unknown, _params: EffectParams['effect.renewCertificate']) => noop(),
  'effect.updateCertificateProducts': (_: unknown, _params: EffectParams['effect.updateCertificateProducts']) => noop(),
  'effect.addCertificateCategories': (_: unknown, _params: EffectParams['effect.addCertificateCategories']) => noop(),
  'effect.issueHalalMarks': (_: unknown, _params: EffectParams['effect.issueHalalMarks']) => noop(),
  'effect.returnMarkCredit': (_: unknown, _params: EffectParams['effect.returnMarkCredit']) => noop(),
  'effect.deleteDraft': (_: unknown, _params: EffectParams['effect.deleteDraft']) => noop(),
  'effect.grantDelegation': (_: unknown, _params: EffectParams['effect.grantDelegation']) => noop(),
  'effect.revokeDelegation': (_: unknown, _params: EffectParams['effect.revokeDelegation']) => noop(),
  'effect.issueMonthInvoice': (_: unknown, _params: EffectParams['effect.issueMonthInvoice']) => noop(),
};
