import { redirect } from '@tanstack/react-router';
import { api, data } from '../../api/client';
import { ApiError } from '../../api/errors';
import { showProblem } from '../../components/problem-handler';
import { facilityRequestsPath } from './links';

/**
 * Spec 01 section 2: add-cb-categories-request opens only when its prerequisites hold (GET ValidateRequestPrerequisites:
 * the designation certificate is valid and the CB's acceptance certificate has not expired). Otherwise the user is told
 * why and taken to the certificate's page when they came from it (`?fromDetails=true`), else to the CB's requests. A
 * certificate the user may not see is the 404 screen, as anywhere.
 */
export async function addCategoriesPrerequisites(params: Record<string, string>, search: Record<string, unknown>): Promise<void> {
  const { cbPublicId = '', certificateId = '' } = params;
  try {
    await data(api.GET('/api/AddingSubCategoriesRequest/ValidateRequestPrerequisites/{id}', { params: { path: { id: certificateId } }, handleErrors: [400] }));
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 400) throw e;
    showProblem(e);
    const fromDetails = search.fromDetails === true || search.fromDetails === 'true';
    throw redirect({
      href: fromDetails
        ? `/facility-profile/cb/${encodeURIComponent(cbPublicId)}/certifications/cb-halal-certificate/${encodeURIComponent(certificateId)}`
        : facilityRequestsPath(cbPublicId),
    });
  }
}
