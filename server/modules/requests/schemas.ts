import { z } from 'zod';
import { QUEUE_TABS } from '../../../workflows/engine';
import { zSearchText } from '../../schemas';

/** Request ids are uuids; anything else is answered 404 by the handlers (not 400: it names no request). */
export const ZRequestParams = z.object({ id: z.string().min(1).max(100) });

export const ZStartRequest = z.object({
  /** Machine kind ('internalCertificate', 'cbDesignation', ...). */
  kind: z.string().min(1).max(60),
  /** Public id of the facility or conformity body the request is for; the caller must be a member of it. */
  facilityId: z.string().min(1).max(100),
  /** The certificate a renewal, a change (products, categories) or a mark request is about. */
  certificateId: z.uuid().optional(),
  /** The request data by section; the machine's events edit it later. */
  data: z.record(z.string(), z.unknown()).optional(),
});
export type TStartRequest = z.infer<typeof ZStartRequest>;

export const ZSendEvent = z.object({
  /** UPPER_SNAKE event type, one of GET /api/requests/:id/actions. */
  type: z.string().regex(/^[A-Z][A-Z0-9_]*$/, 'invalid'),
  /** The version the caller saw; a stale one is refused with 409 (someone else changed the request). */
  expectedVersion: z.number().int().min(1),
  /** The event's fields (reason, note, sections, plan ...), validated by the machine's schema of that event. */
  payload: z.record(z.string(), z.unknown()).optional(),
});
export type TSendEvent = z.infer<typeof ZSendEvent>;

import { ZClock } from './clock';

export const ZStatus = z.object({ code: z.number().int(), label: z.string() });

export const ZRequest = z.object({
  id: z.string(),
  number: z.string(),
  kind: z.string(),
  machineVersion: z.number().int(),
  status: ZStatus,
  queue: z.string().nullable(),
  state: z.string(),
  version: z.number().int(),
  facilityId: z.string(),
  ownerUserId: z.string(),
  assigneeUserId: z.string().nullable(),
  creatorName: z.string(),
  finished: z.boolean(),
  /**
   * What the finished request produced, from its service's declared outcome (machines/services/outcome.ts): a
   * certificate of its own (GET /api/requests/{id}/certificate names it), the certificate it was about changed (the
   * same call names that one), or Halal marks (GET /api/requests/{id}/marks lists them). Null while it is open, when it
   * ended rejected, cancelled, deleted or expired, and for lifecycles that are not services.
   */
  outcome: z.object({ kind: z.enum(['certificate-issued', 'certificate-changed', 'marks']) }).nullable(),
  /** The request data by section. */
  data: z.record(z.string(), z.unknown()),
  /**
   * The rest of the machine context. The fields the screens read are named (the request page, the wizards, the audit
   * and corrective action dialogs); the others pass through as they are.
   */
  context: z
    .object({
      /** Sections the registration department returned (empty while not returned). */
      returnedSections: z.array(z.string()).optional(),
      /** Non-conformities awaiting an accepted corrective action. */
      openNonConformities: z.array(z.string()).optional(),
      /** 1, or 2 once the decision committee returned the request to audit. */
      round: z.number().int().optional(),
      paymentOption: z.enum(['yearly', 'full']).nullable().optional(),
      /** The audit plan last sent to the applicant (SUBMIT_PLAN's plan), when there is one. */
      auditPlan: z.unknown().optional(),
      /**
       * Audit's saved, unsent plan (SAVE_PLAN), for Halal-center staff only; absent for anyone else and on requests of
       * machine versions where a saved plan overwrote `auditPlan`.
       */
      auditPlanDraft: z.unknown().optional(),
    })
    .catchall(z.unknown()),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Messages the person should read after the event (e.g. products excluded because the certificate lists them). */
  notices: z.array(z.string()).optional(),
  /**
   * The same notices as message keys with their parameters, so a screen that keeps them shows them in its reader's
   * language (the names in both languages, run together by the screen).
   */
  noticeMessages: z
    .array(z.object({ key: z.string(), params: z.record(z.string(), z.unknown()).optional(), names: z.record(z.string(), z.array(z.object({ ar: z.string(), en: z.string() }))).optional() }))
    .optional(),
  /** Names of the facilities the data names by public id (a factory chosen from a list), so no screen shows the id. */
  facilityNames: z.record(z.string(), z.object({ nameAr: z.string(), nameEn: z.string() })).optional(),
  /** Working days used against the time limit (issue 15 item 7): certificate and renewal requests only. */
  clock: ZClock.nullable().optional(),
  /** The facility the request is for, by its type (so staff reach its profile view: a CB's or a facility's). */
  facility: z.object({ type: z.enum(['internal', 'external', 'cb']), nameAr: z.string(), nameEn: z.string() }).nullable().optional(),
});
export type TRequest = z.infer<typeof ZRequest>;

export const ZRequestSummary = ZRequest.omit({ data: true, context: true, outcome: true });

export const ZHistoryEntry = z.object({
  seq: z.number().int(),
  event: z.string(),
  actor: z.object({ userId: z.string(), name: z.string(), system: z.boolean() }),
  note: z.string().nullable(),
  payload: z.record(z.string(), z.unknown()),
  from: ZStatus.nullable(),
  to: ZStatus,
  at: z.string(),
  hash: z.string(),
});

export const ZHistory = z.object({ items: z.array(ZHistoryEntry) });

export const ZVerify = z.object({
  ok: z.boolean(),
  rows: z.number().int(),
  firstBrokenSeq: z.number().int().optional(),
  reason: z.enum(['hash', 'prevHash', 'sequence', 'head']).optional(),
});

export const ZActions = z.object({
  version: z.number().int(),
  actions: z.array(
    z.object({
      type: z.string(),
      label: z.string(),
      permission: z.string().optional(),
      requiresReason: z.boolean(),
      /** GRANT_DISCOUNT while a bill awaits payment: only 100 % (a full waiver) is taken. */
      fullWaiverOnly: z.boolean().optional(),
    }),
  ),
});

export const QUEUE_NAMES = ['registration', 'audit', 'committee', 'applicant', 'payment', 'final', 'all'] as const;

export const ZQueueParams = z.object({ queue: z.enum(QUEUE_NAMES) });

const optionalText = zSearchText(200);

export const ZQueueQuery = z.object({
  tab: z.enum(QUEUE_TABS).default('waiting'),
  pageNumber: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  kind: optionalText,
  /** One facility's (or CB's) requests; a caller outside the Halal center must belong to it. */
  facilityId: optionalText,
  creatorName: optionalText,
  brandName: optionalText,
  requestNumber: optionalText,
  any: optionalText,
});

export const ZQueuePage = z.object({
  items: z.array(ZRequestSummary),
  /** Exact up to 1,000 rows past the page's first one; beyond, totalCapped says the list has more than totalCount. */
  totalCount: z.number().int(),
  totalCapped: z.boolean().optional(),
  pageNumber: z.number().int(),
  pageSize: z.number().int(),
});
