import { lazyRouteComponent } from '@tanstack/react-router';
import { loadCbProfile, loadExternalProfile, loadInternalProfile } from './facilities-api';

/**
 * The screens of the facilities area, for the shell's route table (web/src/router.tsx). Each is its own chunk.
 */
export const facilityScreens = {
  associatedFacilities: lazyRouteComponent(() => import('./AssociatedFacilitiesPage'), 'AssociatedFacilitiesPage'),
  cbProfile: lazyRouteComponent(() => import('./FacilityProfilePage'), 'CbProfilePage'),
  internalProfile: lazyRouteComponent(() => import('./FacilityProfilePage'), 'InternalProfilePage'),
  externalProfile: lazyRouteComponent(() => import('./FacilityProfilePage'), 'ExternalProfilePage'),
  cbDelegation: lazyRouteComponent(() => import('./DelegationWizardPage'), 'CbDelegationPage'),
  internalDelegation: lazyRouteComponent(() => import('./DelegationWizardPage'), 'InternalDelegationPage'),
  personalProfile: lazyRouteComponent(() => import('./PersonalProfilePage'), 'PersonalProfilePage'),
  addInternal: lazyRouteComponent(() => import('./AddInternalFacilityPage'), 'AddInternalFacilityPage'),
  addExternal: lazyRouteComponent(() => import('./AddExternalFacilityPage'), 'AddExternalFacilityPage'),
  addConformityBody: lazyRouteComponent(() => import('./AddConformityBodyPage'), 'AddConformityBodyPage'),
  staffCb: lazyRouteComponent(() => import('./StaffFacilityPage'), 'StaffCbPage'),
  staffFacility: lazyRouteComponent(() => import('./StaffFacilityPage'), 'StaffFacilityPage'),
  delegateInvitation: lazyRouteComponent(() => import('./DelegateInvitationPage'), 'DelegateInvitationPage'),
  // Route loaders (router.tsx `loader:`): a profile's calls start together, before its chunk has loaded.
  loadCbProfile,
  loadInternalProfile,
  loadExternalProfile,
};
