import { api } from '../../api/client';

/** The shapes of the workflow calls (server/modules/requests/schemas.ts), as the web reads them. */
export interface RequestStatus {
  code: number;
  label: string;
}

export interface RequestSummary {
  id: string;
  number: string;
  kind: string;
  status: RequestStatus;
  queue: string | null;
  state: string;
  version: number;
  facilityId: string;
  ownerUserId: string;
  assigneeUserId: string | null;
  creatorName: string;
  finished: boolean;
  createdAt: string;
  updatedAt: string;
  /** Working days used against the time limit (issue 15 item 7); null for kinds without one. */
  clock?: RequestClockView | null;
}

export interface RequestClockView {
  usedDays: number;
  limitDays: number;
  warnDays: number | null;
  paused: boolean;
  stopped: boolean;
  overdue: boolean;
  warning: boolean;
}

export interface RequestDetail extends RequestSummary {
  data: Record<string, unknown>;
  context: RequestContextView;
}

/** The machine context fields the screens read (the rest is shown nowhere). */
export interface RequestContextView {
  returnedSections?: string[];
  openNonConformities?: string[];
  round?: 1 | 2;
  paymentOption?: 'yearly' | 'full' | null;
  plan?: unknown;
  nonConformities?: unknown;
  [key: string]: unknown;
}

export interface HistoryItem {
  seq: number;
  event: string;
  actor: { userId: string; name: string; system: boolean };
  note: string | null;
  payload: Record<string, unknown>;
  from: RequestStatus | null;
  to: RequestStatus;
  at: string;
}

export interface AllowedActionView {
  type: string;
  label: string;
  permission?: string;
  requiresReason: boolean;
}

export interface ActionsView {
  version: number;
  actions: AllowedActionView[];
}

export interface QueuePage {
  items: RequestSummary[];
  totalCount: number;
  pageNumber: number;
  pageSize: number;
}

export interface StaffUser {
  id: string;
  name: string;
  userName: string;
}

export const requestPath = (id: string) => `/requests/${id}`;

/** Sends an event with the version the page showed; a stale version comes back as 409 (someone else acted). */
export function sendEvent(id: string, type: string, expectedVersion: number, payload: Record<string, unknown> = {}) {
  return api.post<RequestDetail>(`/api/requests/${id}/events`, { type, expectedVersion, payload });
}

/** Staff who hold a permission (assign to an employee, plan auditors). */
export function staffWith(permission: string) {
  return api.get<StaffUser[]>('/api/app/halal-user/get-all-users-by-permission-name', { query: { permission } });
}
