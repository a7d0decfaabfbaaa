import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { facilities, users } from '../../db/schema';
import type { Client } from '../helpers/app';
import { createFacilitiesTestApp, PDF, type FacilitiesTestApp } from './facilities-harness';
import { DEMO_IDENTITIES } from '../../db/demo-identities';

/**
 * Every call of the Facility, ExternalFacility, ConformityBody, ConformityBodyDelegation,
 * InternalFacilityDelegation and HalalCenter groups, three ways: the allowed user gets the answer, a user of
 * another facility (or without the policy) is refused with 403/404 and changes nothing, anonymous gets 401.
 * A test also fails when one of these groups gains a call that this table does not cover.
 */
let t: FacilitiesTestApp;
const c: Record<string, Client> = {};
const ids: Record<string, string> = {};
let token = '';

const GROUPS = ['/api/Facility/', '/api/ExternalFacility/', '/api/ConformityBody/', '/api/ConformityBodyDelegation/', '/api/InternalFacilityDelegation/', '/api/HalalCenter/'];

interface Case {
  method: 'GET' | 'POST' | 'PUT';
  /** The route pattern as registered (to prove coverage). */
  route: string;
  url: () => string;
  body?: () => unknown;
  /** Who may call it, and the status they get (the business answer may be a refusal, e.g. CB-00009). */
  allowed: [user: string, status: number, code?: string];
  /** A user of another facility, or one without the policy. */
  refused: string;
}

const externalBody = () => ({
  publicId: 'exf-anatolia-meat',
  nameAr: 'مصنع الأناضول للحوم',
  nameEn: 'Anatolia Meat Factory',
  registrationNumber: 'TR-884213',
  countryCode: 'TR',
  city: 'Ankara',
  address: 'Organize Sanayi Bolgesi',
  operations: ['slaughtering'],
  productionLinesCount: 3,
  criticalPointsCount: 6,
  permanentEmployeeCount: 85,
  shiftsCount: 2,
  productionArea: '5400',
  hasExtraBranches: false,
  attachments: [] as { id: string }[],
});
const cbBody = () => ({
  publicId: 'cb-global-halal',
  nameAr: 'الهيئة العالمية لتقييم المطابقة الحلال',
  nameEn: 'Global Halal Conformity Body',
  countryCode: 'MY',
  city: 'Kuala Lumpur',
  address: 'Jalan Ampang',
  registrationNumber: 'MY-55120',
  acceptanceNumber: '1-2024H-CB',
  notificationNumber: 'H-CB2024-1',
  certificateIssueDate: '2025-01-01',
  certificateExpiryDate: '2030-01-01',
  categories: ['C0'],
  attachments: [],
});
const delegateStart = (facilityPublicId: string, nationalId: string) => ({
  step: 'start',
  facilityPublicId,
  delegate: { nationalId, firstName: 'Sami', lastName: 'Ali', birthDate: '1990-01-01', phone: '0551112233', preferredLanguage: 'ar', email: `${nationalId}@example.com` },
  delegationType: 1,
  permissions: [],
});

const CASES: Case[] = [
  // ---- Facility ----
  { method: 'POST', route: '/api/Facility/CreateExternal', url: () => '/api/Facility/CreateExternal', body: () => ({ ...externalBody(), registrationNumber: 'TR-NEW-1', attachments: [{ id: ids.extCr }, { id: ids.extAcc }] }), allowed: ['external', 200], refused: 'registration' },
  { method: 'POST', route: '/api/Facility/CreateInternal', url: () => '/api/Facility/CreateInternal', body: () => ({ crEntityNumber: '1010700002', recaptchaToken: token, fullTimeEmployeeCount: 5 }), allowed: ['new.applicant', 200], refused: 'registration' },
  { method: 'POST', route: '/api/Facility/CreateInternalFacilityWithNoPartyFromWatheq', url: () => '/api/Facility/CreateInternalFacilityWithNoPartyFromWatheq', body: () => ({ crEntityNumber: '1010700006', recaptchaToken: token, fullTimeEmployeeCount: 5, attachments: [{ id: ids.noPartyCr }, { id: ids.noPartyLetter }] }), allowed: ['new.applicant', 200], refused: 'registration' },
  { method: 'GET', route: '/api/Facility/GetCrData', url: () => `/api/Facility/GetCrData?crEntityNumber=1010700001&recaptchaToken=${encodeURIComponent(token)}`, allowed: ['new.applicant', 200], refused: 'registration' },
  { method: 'POST', route: '/api/Facility/GetCrDataWithRelatedValidation', url: () => '/api/Facility/GetCrDataWithRelatedValidation', body: () => ({ crEntityNumber: '2050700008', recaptchaToken: token }), allowed: ['new.applicant', 200], refused: 'registration' },
  { method: 'GET', route: '/api/Facility/GetCurruntUserDetailInFacility/:id', url: () => '/api/Facility/GetCurruntUserDetailInFacility/inf-almarai-foods', allowed: ['internal.sub', 200], refused: 'external' },
  { method: 'GET', route: '/api/Facility/GetFacility', url: () => `/api/Facility/GetFacility?facilityId=${ids.almarai}`, allowed: ['internal.main', 200], refused: 'external' },
  { method: 'GET', route: '/api/Facility/GetFacilityAndVerifyCrData', url: () => '/api/Facility/GetFacilityAndVerifyCrData?publicId=inf-almarai-foods', allowed: ['internal.main', 200], refused: 'cb.main' },
  { method: 'GET', route: '/api/Facility/GetFacilityAndVerifyCrDataSkippingSubUser/:id', url: () => '/api/Facility/GetFacilityAndVerifyCrDataSkippingSubUser/inf-almarai-foods', allowed: ['internal.sub', 200], refused: 'external' },
  { method: 'GET', route: '/api/Facility/GetFacilityByPublicId', url: () => '/api/Facility/GetFacilityByPublicId?publicId=exf-anatolia-meat', allowed: ['external', 200], refused: 'internal.main' },
  { method: 'GET', route: '/api/Facility/GetFacilityWithMigrationCertificateIdAndVerifyCrData', url: () => '/api/Facility/GetFacilityWithMigrationCertificateIdAndVerifyCrData?publicId=inf-almarai-foods', allowed: ['internal.main', 200], refused: 'external' },
  { method: 'GET', route: '/api/Facility/GetListOfUsersForFacility/:id', url: () => '/api/Facility/GetListOfUsersForFacility/inf-almarai-foods', allowed: ['internal.sub', 200], refused: 'cb.sub' },
  { method: 'GET', route: '/api/Facility/GetUserDetailInFacility/:facilityId/:userId', url: () => `/api/Facility/GetUserDetailInFacility/inf-almarai-foods/${ids['internal.sub']}`, allowed: ['internal.main', 200], refused: 'external' },
  { method: 'GET', route: '/api/Facility/GetUserFacilities', url: () => '/api/Facility/GetUserFacilities?pageSize=5', allowed: ['internal.main', 200], refused: 'registration' },
  { method: 'GET', route: '/api/Facility/IsUserForFacilityIsMainUser/:id', url: () => '/api/Facility/IsUserForFacilityIsMainUser/inf-almarai-foods', allowed: ['internal.main', 200], refused: 'registration' },
  { method: 'PUT', route: '/api/Facility/UpdateExternal', url: () => '/api/Facility/UpdateExternal', body: () => ({ ...externalBody(), city: 'Ankara Merkez', attachments: [{ id: ids.updCr }, { id: ids.updAcc }] }), allowed: ['external', 200], refused: 'cb.main' },
  { method: 'POST', route: '/api/Facility/ValidateExternalCrNumberDuplicate', url: () => '/api/Facility/ValidateExternalCrNumberDuplicate', body: () => ({ registrationNumber: 'TR-FREE-9', countryCode: 'TR', publicId: 'exf-anatolia-meat' }), allowed: ['external', 200], refused: 'internal.main' },
  { method: 'POST', route: '/api/Facility/ValidateInternalCrNumberDuplicate', url: () => '/api/Facility/ValidateInternalCrNumberDuplicate', body: () => ({ crNumber: '1010700005' }), allowed: ['new.applicant', 200], refused: 'registration' },
  { method: 'GET', route: '/api/Facility/ValidateFacilityValidationOverWathiq/:id', url: () => '/api/Facility/ValidateFacilityValidationOverWathiq/inf-almarai-foods', allowed: ['internal.main', 200], refused: 'external' },
  { method: 'GET', route: '/api/Facility/ValidateIsUserForFacilityIsMainUser/:id', url: () => '/api/Facility/ValidateIsUserForFacilityIsMainUser/inf-almarai-foods', allowed: ['internal.main', 200], refused: 'external' },
  { method: 'POST', route: '/api/Facility/ValidateIsUserInternalFacilityMember', url: () => `/api/Facility/ValidateIsUserInternalFacilityMember?publicId=inf-almarai-foods&userId=${ids['internal.sub']}`, allowed: ['internal.main', 200], refused: 'external' },
  { method: 'POST', route: '/api/Facility/ValidateUpdateExternalFacilityRequest', url: () => '/api/Facility/ValidateUpdateExternalFacilityRequest', body: externalBody, allowed: ['external', 200], refused: 'cb.main' },
  { method: 'POST', route: '/api/Facility/VerifyAndUpdateCrData', url: () => '/api/Facility/VerifyAndUpdateCrData', body: () => ({ publicId: 'inf-almarai-foods' }), allowed: ['internal.main', 200], refused: 'external' },
  { method: 'POST', route: '/api/Facility/VerifyAndUpdateCrDataSkippingForSubUser', url: () => '/api/Facility/VerifyAndUpdateCrDataSkippingForSubUser', body: () => ({ publicId: 'inf-almarai-foods' }), allowed: ['internal.sub', 200], refused: 'external' },
  // ---- ExternalFacility ----
  { method: 'POST', route: '/api/ExternalFacility/SearchExternalFacility', url: () => '/api/ExternalFacility/SearchExternalFacility', body: () => ({ searchText: 'Anatolia' }), allowed: ['external', 200], refused: 'registration' },
  { method: 'POST', route: '/api/ExternalFacility/GetExternalFacilities', url: () => '/api/ExternalFacility/GetExternalFacilities?facilityIds=exf-anatolia-meat', allowed: ['external', 200], refused: 'internal.main' },
  { method: 'GET', route: '/api/ExternalFacility/GetExternalFacility/:id', url: () => `/api/ExternalFacility/GetExternalFacility/${ids.anatolia}`, allowed: ['external', 200], refused: 'cb.main' },
  { method: 'GET', route: '/api/ExternalFacility/GetFacilityByPublicId/:id', url: () => '/api/ExternalFacility/GetFacilityByPublicId/exf-anatolia-meat', allowed: ['external', 200], refused: 'internal.sub' },
  // ---- ConformityBody ----
  { method: 'POST', route: '/api/ConformityBody/ConfirmConformityBodyIban', url: () => '/api/ConformityBody/ConfirmConformityBodyIban?publicId=cb-global-halal&isIbanConfirmed=true', allowed: ['cb.main', 400, 'IbanAlreadyConfirmed'], refused: 'internal.main' },
  { method: 'POST', route: '/api/ConformityBody/create', url: () => '/api/ConformityBody/create', body: () => ({ ...cbBody(), publicId: undefined, registrationNumber: 'AE-CB-1', acceptanceNumber: '2-3456H-CB', notificationNumber: 'H-CB3456-2', attachments: [{ id: ids.cbCr }, { id: ids.cbAcc }, { id: ids.cbAccept }] }), allowed: ['new.applicant', 200], refused: 'registration' },
  { method: 'GET', route: '/api/ConformityBody/get/:id', url: () => '/api/ConformityBody/get/cb-global-halal', allowed: ['cb.sub', 200], refused: 'internal.main' },
  { method: 'GET', route: '/api/ConformityBody/GetConformityBodyDetails/:id', url: () => '/api/ConformityBody/GetConformityBodyDetails/cb-global-halal', allowed: ['cb.main', 200], refused: 'external' },
  { method: 'GET', route: '/api/ConformityBody/GetListOfUsersForConformityBodies/:id', url: () => '/api/ConformityBody/GetListOfUsersForConformityBodies/cb-global-halal', allowed: ['cb.sub', 200], refused: 'internal.sub' },
  { method: 'GET', route: '/api/ConformityBody/GetIbanStatus', url: () => '/api/ConformityBody/GetIbanStatus?publicId=cb-global-halal', allowed: ['cb.main', 200], refused: 'internal.main' },
  { method: 'GET', route: '/api/ConformityBody/get-user-cb', url: () => '/api/ConformityBody/get-user-cb?serachText=Global', allowed: ['cb.main', 200], refused: 'registration' },
  { method: 'GET', route: '/api/ConformityBody/GetUserDetailInConformityBody/:cbId/:userId', url: () => `/api/ConformityBody/GetUserDetailInConformityBody/cb-global-halal/${ids['cb.sub']}`, allowed: ['cb.main', 200], refused: 'internal.main' },
  { method: 'GET', route: '/api/ConformityBody/GetUserInfoInConformityBody/:cbId/:userId', url: () => `/api/ConformityBody/GetUserInfoInConformityBody/cb-global-halal/${ids['cb.sub']}`, allowed: ['cb.main', 200], refused: 'external' },
  { method: 'GET', route: '/api/ConformityBody/IsUserForCbIsMainUser/:id', url: () => '/api/ConformityBody/IsUserForCbIsMainUser/cb-global-halal', allowed: ['cb.main', 200], refused: 'registration' },
  { method: 'PUT', route: '/api/ConformityBody/update', url: () => '/api/ConformityBody/update', body: cbBody, allowed: ['cb.main', 400, 'CB-00009'], refused: 'internal.main' },
  { method: 'POST', route: '/api/ConformityBody/UpdateConformityBodyForCbRenewal', url: () => '/api/ConformityBody/UpdateConformityBodyForCbRenewal', body: () => ({ publicId: 'cb-global-halal', acceptanceNumber: '1-2024H-CB', notificationNumber: 'H-CB2024-1', certificateIssueDate: '2025-01-01', certificateExpiryDate: '2031-01-01', attachments: [{ id: ids.renewAccept }] }), allowed: ['cb.main', 200], refused: 'external' },
  { method: 'GET', route: '/api/ConformityBody/validateAcceptanceCertificateExpiry/:id', url: () => '/api/ConformityBody/validateAcceptanceCertificateExpiry/cb-global-halal', allowed: ['cb.sub', 200], refused: 'internal.main' },
  { method: 'POST', route: '/api/ConformityBody/ValidateAcceptanceNumberAsync', url: () => '/api/ConformityBody/ValidateAcceptanceNumberAsync', body: () => ({ acceptanceNumber: '1-2024H-CB', publicId: 'cb-global-halal' }), allowed: ['cb.main', 200], refused: 'internal.main' },
  { method: 'GET', route: '/api/ConformityBody/ValidateIfCBExists/:id', url: () => '/api/ConformityBody/ValidateIfCBExists/cb-global-halal', allowed: ['cb.sub', 200], refused: 'external' },
  { method: 'GET', route: '/api/ConformityBody/ValidateIsUserCBMember/:id', url: () => `/api/ConformityBody/ValidateIsUserCBMember/cb-global-halal?userId=${ids['cb.sub']}`, allowed: ['cb.main', 200], refused: 'internal.main' },
  { method: 'POST', route: '/api/ConformityBody/ValidateIsUserForCBMemeberIsMainUser/:id', url: () => '/api/ConformityBody/ValidateIsUserForCBMemeberIsMainUser/cb-global-halal', allowed: ['cb.main', 200], refused: 'internal.main' },
  { method: 'POST', route: '/api/ConformityBody/ValidateRegistrationNumberAsync', url: () => '/api/ConformityBody/ValidateRegistrationNumberAsync', body: () => ({ registrationNumber: 'MY-55120', countryCode: 'MY', publicId: 'cb-global-halal' }), allowed: ['cb.main', 200], refused: 'external' },
  { method: 'POST', route: '/api/ConformityBody/ValidateUpdateConformityBodyRequest', url: () => '/api/ConformityBody/ValidateUpdateConformityBodyRequest', body: cbBody, allowed: ['cb.main', 400, 'CB-00009'], refused: 'external' },
  // ---- ConformityBodyDelegation ----
  { method: 'POST', route: '/api/ConformityBodyDelegation/SubmitCBDelegationRequest', url: () => '/api/ConformityBodyDelegation/SubmitCBDelegationRequest', body: () => delegateStart('cb-global-halal', '1000000008'), allowed: ['cb.main', 200], refused: 'internal.main' },
  { method: 'GET', route: '/api/ConformityBodyDelegation/ValidateIfCurrentUserHasAuthorityToAddDelegation/:id', url: () => '/api/ConformityBodyDelegation/ValidateIfCurrentUserHasAuthorityToAddDelegation/cb-global-halal', allowed: ['cb.main', 200], refused: 'internal.main' },
  { method: 'GET', route: '/api/ConformityBodyDelegation/ValidateIsConformityBodyMember/:cbId/:userId', url: () => `/api/ConformityBodyDelegation/ValidateIsConformityBodyMember/cb-global-halal/${ids['cb.sub']}`, allowed: ['cb.main', 200], refused: 'internal.main' },
  { method: 'GET', route: '/api/ConformityBodyDelegation/ValidateIsConformityBodyMemberById/:cbId/:userId', url: () => `/api/ConformityBodyDelegation/ValidateIsConformityBodyMemberById/${ids.globalCb}/${ids['cb.sub']}`, allowed: ['cb.sub', 200], refused: 'external' },
  { method: 'POST', route: '/api/ConformityBodyDelegation/ValidateUserExisitenceBeforeAndReturnUserInfoForCB', url: () => '/api/ConformityBodyDelegation/ValidateUserExisitenceBeforeAndReturnUserInfoForCB', body: () => ({ facilityPublicId: 'cb-global-halal', nationalId: DEMO_IDENTITIES['internal.sub'].nationalId }), allowed: ['cb.main', 200], refused: 'internal.main' },
  // The main user may call it, and is refused for themselves: the main user cannot be removed.
  { method: 'POST', route: '/api/ConformityBodyDelegation/RemoveUser', url: () => '/api/ConformityBodyDelegation/RemoveUser', body: () => ({ facilityPublicId: 'cb-global-halal', userId: ids['cb.main'] }), allowed: ['cb.main', 409, 'MainUserProtected'], refused: 'internal.main' },
  // ---- InternalFacilityDelegation ----
  { method: 'POST', route: '/api/InternalFacilityDelegation/RemoveUser', url: () => '/api/InternalFacilityDelegation/RemoveUser', body: () => ({ facilityPublicId: 'inf-almarai-foods', userId: ids['internal.main'] }), allowed: ['internal.main', 409, 'MainUserProtected'], refused: 'internal.sub' },
  { method: 'POST', route: '/api/InternalFacilityDelegation/SubmitFacilityDelegationRequest', url: () => '/api/InternalFacilityDelegation/SubmitFacilityDelegationRequest', body: () => delegateStart('inf-almarai-foods', '1000000016'), allowed: ['internal.main', 200], refused: 'new.applicant' },
  { method: 'GET', route: '/api/InternalFacilityDelegation/ValidateIfCurrentUserHasAuthorityToAddDelegation/:id', url: () => '/api/InternalFacilityDelegation/ValidateIfCurrentUserHasAuthorityToAddDelegation/inf-almarai-foods', allowed: ['internal.main', 200], refused: 'new.applicant' },
  { method: 'POST', route: '/api/InternalFacilityDelegation/ValidateIfUserHasAuthorityOnFacilityAsync', url: () => `/api/InternalFacilityDelegation/ValidateIfUserHasAuthorityOnFacilityAsync?facilityId=inf-almarai-foods&userId=${ids['internal.main']}`, allowed: ['internal.sub', 200], refused: 'new.applicant' },
  { method: 'POST', route: '/api/InternalFacilityDelegation/ValidateUserExisitenceAndReturnUserInfoForFacility', url: () => '/api/InternalFacilityDelegation/ValidateUserExisitenceAndReturnUserInfoForFacility', body: () => ({ facilityPublicId: 'inf-almarai-foods', nationalId: DEMO_IDENTITIES['cb.main'].nationalId }), allowed: ['internal.main', 200], refused: 'new.applicant' },
  { method: 'POST', route: '/api/InternalFacilityDelegation/ValidateUserExisitenceBeforeAndReturnUserInfoForFacility', url: () => '/api/InternalFacilityDelegation/ValidateUserExisitenceBeforeAndReturnUserInfoForFacility', body: () => ({ facilityPublicId: 'inf-almarai-foods', nationalId: '1000000024' }), allowed: ['internal.main', 200], refused: 'external' },
  // ---- HalalCenter ----
  { method: 'GET', route: '/api/HalalCenter/ConformityBody/get/:id', url: () => '/api/HalalCenter/ConformityBody/get/cb-global-halal', allowed: ['registration', 200], refused: 'cb.main' },
  { method: 'GET', route: '/api/HalalCenter/Facility/get/:id', url: () => '/api/HalalCenter/Facility/get/inf-almarai-foods', allowed: ['committee', 200], refused: 'internal.main' },
];

async function upload(client: Client, category: string, fileName = 'file.pdf'): Promise<string> {
  const res = await client.request({ method: 'POST', url: `/api/facility-attachments?category=${category}&fileName=${fileName}`, payload: PDF, headers: { 'content-type': 'application/pdf' } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id;
}

beforeAll(async () => {
  t = await createFacilitiesTestApp();
  for (const u of ['internal.main', 'internal.sub', 'external', 'cb.main', 'cb.sub', 'new.applicant', 'registration', 'committee']) {
    c[u] = await t.login(u);
    const [row] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.userName, u));
    ids[u] = row.id;
  }
  const idOf = async (publicId: string) => (await t.database.db.select({ id: facilities.id }).from(facilities).where(eq(facilities.publicId, publicId)))[0].id;
  ids.almarai = await idOf('inf-almarai-foods');
  ids.anatolia = await idOf('exf-anatolia-meat');
  ids.globalCb = await idOf('cb-global-halal');
  ids.extCr = await upload(c.external, 'commercialRegistration');
  ids.extAcc = await upload(c.external, 'accreditationCertificate');
  ids.updCr = await upload(c.external, 'commercialRegistration');
  ids.updAcc = await upload(c.external, 'accreditationCertificate');
  ids.noPartyCr = await upload(c['new.applicant'], 'commercialRegistration');
  ids.noPartyLetter = await upload(c['new.applicant'], 'delegationLetter');
  ids.cbCr = await upload(c['new.applicant'], 'commercialRegistration');
  ids.cbAcc = await upload(c['new.applicant'], 'accreditationCertificate');
  ids.cbAccept = await upload(c['new.applicant'], 'acceptanceCertificate');
  ids.renewAccept = await upload(c['cb.main'], 'acceptanceCertificate');
  token = await t.recaptchaToken();
}, 120_000);
afterAll(() => t?.close());

describe('facilities calls: allowed, other facility, anonymous', () => {
  it('covers every call of the six groups', () => {
    const registered = t.app.routePolicies.filter((r) => GROUPS.some((g) => r.url.startsWith(g))).map((r) => `${r.method} ${r.url}`);
    const covered = new Set(CASES.map((k) => `${k.method} ${k.route}`));
    expect(registered.filter((r) => !covered.has(r))).toEqual([]);
    expect(registered.length).toBe(CASES.length);
  });

  for (const k of CASES) {
    it(`${k.method} ${k.route}`, async () => {
      const call = (client: Client) => client.request({ method: k.method, url: k.url(), payload: k.body?.() as never });
      // Refused first: what the refused call would have changed must still be unchanged afterwards.
      const before = await t.database.db.select().from(facilities).orderBy(facilities.id);
      const refused = await call(c[k.refused]);
      expect([403, 404], `${k.refused}: ${refused.body}`).toContain(refused.statusCode);
      expect(await t.database.db.select().from(facilities).orderBy(facilities.id)).toEqual(before);

      const anonymous = await call(t.anonymous);
      expect(anonymous.statusCode).toBe(401);

      const [user, status, code] = k.allowed;
      const allowed = await call(c[user]);
      expect(allowed.statusCode, `${user}: ${allowed.body}`).toBe(status);
      if (code) expect(allowed.json().error.code).toBe(code);
    });
  }
});
