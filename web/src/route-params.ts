import { useParams } from '@tanstack/react-router';

/**
 * Typed route params (issue 16 item 5). A route's path in the table (router.tsx) names its params; a screen reads them
 * with the same path, so a misspelt name does not compile:
 *
 *   const { requestId } = useRouteParams('requests/$requestId');
 *
 * and a route's loader gets the same type: `loader: (params: ParamsOf<'requests/$requestId'>, queryClient) => ...`.
 */
export type ParamsOf<Path extends string> = Path extends `${infer Head}/${infer Rest}`
  ? ParamsOf<Head> & ParamsOf<Rest>
  : Path extends `$${infer Name}`
    ? { [K in Name]: string }
    : unknown;

/** The params of the route at `path` (a path of the route table); throws when the screen is shown on another route. */
export function useRouteParams<Path extends string>(path: Path): ParamsOf<Path> {
  const params = useParams({ strict: false }) as Record<string, string | undefined>;
  for (const segment of path.split('/'))
    if (segment.startsWith('$') && params[segment.slice(1)] === undefined) throw new Error(`${path}: no param ${segment} on this route`);
  return params as ParamsOf<Path>;
}

/**
 * For a screen shown on several routes whose params differ (a facility's and a CB's pages, the public splat): the
 * params it may read, by name, each absent on a route that has no such param.
 */
export function useOptionalRouteParams<Name extends string>(...names: Name[]): { [K in Name]?: string } {
  const params = useParams({ strict: false }) as Record<string, string | undefined>;
  return Object.fromEntries(names.map((name) => [name, params[name]])) as { [K in Name]?: string };
}
