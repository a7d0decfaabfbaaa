import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, AppErrorCode, httpStatusOf, type ValidationDetail } from '../errors';
import { shownParamsOf } from '../i18n';

/** Parameters of a message, as sent: the plain values its text shows. */
export type MessageParams = Record<string, string | number | boolean>;

/**
 * The error body (spec 01 section 8, shaped like the original portal's): the web shows each
 * `validationErrors[].message` for a 400, else `message`. `params` (of `errors:<code>`) and each validation error's
 * `key` and `params` let a client say the same message in another language after a language switch.
 */
export interface ErrorBody {
  error: {
    code: string;
    message: string;
    params?: MessageParams;
    validationErrors?: { message: string; members: string[]; key: string; params: MessageParams }[];
  };
}

/** The parameters of `params` that the text of `nsKey` shows (no other detail leaves the server), plain values only. */
function shownParams(nsKey: string, params: Record<string, unknown> | undefined): MessageParams {
  const shown = shownParamsOf(nsKey);
  const out: MessageParams = {};
  for (const [name, value] of Object.entries(params ?? {})) {
    if (!shown.has(name)) continue;
    if (typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) out[name] = value;
    else if (typeof value === 'bigint') out[name] = Number(value);
  }
  return out;
}

/** Maps zod issue codes to keys of locales/<lang>/validation.json. */
function detailOfZodIssue(issue: {
  code?: string;
  message: string;
  instancePath?: string;
  keyword?: string;
  params?: Record<string, unknown> & { issue?: Record<string, unknown> };
}): ValidationDetail {
  // fastify-type-provider-zod gives the zod issue less path, code and message as `params` (and the code as `keyword`);
  // older versions nested it as `params.issue`.
  const zi = (issue.params?.issue ?? { ...issue.params, code: issue.keyword }) as Record<string, unknown>;
  const field = ((zi.path as (string | number)[] | undefined) ?? []).join('.') || (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
  // Schemas may carry their own validation key as the message (z.string().min(3, 'minLength')), in a namespace of
  // their own if they name it ('admin:identity.passwordRule').
  const msg = String(zi.message ?? issue.message);
  if (/^([a-z]+:)?[a-zA-Z][\w.]*$/.test(msg)) return { field, message: msg, params: { ...zi, min: zi.minimum, max: zi.maximum } };
  const code = String(zi.code ?? '');
  if (code === 'invalid_type' && zi.input === undefined) return { field, message: 'required' };
  if (code === 'too_small') return { field, message: zi.origin === 'string' ? 'minLength' : 'min', params: { min: zi.minimum } };
  if (code === 'too_big') return { field, message: zi.origin === 'string' ? 'maxLength' : 'max', params: { max: zi.maximum } };
  if (code === 'invalid_format' && zi.format === 'email') return { field, message: 'email' };
  return { field, message: 'invalid' };
}

/** The body of a refusal, in the language of `t`: what every error answer sends, and what a question answers with. */
export function errorBody(t: FastifyRequest['t'], err: AppError): ErrorBody {
  const body: ErrorBody = { error: { code: String(err.code), message: t(`errors:${err.code}`, err.params) } };
  const params = shownParams(`errors:${err.code}`, err.params);
  if (Object.keys(params).length) body.error.params = params;
  if (err.details.length) {
    body.error.validationErrors = err.details.map((d) => {
      // A key may name its own namespace (machines:validation.reasonRequired); bare keys are in `validation`.
      const key = d.message.includes(':') ? d.message : `validation:${d.message}`;
      const all = { ...d.params, field: d.field };
      return { message: t(key, all), members: [d.field], key, params: shownParams(key, all) };
    });
  }
  return body;
}

export function sendError(request: FastifyRequest, reply: FastifyReply, err: AppError) {
  return reply.status(httpStatusOf(err)).send(errorBody(request.t, err));
}

export default fp(async (app) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) return sendError(request, reply, error);
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((v) => detailOfZodIssue(v as never));
      return sendError(request, reply, new AppError(AppErrorCode.ValidationFailed, {}, details));
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(request, reply, new AppError(AppErrorCode.BodyTooLarge));
    if (error.statusCode === 429) return sendError(request, reply, new AppError(AppErrorCode.TooManyRequests));
    if (error.code === 'FST_CSRF_INVALID_TOKEN' || error.code === 'FST_CSRF_MISSING_SECRET') {
      return sendError(request, reply, new AppError(AppErrorCode.CsrfInvalid));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500 && !isResponseSerializationError(error)) {
      const code = error.statusCode === 404 ? AppErrorCode.NotFound : AppErrorCode.BadRequest;
      return sendError(request, reply, new AppError(code));
    }
    // 5xx: log everything, show nothing of the internals.
    request.log.error({ err: error }, 'unhandled error');
    return sendError(request, reply, new AppError(AppErrorCode.InternalError));
  });
  app.setNotFoundHandler((request, reply) => sendError(request, reply, new AppError(AppErrorCode.NotFound)));
});
