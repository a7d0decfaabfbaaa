import type { TFunction } from 'i18next';

/**
 * Form messages (spec 01 section 5) are keys of locales/<lang>/validation.json with i18next parameters, so the
 * web and the server show the same words. A zod schema names its key as the issue message
 * (`z.string().min(3, 'nameLike')`); other issues map to the generic keys below, like the server does
 * (server/plugins/errors.ts).
 */
export interface FieldMessage {
  key: string;
  params?: Record<string, unknown>;
}

/**
 * A message shown for a refusal or a field: a key with its parameters, put into words when shown so that it follows a
 * language switch, or the server's text when the server gave no key.
 */
export type Said = FieldMessage | string;

/**
 * A field's message in the reader's language: a key with its parameters, of the validation namespace unless it names
 * its own (`shell:account.register.mismatch`), or the server's text, already localized, shown as it is. The one place a
 * FieldMessage becomes words (FormField, FieldErrorText).
 */
export function messageText(t: TFunction, message: Said): string {
  return typeof message === 'string' ? message : t(message.key, { ...message.params, ns: 'validation' });
}

/** The shape of a zod 4 issue that matters here (kept structural so this file does not depend on zod). */
export interface IssueLike {
  code?: string;
  message: string;
  path?: PropertyKey[];
  input?: unknown;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  format?: string;
}

const KEY = /^[a-zA-Z][\w.]*$/;

export function messageOfIssue(issue: IssueLike): FieldMessage {
  if (KEY.test(issue.message) && !issue.message.includes(' ')) return { key: issue.message, params: { min: issue.minimum, max: issue.maximum } };
  if (issue.code === 'invalid_type' && (issue.input === undefined || issue.input === null || issue.input === '')) return { key: 'required' };
  if (issue.code === 'too_small') {
    if (issue.origin === 'string' && Number(issue.minimum) === 1) return { key: 'required' };
    return { key: issue.origin === 'string' || issue.origin === 'array' ? 'minLength' : 'min', params: { min: Number(issue.minimum) } };
  }
  if (issue.code === 'too_big') return { key: issue.origin === 'string' || issue.origin === 'array' ? 'maxLength' : 'max', params: { max: Number(issue.maximum) } };
  if (issue.code === 'invalid_format' && issue.format === 'email') return { key: 'email' };
  return { key: 'invalid' };
}

/** One message per field (the first issue of each dotted path), ready for FormField's `error`. */
export function fieldMessages(issues: readonly IssueLike[]): Record<string, FieldMessage> {
  const out: Record<string, FieldMessage> = {};
  for (const issue of issues) {
    const path = (issue.path ?? []).map(String).join('.');
    out[path] ??= messageOfIssue(issue);
  }
  return out;
}

/** One of the server's 400 `validationErrors` as its key and parameters, or its text when it came without a key. */
export const validationSaid = (v: { message: string; key?: string; params?: Record<string, unknown> }): Said =>
  v.key ? { key: v.key, ...(v.params && { params: v.params }) } : v.message;

/** The server's 400 `validationErrors` by field, for forms that show them next to inputs. */
export function serverFieldMessages(validationErrors: readonly { message: string; members: string[]; key?: string; params?: Record<string, unknown> }[]): Record<string, Said> {
  const out: Record<string, Said> = {};
  for (const v of validationErrors) for (const m of v.members.length ? v.members : ['']) out[m] ??= validationSaid(v);
  return out;
}
