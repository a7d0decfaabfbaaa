import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { facilities, facilityMembers } from '../../db/schema';
import type { Client } from '../helpers/app';
import { createFacilitiesTestApp, PDF, type FacilitiesTestApp } from './facilities-harness';

let t: FacilitiesTestApp;
let applicant: Client;

beforeAll(async () => {
  t = await createFacilitiesTestApp();
  applicant = await t.login('new.applicant');
}, 120_000);
afterAll(() => t?.close());

const crData = async (cr: string, lang = 'en') =>
  applicant.get(`/api/Facility/GetCrData?crEntityNumber=${cr}&recaptchaToken=${encodeURIComponent(await t.recaptchaToken())}&lang=${lang}`);
const create = async (cr: string, extra: Record<string, unknown> = {}, path = 'CreateInternal') =>
  applicant.post(`/api/Facility/${path}?lang=en`, { crEntityNumber: cr, recaptchaToken: await t.recaptchaToken(), fullTimeEmployeeCount: 12, ...extra });
const upload = async (category: string) =>
  (await applicant.request({ method: 'POST', url: `/api/facility-attachments?category=${category}&fileName=letter.pdf`, payload: PDF, headers: { 'content-type': 'application/pdf' } })).json().id as string;

describe('commercial registry lookup (GetCrData)', () => {
  it('fills the facility data from the registry and shows whether the caller is a party', async () => {
    const res = await crData('1010700001');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      crNumber: '1010700001',
      nameEn: 'Al Nakheel Dates Factory',
      status: 'Active',
      unifiedNumber: '7010700001',
      hasParty: true,
      isCurrentUserParty: true,
      alreadyRegistered: false,
      address: { city: 'الرياض', buildingNumber: '4312' },
    });
    // Parties' id numbers never leave the server.
    expect(JSON.stringify(res.json())).not.toMatch(/1088\d{6}/);
  });

  it('shows every registration status; deleted is refused as cancelled, in both languages', async () => {
    expect((await crData('1010700003')).json().status).toBe('Suspended');
    expect((await crData('1010700004')).json().status).toBe('Deleted');
    expect((await crData('1010700005')).json().status).toBe('Expired');
    const cases = [
      ['1010700003', 'This commercial registration is suspended; only an active registration can be used.'],
      ['1010700004', 'This commercial registration is cancelled; only an active registration can be used.'],
      ['1010700005', 'This commercial registration has expired; renew it before adding the facility.'],
    ];
    for (const [cr, message] of cases) {
      const res = await create(cr);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(message);
    }
    const ar = await applicant.post('/api/Facility/GetCrDataWithRelatedValidation?lang=ar', { crEntityNumber: '1010700004', recaptchaToken: await t.recaptchaToken() });
    expect(ar.json().error.message).toBe('هذا السجل التجاري ملغى؛ لا يمكن استخدام إلا سجل تجاري نشط.');
    expect(await t.database.db.select().from(facilities).where(eq(facilities.registrationNumber, '1010700003'))).toHaveLength(0);
  });

  it('refuses unknown and malformed numbers', async () => {
    expect((await crData('1010799999')).json().error.code).toBe('CrNotFound');
    expect((await crData('12345')).json().error.code).toBe('CrNumberInvalid');
  });
});

describe('reCAPTCHA', () => {
  it('is required, must be valid, and one token is reused for several calls', async () => {
    const missing = await applicant.get('/api/Facility/GetCrData?crEntityNumber=1010700001&recaptchaToken=');
    expect(missing.statusCode).toBe(400);
    const forged = await applicant.get('/api/Facility/GetCrData?crEntityNumber=1010700001&recaptchaToken=simulator-fail');
    expect(forged.json().error.code).toBe('RecaptchaInvalid');
    const token = encodeURIComponent(await t.recaptchaToken());
    // The provider accepts a token once; the portal's reuse window lets the same token serve the next calls.
    for (let i = 0; i < 3; i++) expect((await applicant.get(`/api/Facility/GetCrData?crEntityNumber=1010700001&recaptchaToken=${token}`)).statusCode).toBe(200);
  });
});

describe('adding an internal facility', () => {
  it('makes the applicant its main user immediately, and refuses the same CR number again', async () => {
    const res = await create('1010700002', { exportingCountries: ['AE'], totalAnnualRevenue: '1250000.50' });
    expect(res.statusCode, res.body).toBe(200);
    const f = res.json();
    expect(f).toMatchObject({ facilityType: 'InternalFacility', registrationNumber: '1010700002', crStatus: 'Active', currentUserRole: 0, details: { applicantRelation: 'owner', fullTimeEmployeeCount: 12 } });
    const validation = await applicant.post('/api/Facility/GetCrDataWithRelatedValidation?lang=en', { crEntityNumber: '1010700002', recaptchaToken: await t.recaptchaToken() });
    expect(validation.json().error.message).toBe('A facility with this commercial registration number is already registered.');
    const dup = await create('1010700002');
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.code).toBe('CrNumberDuplicate');
    expect((await applicant.post('/api/Facility/ValidateInternalCrNumberDuplicate', { crNumber: '1010700002' })).json().error.code).toBe('CrNumberDuplicate');
    expect(await t.database.db.select().from(facilities).where(eq(facilities.registrationNumber, '1010700002'))).toHaveLength(1);
    const members = await t.database.db.select().from(facilityMembers).where(eq(facilityMembers.facilityId, f.id));
    expect(members.map((m) => m.role)).toEqual([0]);
  });

  it('refuses revenue with more than 20 digits or more than 2 decimals', async () => {
    const res = await create('2050700008', { totalAnnualRevenue: '1.234' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.validationErrors[0].message).toBe('Enter a number of at most 20 digits with at most 2 decimals');
    expect((await create('2050700008', { totalAnnualRevenue: '123456789012345678901' })).statusCode).toBe(400);
  });

  it('asks an applicant who is not a party for the owner\'s authorisation letter', async () => {
    const lookup = await applicant.post('/api/Facility/GetCrDataWithRelatedValidation', { crEntityNumber: '4030700007', recaptchaToken: await t.recaptchaToken() });
    expect(lookup.json()).toMatchObject({ variant: 'withParty', isCurrentUserParty: false, delegationLetterRequired: true });
    const without = await create('4030700007');
    expect(without.json().error).toMatchObject({ code: 'DelegationLetterRequired' });
    const ok = await create('4030700007', { attachments: [{ id: await upload('delegationLetter') }] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().details.applicantRelation).toBe('delegate');
    expect(ok.json().attachments).toMatchObject([{ category: 'delegationLetter', fileName: 'letter.pdf' }]);
  });

  it('has a variant for a registration with no party, which needs the registration copy and the letter', async () => {
    const lookup = await applicant.post('/api/Facility/GetCrDataWithRelatedValidation', { crEntityNumber: '1010700006', recaptchaToken: await t.recaptchaToken() });
    expect(lookup.json()).toMatchObject({ variant: 'noParty', hasParty: false, commercialRegistrationRequired: true });
    expect((await create('1010700006')).json().error.code).toBe('CrHasNoParty');
    expect((await create('1010700001', {}, 'CreateInternalFacilityWithNoPartyFromWatheq')).json().error.code).toBe('CrHasParty');
    const missing = await create('1010700006', { attachments: [{ id: await upload('delegationLetter') }] }, 'CreateInternalFacilityWithNoPartyFromWatheq');
    expect(missing.json().error.message).toBe('At least one attachment is required: Commercial registration certificate.');
    const ok = await create('1010700006', { attachments: [{ id: await upload('delegationLetter') }, { id: await upload('commercialRegistration') }] }, 'CreateInternalFacilityWithNoPartyFromWatheq');
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('another user cannot claim someone else\'s upload', async () => {
    const other = await t.login('internal.main');
    const foreign = await upload('delegationLetter');
    const res = await other.post('/api/Facility/CreateInternal', { crEntityNumber: '1010900001', recaptchaToken: await t.recaptchaToken(), fullTimeEmployeeCount: 1, attachments: [{ id: foreign }] });
    expect(res.json().error.code).toBe('AttachmentNotFound');
    expect(await t.database.db.select().from(facilities).where(eq(facilities.registrationNumber, '1010900001'))).toHaveLength(0);
  });
});

describe('re-verification against the registry', () => {
  it('VerifyAndUpdateCrData stores the registry\'s current data; a sub user\'s variant skips the registry', async () => {
    await t.database.db.update(facilities).set({ nameEn: 'Old name', crStatus: 'Suspended' }).where(eq(facilities.publicId, 'inf-almarai-foods'));
    const sub = await t.login('internal.sub');
    const skipped = await sub.post('/api/Facility/VerifyAndUpdateCrDataSkippingForSubUser', { publicId: 'inf-almarai-foods' });
    expect(skipped.json()).toMatchObject({ crVerification: 'skipped', nameEn: 'Old name' });
    const viaProfile = await sub.get('/api/Facility/GetFacilityAndVerifyCrDataSkippingSubUser/inf-almarai-foods');
    expect(viaProfile.json().crVerification).toBe('skipped');
    const main = await t.login('internal.main');
    const updated = await main.post('/api/Facility/VerifyAndUpdateCrData', { publicId: 'inf-almarai-foods' });
    expect(updated.json()).toMatchObject({ nameEn: 'Al Marai Foods Factory', crStatus: 'Active' });
    expect((await main.get('/api/Facility/ValidateFacilityValidationOverWathiq/inf-almarai-foods')).json()).toBe(true);
  });

  it("the demo facility's city stays in English once its profile has checked the registry", async () => {
    const main = await t.login('internal.main');
    const profile = await main.get('/api/Facility/GetFacilityAndVerifyCrData?publicId=inf-almarai-foods&lang=en');
    expect(profile.json()).toMatchObject({ crVerification: 'verified', city: 'Riyadh' });
  });

  it('ValidateFacilityValidationOverWathiq refuses a facility whose registration is no longer active', async () => {
    const res = await create('1010900002');
    expect(res.statusCode).toBe(200);
    // The registry now says the registration is deleted (a facility of the simulator's suspended/deleted seeds).
    await t.database.db.update(facilities).set({ registrationNumber: '1010700004' }).where(eq(facilities.id, res.json().id));
    const check = await applicant.get(`/api/Facility/ValidateFacilityValidationOverWathiq/${res.json().publicId}?lang=en`);
    expect(check.json().error.code).toBe('CrDeleted');
    const [row] = await t.database.db.select().from(facilities).where(eq(facilities.id, res.json().id));
    expect(row.crStatus).toBe('Deleted');
  });

  it('opens the profile with stored data when the registry is down', { timeout: 120_000 }, async () => {
    const down = await createFacilitiesTestApp({ CR_REGISTRY_URL: 'http://127.0.0.1:9/nothing' });
    try {
      const main = await down.login('internal.main');
      const res = await main.get('/api/Facility/GetFacilityAndVerifyCrData?publicId=inf-almarai-foods');
      expect(res.json()).toMatchObject({ crVerification: 'unavailable', publicId: 'inf-almarai-foods' });
      const strict = await main.post('/api/Facility/VerifyAndUpdateCrData', { publicId: 'inf-almarai-foods' });
      expect(strict.statusCode).toBe(502);
    } finally {
      await down.close();
    }
  });
});

describe('associated facilities (GetUserFacilities)', () => {
  it('searches by any, name, CR number, city and country, filters by type, and pages with first and last page', async () => {
    for (let i = 10; i < 15; i++) expect((await create(`10109000${i}`)).statusCode).toBe(200);
    const all = (await applicant.get('/api/Facility/GetUserFacilities?pageSize=100')).json();
    expect(all.totalCount).toBeGreaterThanOrEqual(9);
    const byName = (await applicant.get('/api/Facility/GetUserFacilities?searchBy=1&searchText=Trial%20Factory%20No.%2000011')).json();
    expect(byName.items.map((f: { registrationNumber: string }) => f.registrationNumber)).toEqual(['1010900011']);
    const byCr = (await applicant.get('/api/Facility/GetUserFacilities?searchBy=2&searchText=101090001')).json();
    expect(byCr.totalCount).toBe(5);
    const byCity = (await applicant.get(`/api/Facility/GetUserFacilities?searchBy=3&searchText=${encodeURIComponent('جدة')}`)).json();
    expect(byCity.items.map((f: { registrationNumber: string }) => f.registrationNumber)).toEqual(['4030700007']);
    const byCountry = (await applicant.get('/api/Facility/GetUserFacilities?searchBy=4&searchText=sa')).json();
    expect(byCountry.totalCount).toBe(all.totalCount);
    const byAny = (await applicant.get('/api/Facility/GetUserFacilities?searchBy=0&searchText=waha')).json();
    expect(byAny.items.map((f: { registrationNumber: string }) => f.registrationNumber)).toEqual(['1010700002']);
    const otherUsers = (await applicant.get('/api/Facility/GetUserFacilities?searchText=Marai')).json();
    expect(otherUsers.totalCount).toBe(0);
    expect((await applicant.get('/api/Facility/GetUserFacilities?facilityType=ConformityBody')).json().totalCount).toBe(0);
    const last = (await applicant.get('/api/Facility/GetUserFacilities?pageSize=2&fetchLastPage=true')).json();
    expect(last.pageNumber).toBe(Math.ceil(all.totalCount / 2));
    expect(last.items.length).toBe(all.totalCount % 2 || 2);
    const first = (await applicant.get('/api/Facility/GetUserFacilities?pageSize=2&pageNumber=3&fetchFirstPage=true')).json();
    expect(first.pageNumber).toBe(1);
    const literal = (await applicant.get('/api/Facility/GetUserFacilities?searchText=%25')).json();
    expect(literal.totalCount).toBe(0);
  });

  it('labels the users of a facility and the current one ("main (you)")', async () => {
    const main = await t.login('internal.main');
    const list = (await main.get('/api/Facility/GetListOfUsersForFacility/inf-almarai-foods')).json();
    expect(list.map((u: { userName: string; role: number; isCurrentUser: boolean }) => [u.userName, u.role, u.isCurrentUser])).toEqual([
      ['internal.main', 0, true],
      ['internal.sub', 1, false],
    ]);
    const me = (await main.get('/api/Facility/GetCurruntUserDetailInFacility/inf-almarai-foods')).json();
    expect(me).toMatchObject({ role: 0, isMainUser: true, canDelegate: true });
  });
});
