import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { eq } from 'drizzle-orm';
import { certificates } from '../../../db/schema';
import { serviceOf } from '../../../machines/services';
import { CB_ADD_CATEGORIES_STEPS, findCbAddCategoriesStep } from '../../../machines/cb-add-categories';
import { findFacility } from '../facilities/access';
import { assertPreconditions } from './preconditions';
import { canSee } from '../../../workflows/queries';
import { maySeeCertificateOf } from '../../../workflows/read-scope';
import type { RequestSummaryView, RequestView } from '../../../workflows/engine';
import { AppError, AppErrorCode } from '../../errors';
import { ZErrorBody, zSearchText } from '../../schemas';
import { presentRequest, presentSummary } from './present';
import { ZQueuePage, ZRequest, ZRequestSummary } from './schemas';
import { assertMayStart, refusedData, sendRequestEvent, startRequest, visibleRequest } from './service';
import { categoriesAlreadyCertified } from './server-checks';

/*
 * The five calls of spec 01 section 7 "Adding sub-categories" (prefix /api/AddingSubCategoriesRequest), at their exact
 * paths and methods. They are the CB add-categories service (request type 300, `cbAddCategories`) through the same
 * request service every other door uses: the contract's permissions, preconditions, data rules and server checks hold.
 * Readings (the spec gives no payloads): {id} of the two route-guard calls is the designation certificate the
 * categories are added to; {id} of GetRequestDetailsById is the request.
 */

const KIND = 'cbAddCategories';
const PREFIX = '/api/AddingSubCategoriesRequest';
const tags = ['AddingSubCategoriesRequest'];
const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody, 409: ZErrorBody };
const ZId = z.object({ id: z.uuid() });
const ZCategories = z.array(z.object({ category: z.string(), subCategories: z.array(z.string()).default([]) })).min(1).max(50);

/** The tabs of the add-categories list (issue 12 item 4): current, previous, draft. */
const TABS = ['current', 'previous', 'draft'] as const;
const tabOf = (v: RequestSummaryView): (typeof TABS)[number] => (v.stateValue === 'draft' ? 'draft' : v.finished ? 'previous' : 'current');

/**
 * Each row says where the request is among the service's three steps (machines/cb-add-categories.ts), so no screen maps
 * states; null for a state in none of them (logged), so one odd row does not fail the whole list.
 */
const ZStep = z.object({
  key: z.enum(CB_ADD_CATEGORIES_STEPS.map((s) => s.key)),
  /** From 0. */
  index: z.number().int(),
  count: z.number().int(),
});
const ZAddCategoriesPage = ZQueuePage.extend({ items: z.array(ZRequestSummary.extend({ step: ZStep.nullable() })) });

const addingSubCategoriesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    `${PREFIX}/GetAddingSubCategoriesInformationRequests`,
    {
      config: { policy: 'authenticated' },
      schema: {
        tags,
        summary: 'A CB’s add-categories requests, by tab (current, previous, draft), searchable by request number or creator',
        body: z.object({
          cbPublicId: z.string().min(1).max(100),
          /** Only the requests about this designation certificate (its page lists them beside its details). */
          certificateId: z.uuid().optional(),
          tab: z.enum(TABS).default('current'),
          searchText: zSearchText(100),
          pageNumber: z.number().int().min(1).default(1),
          pageSize: z.number().int().min(1).max(100).default(10),
        }),
        response: { 200: ZAddCategoriesPage, ...errors },
      },
    },
    async (request) => {
      const b = request.body;
      if (!canSee(request.actor!, b.cbPublicId)) throw new AppError(AppErrorCode.NotAuthorized);
      // A CB has few of these: read them all, then keep the tab's and page them.
      const all: RequestSummaryView[] = [];
      for (let pageNumber = 1; ; pageNumber++) {
        const page = await app.engine.list({ queue: 'all', tab: 'any', viewer: request.actor!, kind: KIND, facilityId: b.cbPublicId, certificateId: b.certificateId, any: b.searchText || undefined, pageNumber, pageSize: 100 });
        all.push(...page.items);
        if (page.items.length < 100) break;
      }
      const inTab = all.filter((v) => tabOf(v) === b.tab);
      const start = (b.pageNumber - 1) * b.pageSize;
      const items = inTab.slice(start, start + b.pageSize).map((v) => {
        const step = findCbAddCategoriesStep(v.stateValue);
        if (!step) request.log.warn({ requestId: v.id, stateValue: v.stateValue }, 'cbAddCategories: a listed request is in none of the three steps');
        return { ...presentSummary(request.t, v), step };
      });
      return { items, totalCount: inTab.length, pageNumber: b.pageNumber, pageSize: b.pageSize };
    },
  );

  app.post(
    `${PREFIX}/GetRequestDetailsById/:id`,
    { config: { policy: 'authenticated' }, schema: { tags, params: ZId, response: { 200: ZRequest, ...errors } } },
    async (request) => {
      const view = await visibleRequest(app, request.params.id, request.actor!);
      if (view.kind !== KIND) throw new AppError(AppErrorCode.EntityNotFound);
      return presentRequest(request.t, view, app.services, request.actor!);
    },
  );

  app.post(
    `${PREFIX}/SubmitRequest`,
    {
      config: { policy: 'authenticated' },
      schema: {
        tags,
        summary: 'Submits the categories to add: a new request for the designation certificate, or the given draft (returned requests are resubmitted)',
        body: z.object({
          cbPublicId: z.string().min(1).max(100),
          certificateId: z.uuid(),
          categories: ZCategories,
          /** A draft (or returned request) of the CB to submit instead of starting a new one. */
          requestId: z.uuid().optional(),
        }),
        response: { 200: ZRequest, ...errors },
      },
    },
    async (request) => {
      const actor = request.actor!;
      const b = request.body;
      const data = { categories: b.categories };
      let view: RequestView;
      if (b.requestId) {
        view = await visibleRequest(app, b.requestId, actor);
        if (view.kind !== KIND || view.facilityId !== b.cbPublicId) throw new AppError(AppErrorCode.EntityNotFound);
        view = (await sendRequestEvent(app, actor, view.id, { type: 'EDIT', expectedVersion: view.version, payload: { data } })).view;
      } else {
        const start = { kind: KIND, facilityId: b.cbPublicId, certificateId: b.certificateId, data };
        // The service's own rule before anything starts, so a refused submission leaves no draft behind.
        const { subject } = await assertMayStart(app, actor, start);
        const issues = categoriesAlreadyCertified(subject?.categories ?? [], b.categories);
        if (issues.length) throw refusedData(issues);
        view = await startRequest(app, actor, request.sessionUser!.name, start);
      }
      const actions = await app.engine.allowedActions(view.id, actor);
      const type = actions.some((a) => a.type === 'RESUBMIT') ? 'RESUBMIT' : 'SUBMIT';
      const sent = await sendRequestEvent(app, actor, view.id, { type, expectedVersion: view.version, payload: { agreementAccepted: true } });
      return presentRequest(request.t, sent.view, app.services, request.actor!);
    },
  );

  app.get(
    `${PREFIX}/ValidateRequestInitialization/:id`,
    {
      config: { policy: 'authenticated' },
      schema: {
        tags,
        summary: 'Whether a new add-categories request may start for the designation certificate {id} now (the service’s permissions and preconditions; 409 while one is open)',
        params: ZId,
        querystring: z.object({ cbPublicId: z.string().min(1).max(100) }),
        response: { 200: z.object({ canStart: z.literal(true) }), ...errors },
      },
    },
    async (request) => {
      await assertMayStart(app, request.actor!, { kind: KIND, facilityId: request.query.cbPublicId, certificateId: request.params.id });
      return { canStart: true as const };
    },
  );

  app.get(
    `${PREFIX}/ValidateRequestPrerequisites/:id`,
    {
      config: { policy: 'authenticated' },
      schema: {
        tags,
        summary: 'The route guard of the add-categories wizard: the CB’s designation certificate {id} is valid and its acceptance certificate has not expired',
        params: ZId,
        response: { 200: z.object({ valid: z.literal(true), cbPublicId: z.string() }), ...errors },
      },
    },
    async (request) => {
      const [cert] = await app.db.select().from(certificates).where(eq(certificates.id, request.params.id));
      if (!cert || cert.kind !== 'cbDesignation' || !maySeeCertificateOf(request.actor!, { ...cert, cbPublicId: null })) throw new AppError(AppErrorCode.EntityNotFound);
      const facility = await findFacility(app.db, cert.facilityPublicId);
      if (!facility) throw new AppError(AppErrorCode.EntityNotFound);
      const def = serviceOf(KIND, app.services)!;
      // Only the preconditions about the certificate and the CB (not "one open request": the guard also serves editing it).
      const prerequisites = { ...def, preconditions: def.preconditions.filter((p) => p.type !== 'oneOpenPerSubject') };
      await assertPreconditions({ db: app.db, def: prerequisites, facility, subject: cert, settings: app.settings.current(), now: new Date() });
      return { valid: true as const, cbPublicId: cert.facilityPublicId };
    },
  );
};

export default addingSubCategoriesRoutes;
