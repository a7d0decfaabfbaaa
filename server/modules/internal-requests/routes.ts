import { and, desc, eq, isNull } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { certificates, workflowTimers } from '../../../db/schema';
import { createInternalRequestForm, formIssuesOf, type FormIssue } from '../../../machines/forms';
import { EXPIRING_SOON_DAYS } from '../../../machines/deadlines';
import { Permissions } from '../../../machines/permissions';
import type { RequestView } from '../../../workflows/engine';
import { canSee } from '../../../workflows/queries';
import type { Actor } from '../../../machines/actor';
import { AppError, AppErrorCode, registerErrorStatus } from '../../errors';
import { errorResponses } from '../../schemas';
import { presentRequest } from '../requests/present';
import { ZRequest } from '../requests/schemas';
import { formToSections, sectionsToForm } from './form-sections';

/**
 * The internal certificate wizard's calls: save a draft step (validated with the same zod schemas as the web, then
 * sent as EDIT), submit or resubmit (the whole form validated first, then SUBMIT / RESUBMIT), the draft's deletion
 * date, and the certificate a request produced. Lifecycle rules stay the machine's: these only validate and map.
 */
const KINDS = new Set(['internalCertificate', 'internalRenewal']);

/** A renewal asked for while the certificate still has more than EXPIRING_SOON_DAYS to run. */
export const RenewalNotOpen = 'RenewalNotOpen';
registerErrorStatus({ [RenewalNotOpen]: 400 });
const DAY = 86_400_000;
const params = z.object({ id: z.uuid() });

const invalid = (issues: readonly FormIssue[]) =>
  new AppError(
    AppErrorCode.ValidationFailed,
    {},
    issues.map((i) => ({ field: i.path, message: i.message })),
  );

const internalRequestsModule: FastifyPluginAsyncZod = async (app) => {
  const form = createInternalRequestForm({ hsRules: app.config.HALAL_HS_PREFIXES });

  async function load(id: string, actor: Actor): Promise<RequestView> {
    const view = await app.engine.get(id);
    if (!view || view.deleted || !KINDS.has(view.kind) || !canSee(actor, view.facilityId)) throw new AppError(AppErrorCode.EntityNotFound);
    return view;
  }

  app.put(
    '/api/internal-requests/:id/draft',
    {
      config: { policy: Permissions.internalRequest.request },
      schema: {
        tags: ['internal-requests'],
        summary: 'Save wizard steps of a draft or returned request (each filled field validated), as the EDIT event',
        params,
        body: z.object({ expectedVersion: z.number().int().min(1), form: z.record(z.string(), z.unknown()) }),
        response: { 200: ZRequest, ...errorResponses },
      },
    },
    async (request) => {
      const view = await load(request.params.id, request.actor!);
      const { agreement: _agreement, ...steps } = request.body.form;
      const parsed = form.ZInternalRequestDraft.safeParse(steps);
      if (!parsed.success) throw invalid(formIssuesOf(parsed.error.issues));
      const data = formToSections(steps);
      if (Object.keys(data).length === 0) throw new AppError(AppErrorCode.BadRequest);
      const next = await app.engine.send(view.id, { type: 'EDIT', data }, request.actor!, request.body.expectedVersion);
      return presentRequest(request.t, next);
    },
  );

  app.post(
    '/api/internal-requests/:id/submit',
    {
      config: { policy: Permissions.internalRequest.submit },
      schema: {
        tags: ['internal-requests'],
        summary: 'Submit a draft (SUBMIT) or resubmit a returned request (RESUBMIT) after validating the whole form',
        params,
        body: z.object({ expectedVersion: z.number().int().min(1), agreementAccepted: z.boolean() }),
        response: { 200: ZRequest, ...errorResponses },
      },
    },
    async (request) => {
      const view = await load(request.params.id, request.actor!);
      const data = (view.context.data ?? {}) as Record<string, unknown>;
      const checked = form.validateSubmit({ ...sectionsToForm(data), agreement: { accepted: request.body.agreementAccepted } });
      if (!checked.success) throw invalid(checked.issues);
      const allowed = await app.engine.allowedActions(view.id, request.actor!);
      const type = allowed.some((a) => a.type === 'RESUBMIT') ? 'RESUBMIT' : 'SUBMIT';
      const event = type === 'SUBMIT' ? { type, agreementAccepted: true } : { type };
      const next = await app.engine.send(view.id, event, request.actor!, request.body.expectedVersion);
      return presentRequest(request.t, next);
    },
  );

  app.get(
    '/api/internal-requests/:id/deletion',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags: ['internal-requests'],
        summary: 'When a draft (or stopped request) is deleted automatically, if it is waiting for that',
        params,
        response: { 200: z.object({ dueAt: z.string().nullable(), daysLeft: z.number().int().nullable() }), ...errorResponses },
      },
    },
    async (request) => {
      const view = await load(request.params.id, request.actor!);
      const [timer] = await app.db
        .select({ dueAt: workflowTimers.dueAt })
        .from(workflowTimers)
        .where(and(eq(workflowTimers.requestId, view.id), eq(workflowTimers.event, 'DRAFT_EXPIRED'), isNull(workflowTimers.firedAt), isNull(workflowTimers.cancelledAt)))
        .orderBy(desc(workflowTimers.dueAt))
        .limit(1);
      if (!timer) return { dueAt: null, daysLeft: null };
      const daysLeft = Math.max(0, Math.ceil((timer.dueAt.getTime() - Date.now()) / 86_400_000));
      return { dueAt: timer.dueAt.toISOString(), daysLeft };
    },
  );

  app.get(
    '/api/internal-requests/renewals/:certificateId',
    {
      config: { policy: Permissions.internalRequest.request },
      schema: {
        tags: ['internal-requests'],
        summary: 'Whether a certificate of the caller’s facility may be renewed now (under 60 days left, or expired)',
        params: z.object({ certificateId: z.uuid() }),
        response: { 200: z.object({ number: z.string(), expiresAt: z.string(), daysLeft: z.number().int(), open: z.boolean() }), ...errorResponses },
      },
    },
    async (request) => renewable(request.params.certificateId, request.actor!),
  );

  app.post(
    '/api/internal-requests/renewals',
    {
      config: { policy: Permissions.internalRequest.request },
      schema: {
        tags: ['internal-requests'],
        summary: 'Start the renewal (type 202) of a certificate, as a draft holding the certified request’s data',
        body: z.object({ certificateId: z.uuid() }),
        response: { 201: ZRequest, ...errorResponses },
      },
    },
    async (request, reply) => {
      const actor = request.actor!;
      const cert = await renewable(request.body.certificateId, actor);
      if (!cert.open) throw new AppError(RenewalNotOpen, { days: EXPIRING_SOON_DAYS });
      const original = cert.requestId ? await app.engine.get(cert.requestId) : null;
      const data = { ...((original?.context.data ?? {}) as Record<string, unknown>), certificateId: request.body.certificateId };
      const view = await app.engine.start('internalRenewal', { ownerUserId: actor.userId, facilityId: cert.facilityPublicId, data }, actor, {
        creatorName: request.sessionUser!.name,
      });
      return reply.status(201).send(presentRequest(request.t, view));
    },
  );

  /** The certificate if it is an internal one of the caller's facilities, and whether its renewal is open. */
  async function renewable(certificateId: string, actor: Actor) {
    const [cert] = await app.db.select().from(certificates).where(eq(certificates.id, certificateId));
    if (!cert || cert.kind !== 'internalHalal' || !actor.facilityIds.includes(cert.facilityPublicId)) throw new AppError(AppErrorCode.EntityNotFound);
    const daysLeft = Math.ceil((cert.expiresAt.getTime() - Date.now()) / DAY);
    return {
      number: cert.number,
      expiresAt: cert.expiresAt.toISOString(),
      daysLeft,
      open: daysLeft <= EXPIRING_SOON_DAYS,
      requestId: cert.requestId,
      facilityPublicId: cert.facilityPublicId,
    };
  }

  app.get(
    '/api/internal-requests/:id/certificate',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags: ['internal-requests'],
        summary: 'The certificate issued for a request (404 until it is issued)',
        params,
        response: { 200: z.object({ id: z.string(), number: z.string() }), ...errorResponses },
      },
    },
    async (request) => {
      const view = await load(request.params.id, request.actor!);
      const [cert] = await app.db
        .select({ id: certificates.id, number: certificates.number })
        .from(certificates)
        .where(eq(certificates.requestId, view.id))
        .orderBy(desc(certificates.issuedAt))
        .limit(1);
      if (!cert) throw new AppError(AppErrorCode.EntityNotFound);
      return cert;
    },
  );
};

export default internalRequestsModule;
