import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Permissions } from '../../../machines/permissions';
import { canSee } from '../../../workflows/queries';
import { AppError, AppErrorCode } from '../../errors';
import { ZErrorBody } from '../../schemas';
import { sendRequestEvent, startRequest, visibleRequest } from './service';
import { z } from 'zod';
import { clocksFor } from './clock';
import { presentActions, presentHistory, presentPeople, presentRequest, presentSummary } from './present';
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

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody };

const requestsModule: FastifyPluginAsyncZod = async (app) => {
  const visible = (id: string, actor: Parameters<typeof visibleRequest>[2]) => visibleRequest(app, id, actor);
  /** The holidays the working-day clocks skip (setting-management). */
  const holidays = () => app.settingsStore.current().holidays ?? [];

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
      return reply.status(201).send(presentRequest(request.t, view));
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
      const clocks = await clocksFor(app.db, [view], holidays());
      return { ...presentRequest(request.t, view), clock: clocks.get(view.id) ?? null };
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
    },
    async (request) => {
      const { view, notices } = await sendRequestEvent(app, request.actor!, request.params.id, request.body);
      return { ...presentRequest(request.t, view), notices: notices.map((n) => request.t(n.key, n.params)) };
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
    async (request) => presentPeople(app.db, await visible(request.params.id, request.actor!)),
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
