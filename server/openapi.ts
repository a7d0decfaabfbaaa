import type { RouteOptions } from 'fastify';
import { z } from 'zod';
import { eventSchemas } from '../machines/validate-event';
import { SERVICES, type RequestKind } from '../machines/services';
import { MACHINE_KINDS } from '../machines/types';
import type { RoutePolicy } from './types';

/**
 * The API's own description, finished from what every route already declares (issue 16): the route's policy says
 * who may call it (security, 401/403), its method whether the CSRF header is needed, its config whether it answers a
 * file. Each operation gets an operationId, a summary and description, and the error answers it can give, all
 * pointing at one named error body. Simulators are not part of the product's document.
 */

/** What a route adds to its config for the document (besides `policy`). */
export interface RouteDocConfig {
  policy?: RoutePolicy;
  /** false: exempt from the CSRF header (sign-in, payment callbacks); 'always': checked whatever the method. */
  csrf?: boolean | 'always';
  /** Media type of a file answer (200), e.g. 'application/pdf'; `*` when it is the stored file's own type. */
  produces?: string;
  /** The route reads the reCAPTCHA token from the `recaptcha-token` header. */
  recaptchaHeader?: boolean;
  /** The route answers with this redirect (the Location header names where). */
  redirect?: number;
}

interface RouteDoc extends RouteDocConfig {
  method: string;
  url: string;
}

type Json = Record<string, unknown>;
type Operation = Json & { responses?: Record<string, Json>; parameters?: Json[]; requestBody?: Json };

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const ERROR = { $ref: '#/components/schemas/Error' };
const MESSAGE_PARAMS = { type: 'object', additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] } };
const ERROR_ANSWERS: Record<string, string> = {
  400: 'The input is not valid: each message names its field (in the language of the request)',
  401: 'No session, or the session ended',
  403: 'The policy, the facility scope, the machine or the CSRF check refuses it',
  404: 'Not found, or not visible to this user',
  409: 'The record changed since it was read (expectedVersion), or the request is in a state that refuses it',
  413: 'The body or file is larger than allowed',
  414: 'The address is longer than allowed',
  429: 'Too many requests',
  500: 'An unexpected error (nothing of the internals is shown)',
};

const pascal = (s: string) => s.replace(/(^|_)([a-z])/gi, (_m, _u, c: string) => c.toUpperCase()).replace(/_/g, '');

/** A zod schema of machines/ as OpenAPI 3.0 JSON Schema (what it accepts: its input). */
function jsonOf(schema: z.ZodType): Json {
  try {
    const { $schema: _drop, ...out } = z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' }) as Json;
    return out;
  } catch {
    return { type: 'object', description: 'Checked by the server (not expressible as JSON Schema)' };
  }
}

/**
 * The workflow calls' bodies from the machines and the service contract: per kind, each event it accepts with its
 * payload schema (`<Kind>Event`), and the request data by section (`<Kind>Data`).
 */
function workflowSchemas(): { schemas: Record<string, Json>; events: Json; data: Json } {
  const schemas: Record<string, Json> = {};
  for (const kind of MACHINE_KINDS) {
    const events = Object.entries(eventSchemas[kind]).map(([type, schema]) => ({
      type: 'object',
      title: `${kind} ${type}`,
      required: ['type', 'expectedVersion'],
      properties: {
        type: { type: 'string', enum: [type] },
        expectedVersion: { type: 'integer', minimum: 1, description: 'The request version the sender read' },
        payload: jsonOf(schema!),
      },
    }));
    schemas[`${pascal(kind)}Event`] = { description: `The events a ${kind} workflow accepts, each with its payload.`, oneOf: events };
  }
  const kinds = Object.keys(SERVICES) as RequestKind[];
  for (const kind of kinds) {
    const sections = Object.entries(SERVICES[kind].sections).map(([name, section]) => [name, jsonOf(section.draft)] as const);
    schemas[`${pascal(kind)}Data`] = { type: 'object', description: `The data of a ${kind} request by section (a draft's sections are all optional).`, properties: Object.fromEntries(sections) };
  }
  return {
    schemas,
    events: { oneOf: MACHINE_KINDS.map((k) => ({ $ref: `#/components/schemas/${pascal(k)}Event` })), description: "One of the events of the request's kind (GET /api/requests/{id}/actions lists those allowed now)." },
    data: { kinds, oneOf: kinds.map((k) => ({ $ref: `#/components/schemas/${pascal(k)}Data` })) },
  };
}

/** `/api/requests/:id/events` -> `/api/requests/{id}/events`. */
export const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const words = (url: string) =>
  url
    .replace(/^\/api\//, '')
    .split('/')
    .filter(Boolean)
    .flatMap((seg) => (seg.startsWith(':') ? ['by', seg.slice(1)] : seg.split(/[^A-Za-z0-9]+/)))
    .flatMap((w) => w.split(/(?<=[a-z0-9])(?=[A-Z])/))
    .filter(Boolean);

/** A stable, unique operationId from the method and path: GET /api/requests/:id/events -> getRequestsByIdEvents. */
export function operationIdOf(method: string, url: string): string {
  const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  return method.toLowerCase() + words(url).map((w) => cap(w.toLowerCase())).join('');
}

function whoMayCall(policy: RoutePolicy | undefined): string {
  if (policy === 'public') return 'Anyone, without a session.';
  if (policy === 'authenticated' || policy === undefined) return 'Any signed-in user.';
  return `A signed-in user holding ${[policy].flat().join(' or ')}.`;
}

export class ApiDocument {
  private readonly routes = new Map<string, RouteDoc>();

  /** Called from the app's onRoute hook for every /api route. */
  record(route: RouteOptions): void {
    const config = (route.config ?? {}) as RouteDocConfig;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      this.routes.set(`${method} ${openApiPath(route.url)}`, { method, url: route.url, ...config });
    }
  }

  /** @fastify/swagger's transformObject: the generated document, finished. */
  finish(doc: Json, info: { version: string; publicUrl?: string }): Json {
    const paths = (doc.paths ?? {}) as Record<string, Record<string, Operation>>;
    for (const path of Object.keys(paths)) {
      if (!path.startsWith('/api/') || path.startsWith('/api/docs')) {
        delete paths[path];
        continue;
      }
      for (const [method, op] of Object.entries(paths[path]!)) {
        const route = this.routes.get(`${method.toUpperCase()} ${path}`);
        if (route) this.finishOperation(op, route);
      }
    }
    const workflow = workflowSchemas();
    const body = (path: string) => (((paths[path]?.post?.requestBody as Json | undefined)?.content as Json | undefined)?.['application/json'] as Json | undefined);
    const events = body('/api/requests/{id}/events');
    // The generic body stays (type, expectedVersion, payload...); each kind's events narrow it.
    if (events) events.schema = { ...(events.schema as Json), ...workflow.events };
    const start = body('/api/requests')?.schema as { properties?: Record<string, Json> } | undefined;
    if (start?.properties) {
      start.properties.kind = { type: 'string', enum: (workflow.data as { kinds: string[] }).kinds };
      start.properties.data = { oneOf: (workflow.data as { oneOf: Json[] }).oneOf, description: "The first data of the draft, by section, as the kind's schema reads it" };
    }
    const components = (doc.components ?? {}) as Json;
    const site = info.publicUrl ?? 'http://localhost:3000';
    return {
      ...doc,
      info: {
        title: 'Halal certification portal API',
        version: info.version,
        description:
          'The portal of the national Halal authority. Errors share one body (`Error`); its messages are in the language of the request (`lang` query, cookie or Accept-Language). Unsafe calls with a session need the `x-csrf-token` header from GET /api/auth/session.',
        contact: { name: 'Halal certification portal', url: site },
        license: { name: 'Proprietary: the national Halal authority', url: site },
      },
      servers: [{ url: info.publicUrl ?? '/', description: 'This portal' }],
      paths,
      components: {
        ...components,
        schemas: {
          ...((components.schemas as Json | undefined) ?? {}),
          ...workflow.schemas,
          Error: {
            type: 'object',
            description: 'The body of every refusal (spec 01 section 8).',
            required: ['error'],
            properties: {
              error: {
                type: 'object',
                required: ['code', 'message'],
                properties: {
                  code: { type: 'string', description: 'The application error code' },
                  message: { type: 'string', description: 'What went wrong, in the language of the request' },
                  params: { ...MESSAGE_PARAMS, description: 'The values `message` shows (the text `errors:<code>` of locales/<lang>/errors.json), to say it in another language' },
                  validationErrors: {
                    type: 'array',
                    items: {
                      type: 'object',
                      required: ['message', 'members', 'key', 'params'],
                      properties: {
                        message: { type: 'string' },
                        members: { type: 'array', items: { type: 'string' } },
                        key: { type: 'string', description: 'The text of `message`: namespace:key of locales/<lang>/*.json' },
                        params: { ...MESSAGE_PARAMS, description: 'The values `message` shows' },
                      },
                    },
                  },
                },
              },
            },
          },
        },
        responses: Object.fromEntries(
          Object.entries(ERROR_ANSWERS).map(([status, description]) => [`Error${status}`, { description, content: { 'application/json': { schema: ERROR } } }]),
        ),
        securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'halal_session', description: 'The session cookie set by POST /api/auth/login' } },
      },
    };
  }

  private finishOperation(op: Operation, route: RouteDoc): void {
    const publicRoute = route.policy === 'public';
    op.operationId ??= operationIdOf(route.method, route.url);
    op.summary ??= `${route.method === 'GET' ? 'Read' : route.method === 'DELETE' ? 'Remove' : 'Send'} ${words(route.url).filter((w) => w !== 'by').join(' ')}`;
    op.description ??= `Who may call it: ${whoMayCall(route.policy)}`;
    if (!op.tags) op.tags = [words(route.url)[0] ?? 'api'];
    op.security = publicRoute ? [] : [{ session: [] }];
    const parameters = (op.parameters ??= []);
    if (!publicRoute && route.csrf !== false && (UNSAFE.has(route.method) || route.csrf === 'always'))
      parameters.push({ in: 'header', name: 'x-csrf-token', required: true, description: 'The CSRF token of the session (GET /api/auth/session)', schema: { type: 'string' } });
    if (route.recaptchaHeader)
      parameters.push({ in: 'header', name: 'recaptcha-token', required: true, description: 'The reCAPTCHA token of the page', schema: { type: 'string' } });
    if (!parameters.length) delete op.parameters;

    const responses = (op.responses ??= {});
    // Every error answer is the one named body: the route's own inline copies become references.
    const errors = new Set(['400', '403', '404', '414', '429', '500']);
    if (!publicRoute) errors.add('401');
    if (UNSAFE.has(route.method)) ['409', '413'].forEach((s) => errors.add(s));
    for (const status of Object.keys(responses)) if (Number(status) >= 400) errors.add(status);
    for (const status of [...errors].sort())
      responses[status] = ERROR_ANSWERS[status]
        ? { $ref: `#/components/responses/Error${status}` }
        : { description: 'Refused', content: { 'application/json': { schema: ERROR } } };
    if (route.redirect) responses[String(route.redirect)] = { description: 'Redirects the browser', headers: { Location: { description: 'Where to', schema: { type: 'string' } } } };
    if (route.produces) {
      const ok = (responses['200'] ??= { description: 'The file' });
      ok.content = { [route.produces === '*' ? 'application/octet-stream' : route.produces]: { schema: { type: 'string', format: 'binary' } } };
    }
  }

  /** The statuses and media types an operation declares (for the traffic check). */
  static declared(doc: Json, method: string, url: string): { statuses: string[]; mediaTypes: Record<string, string[]> } | null {
    const op = ((doc.paths as Record<string, Record<string, Operation>> | undefined)?.[openApiPath(url)] ?? {})[method.toLowerCase()];
    if (!op) return null;
    const responses = op.responses ?? {};
    const mediaTypes: Record<string, string[]> = {};
    for (const [status, r] of Object.entries(responses)) {
      const resolved = typeof r.$ref === 'string' ? { content: { 'application/json': {} } } : r;
      mediaTypes[status] = Object.keys((resolved.content as Json | undefined) ?? {});
    }
    return { statuses: Object.keys(responses), mediaTypes };
  }
}
