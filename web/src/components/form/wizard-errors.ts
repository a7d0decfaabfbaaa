import { ApiError, refusalOf } from '../../api/errors';
import { validationSaid, type Said } from './validation-messages';

/**
 * A wizard's field errors by dotted path (`products.2.netWeight`, or the step's name for the step as a whole): a
 * validation key with its parameters (the step's rules, a step check, the server's 400: "between {{min}} and {{max}}"
 * keeps its numbers until shown, so a language switch says it again), or the server's text when it gave no key. Both
 * wizards build them only here.
 */
export type Errors = Record<string, Said>;

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
  for (const v of e.validationErrors) for (const m of v.members) out[m] ??= validationSaid(v);
  return out;
}

/** A 400 answer's messages about no field (shown above a step's inputs). */
export function generalMessages(e: unknown): Said[] {
  return e instanceof ApiError ? e.validationErrors.filter((v) => v.members.length === 0).map(validationSaid) : [];
}

/** A refusal's messages for a wizard's banner: each validation message, or, without any, the refusal's own. */
export function refusalMessages(e: unknown): Said[] {
  if (!(e instanceof ApiError)) return [];
  return e.validationErrors.length ? e.validationErrors.map(validationSaid) : [refusalOf(e)].filter(Boolean);
}

/** The messages once each (a rule across sections may say the same for several fields). */
export function distinctMessages(messages: readonly Said[]): Said[] {
  const seen = new Map<string, Said>();
  for (const m of messages) seen.set(JSON.stringify(m), m);
  return [...seen.values()];
}
