/**
 * The one set of error codes and the error that carries one, with no transport attached: the engine, the database
 * code and the server all raise it; the server maps each code to an HTTP status (server/errors.ts) and to its text in
 * `locales/<lang>/errors.json` (key = the code). Neutral: imports nothing of the project.
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
  BodyTooLarge: 'BodyTooLarge',
  TooManyRequests: 'TooManyRequests',
  InternalError: 'InternalError',
} as const;
export type AppErrorCode = (typeof AppErrorCode)[keyof typeof AppErrorCode] | (string & {});

export interface ValidationDetail {
  /** Dotted path of the field, e.g. `products.2.netWeight`. */
  field: string;
  /** i18n key in the `validation` namespace, e.g. `required` (or a namespaced key, `machines:validation.x`). */
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
}
