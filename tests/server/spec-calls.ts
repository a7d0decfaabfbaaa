/**
 * Every call of spec 01 section 7 ("The calls it makes"), method and full path, transcribed in the spec's order. The
 * spec's `{product}` is "Halal" (the center is HalalCenter, the user prefix /api/app/halal-user); `{a}`/`{b}` stand
 * for two path parameters. Keep it in step with the spec: tests/server/spec-calls.test.ts fails unless each is served.
 */
const group = (prefix: string, calls: string[]) =>
  calls.map((c) => {
    const [method, path] = c.split(' ');
    return { method, url: `${prefix}/${path}` };
  });

export const SPEC_01_CALLS: { method: string; url: string }[] = [
  ...group('/api/AddingSubCategoriesRequest', [
    'POST GetAddingSubCategoriesInformationRequests',
    'POST GetRequestDetailsById/{id}',
    'POST SubmitRequest',
    'GET ValidateRequestInitialization/{id}',
    'GET ValidateRequestPrerequisites/{id}',
  ]),
  ...group('/api/HalalCenter', ['GET ConformityBody/get/{id}', 'GET Facility/get/{id}']),
  ...group('/api/ConformityBody', [
    'POST ConfirmConformityBodyIban',
    'POST create',
    'GET get/{id}',
    'GET GetConformityBodyDetails/{id}',
    'GET GetListOfUsersForConformityBodies/{id}',
    'GET GetIbanStatus',
    'GET get-user-cb',
    'GET GetUserDetailInConformityBody/{a}/{b}',
    'GET GetUserInfoInConformityBody/{a}/{b}',
    'GET IsUserForCbIsMainUser/{id}',
    'PUT update',
    'POST UpdateConformityBodyForCbRenewal',
    'GET validateAcceptanceCertificateExpiry/{id}',
    'POST ValidateAcceptanceNumberAsync',
    'GET ValidateIfCBExists/{id}',
    'GET ValidateIsUserCBMember/{id}',
    'POST ValidateIsUserForCBMemeberIsMainUser/{id}',
    'POST ValidateRegistrationNumberAsync',
    'POST ValidateUpdateConformityBodyRequest',
  ]),
  ...group('/api/Facility', [
    'POST CreateExternal',
    'POST CreateInternal',
    'POST CreateInternalFacilityWithNoPartyFromWatheq',
    'GET GetCrData',
    'POST GetCrDataWithRelatedValidation',
    'GET GetCurruntUserDetailInFacility/{id}',
    'GET GetFacility',
    'GET GetFacilityAndVerifyCrData',
    'GET GetFacilityAndVerifyCrDataSkippingSubUser/{id}',
    'GET GetFacilityByPublicId',
    'GET GetFacilityWithMigrationCertificateIdAndVerifyCrData',
    'GET GetListOfUsersForFacility/{id}',
    'GET GetUserDetailInFacility/{a}/{b}',
    'GET GetUserFacilities',
    'GET IsUserForFacilityIsMainUser/{id}',
    'PUT UpdateExternal',
    'POST ValidateExternalCrNumberDuplicate',
    'POST ValidateInternalCrNumberDuplicate',
    'GET ValidateFacilityValidationOverWathiq/{id}',
    'GET ValidateIsUserForFacilityIsMainUser/{id}',
    'POST ValidateIsUserInternalFacilityMember',
    'POST ValidateUpdateExternalFacilityRequest',
    'POST VerifyAndUpdateCrData',
    'POST VerifyAndUpdateCrDataSkippingForSubUser',
  ]),
  ...group('/api/ExternalFacility', ['POST SearchExternalFacility', 'POST GetExternalFacilities', 'GET GetExternalFacility/{id}', 'GET GetFacilityByPublicId/{id}']),
  ...group('/api/ConformityBodyDelegation', [
    'POST SubmitCBDelegationRequest',
    'GET ValidateIfCurrentUserHasAuthorityToAddDelegation/{id}',
    'GET ValidateIsConformityBodyMember/{a}/{b}',
    'GET ValidateIsConformityBodyMemberById/{a}/{b}',
    'POST ValidateUserExisitenceBeforeAndReturnUserInfoForCB',
  ]),
  ...group('/api/InternalFacilityDelegation', [
    'POST SubmitFacilityDelegationRequest',
    'GET ValidateIfCurrentUserHasAuthorityToAddDelegation/{id}',
    'POST ValidateIfUserHasAuthorityOnFacilityAsync',
    'POST ValidateUserExisitenceAndReturnUserInfoForFacility',
    'POST ValidateUserExisitenceBeforeAndReturnUserInfoForFacility',
  ]),
  ...group('/api/app/halal-user', [
    'POST create-update-user',
    'POST get-all-users-info-by-ids',
    'GET get-all-users-by-permission-name',
    'GET get-user-info',
    'GET GetUserInfoByEmail/{email}',
    'GET get-user-info-by-id',
    'GET is-external-user-downloaded-circular',
    'GET set-user-download-circular',
    'GET is-user-granted-permission',
  ]),
];
