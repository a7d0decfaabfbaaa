import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Permissions } from '../../../machines/permissions';
import { ZErrorBody, ZFile, errorResponses, zSearchText } from '../../schemas';
import { ZPaymentCallback } from '../../adapters/payment-portal';
import { bilingual } from '../certificates/bilingual';
import { billView, listBills, loadBill } from './bill-view';
import { renderBillPdf } from './bill-pdf';
import { applyPaymentCallback } from './payment-callback';
import { paymentsNeedingAttention } from './attention';
import { CALLBACK_PATH, startPayment } from './start-payment';
import { publicOrigin } from './public-origin';
import './errors';
import { ZBill } from '../../../machines/forms/records';
import { canSee } from '../../../workflows/queries';
import { AppError, AppErrorCode } from '../../errors';

const ZBillId = z.object({ id: z.uuid() });
/** Binary answers are sent as they are (Fastify does not serialize a Buffer); the schema only documents them. */

/** A path of this site (never another host: "//evil" and "/\evil" are refused) to land on after paying. */
const ZReturnPath = z
  .string()
  .max(300)
  .regex(/^\/(?![/\\])[^\s\\]*$/, 'invalid');

const readers = [Permissions.portals.general, Permissions.portals.halalCenter];

/** Bills (invoices), paying them through the government payment portal, and the portal's callback. */
const paymentsModule: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/bills',
    {
      config: { policy: readers },
      schema: {
        tags: ['payments'],
        summary: "Bills of the caller's facilities (staff: all), newest first; issued = registered at the payment portal",
        querystring: z.object({
          issued: z.enum(['true', 'false']).optional(),
          status: z.coerce.number().int().min(1).max(4).optional(),
          facilityId: z.string().max(100).optional(),
          requestId: z.uuid().optional(),
          any: zSearchText(100).describe('bill number, request number or payment reference'),
          bulk: z.enum(['true', 'false']).optional().describe('true: month-end bulk invoices; false: single bills'),
          pageNumber: z.coerce.number().int().min(1).default(1),
          pageSize: z.coerce.number().int().min(1).max(100).default(10),
        }),
        response: {
          200: z.object({ items: z.array(ZBill), totalCount: z.number(), pageNumber: z.number(), pageSize: z.number() }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { issued, bulk, ...rest } = request.query;
      const flag = (v: 'true' | 'false' | undefined) => (v === undefined ? undefined : v === 'true');
      // One facility's bills are for its members (and staff) only, as every list keeps facilities apart.
      if (rest.facilityId && !canSee(request.actor!, rest.facilityId)) throw new AppError(AppErrorCode.NotAuthorized);
      return listBills(app.db, request.actor!, { ...rest, issued: flag(issued), bulk: flag(bulk) }, request.t);
    },
  );

  app.get(
    '/api/bills/:id',
    {
      config: { policy: readers },
      schema: { tags: ['payments'], summary: 'One bill', params: ZBillId, response: { 200: ZBill, ...errorResponses } },
    },
    async (request) => billView(app.db, await loadBill(app.db, request.actor!, request.params.id), request.t),
  );

  app.get(
    '/api/bills/:id/file',
    {
      config: { policy: readers, produces: 'application/pdf' },
      schema: { tags: ['payments'], summary: 'The bill file (bilingual PDF)', params: ZBillId, response: { 200: ZFile, ...errorResponses } },
    },
    async (request, reply) => {
      const bill = await loadBill(app.db, request.actor!, request.params.id);
      // The rate the bill was issued with (settings may have changed since).
      const rate = Number(bill.amount) > 0 ? Math.round((Number(bill.vat) / Number(bill.amount)) * 10_000) / 10_000 : app.settings.current().vatRate;
      const pdf = await renderBillPdf(await billView(app.db, bill, request.t), bilingual(), rate);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="bill-${bill.number}.pdf"`)
        .send(pdf);
    },
  );

  app.post(
    '/api/bills/:id/pay',
    {
      config: { policy: Permissions.portals.general },
      schema: {
        tags: ['payments'],
        summary: "Starts paying a bill at the government payment portal; answers the portal page to send the browser to",
        params: ZBillId,
        body: z.object({ returnPath: ZReturnPath.optional() }).nullish(),
        response: {
          200: z.object({ paymentId: z.string(), paymentReference: z.string(), redirectUrl: z.string() }),
          ...errorResponses,
          502: ZErrorBody,
        },
      },
    },
    async (request) =>
      startPayment(app, request.actor!, request.params.id, {
        origin: publicOrigin(request),
        lang: request.lang,
        returnPath: request.body?.returnPath,
      }),
  );

  app.get(
    '/api/payments/attention',
    {
      config: { policy: Permissions.portals.halalCenter },
      schema: {
        tags: ['payments'],
        summary: 'Payments staff must act on: money taken for a bill no longer payable, a payment its request refused, or a paid Halal-mark package ended unissued when its certificate expired (refund due)',
        response: {
          200: z.object({
            items: z.array(
              z.object({
                paymentId: z.string(),
                billId: z.string(),
                billNumber: z.string(),
                amount: z.string(),
                reason: z.enum(['billNotPayable', 'refusedByRequest', 'certificateEnded']),
                completedAt: z.string().nullable(),
              }),
            ),
          }),
          ...errorResponses,
        },
      },
    },
    async () => ({ items: await paymentsNeedingAttention(app.db) }),
  );

  // The portal sends the browser here (GET, then we redirect to the page the person came from) and also notifies us
  // server to server (POST). Public: the HMAC signature is the authentication.
  app.get(
    CALLBACK_PATH,
    {
      config: { policy: 'public', redirect: 303 },
      schema: { tags: ['payments'], summary: 'Signed return of the payment portal (browser redirect)', querystring: ZPaymentCallback, response: errorResponses },
    },
    async (request, reply) => {
      const r = await applyPaymentCallback(app, request.query);
      const sep = r.returnPath.includes('?') ? '&' : '?';
      return reply.redirect(`${r.returnPath}${sep}payment=${r.outcome}`, 303);
    },
  );

  app.post(
    CALLBACK_PATH,
    {
      config: { policy: 'public', csrf: false },
      schema: {
        tags: ['payments'],
        summary: 'Signed notification of the payment portal (server to server)',
        body: ZPaymentCallback,
        response: { 200: z.object({ billId: z.string(), outcome: z.string(), changed: z.boolean() }), ...errorResponses },
      },
    },
    async (request) => {
      const { billId, outcome, changed } = await applyPaymentCallback(app, request.body);
      return { billId, outcome, changed };
    },
  );
};

export default paymentsModule;
