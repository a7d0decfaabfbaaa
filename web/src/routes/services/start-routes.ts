import { Permissions as P } from '../../../../machines/permissions';
import type { RequestKind } from '../../../../machines/services';

/**
 * The start paths of the services that start on the generic screen (no start screen of their own): the registry's
 * `routes.start` and `startPermissions` (machines/services), copied here as plain data so the route table does not
 * pull the whole service registry (forms, zod schemas, fees) into the first-load script of every page (issue 18).
 * tests/web/start-routes.test.ts checks it against the registry, so the two cannot drift apart.
 */
export const GENERIC_START_ROUTES: readonly { kind: RequestKind; path: string; permissions: readonly string[] }[] = [
  { kind: 'internalCertificate', path: 'internal-halal-request/new/$facilityPublicId', permissions: [P.internalRequest.request] },
  { kind: 'internalAddProducts', path: 'add-product-infa-request/$facilityPublicId', permissions: [P.internalRequest.request] },
  { kind: 'internalHalalMark', path: 'internal-halal-mark-request/$facilityPublicId', permissions: [P.internalRequest.request] },
  { kind: 'cbDesignation', path: 'halal-request/new/$cbPublicId', permissions: [P.cbAccreditation.request] },
  { kind: 'cbRenewal', path: 'cba-renewal-request/$cbPublicId/$certificateId', permissions: [P.cbAccreditation.request] },
  { kind: 'cbAddCategories', path: 'add-cb-categories-request/$cbPublicId/$certificateId', permissions: [P.cbAccreditation.request] },
  { kind: 'externalCertificate', path: 'external-halal-request/$cbPublicId', permissions: [P.externalRequest.request] },
  { kind: 'externalRenewal', path: 'external-renewal-request/$cbPublicId/$certificateId', permissions: [P.externalRequest.request] },
  { kind: 'externalAddProducts', path: 'add-products-ef-request/$cbPublicId/$facilityPublicId', permissions: [P.externalRequest.request] },
  { kind: 'externalHalalMark', path: 'ex-halal-mark-request/$cbPublicId', permissions: [P.externalRequest.request] },
  { kind: 'shipment', path: 'ex-shipment-request/$cbPublicId', permissions: [P.shipment.default] },
];
