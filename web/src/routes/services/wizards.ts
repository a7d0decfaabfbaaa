import { START_ROUTES } from '../../../../machines/services/start-routes';
import type { RequestKind } from '../../../../machines/services/types';

/**
 * Where every service's drafts are edited in the web: the one wizard (ServiceWizard.tsx), driven by the service
 * definition. Plain data, read by the router for the generic start routes without the service registry and its zod
 * schemas (issue 18 item 1).
 */
export const WIZARD = '/requests/$requestId/edit';

/** The wizard of a request. */
export const wizardPath = (requestId: string): string => WIZARD.replace('$requestId', encodeURIComponent(requestId));

/** True for a request kind (which has the wizard), false for an entity's machine (a facility's, a user's). */
export const isRequestKind = (kind: string): kind is RequestKind => Object.hasOwn(START_ROUTES, kind);

/**
 * Services whose start screen is the generic one (no screen of its own), with their start path and start permissions
 * (machines/services/start-routes.ts). A certificate-subject service takes the certificate from its start path
 * (`$certificateId`) or, where the path has none, from `?certificateId=`.
 */
export const genericStartKinds = (isBuilt: (template: string) => boolean): RequestKind[] =>
  (Object.keys(START_ROUTES) as RequestKind[]).filter((k) => !isBuilt(START_ROUTES[k].start));
