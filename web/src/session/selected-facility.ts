import { createStore } from '../lib/create-store';

export type FacilityType = 'InternalFacility' | 'ExternalFacility' | 'ConformityBody';

/** Spec 01 section 3: the selected facility is its type, id and public id; it persists until another is chosen. */
export interface SelectedFacility {
  facilityType: FacilityType;
  id: string;
  publicId: string;
}

const KEY = 'halal.selectedFacility';

function read(): SelectedFacility | null {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? 'null') as SelectedFacility | null;
    return v && typeof v.publicId === 'string' && typeof v.facilityType === 'string' ? v : null;
  } catch {
    return null;
  }
}

export const selectedFacility = createStore<SelectedFacility | null>(read());

/** Stores the chosen facility (the associated-facilities page calls this, then opens its control panel). */
export function selectFacility(facility: SelectedFacility): void {
  localStorage.setItem(KEY, JSON.stringify(facility));
  selectedFacility.set(facility);
}

export function clearSelectedFacility(): void {
  localStorage.removeItem(KEY);
  selectedFacility.set(null);
}

const PROFILE_SEGMENT: Record<FacilityType, string> = {
  ConformityBody: 'cb',
  ExternalFacility: 'external',
  InternalFacility: 'internal',
};

/** The facility's profile route (facility-profile/cb|external|internal/{publicId}). */
export const facilityProfilePath = (f: SelectedFacility): string =>
  `/facility-profile/${PROFILE_SEGMENT[f.facilityType]}/${encodeURIComponent(f.publicId)}`;
