import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import cookie from '@fastify/cookie';
import compress from '@fastify/compress';
import jwt from '@fastify/jwt';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import { openDatabase, type Database } from '../db/client';
import { initI18n, pickLanguage, tFor } from './i18n';
import errors from './plugins/errors';
import { AppErrorCode } from './errors';
import hostileInput from './plugins/hostile-input';
import expectContinue from './plugins/expect-continue';
import privateAnswers from './plugins/private-answers';
import auth from './plugins/auth';
import csrf from './plugins/csrf';
import securityHeaders from './plugins/security-headers';
import { modules } from './modules';
import { configureHistoryKeys } from '../workflows/hash-chain';
import { registerSimulators } from './simulators';
import { ApiDocument } from './openapi';
import { REQUEST_MAX_BYTES } from '../machines/services/validate';
import { NEWS_IMAGE_MAX_BYTES } from './modules/public/schemas';
import { createServices } from '../machines/services';
import { businessDefaults } from './business-defaults';
import type { RoutePolicy } from './types';
import { SettingsStore, portalDefaults } from './admin/settings-store';
import { ensureDefaultRoles } from './admin/role-store';
import adminHooks from './admin/plugin';

export interface BuildOptions {
  config: Config;
  /** An open database; when absent buildApp opens (and on close, closes) one from the config. */
  database?: Database;
  /** Extra plugins registered after the modules (static web files, simulators). */
  extra?: ((app: FastifyInstance) => Promise<void>)[];
}

/** The largest body a route open to anyone reads (a signed-in user's routes take up to SIGNED_IN_JSON_LIMIT). */
export const PUBLIC_BODY_LIMIT = 256 * 1024;
/**
 * The largest JSON a signed-in user's route reads: twice the largest thing one carries (a request's data,
 * REQUEST_MAX_BYTES; a news image in base64, NEWS_IMAGE_MAX_BYTES plus a third), so a session cannot make the server
 * buffer and parse tens of megabytes per call only for validation to refuse them.
 */
export const SIGNED_IN_JSON_LIMIT = 2 * Math.max(REQUEST_MAX_BYTES, Math.ceil((NEWS_IMAGE_MAX_BYTES * 4) / 3));
/** File uploads (multipart, each route with its own per-file limit) may carry up to this. */
const BODY_LIMIT = 60 * 1024 * 1024;

/** Builds the whole server as one Fastify instance; tests call it and use `inject`. */
export async function buildApp({ config, database, extra = [] }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.LOG_LEVEL === 'silent' ? false : { level: config.LOG_LEVEL },
    // Off unless TRUST_PROXY lists the proxies: otherwise any caller could pick its own address with X-Forwarded-For
    // and walk around every per-address rate limit.
    trustProxy: config.TRUST_PROXY ? config.TRUST_PROXY.split(',').map((a) => a.trim()) : false,
    bodyLimit: BODY_LIMIT,
    // Refusals by the router itself (a malformed URL, a path parameter over maxParamLength) get the portal's error
    // body in the caller's language too, without echoing the input.
    frameworkErrors: (error, request, reply: FastifyReply) => {
      let query: unknown = {};
      try {
        query = Object.fromEntries(new URLSearchParams((request.raw.url ?? '').split('?')[1] ?? ''));
      } catch {
        query = {};
      }
      const t = tFor(pickLanguage(query, undefined, request.headers['accept-language']));
      void reply
        .status(error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400)
        .send({ error: { code: AppErrorCode.BadRequest, message: t(`errors:${AppErrorCode.BadRequest}`) } });
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const db = database ?? (await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, maxConnections: config.DATABASE_POOL_SIZE }));
  if (!database) app.addHook('onClose', () => db.close());
  // The request history chain is keyed with the configured HMAC keys (workflows/hash-chain.ts).
  configureHistoryKeys({ keys: config.HISTORY_KEYS, acceptLegacy: config.HISTORY_ACCEPT_LEGACY });
  app.decorate('config', config);
  app.decorate('database', db);
  app.decorate('db', db.db);
  app.decorate('services', createServices({ hsRules: config.HALAL_HS_PREFIXES }));
  // The environment's values are the defaults; an administrator's saved settings (setting-management) lie over them.
  const settingsStore = new SettingsStore(db.db, portalDefaults(businessDefaults(config)), 2_000, (msg, err) => app.log.warn({ err }, msg));
  await settingsStore.refresh();
  app.decorate('settingsStore', settingsStore);
  app.decorate('settings', settingsStore);
  // Roles live in the database; machines/default-roles.ts seeds the ones that are missing.
  await ensureDefaultRoles(db.db);

  // Every /api route must say who may call it; a route without a policy stops the server at start.
  app.decorate('routePolicies', [] as { method: string; url: string; policy: RoutePolicy }[]);
  const apiDocument = new ApiDocument();
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    apiDocument.record(route);
    const policy = (route.config as { policy?: RoutePolicy } | undefined)?.policy;
    if (policy === undefined) throw new Error(`Route ${route.method} ${route.url} declares no config.policy`);
    // Anyone may call a public route: its body is a small form (sign-in, registration, a payment callback), so a
    // caller without a session cannot make the server read and parse the 60 MB a signed-in user's request may carry.
    if (policy === 'public' && route.bodyLimit === undefined) route.bodyLimit = PUBLIC_BODY_LIMIT;
    // A signed-in user's JSON is a form or a request's data; only an upload (multipart) reads more.
    const multipart = ((route.schema as { consumes?: string[] } | undefined)?.consumes ?? []).includes('multipart/form-data');
    if (route.bodyLimit === undefined && !multipart) route.bodyLimit = SIGNED_IN_JSON_LIMIT;
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') app.routePolicies.push({ method, url: route.url, policy });
    }
  });

  // Cookies first: the language hook below reads the `lang` cookie.
  await app.register(cookie);
  await initI18n();
  app.decorateRequest('lang', 'ar');
  app.decorateRequest('t', null as never);
  app.addHook('onRequest', async (request) => {
    request.lang = pickLanguage(request.query, request.cookies?.lang, request.headers['accept-language']);
    request.t = tFor(request.lang);
  });

  await app.register(securityHeaders, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        // The fonts are the build's own files (helmet's default also allowed any https: host).
        fontSrc: ["'self'", 'data:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        frameSrc: ["'self'"],
        objectSrc: ["'self'"],
        connectSrc: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
  });
  // JSON answers of 1 KB or more go out compressed (the public pages' lists and texts were sent raw: issue 18). The
  // built web files are compressed once at build time and sent as they are (plugins/web.ts); files of other types
  // (PDF, xlsx, zip) are not compressible and go as they are.
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(jwt, { secret: config.JWT_SECRET });
  await app.register(rateLimit, { global: false });
  await app.register(errors);
  await app.register(hostileInput);
  await app.register(expectContinue);
  await app.register(privateAnswers);
  await app.register(swagger, {
    openapi: {
      info: { title: 'Halal certification portal API', version: config.APP_VERSION },
    },
    transform: jsonSchemaTransform,
    transformObject: (documents) =>
      apiDocument.finish((documents as { openapiObject: Record<string, unknown> }).openapiObject, { version: config.APP_VERSION, publicUrl: config.PUBLIC_URL }) as never,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  await app.register(auth);
  await app.register(adminHooks);
  await app.register(csrf);
  for (const mod of modules) await app.register(mod);
  if (config.SIMULATORS) await registerSimulators(app);
  for (const plugin of extra) await plugin(app);
  return app;
}
