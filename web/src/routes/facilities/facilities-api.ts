import { api, data } from '../../api/client';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { apiQuery, useApi, type ApiResponse } from '../../api/query';
import type { operations, paths } from '../../api/schema.gen';
import type { ParamsOf } from '../../route-params';
import type { FacilityType } from '../../session/selected-facility';

/** Shapes of the facilities calls, named from the generated API types (server/modules/facilities/schemas.ts). */
type CbDetails = ApiResponse<'/api/ConformityBody/GetConformityBodyDetails/{id}'>;
type InternalDetails = ApiResponse<'/api/Facility/GetFacilityAndVerifyCrDataSkippingSubUser/{id}'>;
type ExternalDetails = ApiResponse<'/api/ExternalFacility/GetFacilityByPublicId/{id}'>;

/** One facility or CB with its details, as the three details calls answer (each adds its own fields). */
export type Facility = ExternalDetails & Partial<Pick<CbDetails, 'designationCertificate' | 'userCount'> & Pick<InternalDetails, 'crVerification'>>;
export type Attachment = ApiResponse<'/api/facility-attachments', 'post'>;
export type CrData = ApiResponse<'/api/Facility/GetCrData'>;
export type CrStatus = CrData['status'];
export type CrValidation = ApiResponse<'/api/Facility/GetCrDataWithRelatedValidation', 'post'>;
export type FacilityListItem = ApiResponse<'/api/Facility/GetUserFacilities'>['items'][number];
export type Member = ApiResponse<'/api/Facility/GetListOfUsersForFacility/{id}'>[number];
export type CurrentUserInFacility = ApiResponse<'/api/Facility/GetCurruntUserDetailInFacility/{id}'>;
export type Delegation = ApiResponse<'/api/InternalFacilityDelegation/SubmitFacilityDelegationRequest', 'post'>;
export type DelegateLookup = ApiResponse<'/api/InternalFacilityDelegation/ValidateUserExisitenceBeforeAndReturnUserInfoForFacility', 'post'>;
export type Catalogue = ApiResponse<'/api/facility-catalogue'>;
export type AttachmentCategory = operations['postFacilityAttachments']['parameters']['query']['category'];

/**
 * The JSON body of a POST. The add screens build theirs from form fields (strings) and check it with the server's own
 * schema first, so they name the body's type rather than rebuild it field by field.
 */
export type PostBody<P extends keyof paths> = paths[P]['post'] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;


/** Uploads one file (the request body is the file, typed by its Content-Type) and returns its attachment. */
export function uploadAttachment(category: string, file: File): Promise<Attachment> {
  return data(
    api.POST('/api/facility-attachments', {
      // Categories come from the catalogue's rules (strings); the server refuses any other (400).
      params: { query: { category: category as AttachmentCategory, fileName: file.name } },
      body: file as never,
      // The body is the file itself, not JSON.
      bodySerializer: () => file,
      headers: { 'content-type': file.type || 'application/octet-stream' },
    }),
  );
}

/** The three profile routes' segment for each facility type (facility-profile/cb|external|internal). */
export const PROFILE_SEGMENT: Record<FacilityType, 'cb' | 'external' | 'internal'> = {
  ConformityBody: 'cb',
  ExternalFacility: 'external',
  InternalFacility: 'internal',
};

/** The profile segment of a facility type (facility-profile/cb|internal|external/...). */
export type ProfileKind = 'cb' | 'internal' | 'external';
export const PROFILE_KIND: Record<FacilityType, ProfileKind> = { ConformityBody: 'cb', InternalFacility: 'internal', ExternalFacility: 'external' };

const DETAILS_PATH = {
  cb: '/api/ConformityBody/GetConformityBodyDetails/{id}',
  internal: '/api/Facility/GetFacilityAndVerifyCrDataSkippingSubUser/{id}',
  external: '/api/ExternalFacility/GetFacilityByPublicId/{id}',
} as const;

/** The read of one facility (or CB) with its details, by profile kind (the three calls share the Facility shape). */
export function facilityDetailsQuery(kind: ProfileKind, id: string) {
  const query = apiQuery(DETAILS_PATH[kind] as (typeof DETAILS_PATH)['external'], { params: { path: { id } } });
  return queryOptions({ queryKey: query.queryKey, queryFn: query.queryFn as unknown as () => Promise<Facility> });
}

/**
 * A facility the signed-in user is a member of, as its service screens need it: the membership (type, permissions),
 * then the facility's details from the call of its type.
 */
export function useMemberFacility(publicId: string) {
  const me = useApi(apiQuery('/api/Facility/GetCurruntUserDetailInFacility/{id}', { params: { path: { id: publicId } } }));
  const kind = me.data ? PROFILE_KIND[me.data.facilityType] : null;
  // The details call depends on the type the membership names; until then the query waits (the kind is a stand-in).
  const facility = useApi({ ...facilityDetailsQuery(kind ?? 'internal', publicId), enabled: kind !== null });
  return { me, facility };
}


/** The reads of a facility profile that need only its kind and public id: its loader starts them together. */
export const facilityProfileQueries = (kind: ProfileKind, publicId: string) => {
  const path = { params: { path: { id: publicId } } };
  return {
    facility: facilityDetailsQuery(kind, publicId),
    me: apiQuery('/api/Facility/GetCurruntUserDetailInFacility/{id}', path),
    // Both users calls answer the same members list.
    users: apiQuery((kind === 'cb' ? '/api/ConformityBody/GetListOfUsersForConformityBodies/{id}' : '/api/Facility/GetListOfUsersForFacility/{id}') as '/api/Facility/GetListOfUsersForFacility/{id}', path),
  };
};

const prefetchProfile = (kind: ProfileKind, publicId: string, queryClient: QueryClient) =>
  Promise.all(Object.values(facilityProfileQueries(kind, publicId)).map((q) => queryClient.prefetchQuery(q as never))).then(() => undefined);

/** Loaders of facility-profile/cb|internal|external/$...: the profile's independent calls in parallel. */
export const loadCbProfile = ({ cbPublicId }: ParamsOf<'facility-profile/cb/$cbPublicId'>, queryClient: QueryClient) => prefetchProfile('cb', cbPublicId, queryClient);
export const loadInternalProfile = ({ facilityPublicId }: ParamsOf<'facility-profile/internal/$facilityPublicId'>, queryClient: QueryClient) =>
  prefetchProfile('internal', facilityPublicId, queryClient);
export const loadExternalProfile = ({ facilityPublicId }: ParamsOf<'facility-profile/external/$facilityPublicId'>, queryClient: QueryClient) =>
  prefetchProfile('external', facilityPublicId, queryClient);
