import { START_ROUTES } from '../../../../machines/services/start-routes';
import type { RequestKind } from '../../../../machines/services/types';

/**
 * Where each service's drafts are edited in the web: the internal certificate's own wizard, else the generic one
 * (ServiceWizard.tsx). Plain data, read by the router for the generic start routes without the service registry and
 * its zod schemas (issue 18 item 1); WEB_SERVICES (services.ts) takes its `wizard` from here.
 */
const INTERNAL_WIZARD = '/internal-halal-request/$requestId';
/** The generic wizard (ServiceWizard.tsx): every kind without a wizard of its own. */
export const GENERIC_WIZARD = '/requests/$requestId/edit';

export const SERVICE_WIZARDS: Partial<Record<RequestKind, string>> = {
  internalCertificate: INTERNAL_WIZARD,
  internalRenewal: INTERNAL_WIZARD,
  internalAddProducts: GENERIC_WIZARD,
  internalHalalMark: GENERIC_WIZARD,
  cbDesignation: GENERIC_WIZARD,
  cbRenewal: GENERIC_WIZARD,
  cbAddCategories: GENERIC_WIZARD,
  externalCertificate: GENERIC_WIZARD,
  externalRenewal: GENERIC_WIZARD,
  externalAddProducts: GENERIC_WIZARD,
  externalHalalMark: GENERIC_WIZARD,
  shipment: GENERIC_WIZARD,
};

/**
 * Services whose start screen is the generic one (a service with a wizard but no screen of its own), with their
 * start path and start permissions (machines/services/start-routes.ts). A certificate-subject service takes the
 * certificate from its start path (`$certificateId`) or, where the path has none, from `?certificateId=`.
 */
export const genericStartKinds = (isBuilt: (template: string) => boolean): RequestKind[] =>
  (Object.keys(SERVICE_WIZARDS) as RequestKind[]).filter((k) => !!SERVICE_WIZARDS[k] && !isBuilt(START_ROUTES[k].start));
