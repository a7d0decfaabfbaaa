import i18next, { type TFunction } from 'i18next';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageText, validationSaid, type Said } from '../components/form/validation-messages';

/**
 * One message of a 400 answer, with the fields it is about (the server's `validationErrors`): its text in the language
 * of the request, and the key and parameters that say it in the reader's language now.
 */
export interface ApiValidationError {
  message: string;
  members: string[];
  key?: string;
  params?: Record<string, unknown>;
}

/** The error body every server error has (server/plugins/errors.ts). */
export interface ApiErrorBody {
  error?: { code?: string; message?: string; params?: Record<string, unknown>; validationErrors?: ApiValidationError[] };
}

/** A failed call: `status` 0 means the server could not be reached. */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    /** The server's message, already in the caller's language; '' when the server sent none. */
    public readonly serverMessage: string,
    public readonly validationErrors: ApiValidationError[] = [],
    /** The parameters of the code's message (`errors:<code>`). */
    public readonly params: Record<string, unknown> = {},
  ) {
    super(serverMessage || `${code} (${status})`);
  }
}

export function apiErrorFromBody(status: number, body: unknown): ApiError {
  const e = (body as ApiErrorBody | null)?.error;
  const code = e?.code ?? (status >= 500 ? 'InternalError' : 'BadRequest');
  const params = e?.params && typeof e.params === 'object' ? e.params : {};
  return new ApiError(status, code, e?.message ?? '', Array.isArray(e?.validationErrors) ? e.validationErrors : [], params);
}

/**
 * A refusal's words as its key (`errors:<code>`) and parameters, or the server's text when this web has no such key;
 * '' without one. The refusal is a failed call, or the error body a question answered with (the start check's
 * `refusal`: the body the call itself would send).
 */
export function refusalOf(refusal: ApiError | NonNullable<ApiErrorBody['error']>): Said {
  const text = refusal instanceof ApiError ? refusal.serverMessage : refusal.message;
  if (!text) return '';
  const key = `errors:${refusal.code}`;
  return refusal.code && i18next.exists(key) ? { key, params: refusal.params ?? {} } : text;
}

/** Statuses shown as a full error screen rather than a message (spec 01 section 8). */
export const SCREEN_STATUSES = [401, 403, 404, 500] as const;
export type ErrorScreenStatus = (typeof SCREEN_STATUSES)[number];

export const isScreenStatus = (status: number): status is ErrorScreenStatus =>
  (SCREEN_STATUSES as readonly number[]).includes(status);

/**
 * The messages a person sees for a failed call, following spec 01 section 8: a 400 lists each validation message,
 * else the server message, else "Bad request!"; a 403 shows the message or "Unauthorized!"; a 404 the message or
 * "Bad request!"; anything else the message or "An error occurred!". Kept as keys so a screen that shows them
 * again after a language switch says them in the new language (messagesOf for words now).
 */
export function saysOf(error: ApiError): Said[] {
  if (error.status === 0) return [{ key: 'shell:http.network' }];
  const own = refusalOf(error);
  if (error.status === 400) {
    const listed = error.validationErrors.filter((v) => v.message || v.key).map(validationSaid);
    if (listed.length) return listed;
    return [own || { key: 'shell:http.badRequest' }];
  }
  if (error.status === 403) return [own || { key: 'shell:http.unauthorized' }];
  if (error.status === 404) return [own || { key: 'shell:http.badRequest' }];
  return [own || { key: 'shell:http.generic' }];
}

/** saysOf in the reader's language now. */
export const messagesOf = (error: ApiError, t: TFunction): string[] => saysOf(error).map((s) => messageText(t, s));

/**
 * The refusal a page shows itself, kept as the failed call threw it and said when drawn: `messages` are in the reader's
 * language now (none without a refusal), so a refusal already on screen follows a language switch. `refuse` keeps a
 * failed call (anything else is no refusal: the page shows none), `clear` forgets it.
 */
export function useRefusal() {
  const { t } = useTranslation();
  const [refusal, setRefusal] = useState<ApiError | null>(null);
  return {
    messages: refusal ? messagesOf(refusal, t) : [],
    refuse: useCallback((error: unknown) => setRefusal(error instanceof ApiError ? error : null), []),
    clear: useCallback(() => setRefusal(null), []),
  };
}
