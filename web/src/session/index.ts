export { useSession, useCan, useSelectedFacility } from './use-session';
export { can, sessionStore, type Session } from './session-store';
export { selectFacility, clearSelectedFacility, facilityProfilePath, type SelectedFacility, type FacilityType } from './selected-facility';
export { landingPath, LOGIN_PATH, STAFF_HOME, APPLICANT_HOME } from './access';
