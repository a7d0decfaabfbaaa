/**
 * Which web paths have a real screen. The router registers its table here (router.tsx); navigation reads it so a
 * menu, a facility profile or a service list never links a screen that is still a placeholder. Pure lookups, no
 * import of the router, so lazily loaded screens can use it without a cycle.
 */
const built = new Set<string>();
const placeholders = new WeakSet<object>();

/** Marks a route component as a placeholder (components/PlaceholderPage.tsx). */
export function markPlaceholder(component: object): void {
  placeholders.add(component);
}

const normalise = (path: string) => `/${path.replace(/^\/+/, '').replace(/\/+$/, '')}`;

/** Called once by the router with its route table. */
export function registerScreens(entries: readonly { path: string; component: unknown }[]): void {
  for (const e of entries) if (!placeholders.has(e.component as object)) built.add(normalise(e.path));
}

/** True when a route template ('/internal-halal-request/new/$facilityPublicId') names a built screen. */
export const screenExists = (template: string): boolean => built.has(normalise(template));
