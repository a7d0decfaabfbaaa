import { useSyncExternalStore } from 'react';
import { useStore } from '../lib/create-store';
import { can, sessionStore, type Session } from './session-store';
import { selectedFacility, type SelectedFacility } from './selected-facility';

/** The current session (null only before the first answer, which the root route waits for). */
export const useSession = (): Session | null => useStore(sessionStore);

/** True when the signed-in user holds the policy (or any of the listed ones). */
export function useCan(policy: string | readonly string[]): boolean {
  return can(useSession(), policy);
}

/**
 * The facility chosen in this browser (localStorage). A page painted by the server (prerender/) is rendered without
 * it, so the browser's hydration reads none too (the server snapshot) and React renders again with it right after:
 * otherwise the painted header would keep the server's attributes (React does not patch them), e.g. the logo's link.
 */
const noneOnServer = () => null;
export const useSelectedFacility = (): SelectedFacility | null => useSyncExternalStore(selectedFacility.subscribe, selectedFacility.get, noneOnServer);
