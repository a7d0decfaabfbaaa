import { useEffect, useRef } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import { apiQuery, type ApiResponse } from '../../api/query';
import type { paths } from '../../api/schema.gen';
import type { ParamsOf } from '../../route-params';

/** The shapes of the workflow calls, from the API document (server/modules/requests/schemas.ts is the truth). */
export type RequestDetail = ApiResponse<'/api/requests/{id}'>;
export type RequestSummary = ApiResponse<'/api/queues/{queue}'>['items'][number];
export type RequestStatus = RequestDetail['status'];
export type RequestClockView = NonNullable<RequestDetail['clock']>;
export type RequestContextView = RequestDetail['context'];
export type HistoryItem = ApiResponse<'/api/requests/{id}/history'>['items'][number];
export type ActionsView = ApiResponse<'/api/requests/{id}/actions'>;
export type AllowedActionView = ActionsView['actions'][number];
export type QueuePage = ApiResponse<'/api/queues/{queue}'>;
export type StaffUser = ApiResponse<'/api/app/halal-user/get-all-users-by-permission-name'>[number];

export const requestPath = (id: string) => `/requests/${id}`;

/**
 * The reads of the request page that need nothing but the request id. The route's loader starts them together; the
 * page and its panels read them from the cache. After the request's version changes (an event, the payment poll),
 * the page reads the others again (RequestPage).
 */
export const requestQueries = (id: string) => {
  const path = { params: { path: { id } } };
  return {
    request: apiQuery('/api/requests/{id}', path),
    actions: apiQuery('/api/requests/{id}/actions', path),
    history: apiQuery('/api/requests/{id}/history', path),
    bills: apiQuery('/api/bills', { params: { query: { requestId: id, pageSize: 20 } } }),
  };
};

/** Loader of requests/$requestId: the page's independent calls in parallel (a failure shows as the page would). */
export async function loadRequestPage({ requestId }: ParamsOf<'requests/$requestId'>, queryClient: QueryClient): Promise<void> {
  await Promise.all(Object.values(requestQueries(requestId)).map((q) => queryClient.prefetchQuery(q as never)));
}

/**
 * The reads that follow a request's version (its actions, history, bills...): read again when the version changes
 * (an event sent here, the payment poll), as the request itself was just read.
 */
export function useReadAgainOnNewVersion(version: number | undefined, queries: { queryKey: readonly unknown[] }[]): void {
  const queryClient = useQueryClient();
  const shown = useRef(version);
  useEffect(() => {
    if (version === undefined || shown.current === version) return;
    const first = shown.current === undefined;
    shown.current = version;
    if (!first) for (const q of queries) void queryClient.invalidateQueries({ queryKey: q.queryKey.slice(0, 2) });
    // The queries are named by the request id, which does not change while the version does.
  }, [version]);
}

/**
 * Sends an event with the version the page showed; a stale version comes back as 409 (someone else acted). The type
 * comes from the server's allowed actions and the payload from a form, so the server's check of the pair is the one
 * that counts (the document types each event's payload: `EventBody`).
 */
export function sendEvent(id: string, type: string, expectedVersion: number, payload: Record<string, unknown> = {}) {
  const body = { type, expectedVersion, payload } as EventBody;
  return data(api.POST('/api/requests/{id}/events', { params: { path: { id } }, body }));
}
export type EventBody = NonNullable<paths['/api/requests/{id}/events']['post']['requestBody']>['content']['application/json'];

/** Staff who hold a permission (assign to an employee, plan auditors). */
export function staffWith(permission: string) {
  return data(api.GET('/api/app/halal-user/get-all-users-by-permission-name', { params: { query: { permission } } }));
}
