/**
 * The one set of error codes. Each maps to an HTTP status and to `locales/<lang>/errors.json` (key = the code),
 * so the server answers in the caller's language and the web shows `t('errors:' + code)`.
 */
export const AppErrorCode = {
  BadRequest: 'BadRequest',
  ValidationFailed: 'ValidationFailed',
  NotAuthenticated: 'NotAuthenticated',
  InvalidCredentials: 'InvalidCredentials',
  SessionExpired: 'SessionExpired',
  NotAuthorized: 'NotAuthorized',
  CsrfInvalid: 'CsrfInvalid',
  NotFound: 'NotFound',
  EntityNotFound: 'EntityNotFound',
  ConcurrencyConflict: 'ConcurrencyConflict',
  TransitionNotAllowed: 'TransitionNotAllowed',
  TooManyRequests: 'TooManyRequests',
  InternalError: 'InternalError',
} as const;
export type AppErrorCode = (typeof AppErrorCode)[keyof typeof AppErrorCode] | (string & {});

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
  TooManyRequests: 429,
  InternalError: 500,
};

/** Registers the HTTP status of a domain's own codes (e.g. 'CB-00006' -> 400). Call at module load. */
export function registerErrorStatus(codes: Record<string, number>): void {
  Object.assign(STATUS, codes);
}

export const statusOf = (code: string): number => STATUS[code] ?? 400;

export interface ValidationDetail {
  /** Dotted path of the field, e.g. `products.2.netWeight`. */
  field: string;
  /** i18n key in the `validation` namespace, e.g. `required`. */
  message: string;
  params?: Record<string, unknown>;
}

/** A refusal the caller can understand; `params` fill the placeholders of the localized message. */
export class AppError extends Error {
  constructor(
    public readonly code: AppErrorCode,
    public readonly params: Record<string, unknown> = {},
    public readonly details: ValidationDetail[] = [],
  ) {
    super(code);
  }
  get status(): number {
    return statusOf(this.code);
  }
}
