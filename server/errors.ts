/**
 * The one set of error codes. Each maps to an HTTP status and to `locales/<lang>/errors.json` (key = the code),
 * so the server answers in the caller's language and the web shows `t('errors:' + code)`.
 */
import { AppError, AppErrorCode, type ValidationDetail } from '../lib/app-error';

export { AppError, AppErrorCode, type ValidationDetail };

const STATUS: Record<string, number> = {
  BadRequest: 400,
  ValidationFailed: 400,
  NotAuthenticated: 401,
  InvalidCredentials: 401,
  SessionExpired: 401,
  NotAuthorized: 403,
  CsrfInvalid: 403,
  NotFound: 404,
  EntityNotFound: 404,
  ConcurrencyConflict: 409,
  TransitionNotAllowed: 409,
  BodyTooLarge: 413,
  TooManyRequests: 429,
  InternalError: 500,
};

/** Registers the HTTP status of a domain's own codes (e.g. 'CB-00006' -> 400). Call at module load. */
export function registerErrorStatus(codes: Record<string, number>): void {
  Object.assign(STATUS, codes);
}

export const statusOf = (code: string): number => STATUS[code] ?? 400;

/** Every error code with a registered status (each needs a message in locales/<lang>/errors.json). */
export const registeredErrorCodes = (): string[] => Object.keys(STATUS);

/** The HTTP status of an error (400 for a domain code nobody registered). */
export const httpStatusOf = (err: AppError): number => statusOf(String(err.code));
