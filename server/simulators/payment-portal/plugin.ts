import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PAYMENT_CALLBACK_PATH, PAYMENT_PORTAL_SIMULATOR_PATH, signCallback, type PaymentCallback, type PaymentStatus } from '../../adapters/payment-portal';
import type { Config } from '../../config';
import { tFor, type Language } from '../../i18n';

export interface PaymentPortalSimulatorOptions {
  apiKey: string;
  /** The secret the portal shares with this merchant: callbacks are signed with it. */
  callbackSecret: string;
  /** Public address of this server (PUBLIC_URL); the payment page is served from it. */
  publicUrl?: string;
  /** Mount point, to build absolute page URLs. */
  prefix: string;
  /** How long a payment page stays valid. */
  pageTtlMs?: number;
  timeoutMs?: number;
}

const ZCreate = z.object({
  merchantReference: z.string().min(1).max(100),
  amount: z.string().regex(/^\d+\.\d{2}$/),
  vat: z.string().regex(/^\d+\.\d{2}$/),
  total: z.string().regex(/^\d+\.\d{2}$/),
  currency: z.literal('SAR'),
  description: z.object({ ar: z.string().max(300), en: z.string().max(300) }),
  language: z.enum(['ar', 'en']).default('ar'),
  returnUrl: z.string().url(),
  callbackUrl: z.string().url(),
});

/**
 * The simulator serves only the portal it is mounted in: the return and callback URLs a merchant registers must be
 * that portal's callback route (an http(s) URL whose path is PAYMENT_CALLBACK_PATH, without credentials), so the
 * simulator can be made neither to POST to another host (SSRF) nor to redirect a payer elsewhere.
 */
function isPortalCallback(url: string, allowedOrigin: string | undefined): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password) return false;
  if (u.pathname !== PAYMENT_CALLBACK_PATH || u.search || u.hash) return false;
  return allowedOrigin === undefined || u.origin === new URL(allowedOrigin).origin;
}

/**
 * What the page token carries: the page itself needs no state, so a restart loses no payment in progress. Only the
 * status inquiry reads the simulator's records (below), which a restart forgets (it then answers 404, as for a payment
 * it never registered).
 */
interface PagePayload {
  id: string;
  ref: string;
  pr: string;
  amount: string;
  vat: string;
  total: string;
  desc: { ar: string; en: string };
  lang: Language;
  ret: string;
  cb: string;
  exp: number;
}

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64url');

/** The simulator's record of one payment, as the status inquiry reports it. */
interface PaymentRecord {
  merchantReference: string;
  paymentReference: string;
  total: string;
  status: 'pending' | 'paid' | 'cancelled';
  /** When the payer settled it (paid or cancelled). */
  settledAt?: string;
  /** When the page lapses unpaid. */
  exp: number;
}

/** How long the simulator remembers a payment after its page lapsed. */
const RECORD_TTL_MS = 8 * 24 * 3_600_000;

/** SADAD-style 12-digit reference, the same for every attempt at one bill (derived from the merchant reference). */
function referenceFor(merchantReference: string): string {
  const n = BigInt(`0x${createHash('sha256').update(merchantReference).digest('hex').slice(0, 15)}`) % 10n ** 12n;
  return n.toString().padStart(12, '0');
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
const sar = (s: string) => Number(s).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * Government payment portal simulator, mounted under /simulators/payment-portal: `POST /payments` registers a payment
 * (Bearer API key) and answers the URL of its page; `GET /pay?token=` is that page (server-rendered, Arabic or English,
 * no external assets) with Pay and Cancel; the form's POST signs the outcome with the merchant secret, POSTs it to the
 * merchant's callback URL, and redirects the browser to the merchant's return URL with the same signed fields.
 */
export const paymentPortalSimulator = (opts: PaymentPortalSimulatorOptions): FastifyPluginAsync =>
  async (app) => {
    // Its own compilers: the simulator is another system and may be mounted on a bare Fastify (tests' harness).
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    const tokenKey = createHmac('sha256', opts.callbackSecret).update('payment-portal-simulator/page-token').digest();
    const ttl = opts.pageTtlMs ?? 30 * 60_000;
    // The portal's own records of the payments it registered and how each ended (the status inquiry answers from them).
    const records = new Map<string, PaymentRecord>();
    const remember = (id: string, record: PaymentRecord) => {
      const now = Date.now();
      for (const [k, r] of records) if (r.exp + RECORD_TTL_MS < now) records.delete(k);
      records.set(id, record);
    };

    const seal = (p: PagePayload) => {
      const body = b64(JSON.stringify(p));
      return `${body}.${b64(createHmac('sha256', tokenKey).update(body).digest())}`;
    };
    const open = (token: string): PagePayload | null => {
      const [body, mac] = token.split('.');
      if (!body || !mac) return null;
      const expected = createHmac('sha256', tokenKey).update(body).digest();
      const given = Buffer.from(mac, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      const p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as PagePayload;
      return p.exp > Date.now() ? p : null;
    };

    // Browsers post the page's form as urlencoded; parse it here only, the portal's own API stays JSON.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });

    app.withTypeProvider<ZodTypeProvider>().post('/payments', { config: { csrf: false }, schema: { body: ZCreate } }, async (request, reply) => {
      if (request.headers.authorization !== `Bearer ${opts.apiKey}`) return reply.status(401).send({ error: 'unauthorized' });
      const req = request.body;
      if (!isPortalCallback(req.callbackUrl, opts.publicUrl) || !isPortalCallback(req.returnUrl, opts.publicUrl)) {
        return reply.status(400).send({ error: 'callback and return URLs must be the portal callback route' });
      }
      const payload: PagePayload = {
        id: `PAY-${randomBytes(8).toString('hex').toUpperCase()}`,
        ref: req.merchantReference,
        pr: referenceFor(req.merchantReference),
        amount: req.amount,
        vat: req.vat,
        total: req.total,
        desc: req.description,
        lang: req.language,
        ret: req.returnUrl,
        cb: req.callbackUrl,
        exp: Date.now() + ttl,
      };
      remember(payload.id, { merchantReference: payload.ref, paymentReference: payload.pr, total: payload.total, status: 'pending', exp: payload.exp });
      // The page lives where people reach this server: PUBLIC_URL, else the merchant's own origin (the simulator is
      // mounted inside the portal, so whoever can reach the return URL can reach the page).
      const origin = (opts.publicUrl ?? new URL(req.returnUrl).origin).replace(/\/+$/, '');
      return reply.status(201).send({
        paymentId: payload.id,
        paymentReference: payload.pr,
        // In the query string, not the path: the sealed token is longer than a router path parameter may be.
        paymentUrl: `${origin}${opts.prefix}/pay?${new URLSearchParams({ token: seal(payload), lang: req.language })}`,
        expiresAt: new Date(payload.exp).toISOString(),
      });
    });

    // The status inquiry: what the portal's records say of one payment, signed as its callbacks are.
    app.get<{ Params: { paymentId: string } }>('/payments/:paymentId', async (request, reply) => {
      if (request.headers.authorization !== `Bearer ${opts.apiKey}`) return reply.status(401).send({ error: 'unauthorized' });
      const record = records.get(request.params.paymentId);
      if (!record) return reply.status(404).send({ error: 'no such payment' });
      const status: PaymentStatus['status'] = record.status === 'pending' && record.exp <= Date.now() ? 'expired' : record.status;
      const fields = {
        paymentId: request.params.paymentId,
        merchantReference: record.merchantReference,
        paymentReference: record.paymentReference,
        status,
        amount: record.total,
        timestamp: record.settledAt ?? new Date().toISOString(),
      };
      return { ...fields, signature: signCallback(fields, opts.callbackSecret) };
    });

    const page = (lang: Language, p: PagePayload | null) => {
      const t = tFor(lang);
      const other: Language = lang === 'ar' ? 'en' : 'ar';
      const rows = p
        ? [
            [t('payments:simulator.merchant'), t('payments:simulator.merchantName')],
            [t('payments:bill.number'), p.ref],
            [t('payments:bill.paymentReference'), p.pr],
            [t('payments:simulator.description'), p.desc[lang]],
            [t('payments:bill.amount'), `${sar(p.amount)} ${t('payments:bill.currency')}`],
            [t('payments:bill.vat', { rate: Math.round((Number(p.vat) / Math.max(Number(p.amount), 0.01)) * 100) }), `${sar(p.vat)} ${t('payments:bill.currency')}`],
            [t('payments:bill.total'), `${sar(p.total)} ${t('payments:bill.currency')}`],
          ]
            .map(([k, v]) => `<div class="row"><dt>${esc(k)}</dt><dd dir="auto">${esc(v)}</dd></div>`)
            .join('')
        : '';
      const body = p
        ? `<dl>${rows}</dl>
<form method="post"><input type="hidden" name="lang" value="${lang}">
<button class="pay" name="action" value="pay" data-testid="pay">${esc(t('payments:simulator.pay', { total: sar(p.total) }))}</button>
<button class="cancel" name="action" value="cancel" data-testid="cancel">${esc(t('payments:simulator.cancel'))}</button></form>`
        : `<p class="error" role="alert">${esc(t('payments:simulator.invalid'))}</p>`;
      return `<!doctype html><html lang="${lang}" dir="${lang === 'ar' ? 'rtl' : 'ltr'}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(t('payments:simulator.title'))}</title>
<style>body{font-family:system-ui,"Noto Sans Arabic",Tahoma,sans-serif;background:#f3f5f4;margin:0;color:#1f2933}
main{max-width:34rem;margin:2rem auto;background:#fff;border-radius:.75rem;box-shadow:0 1px 4px #0002;padding:1.5rem}
header{display:flex;justify-content:space-between;align-items:baseline;gap:1rem}h1{font-size:1.3rem;margin:0;color:#0b4f8a}
.note{background:#fff4ce;padding:.5rem .75rem;border-radius:.4rem;font-size:.9rem}dl{margin:1rem 0}
.row{display:flex;justify-content:space-between;gap:1rem;padding:.5rem 0;border-bottom:1px solid #e3e8e6}dt{color:#5f6b7a}dd{margin:0;font-weight:600}
form{display:flex;gap:.75rem;margin-top:1.25rem}button{font:inherit;padding:.7rem 1.2rem;border-radius:.4rem;border:1px solid #0b4f8a;cursor:pointer}
.pay{background:#0b4f8a;color:#fff;flex:1}.cancel{background:#fff;color:#0b4f8a}.error{color:#b42318}</style></head>
<body><main><header><h1>${esc(t('payments:simulator.title'))}</h1><a href="?lang=${other}" lang="${other}">${esc(t('payments:simulator.otherLanguage'))}</a></header>
<p class="note">${esc(t('payments:simulator.note'))}</p>${body}</main></body></html>`;
    };

    const langOf = (q: unknown, fallback: Language): Language => {
      const l = (q as { lang?: unknown } | undefined)?.lang;
      return l === 'ar' || l === 'en' ? l : fallback;
    };

    app.get<{ Querystring: { token?: string; lang?: string } }>('/pay', async (request, reply) => {
      const p = open(request.query.token ?? '');
      return reply
        .status(p ? 200 : 404)
        .type('text/html; charset=utf-8')
        .send(page(langOf(request.query, p?.lang ?? 'ar'), p));
    });

    // The page's form posts back to its own URL (token and language in the query string).
    app.post<{ Querystring: { token?: string }; Body: { action?: string; lang?: string } }>(
      '/pay',
      { config: { csrf: false } },
      async (request, reply) => {
        const p = open(request.query.token ?? '');
        const action = request.body?.action;
        if (!p || (action !== 'pay' && action !== 'cancel')) {
          return reply.status(p ? 400 : 404).type('text/html; charset=utf-8').send(page(langOf(request.body, 'ar'), null));
        }
        const fields: Omit<PaymentCallback, 'signature'> = {
          paymentId: p.id,
          merchantReference: p.ref,
          paymentReference: p.pr,
          status: action === 'pay' ? 'paid' : 'cancelled',
          amount: p.total,
          timestamp: new Date().toISOString(),
        };
        const callback: PaymentCallback = { ...fields, signature: signCallback(fields, opts.callbackSecret) };
        // Once paid, the portal's record says paid whatever is pressed later (the money was taken).
        const record = records.get(p.id);
        if (record?.status !== 'paid') {
          remember(p.id, { merchantReference: p.ref, paymentReference: p.pr, total: p.total, status: fields.status, settledAt: fields.timestamp, exp: p.exp });
        }
        // Server to server, the notification goes to the portal this simulator is mounted in, at its own address:
        // never to a host named in the (sealed, but merchant-chosen) page token.
        const address = app.server.address();
        const own = address && typeof address === 'object' ? `http://127.0.0.1:${address.port}${PAYMENT_CALLBACK_PATH}` : null;
        try {
          if (!own) throw new Error('the server is not listening');
          const res = await fetch(own, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(callback),
            signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
          });
          if (!res.ok) request.log.warn({ status: res.status }, 'payment portal simulator: merchant callback refused');
        } catch (err) {
          // The browser redirect below carries the same outcome; a failed notification is what real portals retry.
          request.log.warn({ err }, 'payment portal simulator: merchant callback failed');
        }
        // The browser goes back to the registered return URL, which creation checked is the portal's callback route.
        const back = new URL(p.ret);
        for (const [k, v] of Object.entries(callback)) back.searchParams.set(k, v);
        return reply.status(303).header('location', back.toString()).send();
      },
    );
  };

/**
 * The simulator as this server mounts it, from the configuration:
 * `await app.register(paymentPortalSimulatorFor(app.config), { prefix: PAYMENT_PORTAL_SIMULATOR_PATH })`.
 */
export const paymentPortalSimulatorFor = (config: Config): FastifyPluginAsync =>
  paymentPortalSimulator({
    apiKey: config.PAYMENT_PORTAL_API_KEY,
    callbackSecret: config.PAYMENT_CALLBACK_SECRET,
    publicUrl: config.PUBLIC_URL,
    prefix: PAYMENT_PORTAL_SIMULATOR_PATH,
    timeoutMs: config.EXTERNAL_TIMEOUT_MS,
  });

export { PAYMENT_PORTAL_SIMULATOR_PATH };
