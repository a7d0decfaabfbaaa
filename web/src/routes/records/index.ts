import { lazyRouteComponent } from '@tanstack/react-router';

/** The records an applicant keeps (issue 14 items 4-7), loaded on demand (router.tsx names them in its route table). */
export const recordScreens = {
  certificates: lazyRouteComponent(() => import('./CertificatesPage'), 'CertificatesPage'),
  halalMarks: lazyRouteComponent(() => import('./CertificatesPage'), 'HalalMarksPage'),
  myProfile: lazyRouteComponent(() => import('./MyProfilePage'), 'MyProfilePage'),
  editCb: lazyRouteComponent(() => import('./EditFacilityPage'), 'EditConformityBodyPage'),
  editExternal: lazyRouteComponent(() => import('./EditFacilityPage'), 'EditExternalFacilityPage'),
  invoices: lazyRouteComponent(() => import('./InvoicesPage'), 'InvoicesPage'),
};
