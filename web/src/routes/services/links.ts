/** Paths of the generic facility screens (router.tsx registers them). */
export const facilityRequestsPath = (facilityPublicId: string, tab?: 'requests' | 'certificates' | 'marks' | 'bills'): string =>
  `/facility-requests/${encodeURIComponent(facilityPublicId)}${tab && tab !== 'requests' ? `?tab=${tab}` : ''}`;

/** The staff's view of a facility (halal-profile/facility/$id) or of a CB (halal-profile/cb/$id), by the facility's type. */
export const staffProfilePath = (facilityPublicId: string, type: 'internal' | 'external' | 'cb'): string =>
  `/halal-profile/${type === 'cb' ? 'cb' : 'facility'}/${encodeURIComponent(facilityPublicId)}`;
