import { trackRequest } from './activity';
import { ApiError, apiErrorFromBody } from './errors';

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue | QueryValue[]>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
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
}

const settings: ApiSettings = {
  language: () => document.documentElement.lang || 'ar',
  csrfToken: () => undefined,
  refreshCsrfToken: async () => undefined,
  onProblem: () => undefined,
};

/** Wires the client to the session and the shell; called once at start-up (main.tsx, session store). */
export function configureApi(partial: Partial<ApiSettings>): void {
  Object.assign(settings, partial);
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function buildUrl(path: string, query?: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const v of [value].flat()) if (v !== undefined && v !== null) params.append(key, String(v));
  }
  const qs = params.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}

async function parseBody(res: Response): Promise<unknown> {
  if (res.status === 204) return undefined;
  const text = await res.text();
  if (!text) return undefined;
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function shellHandles(options: RequestOptions, status: number): boolean {
  const h = options.handleErrors ?? true;
  return Array.isArray(h) ? !h.includes(status) : h;
}

async function send<T>(method: string, path: string, body: unknown, options: RequestOptions, retried = false): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', 'accept-language': settings.language(), ...options.headers };
  let payload: BodyInit | undefined;
  if (body instanceof FormData || body instanceof Blob) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const token = settings.csrfToken();
  if ((UNSAFE.has(method) || options.csrf) && token) headers['x-csrf-token'] = token;

  const done = options.silent ? () => undefined : trackRequest();
  let res: Response;
  try {
    res = await fetch(buildUrl(path, options.query), { method, headers, body: payload, credentials: 'same-origin', signal: options.signal });
  } catch (e) {
    done();
    if ((e as Error).name === 'AbortError') throw e;
    const error = new ApiError(0, 'NetworkError', '');
    if (shellHandles(options, 0)) settings.onProblem({ error, method, path });
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = await parseBody(res);
  } finally {
    done();
  }
  if (res.ok) return parsed as T;

  const error = apiErrorFromBody(res.status, parsed);
  // A rotated CSRF secret is not the user's fault: fetch a fresh token and try the write once more.
  if (error.code === 'CsrfInvalid' && !retried) {
    await settings.refreshCsrfToken();
    return send<T>(method, path, body, options, true);
  }
  if (shellHandles(options, res.status)) settings.onProblem({ error, method, path });
  throw error;
}

/** The one HTTP client of the web app: JSON in and out, CSRF, language, loader counting and error reporting. */
export const api = {
  get: <T>(path: string, options: RequestOptions = {}) => send<T>('GET', path, undefined, options),
  delete: <T>(path: string, options: RequestOptions = {}) => send<T>('DELETE', path, undefined, options),
  post: <T>(path: string, body?: unknown, options: RequestOptions = {}) => send<T>('POST', path, body, options),
  put: <T>(path: string, body?: unknown, options: RequestOptions = {}) => send<T>('PUT', path, body, options),
  patch: <T>(path: string, body?: unknown, options: RequestOptions = {}) => send<T>('PATCH', path, body, options),
};
