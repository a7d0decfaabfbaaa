import { api } from './client';

/**
 * The user calls of spec 01 section 7 (prefix /api/app/halal-user). They run in the background, so they never show
 * the loader or an error screen: a failure only means the offer or the profile sync waits for the next load.
 */
const PREFIX = '/api/app/halal-user';
const quiet = { silent: true, handleErrors: false } as const;

/** Refreshes the portal's record of the signed-in user (the language they work in); sent on load when signed in. */
export const createOrUpdateUser = (preferredLanguage: string) =>
  api.post<unknown>(`${PREFIX}/create-update-user`, { preferredLanguage }, quiet);

/** True when this user already downloaded the circular letter. */
export async function hasDownloadedCircular(): Promise<boolean> {
  const answer = await api.get<unknown>(`${PREFIX}/is-external-user-downloaded-circular`, quiet);
  // The original portal answers a bare boolean; accept a wrapped one as well.
  if (typeof answer === 'boolean') return answer;
  if (answer === 'true' || answer === 'false') return answer === 'true';
  const wrapped = answer as { result?: unknown; downloaded?: unknown } | null;
  return Boolean(wrapped?.result ?? wrapped?.downloaded);
}

/** Records that the circular letter was downloaded, so it is not offered again. */
export const markCircularDownloaded = () => api.get<unknown>(`${PREFIX}/set-user-download-circular`, { ...quiet, csrf: true });
