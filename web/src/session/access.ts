import type { Session } from './session-store';

/**
 * Who may open a route (spec 01 section 2). The router's beforeLoad applies it; pure so tests can walk it.
 * - `signedIn`: anonymous visitors are sent to the sign-in page with a returnUrl;
 * - `anyOf`: the user needs at least one of these policies, else the 403 screen;
 * - `staff: 'only'`: Halal-center staff only, everybody else is sent to associated-facilities;
 *   `staff: 'elsewhere'`: staff are sent to halal-profile (their home) instead;
 * - `mainUserOf`: the route parameter naming a CB or facility the user must be the main user of (checked on the
 *   server by the router, see router.tsx).
 */
export interface RouteAccess {
  signedIn?: boolean;
  anyOf?: readonly string[];
  staff?: 'only' | 'elsewhere';
  mainUserOf?: { kind: 'cb' | 'facility'; param: string };
}

export type AccessDecision =
  | { kind: 'allow' }
  | { kind: 'redirect'; to: string; search?: Record<string, string> }
  | { kind: 'forbidden' };

export const LOGIN_PATH = '/account/login';
export const STAFF_HOME = '/halal-profile';
export const APPLICANT_HOME = '/associated-facilities';

/** Where a signed-in user starts: staff on halal-profile, everybody else on associated-facilities. */
export const landingPath = (session: Session): string => (session.isStaff ? STAFF_HOME : APPLICANT_HOME);

/**
 * Only same-site paths are followed after sign-in, so a crafted link cannot send a user to another site.
 * Returns null for anything else.
 */
export function safeReturnUrl(value: unknown): string | null {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  if (value.startsWith(LOGIN_PATH)) return null;
  return value;
}

export function decideAccess(access: RouteAccess, session: Session | null, href: string): AccessDecision {
  const needsSession = access.signedIn || access.anyOf || access.staff || access.mainUserOf;
  if (!needsSession) return { kind: 'allow' };
  if (!session?.authenticated) return { kind: 'redirect', to: LOGIN_PATH, search: { returnUrl: href } };
  if (access.staff === 'only' && !session.isStaff) return { kind: 'redirect', to: APPLICANT_HOME };
  if (access.staff === 'elsewhere' && session.isStaff) return { kind: 'redirect', to: STAFF_HOME };
  if (access.anyOf && !access.anyOf.some((p) => session.permissions.includes(p))) return { kind: 'forbidden' };
  return { kind: 'allow' };
}
