import { useStore } from '../lib/create-store';
import { can, sessionStore, type Session } from './session-store';
import { selectedFacility, type SelectedFacility } from './selected-facility';

/** The current session (null only before the first answer, which the root route waits for). */
export const useSession = (): Session | null => useStore(sessionStore);

/** True when the signed-in user holds the policy (or any of the listed ones). */
export function useCan(policy: string | readonly string[]): boolean {
  return can(useSession(), policy);
}

export const useSelectedFacility = (): SelectedFacility | null => useStore(selectedFacility);
