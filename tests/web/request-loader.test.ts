import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { configureApi } from '../../web/src/api/client';
import { queryClient } from '../../web/src/api/query';
import { loadRequestPage, requestQueries } from '../../web/src/routes/requests/requests-api';

/**
 * Issue 16 item 5: the request page's independent reads start together from its route's loader (not request, then
 * actions, then history), and land in the cache the page reads from.
 */
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

let started: string[];
let release: () => void;

beforeEach(() => {
  started = [];
  queryClient.clear();
  const held = new Promise<void>((resolve) => (release = resolve));
  configureApi({ language: () => 'en', onProblem: () => undefined });
  vi.stubGlobal('fetch', async (request: Request) => {
    const { pathname, search } = new URL(request.url);
    started.push(pathname + search);
    // The request's own answer is held back: anything that waited for it would not have started yet.
    if (pathname === '/api/requests/r1') await held;
    return json(pathname === '/api/requests/r1' ? { id: 'r1', version: 3 } : { items: [], actions: [] });
  });
});
afterEach(() => vi.unstubAllGlobals());

it('starts the request, its actions, its history and its bills at once, and caches them', async () => {
  const loading = loadRequestPage({ requestId: 'r1' }, queryClient);
  await vi.waitFor(() => expect(started).toHaveLength(4));
  expect(started).toEqual(
    expect.arrayContaining(['/api/requests/r1', '/api/requests/r1/actions', '/api/requests/r1/history', '/api/bills?requestId=r1&pageSize=20']),
  );
  release();
  await loading;
  expect(queryClient.getQueryData(requestQueries('r1').request.queryKey)).toEqual({ id: 'r1', version: 3 });

  // A second visit within the cache's freshness reads nothing again.
  await loadRequestPage({ requestId: 'r1' }, queryClient);
  expect(started).toHaveLength(4);
});
