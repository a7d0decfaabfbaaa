import { z } from 'zod';
import type { EventType, MachineKind } from './types';
import { sectionNamesOf } from './services';
import { hasVisibleText } from './visible-text';

/**
 * Event payload schemas (zod). Messages are i18next keys in locales/<lang>/machines.json (`validation.*`), so the
 * server and the web show the same bilingual text. The machines read only what these schemas admit.
 */
export const EventMessage = {
  required: 'machines:validation.required',
  invalid: 'machines:validation.invalid',
  unknownField: 'machines:validation.unknownField',
  unknownEvent: 'machines:validation.unknownEvent',
  reasonRequired: 'machines:validation.reasonRequired',
  noteRequired: 'machines:validation.noteRequired',
  textTooLong: 'machines:validation.textTooLong',
  agreementRequired: 'machines:validation.agreementRequired',
  confirmationRequired: 'machines:validation.confirmationRequired',
  acknowledgmentRequired: 'machines:validation.acknowledgmentRequired',
  assigneeRequired: 'machines:validation.assigneeRequired',
  sectionUnknown: 'machines:validation.sectionUnknown',
  sectionNotReturned: 'machines:validation.sectionNotReturned',
  sectionsDuplicate: 'machines:validation.sectionsDuplicate',
  dataRequired: 'machines:validation.dataRequired',
  invalidDate: 'machines:validation.invalidDate',
  hourRange: 'machines:validation.hourRange',
  minuteRange: 'machines:validation.minuteRange',
  visitDateRequired: 'machines:validation.visitDateRequired',
  dateAlreadyEntered: 'machines:validation.dateAlreadyEntered',
  dateNotInVisit: 'machines:validation.dateNotInVisit',
  allAuditorsIncluded: 'machines:validation.allAuditorsIncluded',
  timelineRequired: 'machines:validation.timelineRequired',
  visitDaysRange: 'machines:validation.visitDaysRange',
  clauseNumberFormat: 'machines:validation.clauseNumberFormat',
  nonConformityRequired: 'machines:validation.nonConformityRequired',
  nonConformitiesNotAllowed: 'machines:validation.nonConformitiesNotAllowed',
  duplicateNonConformity: 'machines:validation.duplicateNonConformity',
  correctiveActionRequired: 'machines:validation.correctiveActionRequired',
  correctiveActionNotOpen: 'machines:validation.correctiveActionNotOpen',
  correctiveActionMissing: 'machines:validation.correctiveActionMissing',
  decisionRequired: 'machines:validation.decisionRequired',
  decisionNotOpen: 'machines:validation.decisionNotOpen',
  decisionMissing: 'machines:validation.decisionMissing',
  reportRequired: 'machines:validation.reportRequired',
  paymentOptionRequired: 'machines:validation.paymentOptionRequired',
  productRequired: 'machines:validation.productRequired',
  categoryRequired: 'machines:validation.categoryRequired',
  discountRange: 'machines:validation.discountRange',
  fullWaiverOnly: 'machines:validation.fullWaiverOnly',
} as const;
const M = EventMessage;

/** Missing value -> "required", value of the wrong kind -> "invalid". */
const requiredOr = (key: string) => (issue: { input?: unknown }) => (issue.input === undefined ? M.required : key);
const TEXT_MAX = 2000;

/** Required free text (a reason, a note): spaces and invisible marks alone are no text, and say so. */
const text = (requiredKey: string) =>
  z
    .string({ error: (i) => (i.input === undefined ? requiredKey : M.invalid) })
    .trim()
    .min(1, { error: requiredKey, abort: true })
    .max(TEXT_MAX, { error: M.textTooLong })
    .refine(hasVisibleText, { error: requiredKey });
const optionalText = z.string({ error: M.invalid }).trim().max(TEXT_MAX, { error: M.textTooLong }).optional();
const id = (requiredKey: string = M.required) =>
  z.string({ error: (i) => (i.input === undefined ? requiredKey : M.invalid) }).trim().min(1, { error: requiredKey });

const isoDate = z
  .string({ error: requiredOr(M.invalidDate) })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: M.invalidDate })
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), {
    error: M.invalidDate,
  });
const isoDateTime = z
  .string({ error: requiredOr(M.invalidDate) })
  .refine((d) => !Number.isNaN(Date.parse(d)), { error: M.invalidDate });
/** An integer from `min` to `max`; every failure gives the one range message. */
const intRange = (min: number, max: number, key: string) =>
  z.number({ error: requiredOr(key) }).int({ error: key }).min(min, { error: key }).max(max, { error: key });
const accepted = (key: string) => z.literal(true, { error: key });

const reason = { reason: text(M.reasonRequired) };
const optionalNote = { note: optionalText };

/** Audit plan (spec 02 sections 3 and 5): visit dates, times (hour 1-12, minute 0-59), auditors and attendees. */
export const ZAuditPlan = z
  .strictObject({
    visitStartDate: isoDate,
    visitDays: intRange(1, 60, M.visitDaysRange),
    language: z.enum(['ar', 'en'], { error: requiredOr(M.invalid) }),
    visitGoal: text(M.required),
    visitCoordinator: z.strictObject({ name: text(M.required), phone: optionalText }).optional(),
    facilityCoordinator: z.strictObject({ name: text(M.required), phone: optionalText }),
    teamLeaderUserId: id(),
    technicalAuditorUserIds: z.array(id()).default([]),
    islamicAffairsExpert: text(M.required),
    visitDates: z.array(isoDate, { error: requiredOr(M.invalid) }).min(1, { error: M.visitDateRequired }),
    timeline: z
      .array(
        z.strictObject({
          date: isoDate,
          hour: intRange(1, 12, M.hourRange),
          minute: intRange(0, 59, M.minuteRange),
          period: z.enum(['am', 'pm'], { error: requiredOr(M.invalid) }),
          activity: text(M.required),
          auditorUserIds: z.array(id()).default([]),
        }),
        { error: requiredOr(M.invalid) },
      )
      .min(1, { error: M.timelineRequired }),
    shifts: z.number({ error: M.invalid }).int({ error: M.invalid }).min(1, { error: M.invalid }).optional(),
    attendees: z
      .array(
        z.strictObject({ firstName: text(M.required), lastName: text(M.required), jobRole: text(M.required), phone: optionalText }),
      )
      .optional(),
    changes: z.array(z.strictObject({ reason: text(M.reasonRequired), description: text(M.required) })).optional(),
    notesForCommittee: optionalText,
  })
  .superRefine((plan, ctx) => {
    const seen = new Set<string>();
    plan.visitDates.forEach((d, i) => {
      if (seen.has(d)) ctx.addIssue({ code: 'custom', path: ['visitDates', i], message: M.dateAlreadyEntered });
      seen.add(d);
    });
    plan.timeline.forEach((item, i) => {
      if (!seen.has(item.date)) ctx.addIssue({ code: 'custom', path: ['timeline', i, 'date'], message: M.dateNotInVisit });
    });
    const scheduled = new Set(plan.timeline.flatMap((t) => t.auditorUserIds));
    [plan.teamLeaderUserId, ...plan.technicalAuditorUserIds].forEach((auditor) => {
      if (!scheduled.has(auditor))
        ctx.addIssue({ code: 'custom', path: ['timeline'], message: M.allAuditorsIncluded, params: { auditor } });
    });
  });
export type TAuditPlan = z.infer<typeof ZAuditPlan>;

/**
 * Fields written for the Halal center only: the auditors' notes for the decision committee (on the plan and on the
 * report), and the plan audit saved but has not sent (`auditPlanDraft`). The applicant reads the plan and the history
 * without them (README, "Internal gaps" and "Choices made where the specification is silent").
 */
export const STAFF_ONLY_FIELDS: readonly string[] = ['notesForCommittee', 'auditPlanDraft'];

/**
 * Events whose payload is the Halal center's own: SAVE_PLAN holds audit's unsent plan. The applicant's history shows
 * that audit saved a plan, not the plan; they read only the plans SUBMIT_PLAN sent them.
 */
export const STAFF_ONLY_PAYLOAD_EVENTS: readonly string[] = ['SAVE_PLAN'];

/** Non-conformity (spec 02 section 3); clause number: digits and . - / only, at most 5 characters. */
export const ZNonConformity = z.strictObject({
  id: id(),
  specification: text(M.required),
  clauseNumber: z
    .string({ error: requiredOr(M.clauseNumberFormat) })
    .trim()
    .regex(/^[0-9./-]{1,5}$/, { error: M.clauseNumberFormat }),
  description: text(M.required),
  observedCase: text(M.required),
  supportingDocumentId: z.string({ error: M.invalid }).optional(),
  impactAnalysis: optionalText,
});

export const ZCorrectiveAction = z.strictObject({
  nonConformityId: id(),
  description: text(M.correctiveActionRequired),
  implementationDate: isoDate,
  completionDate: isoDate.optional(),
  documentId: z.string({ error: M.invalid }).optional(),
  customerSignatureFileId: z.string({ error: M.invalid }).optional(),
});

const uniqueBy = <T>(items: readonly T[], key: (t: T) => string) => new Set(items.map(key)).size === items.length;

export const ZReturnPayload = z.strictObject({
  ...reason,
  /** Sections to return; empty or absent returns the whole request. */
  sections: z.array(z.string({ error: M.invalid }), { error: M.invalid }).default([]),
});
export const ZEditPayload = z.strictObject({
  data: z
    .record(z.string(), z.unknown(), { error: requiredOr(M.invalid) })
    .refine((d) => Object.keys(d).length > 0, { error: M.dataRequired }),
});

export const ZAuditResultPayload = z
  .strictObject({
    compliant: z.boolean({ error: requiredOr(M.invalid) }),
    nonConformities: z.array(ZNonConformity).default([]),
    ...optionalNote,
  })
  .superRefine((p, ctx) => {
    if (!p.compliant && p.nonConformities.length === 0)
      ctx.addIssue({ code: 'custom', path: ['nonConformities'], message: M.nonConformityRequired });
    if (p.compliant && p.nonConformities.length > 0)
      ctx.addIssue({ code: 'custom', path: ['nonConformities'], message: M.nonConformitiesNotAllowed });
    if (!uniqueBy(p.nonConformities, (n) => n.id))
      ctx.addIssue({ code: 'custom', path: ['nonConformities'], message: M.duplicateNonConformity });
  });

export const ZCorrectiveActionDecisionsPayload = z
  .strictObject({
    decisions: z
      .array(
        z.strictObject({
          nonConformityId: id(),
          accepted: z.boolean({ error: requiredOr(M.invalid) }),
          reason: optionalText,
        }),
        { error: requiredOr(M.invalid) },
      )
      .min(1, { error: M.decisionRequired }),
  })
  .superRefine((p, ctx) => {
    // Spec 02 section 5: a reason is required for corrective action rejection.
    p.decisions.forEach((d, i) => {
      if (!d.accepted && !d.reason)
        ctx.addIssue({ code: 'custom', path: ['decisions', i, 'reason'], message: M.reasonRequired });
    });
    if (!uniqueBy(p.decisions, (d) => d.nonConformityId))
      ctx.addIssue({ code: 'custom', path: ['decisions'], message: M.duplicateNonConformity });
  });

const empty = z.strictObject({});

/** Every event's default payload schema and whether it needs a written reason (or note). */
export const EVENT_DEFINITIONS: Record<EventType, { schema: z.ZodType; reasonField?: 'reason' | 'note' }> = {
  EDIT: { schema: ZEditPayload },
  SUBMIT: { schema: z.strictObject({ agreementAccepted: accepted(M.agreementRequired) }) },
  RESUBMIT: { schema: z.strictObject(optionalNote) },
  DELETE: { schema: z.strictObject({ confirmed: accepted(M.confirmationRequired) }) },
  CANCEL: { schema: z.strictObject({ reason: optionalText }) },
  DRAFT_EXPIRED: { schema: empty },
  ASSIGN_TO_ME: { schema: empty },
  ASSIGN_TO_EMPLOYEE: { schema: z.strictObject({ assigneeUserId: id(M.assigneeRequired) }) },
  CANCEL_ASSIGNMENT: { schema: z.strictObject(optionalNote) },
  ADD_NOTE: { schema: z.strictObject({ note: text(M.noteRequired) }), reasonField: 'note' },
  ACCEPT: { schema: z.strictObject(optionalNote) },
  RETURN: { schema: ZReturnPayload, reasonField: 'reason' },
  RETURN_TO_REGISTRATION: { schema: z.strictObject(reason), reasonField: 'reason' },
  SAVE_PLAN: { schema: z.strictObject({ plan: ZAuditPlan }) },
  SUBMIT_PLAN: { schema: z.strictObject({ plan: ZAuditPlan }) },
  ACCEPT_PLAN: { schema: z.strictObject(optionalNote) },
  RETURN_PLAN: { schema: z.strictObject(reason), reasonField: 'reason' },
  START_INSPECTION: { schema: z.strictObject(optionalNote) },
  SUBMIT_AUDIT_RESULT: { schema: ZAuditResultPayload },
  SUBMIT_CORRECTIVE_ACTIONS: {
    schema: z.strictObject({
      actions: z.array(ZCorrectiveAction, { error: requiredOr(M.invalid) }).min(1, { error: M.correctiveActionRequired }),
    }),
  },
  DECIDE_CORRECTIVE_ACTIONS: { schema: ZCorrectiveActionDecisionsPayload },
  SUBMIT_REPORT: { schema: z.strictObject({ summary: text(M.reportRequired), notesForCommittee: optionalText }) },
  APPROVE: { schema: z.strictObject(reason), reasonField: 'reason' },
  RETURN_TO_AUDIT: { schema: z.strictObject(reason), reasonField: 'reason' },
  REJECT: { schema: z.strictObject(reason), reasonField: 'reason' },
  CHOOSE_PAYMENT_OPTION: {
    schema: z.strictObject({ option: z.enum(['yearly', 'full'], { error: M.paymentOptionRequired }) }),
  },
  INVOICE_ISSUED: { schema: z.strictObject({ invoiceNumber: z.string({ error: M.invalid }).optional() }) },
  PAYMENT_CONFIRMED: { schema: z.strictObject({ paymentReference: z.string({ error: M.invalid }).optional() }) },
  PAYMENT_EXPIRED: { schema: empty },
  ISSUE_CERTIFICATE: { schema: z.strictObject(optionalNote) },
  ADD_PRODUCTS: {
    schema: z.strictObject({
      products: z
        .array(z.record(z.string(), z.unknown()), { error: requiredOr(M.invalid) })
        .min(1, { error: M.productRequired }),
    }),
  },
  ADD_CATEGORIES: {
    schema: z.strictObject({
      categories: z.array(id(), { error: requiredOr(M.invalid) }).min(1, { error: M.categoryRequired }),
    }),
  },
  EXPIRING_SOON: { schema: empty },
  CERTIFICATE_EXPIRED: { schema: empty },
  RENEW: {
    schema: z.strictObject({
      expiresAt: isoDateTime,
      nextInstallmentAt: isoDateTime.nullable().optional(),
      installmentsLeft: z.number({ error: M.invalid }).int({ error: M.invalid }).min(0, { error: M.invalid }).max(10, { error: M.invalid }).optional(),
    }),
  },
  SUSPEND: { schema: z.strictObject(reason), reasonField: 'reason' },
  REINSTATE: { schema: z.strictObject(reason), reasonField: 'reason' },
  VALIDITY_STARTED: { schema: empty },
  MARK_EXPIRED: { schema: empty },
  /** Sent by the system once the OTP service matched the delegate's code (the OTP service enforces its limits). */
  OTP_VERIFIED: { schema: empty },
  /** The delegation's acknowledgment; `delegateUserId` is the account the delegation service found or created. */
  ACKNOWLEDGE: { schema: z.strictObject({ acknowledged: accepted(M.acknowledgmentRequired), delegateUserId: id() }) },
  DECLINE: { schema: z.strictObject({ reason: optionalText }) },
  REVOKE: { schema: z.strictObject({ reason: optionalText }) },
  GRANT_DISCOUNT: {
    schema: z.strictObject({ percent: intRange(1, 100, M.discountRange), ...reason }),
    reasonField: 'reason',
  },
  INSTALLMENT_DUE: { schema: empty },
};

/** The schema of an event for a kind: EDIT and RETURN only admit the kind's sections. */
/**
 * Where one lifecycle asks more of an event than the default: cancelling a Halal mark ends its validity for the
 * holder and for whoever scans it, so the reason is required and kept in its history (issue 14 item 3).
 */
const KIND_EVENT_DEFINITIONS: Partial<Record<MachineKind, Partial<Record<EventType, (typeof EVENT_DEFINITIONS)[EventType]>>>> = {
  halalMark: { CANCEL: { schema: z.strictObject(reason), reasonField: 'reason' } },
};

/** The payload schema and reason field of `type` for `kind` (its own definition, else the default). */
export function eventDefinitionOf(kind: MachineKind, type: EventType): (typeof EVENT_DEFINITIONS)[EventType] {
  return KIND_EVENT_DEFINITIONS[kind]?.[type] ?? EVENT_DEFINITIONS[type];
}

export function schemaFor(kind: MachineKind, type: EventType): z.ZodType {
  const sections = sectionNamesOf(kind);
  if (type === 'EDIT') {
    return ZEditPayload.superRefine((p, ctx) => {
      for (const key of Object.keys(p.data))
        if (!sections.includes(key)) ctx.addIssue({ code: 'custom', path: ['data', key], message: M.sectionUnknown });
    });
  }
  if (type === 'RETURN') {
    return ZReturnPayload.superRefine((p, ctx) => {
      p.sections.forEach((s, i) => {
        if (!sections.includes(s)) ctx.addIssue({ code: 'custom', path: ['sections', i], message: M.sectionUnknown });
      });
      if (new Set(p.sections).size !== p.sections.length)
        ctx.addIssue({ code: 'custom', path: ['sections'], message: M.sectionsDuplicate });
    });
  }
  return eventDefinitionOf(kind, type).schema;
}
