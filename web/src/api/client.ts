import createClient, { type Middleware } from 'openapi-fetch';
import { trackRequest } from './activity';
import { ApiError, apiErrorFromBody } from './errors';
import type { paths } from './schema.gen';

/**
 * How to call the API (issue 16 item 5): every call goes through `api`, the openapi-fetch client typed by
 * schema.gen.ts (`npm run api:types` regenerates it from the server's document). Paths are the document's templates,
 * parameters and bodies are checked against it and the answer is typed:
 *
 *   const request = await data(api.GET('/api/requests/{id}', { params: { path: { id } } }));
 *   await data(api.POST('/api/requests/{id}/events', { params: { path: { id } }, body: { type, expectedVersion, payload } }));
 *
 * A failed call rejects with an ApiError (so `data()` only ever sees an answer); reads on a screen use the query
 * layer (query.ts: apiQuery/useApi), which caches and lets route loaders start a page's calls in parallel.
 * Besides openapi-fetch's own options a call may pass the CallOptions below, e.g. `{ params, silent: true }`.
 */
export interface CallOptions {
  /** Don't count this call for the full-page loader (background polls, keep-alive pings). */
  silent?: boolean;
  /**
   * Who reacts to a failure. `true` (default): the shell does (spec 01 section 8: 400 and other codes as a message,
   * 401/403/404/500 as the full error screen), and the call still rejects. `false`: only reject, the caller shows
   * what it wants. A list of statuses: the caller handles those, the shell the rest.
   */
  handleErrors?: boolean | number[];
  /** Send the CSRF token on a GET too: the spec's one GET that changes state (the circular letter) needs it. */
  csrf?: boolean;
}

/** What the shell is told about a failed call it should show. */
export interface ApiProblem {
  error: ApiError;
  method: string;
  path: string;
}

interface ApiSettings {
  /** The UI language, sent as Accept-Language so server messages come back in it. */
  language: () => string;
  /** The CSRF token of the session (GET /api/auth/session), sent on writes. */
  csrfToken: () => string | undefined;
  /** Gets a fresh CSRF token after the server refused one (e.g. the csrf cookie was rotated). */
  refreshCsrfToken: () => Promise<void>;
  onProblem: (problem: ApiProblem) => void;
  /** After a write succeeded: cached reads may be out of date (query.ts marks them stale). */
  afterWrite: () => void;
  /** Sends a call; the browser's fetch, or the server's in-process one when it prerenders a page (prerender/render.tsx). */
  fetch: (request: Request) => Promise<Response>;
}

const settings: ApiSettings = {
  language: () => document.documentElement.lang || 'ar',
  csrfToken: () => undefined,
  refreshCsrfToken: async () => undefined,
  onProblem: () => undefined,
  afterWrite: () => undefined,
  fetch: (request) => globalThis.fetch(request),
};

/** The language the calls ask for (query keys include it: server texts come back in it). */
export const apiLanguage = (): string => settings.language();

/** Wires the client to the session and the shell; called once at start-up (main.tsx, session store). */
export function configureApi(partial: Partial<ApiSettings>): void {
  Object.assign(settings, partial);
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** openapi-fetch copies a call's extra options onto its Request; this is how the middleware reads them. */
type CallRequest = Request & CallOptions;

function shellHandles(options: CallOptions, status: number): boolean {
  const h = options.handleErrors ?? true;
  return Array.isArray(h) ? !h.includes(status) : h;
}

async function errorOf(res: Response): Promise<ApiError> {
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return apiErrorFromBody(res.status, body);
}

/** Per call in flight: the loader count to release, and a copy of the request for the one CSRF retry. */
const inFlight = new Map<string, { done: () => void; copy: Request | undefined }>();

function withCsrf(request: Request, options: CallOptions): Request {
  const token = settings.csrfToken();
  if ((UNSAFE.has(request.method) || options.csrf) && token) request.headers.set('x-csrf-token', token);
  return request;
}

/** Everything the web adds to a call: language, CSRF (and the one retry), loader counting, errors to the shell. */
export const portalMiddleware: Middleware = {
  onRequest({ request, id }) {
    const r = request as CallRequest;
    request.headers.set('accept', 'application/json');
    request.headers.set('accept-language', settings.language());
    withCsrf(request, r);
    inFlight.set(id, { done: r.silent ? () => undefined : trackRequest(), copy: UNSAFE.has(request.method) ? request.clone() : undefined });
    return request;
  },
  async onResponse({ request, response, id, options }) {
    const r = request as CallRequest;
    const call = inFlight.get(id);
    inFlight.delete(id);
    try {
      let res = response;
      if (!res.ok) {
        let error = await errorOf(res);
        // A rotated CSRF secret is not the user's fault: fetch a fresh token and try the write once more.
        if (error.code === 'CsrfInvalid' && call?.copy) {
          await settings.refreshCsrfToken();
          res = await options.fetch(withCsrf(call.copy, r));
          if (!res.ok) error = await errorOf(res);
        }
        if (!res.ok) {
          if (shellHandles(r, res.status)) settings.onProblem({ error, method: request.method, path: new URL(request.url).pathname });
          throw error;
        }
      }
      if (UNSAFE.has(request.method)) settings.afterWrite();
      return res;
    } finally {
      call?.done();
    }
  },
  onError({ request, error, id }) {
    inFlight.get(id)?.done();
    inFlight.delete(id);
    if ((error as Error).name === 'AbortError' || error instanceof ApiError) return;
    const networkError = new ApiError(0, 'NetworkError', '');
    if (shellHandles(request as CallRequest, 0)) settings.onProblem({ error: networkError, method: request.method, path: new URL(request.url).pathname });
    return networkError;
  },
};

/** The one HTTP client of the web app, typed by the API document (see the comment at the top). */
export const api = createClient<paths>({
  baseUrl: typeof window === 'undefined' ? 'http://localhost' : window.location.origin,
  credentials: 'same-origin',
  // Resolved per call so tests (and the browser's own fetch) can be swapped in.
  fetch: (request) => settings.fetch(request),
});
api.use(portalMiddleware);

/** The answer of a call (failed calls reject before this), e.g. `await data(api.GET('/api/x'))`. */
export async function data<R extends { data?: unknown }>(call: Promise<R>): Promise<ResponseData<R>> {
  return (await call).data as ResponseData<R>;
}
type ResponseData<R> = R extends { data: infer D } ? D : never;

type QueryValue = string | number | boolean | null | undefined;

/** A same-origin URL with its query (links the browser opens itself, e.g. a download), undefined values left out. */
export function buildUrl(path: string, query?: Record<string, QueryValue | QueryValue[]>): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const v of [value].flat()) if (v !== undefined && v !== null) params.append(key, String(v));
  }
  const qs = params.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}
