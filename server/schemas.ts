import { z } from 'zod';
import { searchTerm } from '../machines/visible-text';

/** A message's parameters: the plain values its text shows (server/plugins/errors.ts). */
const ZMessageParams = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));

/** The error body of every refusal (see server/plugins/errors.ts). Use it in each route's response schemas. */
export const ZErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    params: ZMessageParams.optional(),
    validationErrors: z.array(z.object({ message: z.string(), members: z.array(z.string()), key: z.string(), params: ZMessageParams })).optional(),
  }),
});

/** Standard error responses to spread into a route's `response` schema. */
export const errorResponses = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody, 409: ZErrorBody };

/** A file answer's body (its media type is the route's `config.produces`, see server/openapi.ts). */
export const ZFile = z.unknown().describe('the file content');

/**
 * A list's search or filter text, the same on every door: at most `max` characters as sent, then without direction
 * marks and control characters (a pasted number carries them) and trimmed; empty is no filter.
 */
export const zSearchText = (max: number) =>
  z
    .string()
    .max(max)
    .optional()
    .transform((v) => (v === undefined ? undefined : searchTerm(v) || undefined));
