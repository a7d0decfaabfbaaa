import type { Language } from '../i18n';
import { api, data } from './client';

/**
 * The user calls of spec 01 section 7 (prefix /api/app/halal-user). They run in the background, so they never show
 * the loader or an error screen: a failure only means the offer or the profile sync waits for the next load.
 */
const quiet = { silent: true, handleErrors: false } as const;

/** Refreshes the portal's record of the signed-in user (the language they work in); sent on load when signed in. */
export const createOrUpdateUser = (preferredLanguage: Language) =>
  data(api.POST('/api/app/halal-user/create-update-user', { ...quiet, body: { preferredLanguage } }));

/** True when this user already downloaded the circular letter. */
export const hasDownloadedCircular = (): Promise<boolean> => data(api.GET('/api/app/halal-user/is-external-user-downloaded-circular', quiet));

/** Records that the circular letter was downloaded, so it is not offered again (the spec's one GET that writes: CSRF). */
export const markCircularDownloaded = () => data(api.GET('/api/app/halal-user/set-user-download-circular', { ...quiet, csrf: true }));
