import type { Actor } from './actor';

/** Every lifecycle the registry knows; also the `kind` column of a request row. */
export const MACHINE_KINDS = [
  'cbDesignation',
  'cbRenewal',
  'cbAddCategories',
  'internalCertificate',
  'internalRenewal',
  'internalAddProducts',
  'internalHalalMark',
  'externalCertificate',
  'externalRenewal',
  'externalAddProducts',
  'shipment',
  'externalHalalMark',
  'bill',
  'certificate',
  'halalMark',
  'delegation',
] as const;
export type MachineKind = (typeof MACHINE_KINDS)[number];

/** The queue a state sits in (its tag): who has to act next. */
export const QUEUES = ['registration', 'audit', 'committee', 'applicant', 'payment', 'final'] as const;
export type Queue = (typeof QUEUES)[number];

/**
 * A deadline a state declares: the engine arms a durable timer on entry and cancels it on exit, and fires `event`
 * with the system actor when it is due. `after` names an entry of DEADLINES (machines/deadlines.ts), which says
 * whether the due time is a configured duration or a date held in the machine's context.
 */
export interface DeadlineDeclaration {
  after: DeadlineName;
  event: EventType;
}

export type DeadlineName =
  | 'paymentWindow'
  | 'draftRetention'
  | 'immediately'
  | 'endOfMonth'
  | 'certificateExpiringSoon'
  | 'certificateExpiry'
  | 'markValidFrom'
  | 'markExpiringSoon'
  | 'markExpiry'
  | 'installmentDue';

/** `meta` of every state node that a snapshot can rest in. */
export interface StateMeta {
  /** Numeric status code from the spec's catalogue of this lifecycle. */
  status?: number;
  /** One deadline, or several (a certificate waits for its expiry and for its next yearly instalment at once). */
  deadline?: DeadlineDeclaration | readonly DeadlineDeclaration[];
  /** One line for the generated docs. */
  description?: string;
}

/** Effects are XState actions with these names; the engine applies them in the transaction of the event. */
export type EffectName =
  | 'effect.createBill'
  | 'effect.cancelBill'
  | 'effect.expireBill'
  | 'effect.markBillPaid'
  | 'effect.issueCertificate'
  | 'effect.renewCertificate'
  | 'effect.updateCertificateProducts'
  | 'effect.addCertificateCategories'
  | 'effect.issueHalalMarks'
  | 'effect.returnMarkCredit'
  | 'effect.deleteDraft'
  | 'effect.grantDelegation'
  | 'effect.revokeDelegation'
  | 'effect.issueMonthInvoice';

/** Every event type any machine accepts (UPPER_SNAKE; also the API's action names). */
export const EVENT_TYPES = [
  'EDIT',
  'SUBMIT',
  'RESUBMIT',
  'DELETE',
  'CANCEL',
  'DRAFT_EXPIRED',
  'ASSIGN_TO_ME',
  'ASSIGN_TO_EMPLOYEE',
  'CANCEL_ASSIGNMENT',
  'ADD_NOTE',
  'ACCEPT',
  'RETURN',
  'RETURN_TO_REGISTRATION',
  'SAVE_PLAN',
  'SUBMIT_PLAN',
  'ACCEPT_PLAN',
  'RETURN_PLAN',
  'START_INSPECTION',
  'SUBMIT_AUDIT_RESULT',
  'SUBMIT_CORRECTIVE_ACTIONS',
  'DECIDE_CORRECTIVE_ACTIONS',
  'SUBMIT_REPORT',
  'APPROVE',
  'RETURN_TO_AUDIT',
  'REJECT',
  'CHOOSE_PAYMENT_OPTION',
  'INVOICE_ISSUED',
  'PAYMENT_CONFIRMED',
  'PAYMENT_EXPIRED',
  'ISSUE_CERTIFICATE',
  'ADD_PRODUCTS',
  'ADD_CATEGORIES',
  'EXPIRING_SOON',
  'CERTIFICATE_EXPIRED',
  'RENEW',
  'SUSPEND',
  'REINSTATE',
  'VALIDITY_STARTED',
  'MARK_EXPIRED',
  'OTP_VERIFIED',
  'ACKNOWLEDGE',
  'DECLINE',
  'REVOKE',
  'GRANT_DISCOUNT',
  'INSTALLMENT_DUE',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * An event as the engine sends it: the type, the acting user, and the payload fields (validated beforehand by the
 * event's zod schema, see machines/events.ts).
 */
export type MachineEvent = { type: EventType; actor: Actor } & Record<string, unknown>;

/** What the engine passes when it starts a machine. */
export interface MachineInput {
  requestId: string;
  ownerUserId: string;
  /** Public id of the facility or conformity body the request belongs to. */
  facilityId: string;
  /** 0-100; 100 passes every payment state without a bill (spec: free of charge submission). */
  discountPercent?: number;
  /** Request data by section (wizard step), or the entity's fields for bills, certificates, marks, delegations. */
  data?: Record<string, unknown>;
  /**
   * The certificate a renewal, a change or a mark request is about (its service's subject); a renewal's input also keeps
   * the certificate's products it was offered (productKeys), read by the renewal's effect, never by the machine.
   */
  subject?: { certificateId: string | null; offeredProducts?: string[] };
}

/** The part of every machine's context that guards read. */
export interface BaseContext {
  requestId: string;
  ownerUserId: string;
  facilityId: string;
  assigneeUserId: string | null;
  /** Only the delegation machine sets it (when the delegation is acknowledged). */
  delegateUserId?: string;
}

/** Context of the certification request machines. */
export interface RequestContext extends BaseContext {
  /** Sections the registration department returned; empty while not returned or when the whole request was. */
  returnedSections: string[];
  /** True while registration holds a request that audit returned to it (audit may take it back with a note). */
  returnedByAudit: boolean;
  discountPercent: number;
  /** 1, or 2 once the decision committee returned the request to audit (selects the after-return codes). */
  round: 1 | 2;
  paymentOption: 'yearly' | 'full' | null;
  /** Fees paid so far: once one is paid the request can no longer be cancelled back to draft (spec 02 section 4 step 8). */
  paidFees: number;
  /** The certificate the request is about (renewals, changes, marks); null for a first certificate. */
  subject: { certificateId: string | null };
  /** Non-conformities awaiting an accepted corrective action. */
  openNonConformities: string[];
  /** The plan last sent to the applicant (SUBMIT_PLAN): what the applicant reads and accepts. */
  auditPlan: unknown;
  /**
   * The plan audit saved but has not sent (SAVE_PLAN, versions that keep drafts apart; staff-only, STAFF_ONLY_FIELDS).
   * Absent on requests of earlier versions, whose SAVE_PLAN wrote `auditPlan` itself.
   */
  auditPlanDraft?: unknown;
  /** Staff notes recorded so far (the notes themselves are in the history). */
  notesCount: number;
  data: Record<string, unknown>;
}
