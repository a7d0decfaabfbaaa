import { ApiError } from '../../api/errors';
import type { FieldMessage } from './validation-messages';

/**
 * A wizard's field errors by dotted path (`products.2.netWeight`, or the step's name for the step as a whole): a
 * validation key with its parameters (the step's rules, a step check: "between {{min}} and {{max}}" keeps its numbers
 * until shown), or the server's 400 message, already in the reader's language. Both wizards build them only here.
 */
export type Errors = Record<string, FieldMessage | string>;

/** Issues (dotted path, validation key, parameters) as one message per field: the first of each path. */
export function issuesToErrors(issues: readonly { path: string; message: string; params?: Record<string, unknown> }[]): Errors {
  const out: Errors = {};
  for (const i of issues) out[i.path] ??= i.params ? { key: i.message, params: i.params } : { key: i.message };
  return out;
}

/** A 400 answer's `validationErrors` (their `members` are the field paths) as field errors; messages about no field are not. */
export function serverErrors(e: unknown): Errors {
  if (!(e instanceof ApiError)) return {};
  const out: Errors = {};
  for (const v of e.validationErrors) for (const m of v.members) out[m] ??= v.message;
  return out;
}
