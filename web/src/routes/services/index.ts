import { lazyRouteComponent } from '@tanstack/react-router';
import type { RequestKind } from '../../../../machines/services';

/** The generic service screens (driven by machines/services), loaded on demand. */
export const serviceScreens = {
  facilityRequests: lazyRouteComponent(() => import('./FacilityRequestsPage'), 'FacilityRequestsPage'),
  wizard: lazyRouteComponent(() => import('./ServiceWizard'), 'ServiceWizard'),
  start: (kind: RequestKind) => lazyRouteComponent(() => import('./StartServicePage').then((m) => ({ default: m.startServiceScreen(kind) }))),
};
