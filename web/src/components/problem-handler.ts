import i18next from 'i18next';
import { configureApi } from '../api/client';
import { type ApiError, isScreenStatus, messagesOf, refusalOf } from '../api/errors';
import { errorScreen } from '../api/problems';
import { loadSession, sessionExpiredNotice } from '../session/session-store';
import { notify } from './toaster';

/**
 * How the shell shows a failed call (spec 01 section 8): an ended session gets the session-expired modal; 401,
 * 403, 404 and 500 the full error screen; everything else (400 with its validation messages, 409, 429...) a
 * message. Installed once in main.tsx, before anything calls the server.
 */
export function installProblemHandler(): void {
  configureApi({
    language: () => i18next.language || 'ar',
    onProblem: ({ error }) => {
      if (error.status === 401 && error.code === 'SessionExpired') {
        sessionExpiredNotice.set({ returnUrl: window.location.pathname + window.location.search });
        void loadSession({ silent: true }).catch(() => undefined);
        return;
      }
      if (isScreenStatus(error.status)) {
        errorScreen.set({ status: error.status, message: refusalOf(error) });
        return;
      }
      showProblem(error);
    },
  });
}

/** A refusal told as a message in the reader's language: the shell's way for a 400, 409, 429..., and for a call a
 * screen handles itself (`handleErrors`) but still only has to tell. */
export function showProblem(error: ApiError): void {
  notify.error(messagesOf(error, i18next.t));
}
