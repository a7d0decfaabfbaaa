import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Permissions } from '../../../machines/permissions';
import { ZErrorBody, ZFile, errorResponses, zSearchText } from '../../schemas';
import { ZPaymentCallback } from '../../adapters/payment-portal';
import { bilingual } from '../certificates/bilingual';
import { billView, listBills, loadBill } from './bill-view';
import { renderBillPdf } from './bill-pdf';
import { applyPaymentCallback } from './payment-callback';
import { ATTENTION_REASONS, paymentsNeedingAttention } from './attention';
import { INQUIRY_ANSWERS, inquirePayment } from './reconcile-payments';
import { recordRefund } from './record-refund';
import { tellRequestAgain } from './tell-request';
import { ZRefundRecord } from '../../../machines/forms/refund';
import { payments } from '../../../db/schema';
import { eq } from 'drizzle-orm';
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
/**
 * Who reads the payments needing attention: staff who handle payments (the registration employee, who also waives
 * bills, and the administrator: both hold PaymentManagement.GrantDiscount) and the read-only auditor (AuditLogging.View);
 * other staff, applicants and delegates are refused.
 */
const attentionReaders = [Permissions.payments.grantDiscount, Permissions.auditLogs.view];

const ZAttentionItem = z.object({
  paymentId: z.string(),
  paymentReference: z.string(),
  billId: z.string(),
  billNumber: z.string(),
  amount: z.string().describe('what the portal was asked to collect, VAT included (SAR)'),
  billAmount: z.string().describe("the bill's amount without VAT"),
  vat: z.string(),
  reason: z.enum(ATTENTION_REASONS),
  paymentStatus: z.string(),
  facility: z.object({ publicId: z.string(), nameAr: z.string(), nameEn: z.string() }),
  requestId: z.string().nullable(),
  requestNumber: z.string().nullable(),
  startedAt: z.string(),
  ageDays: z.number().int(),
  completedAt: z.string().nullable(),
  inquiredAt: z.string().nullable(),
  inquiryAnswer: z.string().nullable(),
  inquiryFailures: z.number().int(),
  canInquire: z.boolean(),
  canRecordRefund: z.boolean(),
  canTellRequest: z.boolean(),
});

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
      config: { policy: attentionReaders },
      schema: {
        tags: ['payments'],
        summary:
          'Payments a person must act on, newest first: refunds owed (money taken for a bill no longer payable, a payment its request refused, a paid Halal-mark package ended unissued when its certificate expired), a paid bill whose request has still not heard, and payments the reconciliation sweep could not settle (pending at the portal for over a day, past the 7-day inquiry window, or failing inquiries). Staff who handle payments (registration employees, administrators) and the read-only auditor',
        querystring: z.object({
          reason: z.enum(ATTENTION_REASONS).optional(),
          facilityId: z.string().max(100).optional(),
          any: zSearchText(100).describe('bill number, request number or payment reference'),
          pageNumber: z.coerce.number().int().min(1).default(1),
          pageSize: z.coerce.number().int().min(1).max(100).default(10),
        }),
        response: {
          200: z.object({ items: z.array(ZAttentionItem), totalCount: z.number(), pageNumber: z.number(), pageSize: z.number() }),
          ...errorResponses,
        },
      },
    },
    async (request) => paymentsNeedingAttention(app.db, request.query),
  );

  app.post(
    '/api/payments/:id/inquire',
    {
      config: { policy: Permissions.payments.grantDiscount },
      schema: {
        tags: ['payments'],
        summary:
          "Asks the payment portal now about one payment no answer settled yet (the sweep's status inquiry): a paid or cancelled answer is applied exactly as the portal's callback; any other answer is only recorded. Never marks a bill paid without the portal's word",
        params: z.object({ id: z.uuid() }),
        body: z.object({}).nullish(),
        response: {
          200: z.object({ answer: z.enum(INQUIRY_ANSWERS), changed: z.boolean(), paymentStatus: z.string() }),
          ...errorResponses,
          502: ZErrorBody,
        },
      },
    },
    async (request) => {
      const [payment] = await app.db.select().from(payments).where(eq(payments.id, request.params.id));
      if (!payment) throw new AppError(AppErrorCode.EntityNotFound);
      if (payment.status !== 'pending') throw new AppError('PaymentAlreadySettled');
      const inquiry = await inquirePayment(app, payment);
      const [after] = await app.db.select({ status: payments.status }).from(payments).where(eq(payments.id, payment.id));
      return { ...inquiry, paymentStatus: after.status };
    },
  );

  app.post(
    '/api/payments/:id/refund',
    {
      config: { policy: Permissions.payments.grantDiscount },
      schema: {
        tags: ['payments'],
        summary:
          "Records that a refund owed (money taken for a bill no longer payable, a payment its request refused, a paid Halal-mark package ended unissued) was made: the refund's reference and day. Written to the bill's and its requests' history with the person as actor, shown on the bill, and the payment leaves the attention list. Once per payment; registration employees and administrators",
        params: z.object({ id: z.uuid() }),
        body: ZRefundRecord,
        response: {
          200: z.object({ paymentId: z.string(), billId: z.string(), reference: z.string(), refundedOn: z.string(), recordedAt: z.string() }),
          ...errorResponses,
        },
      },
    },
    async (request) => recordRefund(app, request.actor!, request.params.id, request.body),
  );

  app.post(
    '/api/payments/:id/tell-request',
    {
      config: { policy: Permissions.payments.grantDiscount },
      schema: {
        tags: ['payments'],
        summary:
          "Tells the request(s) of a paid bill again that it is paid (PAYMENT_CONFIRMED from the system, the callback's own path), for a paid bill whose request has not heard. Idempotent: once the request answered, nothing is sent and its answer is given. A request that refuses moves the payment to the refunds owed. Registration employees and administrators",
        params: z.object({ id: z.uuid() }),
        body: z.object({}).nullish(),
        response: {
          200: z.object({ outcome: z.enum(['accepted', 'refused', 'noWorkflow', 'pending', 'busy']), changed: z.boolean(), reason: z.enum(ATTENTION_REASONS).nullable() }),
          ...errorResponses,
        },
      },
    },
    async (request) => tellRequestAgain(app, request.params.id),
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
