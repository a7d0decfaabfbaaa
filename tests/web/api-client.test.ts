import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pendingRequests } from '../../web/src/api/activity';
import { api, buildUrl, configureApi, data, type ApiProblem } from '../../web/src/api/client';
import { ApiError, messagesOf } from '../../web/src/api/errors';

/** The web's HTTP client: what it sends, how it counts calls for the loader, and how failures reach the shell. */

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: unknown;
}

let sent: Sent[];
let replies: Response[];
let problems: ApiProblem[];
let csrf: string;

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  sent = [];
  replies = [];
  problems = [];
  csrf = 'token-1';
  vi.stubGlobal('fetch', async (request: Request) => {
    const body = await request.text();
    sent.push({ url: request.url, method: request.method, headers: Object.fromEntries(request.headers), body: body || undefined });
    return replies.shift() ?? json(200, {});
  });
  configureApi({
    language: () => 'en',
    csrfToken: () => csrf,
    refreshCsrfToken: async () => {
      csrf = 'token-2';
    },
    onProblem: (p) => problems.push(p),
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('api client', () => {
  it('sends the UI language on every call and the CSRF token on writes only', async () => {
    await api.GET('/api/requests/{id}', { params: { path: { id: 'r1' } } });
    await api.POST('/api/requests/{id}/events', { params: { path: { id: 'r1' } }, body: { type: 'SUBMIT' as const, expectedVersion: 1 } });
    expect(new URL(sent[0].url).pathname).toBe('/api/requests/r1');
    expect(sent[0].headers['accept-language']).toBe('en');
    expect(sent[0].headers['x-csrf-token']).toBeUndefined();
    expect(sent[1].headers['x-csrf-token']).toBe('token-1');
    expect(sent[1].headers['content-type']).toBe('application/json');
    expect(sent[1].body).toBe('{"type":"SUBMIT","expectedVersion":1}');
  });

  it('sends no body (and no JSON content type) for a write without one', async () => {
    await api.POST('/api/auth/logout');
    expect(sent[0].body).toBeUndefined();
    expect(sent[0].headers['content-type']).toBeUndefined();
  });

  it('counts calls for the full-page loader, except silent ones, and always counts them down', async () => {
    let seen = -1;
    vi.stubGlobal('fetch', async () => {
      seen = pendingRequests.get();
      return json(500, { error: { code: 'InternalError', message: 'x' } });
    });
    await expect(api.GET('/api/auth/session')).rejects.toBeInstanceOf(ApiError);
    expect(seen).toBe(1);
    expect(pendingRequests.get()).toBe(0);
    await expect(api.GET('/api/auth/session', { silent: true })).rejects.toBeInstanceOf(ApiError);
    expect(seen).toBe(0);
    expect(pendingRequests.get()).toBe(0);
  });

  it('reports failures to the shell unless the caller handles them', async () => {
    replies.push(json(404, { error: { code: 'NotFound', message: 'Not here' } }));
    await expect(api.GET('/api/requests/{id}', { params: { path: { id: 'x' } } })).rejects.toMatchObject({ status: 404, code: 'NotFound', serverMessage: 'Not here' });
    expect(problems.map((p) => p.error.status)).toEqual([404]);

    replies.push(json(401, { error: { code: 'InvalidCredentials', message: 'Wrong' } }));
    await expect(api.POST('/api/auth/login', { body: { userName: 'a', password: 'b' }, handleErrors: [401] })).rejects.toMatchObject({ status: 401 });
    replies.push(json(409, { error: { code: 'ConcurrencyConflict', message: 'Changed' } }));
    const event = { params: { path: { id: 'r1' } }, body: { type: 'SUBMIT' as const, expectedVersion: 1 } };
    await expect(api.POST('/api/requests/{id}/events', { ...event, handleErrors: false })).rejects.toMatchObject({ status: 409 });
    expect(problems).toHaveLength(1);
  });

  it('gets a fresh CSRF token and retries a write once when the token was refused', async () => {
    replies.push(json(403, { error: { code: 'CsrfInvalid', message: 'expired' } }), json(200, { ok: true }));
    const event = { params: { path: { id: 'r1' } }, body: { type: 'SUBMIT' as const, expectedVersion: 1 } };
    await expect(data(api.POST('/api/requests/{id}/events', event))).resolves.toEqual({ ok: true });
    expect(sent.map((s) => s.headers['x-csrf-token'])).toEqual(['token-1', 'token-2']);
    expect(sent[1].body).toBe(sent[0].body);
    expect(problems).toEqual([]);
  });

  it('turns an unreachable server into status 0', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(api.GET('/api/auth/session')).rejects.toMatchObject({ status: 0, code: 'NetworkError' });
    expect(problems.map((p) => p.error.status)).toEqual([0]);
  });

  it('builds query strings, repeating list values and skipping empty ones', () => {
    expect(buildUrl('/api/Facility/GetUserFacilities', { facilityType: 1, searchText: 'al marai', pageNumber: 2, skip: undefined, ids: ['a', 'b'] })).toBe(
      '/api/Facility/GetUserFacilities?facilityType=1&searchText=al+marai&pageNumber=2&ids=a&ids=b',
    );
  });
});

describe('messages of a failed call (spec 01 section 8)', () => {
  const t = ((key: string) => `t:${key}`) as never;
  it('lists each validation message of a 400, else the message, else "Bad request!"', () => {
    const withList = new ApiError(400, 'ValidationFailed', 'The request is not valid.', [
      { message: 'This field is required', members: ['name'] },
      { message: 'Email format is invalid', members: ['email'] },
    ]);
    expect(messagesOf(withList, t)).toEqual(['This field is required', 'Email format is invalid']);
    expect(messagesOf(new ApiError(400, 'BadRequest', 'Plain'), t)).toEqual(['Plain']);
    expect(messagesOf(new ApiError(400, 'BadRequest', ''), t)).toEqual(['t:shell:http.badRequest']);
  });
  it('falls back to "Unauthorized!" for 403, "Bad request!" for 404 and "An error occurred!" otherwise', () => {
    expect(messagesOf(new ApiError(403, 'NotAuthorized', ''), t)).toEqual(['t:shell:http.unauthorized']);
    expect(messagesOf(new ApiError(404, 'NotFound', ''), t)).toEqual(['t:shell:http.badRequest']);
    expect(messagesOf(new ApiError(409, 'ConcurrencyConflict', ''), t)).toEqual(['t:shell:http.generic']);
    expect(messagesOf(new ApiError(409, 'ConcurrencyConflict', 'Changed by another user'), t)).toEqual(['Changed by another user']);
  });
});
