import { keepPreviousData, QueryClient, queryOptions, useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MaybeOptionalInit } from 'openapi-fetch';
import { api, apiLanguage, data, type CallOptions } from './client';
import type { ApiError } from './errors';
import type { paths } from './schema.gen';

/**
 * Reads through TanStack Query (issue 16 item 5): cached, shared between a route's loader and its screen, so a page's
 * independent calls start together in the loader and the screen renders from the cache.
 *
 * Query key of a GET: `[path template, init, language]`, e.g. ['/api/requests/{id}', { params: { path: { id } } }, 'ar'].
 * The language is part of it because answers carry server texts (labels, messages) in the caller's language;
 * switching the language reads again. Invalidate by prefix: `queryClient.invalidateQueries({ queryKey: [path] })`.
 * Every successful write marks all cached reads stale (client.ts afterWrite): they are read again when next shown.
 */

declare module '@tanstack/react-query' {
  interface Register {
    defaultError: ApiError;
  }
}

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
type OkContent<R> = R extends { 200: { content: { 'application/json': infer T } } }
  ? T
  : R extends { 201: { content: { 'application/json': infer T } } }
    ? T
    : R extends { 200: { content: Record<string, infer T> } }
      ? T
      : undefined;

/** The success answer of an operation, e.g. `ApiResponse<'/api/requests/{id}', 'get'>`. */
export type ApiResponse<P extends keyof paths, M extends Method = 'get'> = paths[P][M] extends { responses: infer R } ? OkContent<R> : never;

/** Paths that answer a GET. */
export type GetPath = { [P in keyof paths]: paths[P] extends { get: object } ? P : never }[keyof paths];

/** The init of a GET (params) plus the client's own options; required when the path has required parameters. */
export type GetInit<P extends GetPath> = NonNullable<MaybeOptionalInit<paths[P], 'get'>> & CallOptions;
type GetArgs<P extends GetPath> = undefined extends MaybeOptionalInit<paths[P], 'get'> ? [init?: GetInit<P>] : [init: GetInit<P>];

/** The query options of a GET: for `useApi`, loaders (`queryClient.ensureQueryData`) and polls. */
export function apiQuery<P extends GetPath>(path: P, ...[init]: GetArgs<P>) {
  return queryOptions({
    queryKey: [path, init ?? {}, apiLanguage()] as const,
    queryFn: ({ signal }) => data(api.GET(path as never, { ...init, signal } as never)) as Promise<ApiResponse<P>>,
  });
}

/** The one QueryClient of the app (main.tsx provides it; the router passes it to loaders). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A loader's answer is still fresh when its screen mounts a moment later; writes mark everything stale anyway.
      staleTime: 5_000,
      // The client already told the shell (message or error screen); asking again would show it twice.
      retry: false,
      retryOnMount: false,
      refetchOnWindowFocus: false,
    },
  },
});

/** After a write, what was read before may have changed (a status, a list): read it again when it is next shown. */
export const markReadsStale = () => void queryClient.invalidateQueries({ refetchType: 'none' });

/**
 * A read on a screen, from its query options: `useApi(apiQuery('/api/requests/{id}', { params: { path: { id } } }))`,
 * with TanStack's options second (`enabled`, `refetchInterval`...). Re-renders on a language change and reads again in
 * the new language, keeping the previous answer on screen meanwhile.
 */
export function useApi<T, K extends QueryKey>(query: UseQueryOptions<T, ApiError, T, K>, options: Omit<UseQueryOptions<T, ApiError, T, K>, 'queryKey' | 'queryFn'> = {}) {
  useTranslation();
  return useQuery({ placeholderData: keepPreviousData, ...options, ...query });
}
