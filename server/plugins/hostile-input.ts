import fp from 'fastify-plugin';
import { hasUnusableText } from '../../lib/hostile-text';
import { AppError, registerErrorStatus } from '../errors';

registerErrorStatus({ InputUnusableText: 400, InputTooDeep: 400 });

/** Deepest JSON nesting a request may carry (the deepest form the portal takes is about 6 levels). */
export const MAX_INPUT_DEPTH = 32;

type Problem = { code: 'InputUnusableText' | 'InputTooDeep'; field: string } | null;

/** Walks a parsed value (iteratively: a hostile depth cannot overflow the stack) and names the first problem. */
export function inputProblem(value: unknown, root: string): Problem {
  const stack: { v: unknown; path: string; depth: number }[] = [{ v: value, path: root, depth: 0 }];
  while (stack.length) {
    const { v, path, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (hasUnusableText(v)) return { code: 'InputUnusableText', field: path };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH) return { code: 'InputTooDeep', field: path };
    for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
      if (hasUnusableText(k)) return { code: 'InputUnusableText', field: path };
      stack.push({ v: child, path: path ? `${path}.${k}` : k, depth: depth + 1 });
    }
  }
  return null;
}

/**
 * Refuses, with a 400 in the caller's language, any request whose query, path parameters or JSON body holds NUL or
 * an unpaired UTF-16 surrogate, or nests deeper than MAX_INPUT_DEPTH: such input would otherwise fail in the
 * database driver or a serializer as a 500. Runs before validation and before any handler.
 */
export default fp(async (app) => {
  app.addHook('preValidation', async (request) => {
    // A query that is not valid percent-encoded UTF-8 (a lone surrogate can only travel as such bytes) is unusable text.
    const rawQuery = (request.raw.url ?? '').split('?').slice(1).join('?');
    if (rawQuery) {
      try {
        decodeURIComponent(rawQuery.replaceAll('+', ' '));
      } catch {
        throw new AppError('InputUnusableText', { field: 'query' }, [{ field: 'query', message: 'unusableText' }]);
      }
    }
    const problem =
      inputProblem(request.params, '') ?? inputProblem(request.query, '') ?? (request.body !== undefined && !Buffer.isBuffer(request.body) ? inputProblem(request.body, '') : null);
    if (problem) throw new AppError(problem.code, { field: problem.field }, [{ field: problem.field, message: problem.code === 'InputTooDeep' ? 'tooDeep' : 'unusableText', params: { max: MAX_INPUT_DEPTH } }]);
  });
});
