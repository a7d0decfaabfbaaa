/** Paths of the generic facility screens (router.tsx registers them). */
export const facilityRequestsPath = (facilityPublicId: string, tab?: 'requests' | 'certificates' | 'marks' | 'bills'): string =>
  `/facility-requests/${encodeURIComponent(facilityPublicId)}${tab && tab !== 'requests' ? `?tab=${tab}` : ''}`;
