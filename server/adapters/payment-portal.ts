import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError, registerErrorStatus } from '../errors';

registerErrorStatus({ ExternalServiceUnavailable: 502 });

/**
 * The government payment portal, as this server uses it:
 * 1. `POST {base}/payments` (Bearer API key) registers a payment for one bill and answers the URL of the portal's own
 *    payment page, where the person pays or cancels;
 * 2. the portal then sends the person's browser back to `returnUrl` with the outcome in the query string, and also
 *    POSTs the same fields as JSON to `callbackUrl` (server to server, so a closed browser loses nothing);
 * 3. both carry an HMAC-SHA256 signature over the fields with the secret shared with the portal
 *    (PAYMENT_CALLBACK_SECRET); a callback whose signature does not verify is refused;
 * 4. `GET {base}/payments/{paymentId}` (Bearer API key) is the status inquiry: the portal answers what its own records
 *    say of that payment (pending, paid, cancelled, expired), signed as a callback is, or 404 when it knows no such
 *    payment. The reconciliation sweep (server/modules/payments/reconcile-payments.ts) asks it for payments whose
 *    callback never came.
 * The local simulator (server/simulators/payment-portal/) speaks exactly this protocol.
 */
export interface CreatePaymentRequest {
  /** Our bill number; the portal echoes it in the callback. */
  merchantReference: string;
  /** SAR with two decimals: amount without VAT, VAT, total with VAT (the amount collected). */
  amount: string;
  vat: string;
  total: string;
  currency: 'SAR';
  description: { ar: string; en: string };
  language: 'ar' | 'en';
  returnUrl: string;
  callbackUrl: string;
}

export const ZCreatedPayment = z.object({
  paymentId: z.string().min(1),
  /** The reference the payer can also pay with at a bank (SADAD-style), stable per bill. */
  paymentReference: z.string().min(1),
  paymentUrl: z.string().url(),
  expiresAt: z.string(),
});
export type CreatedPayment = z.infer<typeof ZCreatedPayment>;

/** The outcome fields of a callback, as strings (they travel in a query string as well as in JSON). */
export const ZPaymentCallback = z.object({
  paymentId: z.string().min(1).max(200),
  merchantReference: z.string().min(1).max(100),
  paymentReference: z.string().min(1).max(100),
  status: z.enum(['paid', 'cancelled']),
  /** Total collected, SAR with two decimals. */
  amount: z.string().regex(/^\d+\.\d{2}$/),
  /** ISO instant at the portal. */
  timestamp: z.string().min(1).max(40),
  signature: z.string().regex(/^[0-9a-f]{64}$/),
});
export type PaymentCallback = z.infer<typeof ZPaymentCallback>;

const SIGNED_FIELDS = ['paymentId', 'merchantReference', 'paymentReference', 'status', 'amount', 'timestamp'] as const;

/** HMAC-SHA256 (hex) of the callback's fields joined in a fixed order; both sides compute it the same way. */
export function signCallback(fields: Omit<PaymentCallback, 'signature' | 'status'> & { status: PaymentStatus['status'] }, secret: string): string {
  const canonical = SIGNED_FIELDS.map((k) => `${k}=${fields[k]}`).join('&');
  return createHmac('sha256', secret).update(canonical).digest('hex');
}

/** Constant-time check of a callback's signature. */
export function verifyCallback(cb: PaymentCallback, secret: string): boolean {
  const expected = Buffer.from(signCallback(cb, secret), 'hex');
  const given = Buffer.from(cb.signature, 'hex');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * The portal's answer to a status inquiry: the callback's fields, signed the same way, with the status its records
 * hold. 'paid' and 'cancelled' are final and carry the same meaning (and signature) as a callback; 'pending' means the
 * payer has not finished, 'expired' that the payment page lapsed unpaid.
 */
export const ZPaymentStatus = ZPaymentCallback.extend({ status: z.enum(['pending', 'paid', 'cancelled', 'expired']) });
export type PaymentStatus = z.infer<typeof ZPaymentStatus>;

export interface PaymentPortal {
  createPayment(req: CreatePaymentRequest): Promise<CreatedPayment>;
  /** The portal's record of one payment (null: the portal knows no such payment). */
  paymentStatus(paymentId: string): Promise<PaymentStatus | null>;
}

export function createPaymentPortal(opts: {
  /** Called per request: the local simulator's address is known only once the server listens. */
  baseUrl: () => string;
  apiKey: string;
  timeoutMs: number;
  fetchImpl?: typeof fetch;
}): PaymentPortal {
  const doFetch = opts.fetchImpl ?? fetch;
  return {
    async createPayment(req) {
      let res: Response;
      try {
        res = await doFetch(`${opts.baseUrl()}/payments`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${opts.apiKey}` },
          body: JSON.stringify(req),
          signal: AbortSignal.timeout(opts.timeoutMs),
        });
      } catch {
        throw new AppError('ExternalServiceUnavailable', { service: 'payment' });
      }
      // Any refusal of a well-formed request is the portal's problem from the payer's point of view: try later.
      if (res.status !== 201) throw new AppError('ExternalServiceUnavailable', { service: 'payment' });
      const parsed = ZCreatedPayment.safeParse(await res.json().catch(() => null));
      if (!parsed.success) throw new AppError('ExternalServiceUnavailable', { service: 'payment' });
      return parsed.data;
    },
    async paymentStatus(paymentId) {
      let res: Response;
      try {
        res = await doFetch(`${opts.baseUrl()}/payments/${encodeURIComponent(paymentId)}`, {
          method: 'GET',
          headers: { accept: 'application/json', authorization: `Bearer ${opts.apiKey}` },
          signal: AbortSignal.timeout(opts.timeoutMs),
        });
      } catch {
        throw new AppError('ExternalServiceUnavailable', { service: 'payment' });
      }
      if (res.status === 404) return null;
      if (res.status !== 200) throw new AppError('ExternalServiceUnavailable', { service: 'payment' });
      const parsed = ZPaymentStatus.safeParse(await res.json().catch(() => null));
      if (!parsed.success || parsed.data.paymentId !== paymentId) throw new AppError('ExternalServiceUnavailable', { service: 'payment' });
      return parsed.data;
    },
  };
}

/** The portal's route the payment portal calls back (server/modules/payments/routes.ts). */
export const PAYMENT_CALLBACK_PATH = '/api/payments/callback';

/** Where this server mounts the payment portal simulator (server/simulators/payment-portal/plugin.ts). */
export const PAYMENT_PORTAL_SIMULATOR_PATH = '/simulators/payment-portal';

/**
 * Where the portal is: PAYMENT_PORTAL_URL, else the simulator this server mounts, at the port it actually listens on
 * (tests listen on port 0).
 */
export function paymentPortalBaseUrl(app: FastifyInstance): string {
  if (app.config.PAYMENT_PORTAL_URL) return app.config.PAYMENT_PORTAL_URL.replace(/\/+$/, '');
  const address = app.server.address();
  const port = address && typeof address === 'object' ? address.port : app.config.PORT;
  return `http://127.0.0.1:${port}${PAYMENT_PORTAL_SIMULATOR_PATH}`;
}

const perApp = new WeakMap<object, PaymentPortal>();

/** The payment portal client of this server (one per app, shared by every plugin context). */
export function paymentPortalOf(app: FastifyInstance): PaymentPortal {
  let p = perApp.get(app.config);
  if (!p) {
    p = createPaymentPortal({
      baseUrl: () => paymentPortalBaseUrl(app),
      apiKey: app.config.PAYMENT_PORTAL_API_KEY,
      timeoutMs: app.config.EXTERNAL_TIMEOUT_MS,
    });
    perApp.set(app.config, p);
  }
  return p;
}
