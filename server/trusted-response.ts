import type { FastifyRouteSchemaDef } from 'fastify/types/schema';
import { serializerCompiler } from 'fastify-type-provider-zod';

/**
 * The serialiser of a route whose success body the server builds itself from typed code (the type provider checks the
 * handler's return against the response schema when the code compiles). A 2xx body goes out with JSON.stringify: no
 * zod pass over the whole body on every call. On POST /api/requests/:id/events that pass walked the request's data
 * and was a large share of the call's CPU (issue 18, docs/performance-log.md). Refusals keep the zod serialiser, and the
 * response schema still describes the body in the OpenAPI document.
 */
export const trustedSuccess = <T>(route: FastifyRouteSchemaDef<T>): ((data: unknown) => string) =>
  String(route.httpStatus).startsWith('2') ? (data) => JSON.stringify(data) : serializerCompiler(route as Parameters<typeof serializerCompiler>[0]);
