import { api, configureApi, data } from '../api/client';
import type { ApiResponse } from '../api/query';
import { createOrUpdateUser } from '../api/halal-user';
import { createStore } from '../lib/create-store';
import { SESSION_ENDED_KEY } from './ended-key';
import { currentLanguage } from '../i18n';
import { clearSelectedFacility, selectedFacility } from './selected-facility';

/** GET /api/auth/session (server/modules/auth/routes.ts): who is signed in, what they may do, the CSRF token. */
export type Session = ApiResponse<'/api/auth/session'>;

/** The current session; null only before the first answer. */
export const sessionStore = createStore<Session | null>(null);

/**
 * Set when the user should see the session-expired modal, with the path to return to after signing in again.
 * Comes from the server (`sessionExpired`) or from the idle timeout of the previous page load.
 */
export const sessionExpiredNotice = createStore<{ returnUrl: string } | null>(null);


let firstLoad: Promise<Session> | undefined;
let versionAtLoad: string | undefined;

/** The server version this page was loaded with; the new-version modal compares /api/health against it. */
export const loadedAppVersion = (): string | undefined => versionAtLoad;

export async function loadSession(options: { silent?: boolean; handleErrors?: boolean } = {}): Promise<Session> {
  const session = await data(api.GET('/api/auth/session', { silent: options.silent, handleErrors: options.handleErrors }));
  sessionStore.set(session);
  return session;
}

configureApi({
  csrfToken: () => sessionStore.get()?.csrfToken,
  refreshCsrfToken: async () => {
    await loadSession({ silent: true });
  },
});

let early: Promise<Session> | undefined;

/**
 * Sends the first session call at once (router.tsx does, while the texts load) instead of from the root's
 * beforeLoad after the first render: one round trip less before a page draws. Its failure is not shown: the root's
 * ensureSession asks again, with the shell's error handling installed by then.
 */
export function startSessionLoad(): void {
  early ??= loadSession({ handleErrors: false });
  early.catch(() => undefined);
}

/** The server's prerender (prerender/render.tsx) renders for an anonymous visitor without asking the API. */
export function primeSession(session: Session): void {
  sessionStore.set(session);
  firstLoad = Promise.resolve(session);
}

/** Loads the session once per page load (the root route awaits it) and runs the on-load duties. */
export function ensureSession(): Promise<Session> {
  firstLoad ??= (early ? early.catch(() => loadSession()) : loadSession()).then((session) => {
    versionAtLoad = session.appVersion;
    const endedAt = localStorage.getItem(SESSION_ENDED_KEY);
    if (endedAt !== null) {
      localStorage.removeItem(SESSION_ENDED_KEY);
      sessionExpiredNotice.set({ returnUrl: endedAt || '/' });
    } else if (session.sessionExpired) {
      sessionExpiredNotice.set({ returnUrl: window.location.pathname + window.location.search });
    }
    if (session.authenticated) {
      forgetForeignFacility(session);
      void createOrUpdateUser(currentLanguage()).catch(() => undefined);
    } else {
      clearSelectedFacility();
    }
    return session;
  });
  return firstLoad;
}

/** A facility selected by someone else in this browser is not this user's: drop it. */
function forgetForeignFacility(session: Session) {
  const selected = selectedFacility.get();
  if (selected && !session.isStaff && !session.facilityIds.includes(selected.publicId)) clearSelectedFacility();
}

/**
 * Signs in; rejects with the ApiError of a refused attempt (the sign-in page shows its message itself).
 * Resolves with the new session.
 */
export async function signIn(userName: string, password: string): Promise<Session> {
  await api.POST('/api/auth/login', { body: { userName, password }, handleErrors: [400, 401, 429] });
  const session = await loadSession();
  sessionExpiredNotice.set(null);
  forgetForeignFacility(session);
  void createOrUpdateUser(currentLanguage()).catch(() => undefined);
  return session;
}

/** Signs out on the server (revoking the session) and forgets the selected facility. */
export async function signOut(): Promise<void> {
  try {
    await api.POST('/api/auth/logout', { handleErrors: false });
  } catch {
    // Already ended on the server (idle, revoked): the user is signed out either way.
  }
  clearSelectedFacility();
  await loadSession();
}

/**
 * The idle countdown ran out: revoke the session, then reload so the next load shows the session-expired modal
 * (spec 01 section 4). The page comes back on the home page; "sign in again" returns to `returnUrl`.
 */
export async function endIdleSession(returnUrl: string): Promise<void> {
  try {
    await api.POST('/api/auth/logout', { handleErrors: false, silent: true });
  } catch {
    // The server may have ended it already.
  }
  clearSelectedFacility();
  localStorage.setItem(SESSION_ENDED_KEY, returnUrl);
  window.location.assign('/home');
}

/** True when the session holds the policy, or any of the listed ones. */
export function can(session: Session | null, policy: string | readonly string[]): boolean {
  if (!session?.authenticated) return false;
  const anyOf = typeof policy === 'string' ? [policy] : policy;
  return anyOf.some((p) => session.permissions.includes(p));
}
