import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Actor } from '../../../machines/actor';
import { Permissions } from '../../../machines/permissions';
import { eventSchemas, isMachineKind, validateEvent } from '../../../machines';
import { planTimingIssues } from './plan-timing';
import { assertNotBlockedByExpiredCertificate } from './expired-certificate';
import type { RequestView } from '../../../workflows/engine';
import { canSee } from '../../../workflows/queries';
import { AppError, AppErrorCode } from '../../errors';
import { ZErrorBody } from '../../schemas';
import { presentActions, presentHistory, presentRequest, presentSummary } from './present';
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
 * history and allowed actions, and the reviewer queues. Handlers only translate HTTP to the engine; every lifecycle
 * rule is the machine's.
 */

/** Lifecycles that other transitions start (a bill, an issued certificate, a mark); nobody starts them by hand. */
const NOT_STARTED_BY_PEOPLE = new Set(['bill', 'certificate', 'halalMark']);

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody };

const requestsModule: FastifyPluginAsyncZod = async (app) => {
  /** The request if this actor may see it; a request they may not see does not exist for them (404, not 403). */
  async function visible(id: string, actor: Actor): Promise<RequestView> {
    const view = await app.engine.get(id);
    if (!view || view.deleted || !canSee(actor, view.facilityId)) throw new AppError(AppErrorCode.EntityNotFound);
    return view;
  }

  app.post(
    '/api/requests',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags: ['requests'],
        summary: 'Start a request (a draft of the machine of `kind`) for one of the caller’s facilities',
        body: ZStartRequest,
        response: { 201: ZRequest, ...errors },
      },
    },
    async (request, reply) => {
      const actor = request.actor!;
      const { kind, facilityId, data } = request.body;
      if (NOT_STARTED_BY_PEOPLE.has(kind)) throw new AppError(AppErrorCode.BadRequest);
      if (!actor.facilityIds.includes(facilityId)) throw new AppError(AppErrorCode.NotAuthorized);
      await assertNotBlockedByExpiredCertificate(app.db, facilityId, kind);
      // The first data goes by the rules of an edit: only the kind's sections.
      if (data && Object.keys(data).length && isMachineKind(kind) && eventSchemas[kind].EDIT) {
        const issues = validateEvent(kind, { type: 'EDIT', data });
        if (issues.length) throw new AppError(AppErrorCode.ValidationFailed, {}, issues);
      }
      const view = await app.engine.start(kind, { ownerUserId: actor.userId, facilityId, data }, actor, {
        creatorName: request.sessionUser!.name,
      });
      return reply.status(201).send(presentRequest(request.t, view));
    },
  );

  app.get(
    '/api/requests/:id',
    {
      config: { policy: 'authenticated' },
      schema: { tags: ['requests'], params: ZRequestParams, response: { 200: ZRequest, ...errors } },
    },
    async (request) => presentRequest(request.t, await visible(request.params.id, request.actor!)),
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
    },
    async (request) => {
      const actor = request.actor!;
      const { id } = request.params;
      await visible(id, actor);
      const { type, expectedVersion, payload = {} } = request.body;
      const timing = planTimingIssues(type, payload, new Date());
      if (timing.length) throw new AppError(AppErrorCode.ValidationFailed, {}, timing);
      const view = await app.engine.send(id, { ...payload, type }, actor, expectedVersion);
      return presentRequest(request.t, view);
    },
  );

  app.get(
    '/api/requests/:id/history',
    {
      config: { policy: 'authenticated' },
      schema: { tags: ['requests'], params: ZRequestParams, response: { 200: ZHistory, ...errors } },
    },
    async (request) => {
      const view = await visible(request.params.id, request.actor!);
      const entries = await app.engine.history(view.id);
      return { items: await presentHistory(app.db, request.t, view.kind, entries) };
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
      return presentActions(request.t, view.version, await app.engine.allowedActions(view.id, request.actor!));
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
      const page = await app.engine.list({ ...q, queue: request.params.queue, viewer: request.actor! });
      return { ...page, items: page.items.map((v) => presentSummary(request.t, v)) };
    },
  );
};

export default requestsModule;
