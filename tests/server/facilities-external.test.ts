import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { facilities } from '../../db/schema';
import { createRecaptchaVerifier, RECAPTCHA_REUSE_MS } from '../../server/adapters/recaptcha';
import type { Client } from '../helpers/app';
import { createFacilitiesTestApp, PDF, type FacilitiesTestApp } from './facilities-harness';

let t: FacilitiesTestApp;
let cbUser: Client;

const upload = async (client: Client, category: string) =>
  (await client.request({ method: 'POST', url: `/api/facility-attachments?category=${category}&fileName=doc.pdf`, payload: PDF, headers: { 'content-type': 'application/pdf' } })).json().id as string;
const factory = async (client: Client, extra: Record<string, unknown> = {}) => ({
  nameAr: 'مصنع جاوة للأغذية',
  nameEn: 'Java Foods Factory',
  registrationNumber: 'ID-100200',
  countryCode: 'ID',
  city: 'Bandung',
  district: 'Cimahi',
  streetName: 'Jalan Industri',
  zipCode: '40511',
  address: 'Jalan Industri 12, Bandung',
  operations: ['processing', 'packaging'],
  productionLinesCount: 4,
  criticalPointsCount: 7,
  permanentEmployeeCount: 150,
  shiftsCount: 2,
  productionArea: '12500.75',
  hasExtraBranches: true,
  extraBranches: 'Surabaya warehouse',
  attachments: [{ id: await upload(client, 'commercialRegistration') }, { id: await upload(client, 'accreditationCertificate') }],
  ...extra,
});

beforeAll(async () => {
  t = await createFacilitiesTestApp();
  cbUser = await t.login('cb.main');
}, 120_000);
afterAll(() => t?.close());

describe('external facilities (foreign factories)', () => {
  it('are added immediately with the applicant as main user; Saudi factories and duplicates are refused', async () => {
    const res = await cbUser.post('/api/Facility/CreateExternal', await factory(cbUser));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ facilityType: 'ExternalFacility', origin: 2, currentUserRole: 0, details: { productionArea: '12500.75', hasExtraBranches: true } });
    const dup = await cbUser.post('/api/Facility/CreateExternal?lang=en', await factory(cbUser));
    expect(dup.json().error.message).toBe('This registration number is already registered.');
    expect((await cbUser.post('/api/Facility/ValidateExternalCrNumberDuplicate', { registrationNumber: 'ID-100200', countryCode: 'ID' })).json().error.code).toBe('RegistrationNumberDuplicate');
    // The same number in another country is another factory.
    expect((await cbUser.post('/api/Facility/ValidateExternalCrNumberDuplicate', { registrationNumber: 'ID-100200', countryCode: 'MY' })).json()).toBe(true);
    const saudi = await cbUser.post('/api/Facility/CreateExternal', await factory(cbUser, { countryCode: 'SA', registrationNumber: 'X-1' }));
    expect(saudi.json().error.code).toBe('ExternalFacilityCountryInvalid');
  });

  it('validate the production area (6 digits, 2 decimals) and the attachments', async () => {
    const area = await cbUser.post('/api/Facility/CreateExternal?lang=en', await factory(cbUser, { registrationNumber: 'ID-9', productionArea: '1234567' }));
    expect(area.json().error.validationErrors[0]).toMatchObject({ message: 'Enter a number of at most 6 digits with at most 2 decimals', members: ['productionArea'] });
    const noFiles = await cbUser.post('/api/Facility/CreateExternal', await factory(cbUser, { registrationNumber: 'ID-9', attachments: [] }));
    expect(noFiles.json().error.code).toBe('AttachmentRequired');
  });

  it('are updated by their users only; a new file replaces the one of its category', async () => {
    const created = (await cbUser.post('/api/Facility/CreateExternal', await factory(cbUser, { registrationNumber: 'ID-200300' }))).json();
    const newCr = await upload(cbUser, 'commercialRegistration');
    const body = { ...(await factory(cbUser, { registrationNumber: 'ID-200300', city: 'Jakarta' })), publicId: created.publicId, attachments: [{ id: newCr }] };
    expect((await cbUser.post('/api/Facility/ValidateUpdateExternalFacilityRequest', body)).json()).toBe(true);
    const updated = await cbUser.put('/api/Facility/UpdateExternal', body);
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().city).toBe('Jakarta');
    expect(updated.json().attachments.map((a: { category: string }) => a.category).sort()).toEqual(['accreditationCertificate', 'commercialRegistration']);
    expect(updated.json().attachments.find((a: { category: string }) => a.category === 'commercialRegistration').id).toBe(newCr);

    const stranger = await t.login('external');
    const refused = await stranger.put('/api/Facility/UpdateExternal', { ...body, city: 'Medan', attachments: [] });
    expect(refused.statusCode).toBe(404);
    const [row] = await t.database.db.select().from(facilities).where(eq(facilities.publicId, created.publicId));
    expect(row.city).toBe('Jakarta');
  });

  it('search covers only the caller\'s factories, sorted as asked', async () => {
    await cbUser.post('/api/Facility/CreateExternal', await factory(cbUser, { registrationNumber: 'ID-300400', nameEn: 'Aceh Seafood Plant', nameAr: 'مصنع آتشيه للمأكولات البحرية', city: 'Banda Aceh' }));
    const byName = (await cbUser.post('/api/ExternalFacility/SearchExternalFacility?lang=en', { sortBy: 'name' })).json();
    expect(byName.items.map((f: { nameEn: string }) => f.nameEn)).toEqual(['Aceh Seafood Plant', 'Java Foods Factory', 'Java Foods Factory']);
    const byCity = (await cbUser.post('/api/ExternalFacility/SearchExternalFacility', { searchBy: 3, searchText: 'aceh' })).json();
    expect(byCity.totalCount).toBe(1);
    expect((await cbUser.post('/api/ExternalFacility/SearchExternalFacility', { searchText: 'Anatolia' })).json().totalCount).toBe(0);
    const mine = byName.items.map((f: { publicId: string }) => f.publicId);
    const many = await cbUser.post(`/api/ExternalFacility/GetExternalFacilities?facilityIds=${mine.join(',')}`);
    expect(many.json()).toHaveLength(3);
    const mixed = await cbUser.post(`/api/ExternalFacility/GetExternalFacilities?facilityIds=${mine[0]}&facilityIds=exf-anatolia-meat`);
    expect(mixed.statusCode).toBe(404);
  });

  it('sort by name in the reader\'s language, by the other language\'s name where one is missing', async () => {
    // First in Arabic (أ before م), last in English (Z).
    await cbUser.post('/api/Facility/CreateExternal', await factory(cbUser, { registrationNumber: 'PH-500600', countryCode: 'PH', city: 'Zamboanga', nameEn: 'Zamboanga Halal Meats', nameAr: 'أغذية زامبوانغا الحلال' }));
    const names = async (lang: string, field: 'nameAr' | 'nameEn') =>
      ((await cbUser.post(`/api/ExternalFacility/SearchExternalFacility?lang=${lang}`, { sortBy: 'name' })).json().items as Record<string, string>[]).map((f) => f[field]);
    expect(await names('ar', 'nameAr')).toEqual(['أغذية زامبوانغا الحلال', 'مصنع آتشيه للمأكولات البحرية', 'مصنع جاوة للأغذية', 'مصنع جاوة للأغذية']);
    expect(await names('en', 'nameEn')).toEqual(['Aceh Seafood Plant', 'Java Foods Factory', 'Java Foods Factory', 'Zamboanga Halal Meats']);
    // Without case: a name written in lower case is not put after Z (code-point order would).
    await t.database.db.update(facilities).set({ nameEn: 'aceh Seafood Plant' }).where(eq(facilities.registrationNumber, 'ID-300400'));
    expect(await names('en', 'nameEn')).toEqual(['aceh Seafood Plant', 'Java Foods Factory', 'Java Foods Factory', 'Zamboanga Halal Meats']);
    // A factory without an English name is read (and sorted) by its Arabic one, not first as an empty name.
    await t.database.db.update(facilities).set({ nameEn: '' }).where(eq(facilities.registrationNumber, 'ID-300400'));
    expect(await names('en', 'nameAr')).toEqual(['مصنع جاوة للأغذية', 'مصنع جاوة للأغذية', 'أغذية زامبوانغا الحلال', 'مصنع آتشيه للمأكولات البحرية']);
  });

  it('sort by country in the order of the country names the reader sees, not of their codes', async () => {
    await cbUser.post('/api/Facility/CreateExternal', await factory(cbUser, { registrationNumber: 'CH-700800', countryCode: 'CH', city: 'Zurich' }));
    const countries = async (lang: string) =>
      ((await cbUser.post(`/api/ExternalFacility/SearchExternalFacility?lang=${lang}`, { sortBy: 'country' })).json().items as { countryCode: string }[]).map((f) => f.countryCode);
    // Indonesia, Philippines, Switzerland; الفلبين، إندونيسيا، سويسرا. By code, CH would come first in both.
    expect(await countries('en')).toEqual(['ID', 'ID', 'ID', 'PH', 'CH']);
    expect(await countries('ar')).toEqual(['PH', 'ID', 'ID', 'ID', 'CH']);
  });
});

describe('reCAPTCHA verifier', () => {
  it('verifies a token with the provider once, then reuses it for less than 110000 ms', async () => {
    let now = 1_000_000;
    const fetchImpl = vi.fn(async () => new Response(JSON.stringify({ success: true, challenge_ts: new Date(now).toISOString() }), { status: 200 }));
    const v = createRecaptchaVerifier({ baseUrl: 'http://recaptcha.test', secret: 's', timeoutMs: 1000, now: () => now, fetchImpl: fetchImpl as unknown as typeof fetch });
    await v.verify('tok');
    now += RECAPTCHA_REUSE_MS - 1;
    await v.verify('tok');
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    now += 1;
    // At 110000 ms the token is no longer reused: the provider is asked again and (like Google) refuses a token
    // it has already verified.
    fetchImpl.mockImplementationOnce(async () => new Response(JSON.stringify({ success: false, 'error-codes': ['timeout-or-duplicate'] }), { status: 200 }));
    await expect(v.verify('tok')).rejects.toMatchObject({ code: 'RecaptchaInvalid' });
    expect(fetchImpl).toHaveBeenCalledTimes(2);
  });

  it('refuses a token whose issue time is already 110000 ms old, and a missing token without calling the provider', async () => {
    const now = 5_000_000;
    const fetchImpl = vi.fn(async () => new Response(JSON.stringify({ success: true, challenge_ts: new Date(now - RECAPTCHA_REUSE_MS).toISOString() }), { status: 200 }));
    const v = createRecaptchaVerifier({ baseUrl: 'http://recaptcha.test', secret: 's', timeoutMs: 1000, now: () => now, fetchImpl: fetchImpl as unknown as typeof fetch });
    await expect(v.verify('old')).rejects.toMatchObject({ code: 'RecaptchaInvalid' });
    await expect(v.verify('')).rejects.toMatchObject({ code: 'RecaptchaRequired' });
    expect(fetchImpl).toHaveBeenCalledTimes(1);
  });

  it('turns an unreachable provider into ExternalServiceUnavailable', async () => {
    const v = createRecaptchaVerifier({ baseUrl: 'http://127.0.0.1:9', secret: 's', timeoutMs: 500 });
    await expect(v.verify('x')).rejects.toMatchObject({ code: 'ExternalServiceUnavailable' });
  });
});
