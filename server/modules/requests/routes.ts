import { and, desc, eq, inArray, ne } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { certificates, facilities } from '../../../db/schema';
import type { Db } from '../../../db/client';
import { Permissions } from '../../../machines/permissions';
import { isStaff } from '../../../machines/roles';
import type { Actor } from '../../../machines/actor';
import { finishedOutcome } from '../../../machines/services/outcome';
import { canSee } from '../../../workflows/queries';
import { AppError, AppErrorCode, httpStatusOf } from '../../errors';
import { errorBody } from '../../plugins/errors';
import { ZErrorBody } from '../../schemas';
import { trustedSuccess } from '../../trusted-response';
import { assertMayStart, noticeTexts, previewFees, refusedData, sendRequestEvent, startRequest, usesCertificate, visibleRequest } from './service';
import { importerIssues, type ImporterSection } from './server-checks';
import { serviceOf, validateStep } from '../../../machines/services';
import { crRegistryOf } from '../../adapters/cr-registry';
import { AppError as Err, registerErrorStatus } from '../../errors';
import { formatAmount } from '../../../machines/services/fees';
import { importerProblem, lookUpImporter } from './importer';
import { z } from 'zod';
import { draftDeletion } from './deletion';
import { clocksFor } from './clock';
import { FACILITY_TYPE } from './preconditions';
import { presentActions, presentHistory, presentPeople, presentRequest, presentSummary } from './present';
import { isStillUsable } from './still-usable';
import {
  ZActions,
  ZHistory,
  ZQueuePage,
  ZQueueParams,
  ZQueueQuery,
  ZRequest,
  ZRequestParams,
  ZSendEvent,
  ZStartRequest,
  ZVerify,
} from './schemas';

/**
 * The workflow calls (ours, not the original portal's): start a request, read it, send it an event, read its
 * history and allowed actions, and the reviewer queues. Handlers only translate HTTP to the request service
 * (server/modules/requests/service.ts), which every other door uses too; every lifecycle rule is the machine's.
 */

/**
 * The facilities a request's sections name by public id, by name: the factory an external request is for
 * (`facilityPublicId`), only when the reader may see it (staff, or a member: a draft's data may name any id), and the
 * exporting conformity body of a shipment (`exportingCbPublicId`), only when it is one (conformity bodies are public).
 */
async function facilityNamesOf(db: Db, actor: Actor, data: Record<string, unknown>): Promise<Record<string, { nameAr: string; nameEn: string }>> {
  const staff = isStaff(actor.permissions);
  const seen = new Set<string>();
  const cbs = new Set<string>();
  for (const section of Object.values(data)) {
    if (!section || typeof section !== 'object') continue;
    const { facilityPublicId: factory, exportingCbPublicId: cb } = section as Record<string, unknown>;
    if (typeof factory === 'string' && factory && (staff || canSee(actor, factory))) seen.add(factory);
    if (typeof cb === 'string' && cb) cbs.add(cb);
  }
  const ids = [...new Set([...seen, ...cbs])];
  if (!ids.length) return {};
  const rows = await db
    .select({ publicId: facilities.publicId, type: facilities.type, nameAr: facilities.nameAr, nameEn: facilities.nameEn })
    .from(facilities)
    .where(inArray(facilities.publicId, ids));
  const named = rows.filter((f) => seen.has(f.publicId) || (cbs.has(f.publicId) && f.type === 'ConformityBody'));
  return Object.fromEntries(named.map((f) => [f.publicId, { nameAr: f.nameAr, nameEn: f.nameEn }]));
}

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody };

registerErrorStatus({ UnifiedNumberInvalid: 400, ImporterNotFound: 404 });

const ZMoney = z.object({ amount: z.string(), vat: z.string(), total: z.string() });
const ZFeePreview = z.object({
  /** Spec 02 section 9: how the service shows its fees (CB designation excluding VAT, renewals including it). */
  display: z.enum(['excludingVat', 'includingVat']),
  items: z.array(
    z.object({
      feeKind: z.object({ code: z.string(), label: z.string() }),
      charge: ZMoney.nullable(),
      /** Halal-mark packages: products, tags, the price before credit, the carried-over credit and the balance left after it (SAR). */
      markPackage: z.object({ products: z.number(), tags: z.number(), price: z.string(), credit: z.string(), creditLeft: z.string() }).optional(),
    }),
  ),
});
const ZImporter = z.object({
  unifiedNumber: z.string(),
  crNumber: z.string(),
  name: z.string(),
  nameEn: z.string(),
  expiryDate: z.string(),
  status: z.object({ code: z.string(), label: z.string() }),
  activity: z.string(),
  activityEn: z.string(),
  /** True when the registration may import this shipment (known, active, not expired). */
  verified: z.boolean(),
  /** Why it may not, in the caller's language; null when verified. */
  problem: z.string().nullable(),
});

const requestsModule: FastifyPluginAsyncZod = async (app) => {
  const visible = (id: string, actor: Parameters<typeof visibleRequest>[2]) => visibleRequest(app, id, actor);
  /**
   * A request whose history the caller may read: one they see, and for the Halal center's auditors (the audit log's
   * readers) also a deleted one (a draft or a stopped request, deleted by the applicant or after the retention
   * period), whose row and history are kept for the audit trail; it stays out of every list and of everyone else's reach.
   */
  const historyReadable = async (id: string, actor: Actor) => {
    const view = await app.engine.get(id).catch(() => null);
    if (view?.deleted && isStaff(actor.permissions) && actor.permissions.includes(Permissions.auditLogs.view)) return view;
    return visible(id, actor);
  };
  /** The holidays the working-day clocks skip (setting-management). */
  const holidays = () => app.settingsStore.current().holidays ?? [];

  app.get(
    '/api/requests/start-check',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags: ['requests'],
        summary:
          'Whether the caller may start the service `kind` for the facility (and its certificate) now: the start’s own checks (facility, permissions, subject certificate, preconditions), nothing written. A refused start is an answer, not an error: `refusal` is the error the start would send (its code, message and params); a facility or certificate the caller may not see is 404 as anywhere',
        querystring: ZStartRequest.omit({ data: true }),
        response: { 200: z.object({ canStart: z.boolean(), refusal: ZErrorBody.shape.error.nullable() }), ...errors },
      },
    },
    async (request) => {
      // A start page asks before its button is pressed, so a refusal (a renewal not open, one already open) is read
      // first, in the same words the start would answer with. Only the start's refusals (400, 409) are answers: a page
      // that asked must not show an error for a question, nor the browser log one.
      try {
        await assertMayStart(app, request.actor!, request.query);
        return { canStart: true, refusal: null };
      } catch (e) {
        if (!(e instanceof AppError) || ![400, 409].includes(httpStatusOf(e))) throw e;
        return { canStart: false, refusal: errorBody(request.t, e).error };
      }
    },
  );

  app.post(
    '/api/requests',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags: ['requests'],
        summary: 'Start a request (a draft of the service `kind`) for one of the caller’s facilities, or about one of its certificates',
        body: ZStartRequest,
        response: { 201: ZRequest, ...errors, 409: ZErrorBody },
      },
    },
    async (request, reply) => {
      const view = await startRequest(app, request.actor!, request.sessionUser!.name, request.body);
      return reply.status(201).send(presentRequest(request.t, view, app.services, request.actor!));
    },
  );

  app.get(
    '/api/requests/:id',
    {
      config: { policy: 'authenticated' },
      schema: { tags: ['requests'], params: ZRequestParams, response: { 200: ZRequest, ...errors } },
    },
    async (request) => {
      const view = await visible(request.params.id, request.actor!);
      const presented = presentRequest(request.t, view, app.services, request.actor!);
      // Three independent reads, sent together.
      const [clocks, facilityNames, [holder]] = await Promise.all([
        clocksFor(app.db, [view], holidays()),
        facilityNamesOf(app.db, request.actor!, presented.data),
        app.db
          .select({ type: facilities.type, nameAr: facilities.nameAr, nameEn: facilities.nameEn })
          .from(facilities)
          .where(eq(facilities.publicId, view.facilityId)),
      ]);
      const facility = holder && FACILITY_TYPE[holder.type] ? { type: FACILITY_TYPE[holder.type]!, nameAr: holder.nameAr, nameEn: holder.nameEn } : null;
      return { ...presented, facilityNames, clock: clocks.get(view.id) ?? null, facility };
    },
  );

  app.post(
    '/api/requests/:id/events',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags: ['requests'],
        summary: 'Send an event; 409 when expectedVersion is stale or the request is not in a state that takes it',
        params: ZRequestParams,
        body: ZSendEvent,
        response: { 200: ZRequest, ...errors, 409: ZErrorBody },
      },
      serializerCompiler: trustedSuccess,
      // The answer of a write is one request (~2.7 KB): brotli of it cost ~5 % of the call's CPU (and its
      // decompression the caller's) to save ~1.8 KB (docs/performance-log.md, HTTP fourth pass). Lists stay compressed.
      compress: false,
    },
    async (request) => {
      // The audit row of an event the engine takes is written in the event's transaction (server/admin/plugin.ts).
      const { view, notices } = await sendRequestEvent(app, request.actor!, request.params.id, request.body, (tx) => request.auditInEvent(tx));
      return { ...presentRequest(request.t, view, app.services, request.actor!), notices: noticeTexts(request.t, request.lang, notices), noticeMessages: notices };
    },
  );

  app.get(
    '/api/requests/:id/history',
    {
      config: { policy: 'authenticated' },
      schema: { tags: ['requests'], params: ZRequestParams, response: { 200: ZHistory, ...errors } },
    },
    async (request) => {
      const view = await historyReadable(request.params.id, request.actor!);
      const entries = await app.engine.history(view.id);
      return { items: await presentHistory(app.db, request.t, view.kind, entries, request.actor!) };
    },
  );

  app.get(
    '/api/requests/:id/history/verify',
    {
      config: { policy: Permissions.portals.halalCenter },
      schema: {
        tags: ['requests'],
        summary: 'Recompute the history hash chain; reports the first row that does not match',
        params: ZRequestParams,
        response: { 200: ZVerify, ...errors },
      },
    },
    async (request) => {
      const view = await app.engine.get(request.params.id);
      if (!view) throw new AppError(AppErrorCode.EntityNotFound);
      return app.engine.verifyHistory(view.id);
    },
  );

  app.get(
    '/api/requests/:id/actions',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags: ['requests'],
        summary: 'The events the caller may send now (the web renders its action bar from them)',
        params: ZRequestParams,
        response: { 200: ZActions, ...errors },
      },
    },
    async (request) => {
      const view = await visible(request.params.id, request.actor!);
      const actions = await app.engine.allowedActions(view.id, request.actor!);
      // The issue step (and accepting a change that bills the certificate) is not offered while the certificate may not
      // be used (the event is refused then: still-usable.ts).
      const uses = (type: string) => usesCertificate(view.kind, type, app.services);
      const using = actions.find((a) => uses(a.type));
      const usable = !using || (await isStillUsable(app, view, new Date(), using.type));
      return presentActions(request.t, view.version, usable ? actions : actions.filter((a) => !uses(a.type)));
    },
  );

  app.get(
    '/api/requests/:id/deletion',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags: ['requests'],
        summary: 'When a draft (or stopped request) is deleted automatically, if it is waiting for that',
        params: ZRequestParams,
        response: { 200: z.object({ dueAt: z.string().nullable(), daysLeft: z.number().int().nullable() }), ...errors },
      },
    },
    async (request) => {
      const view = await visible(request.params.id, request.actor!);
      return draftDeletion(app.db, view.id);
    },
  );

  app.get(
    '/api/requests/:id/people',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags: ['requests'],
        summary: 'Names of the people the request names in its case (assignee, audit team leader and auditors), by user id',
        params: ZRequestParams,
        response: { 200: z.record(z.string(), z.string()), ...errors },
      },
    },
    async (request) => presentPeople(app.db, await visible(request.params.id, request.actor!), request.actor!),
  );

  app.get(
    '/api/requests/:id/fees',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags: ['requests'],
        summary: 'The bills the request would create, each with amount, VAT and total, by the fee rules its bills are created with',
        params: ZRequestParams,
        response: { 200: ZFeePreview, ...errors },
      },
    },
    async (request) => {
      const preview = await previewFees(app, request.actor!, request.params.id);
      return {
        display: preview.display,
        items: preview.items.map((i) => ({
          feeKind: { code: i.feeKind, label: request.t(`payments:feeKind.${i.feeKind}`) },
          charge: i.charge ? { amount: formatAmount(i.charge.amount), vat: formatAmount(i.charge.vat), total: formatAmount(i.charge.total) } : null,
          ...(i.markPackage
            ? {
                markPackage: {
                  products: i.markPackage.products,
                  tags: i.markPackage.tags,
                  price: formatAmount(i.markPackage.price),
                  credit: formatAmount(i.markPackage.credit),
                  creditLeft: formatAmount(i.markPackage.creditLeft),
                },
              }
            : {}),
        })),
      };
    },
  );

  app.get(
    '/api/requests/:id/certificate',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags: ['requests'],
        summary: 'The certificate a finished request issued, renewed or changed (404 until then): its own, else the certificate it was about',
        params: ZRequestParams,
        response: { 200: z.object({ id: z.string(), number: z.string() }), ...errors },
      },
    },
    async (request) => {
      const view = await visible(request.params.id, request.actor!);
      // Only a request whose finished end issued or changed a certificate names one (the request answer's outcome).
      const outcome = finishedOutcome(view, app.services);
      if (outcome !== 'certificate-issued' && outcome !== 'certificate-changed') throw new AppError(AppErrorCode.EntityNotFound);
      const [own] = await app.db
        .select({ id: certificates.id, number: certificates.number })
        .from(certificates)
        .where(and(eq(certificates.requestId, view.id), ne(certificates.kind, 'halalMark')))
        .orderBy(desc(certificates.issuedAt))
        .limit(1);
      if (own) return own;
      // A request that changed its subject in place (added categories or products) keeps the certificate it was about,
      // once it reached its issued end (a rejected or deleted request changed nothing: no outcome above).
      const subjectId = (view.context.subject as { certificateId?: string | null } | undefined)?.certificateId;
      if (!subjectId) throw new AppError(AppErrorCode.EntityNotFound);
      const [subject] = await app.db.select({ id: certificates.id, number: certificates.number }).from(certificates).where(eq(certificates.id, subjectId));
      if (!subject) throw new AppError(AppErrorCode.EntityNotFound);
      return subject;
    },
  );

  app.get(
    '/api/requests/:id/marks',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags: ['requests'],
        summary: 'The Halal marks a finished Halal-mark request issued (one per product), by number; empty for any other request',
        params: ZRequestParams,
        response: { 200: z.object({ items: z.array(z.object({ id: z.string(), number: z.string() })) }), ...errors },
      },
    },
    async (request) => {
      const view = await visible(request.params.id, request.actor!);
      if (finishedOutcome(view, app.services) !== 'marks') return { items: [] };
      const items = await app.db
        .select({ id: certificates.id, number: certificates.number })
        .from(certificates)
        .where(and(eq(certificates.requestId, view.id), eq(certificates.kind, 'halalMark')))
        .orderBy(certificates.number);
      return { items };
    },
  );

  app.get(
    '/api/shipment-requests/importer/:unifiedNumber',
    {
      config: { policy: [Permissions.shipment.default, Permissions.shipment.submit] },
      schema: {
        tags: ['requests'],
        summary: 'The shipment wizard’s check button: what the commercial registry holds for an importer’s unified number (70X XXX XXXX)',
        params: z.object({ unifiedNumber: z.string().min(1).max(20) }),
        response: { 200: ZImporter, ...errors, 502: ZErrorBody },
      },
    },
    async (request) => {
      const found = await lookUpImporter(crRegistryOf(app), request.params.unifiedNumber);
      if (!found) throw new Err('ImporterNotFound', { unifiedNumber: request.params.unifiedNumber });
      const problem = importerProblem(found, new Date());
      return {
        unifiedNumber: found.unifiedNumber,
        crNumber: found.crNumber,
        name: found.nameAr,
        nameEn: found.nameEn,
        expiryDate: found.expiryDate,
        status: { code: found.status, label: request.t(`facilities:crStatus.${found.status}`) },
        activity: found.activity,
        activityEn: found.activityEn,
        verified: problem === null,
        problem: problem ? request.t(`validation:${problem}`, { name: found.nameAr, expiryDate: found.expiryDate }) : null,
      };
    },
  );

  app.get(
    '/api/mark-packages',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags: ['requests'],
        summary: 'The Halal-mark package limits (administrator settings) the package step shows and checks with the rule SUBMIT runs',
        response: { 200: z.object({ minTags: z.number(), maxTags: z.number(), step: z.number() }), ...errors },
      },
    },
    async () => {
      const { minTags, maxTags, step } = app.settings.current().markPackages;
      return { minTags, maxTags, step };
    },
  );

  app.post(
    '/api/shipment-requests/importer/check',
    {
      config: { policy: [Permissions.shipment.default, Permissions.shipment.submit] },
      schema: {
        tags: ['requests'],
        summary: 'The shipment wizard’s importer step: the importer as the form holds it, checked as SUBMIT checks it (400 names each field the registry contradicts)',
        body: z.record(z.string(), z.unknown()),
        response: { 200: z.object({ verified: z.literal(true) }), ...errors, 502: ZErrorBody },
      },
    },
    async (request) => {
      const shipment = serviceOf('shipment', app.services)!;
      const invalidForm = validateStep(shipment, 'importer', { importer: request.body });
      if (invalidForm.length) throw refusedData(invalidForm);
      const importer = shipment.sections.importer!.complete.parse(request.body) as ImporterSection;
      const issues = await importerIssues(crRegistryOf(app), importer, new Date());
      if (issues.length) throw refusedData(issues);
      return { verified: true as const };
    },
  );

  app.get(
    '/api/queues/:queue',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags: ['requests'],
        summary: 'A queue tab (waiting, mine, finished) with the staff filters and paging',
        params: ZQueueParams,
        querystring: ZQueueQuery,
        response: { 200: ZQueuePage, ...errors },
      },
    },
    async (request) => {
      const q = request.query;
      // Every door keeps facilities apart: outside the Halal center, one facility's list is for its members only.
      if (q.facilityId && !canSee(request.actor!, q.facilityId)) throw new AppError(AppErrorCode.NotAuthorized);
      const page = await app.engine.list({ ...q, queue: request.params.queue, viewer: request.actor! });
      const clocks = await clocksFor(app.db, page.items, holidays());
      return { ...page, items: page.items.map((v) => ({ ...presentSummary(request.t, v), clock: clocks.get(v.id) ?? null })) };
    },
  );
};

export default requestsModule;
