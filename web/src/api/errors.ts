import type { TFunction } from 'i18next';

/** One message of a 400 answer, with the fields it is about (the server's `validationErrors`). */
export interface ApiValidationError {
  message: string;
  members: string[];
}

/** The error body every server error has (server/plugins/errors.ts). */
export interface ApiErrorBody {
  error?: { code?: string; message?: string; validationErrors?: ApiValidationError[] };
}

/** A failed call: `status` 0 means the server could not be reached. */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    /** The server's message, already in the caller's language; '' when the server sent none. */
    public readonly serverMessage: string,
    public readonly validationErrors: ApiValidationError[] = [],
  ) {
    super(serverMessage || `${code} (${status})`);
  }
}

export function apiErrorFromBody(status: number, body: unknown): ApiError {
  const e = (body as ApiErrorBody | null)?.error;
  const code = e?.code ?? (status >= 500 ? 'InternalError' : 'BadRequest');
  return new ApiError(status, code, e?.message ?? '', Array.isArray(e?.validationErrors) ? e.validationErrors : []);
}

/** Statuses shown as a full error screen rather than a message (spec 01 section 8). */
export const SCREEN_STATUSES = [401, 403, 404, 500] as const;
export type ErrorScreenStatus = (typeof SCREEN_STATUSES)[number];

export const isScreenStatus = (status: number): status is ErrorScreenStatus =>
  (SCREEN_STATUSES as readonly number[]).includes(status);

/**
 * The messages a person sees for a failed call, following spec 01 section 8: a 400 lists each validation message,
 * else the server message, else "Bad request!"; a 403 shows the message or "Unauthorized!"; a 404 the message or
 * "Bad request!"; anything else the message or "An error occurred!".
 */
export function messagesOf(error: ApiError, t: TFunction): string[] {
  if (error.status === 0) return [t('shell:http.network')];
  if (error.status === 400) {
    const listed = error.validationErrors.map((v) => v.message).filter(Boolean);
    if (listed.length) return listed;
    return [error.serverMessage || t('shell:http.badRequest')];
  }
  if (error.status === 403) return [error.serverMessage || t('shell:http.unauthorized')];
  if (error.status === 404) return [error.serverMessage || t('shell:http.badRequest')];
  return [error.serverMessage || t('shell:http.generic')];
}
