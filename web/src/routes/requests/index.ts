import { lazyRouteComponent } from '@tanstack/react-router';
import { loadRequestPage } from './requests-api';

/** The request screens of issue 5, loaded on demand (router.tsx names them in its route table). */
export const requestScreens = {
  requestPage: lazyRouteComponent(() => import('./RequestPage'), 'RequestPage'),
  loadRequestPage,
  halalRequests: lazyRouteComponent(() => import('./HalalRequestsPage'), 'HalalRequestsPage'),
  internalRequests: lazyRouteComponent(() => import('../internal-request/InternalRequestsPage'), 'InternalRequestsPage'),
  staffHome: lazyRouteComponent(() => import('../staff/StaffHomePage'), 'StaffHomePage'),
  correctiveActions: lazyRouteComponent(() => import('../corrective-actions/CorrectiveActionsPage'), 'CorrectiveActionsPage'),
  certificate: lazyRouteComponent(() => import('../certificates/CertificatePage'), 'CertificatePage'),
};
