import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Permissions } from '../../../machines/permissions';
import type { RequestView } from '../../../workflows/engine';
import type { Actor } from '../../../machines/actor';
import { AppError, AppErrorCode } from '../../errors';
import { errorResponses } from '../../schemas';
import { presentRequest } from '../requests/present';
import { ZRequest } from '../requests/schemas';
import { noticeTexts, sendRequestEvent, visibleRequest } from '../requests/service';

/**
 * The internal certificate's conveniences: save draft steps (EDIT), and submit or resubmit (the start, its renewal's
 * too, and the wizard itself use the generic calls, like every service's). They go through the same request service as
 * the generic calls (server/modules/requests/service.ts), so the service contract validates them exactly the same way.
 */
const KINDS = new Set(['internalCertificate', 'internalRenewal']);
const params = z.object({ id: z.uuid() });

const internalRequestsModule: FastifyPluginAsyncZod = async (app) => {
  async function load(id: string, actor: Actor): Promise<RequestView> {
    const view = await visibleRequest(app, id, actor);
    if (!KINDS.has(view.kind)) throw new AppError(AppErrorCode.EntityNotFound);
    return view;
  }

  app.put(
    '/api/internal-requests/:id/draft',
    {
      config: { policy: Permissions.internalRequest.request },
      schema: {
        tags: ['internal-requests'],
        summary: 'Save wizard steps of a draft or returned request (the EDIT event: each section parsed by its draft schema)',
        params,
        body: z.object({ expectedVersion: z.number().int().min(1), form: z.record(z.string(), z.unknown()) }),
        response: { 200: ZRequest, ...errorResponses },
      },
    },
    async (request) => {
      await load(request.params.id, request.actor!);
      // The agreement is ticked on submission, not stored.
      const { agreement: _agreement, ...data } = request.body.form;
      if (Object.keys(data).length === 0) throw new AppError(AppErrorCode.BadRequest);
      const { view } = await sendRequestEvent(app, request.actor!, request.params.id, { type: 'EDIT', expectedVersion: request.body.expectedVersion, payload: { data } });
      return presentRequest(request.t, view, app.services, request.actor!);
    },
  );

  app.post(
    '/api/internal-requests/:id/submit',
    {
      config: { policy: Permissions.internalRequest.submit },
      schema: {
        tags: ['internal-requests'],
        summary: 'Submit a draft (SUBMIT) or resubmit a returned request (RESUBMIT); the whole request is validated',
        params,
        body: z.object({ expectedVersion: z.number().int().min(1), agreementAccepted: z.boolean() }),
        response: { 200: ZRequest, ...errorResponses },
      },
    },
    async (request) => {
      const view = await load(request.params.id, request.actor!);
      const allowed = await app.engine.allowedActions(view.id, request.actor!);
      const type = allowed.some((a) => a.type === 'RESUBMIT') ? 'RESUBMIT' : 'SUBMIT';
      const payload = type === 'SUBMIT' ? { agreementAccepted: request.body.agreementAccepted } : {};
      const { view: next, notices } = await sendRequestEvent(app, request.actor!, view.id, { type, expectedVersion: request.body.expectedVersion, payload });
      return { ...presentRequest(request.t, next, app.services, request.actor!), notices: noticeTexts(request.t, request.lang, notices), noticeMessages: notices };
    },
  );
};

export default internalRequestsModule;
