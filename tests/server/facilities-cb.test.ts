import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { certificates, facilities } from '../../db/schema';
import { makeSaudiIban } from '../../machines/forms/facilities/formats';
import type { Client } from '../helpers/app';
import { createFacilitiesTestApp, PDF, PNG, type FacilitiesTestApp } from './facilities-harness';

let t: FacilitiesTestApp;
let applicant: Client;
let seq = 0;

const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const upload = async (client: Client, category: string, content: Buffer = PDF, fileName = 'doc.pdf', type = 'application/pdf') =>
  client.request({ method: 'POST', url: `/api/facility-attachments?category=${category}&fileName=${encodeURIComponent(fileName)}&lang=en`, payload: content, headers: { 'content-type': type } });
const files = async (client: Client) => {
  const out = [];
  for (const c of ['commercialRegistration', 'accreditationCertificate', 'acceptanceCertificate']) out.push({ id: (await upload(client, c)).json().id });
  return out;
};
const cbBody = async (extra: Record<string, unknown> = {}) => {
  seq++;
  return {
    nameAr: 'هيئة الخليج للحلال',
    nameEn: 'Gulf Halal Body',
    countryCode: 'AE',
    city: 'Dubai',
    address: 'Sheikh Zayed Road',
    registrationNumber: `AE-CB-${seq}`,
    acceptanceNumber: `${seq % 10}-${String(1000 + seq).slice(-4)}H-CB`,
    notificationNumber: `H-CB${String(2000 + seq).slice(-4)}-${seq % 10}`,
    certificateIssueDate: day(-30),
    certificateExpiryDate: day(700),
    iban: makeSaudiIban('10', String(100000000000000000 + seq).padStart(18, '0')),
    categories: ['C0', 'CI'],
    attachments: await files(applicant),
    ...extra,
  };
};
const createCb = async (extra: Record<string, unknown> = {}) => applicant.post('/api/ConformityBody/create?lang=en', await cbBody(extra));

beforeAll(async () => {
  t = await createFacilitiesTestApp();
  applicant = await t.login('new.applicant');
}, 120_000);
afterAll(() => t?.close());

describe('adding a conformity body', () => {
  it('is immediate, makes the applicant the main user and leaves the IBAN pending', async () => {
    const res = await createCb();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ facilityType: 'ConformityBody', currentUserRole: 0, ibanStatus: 'Pending', details: { categories: ['C0', 'CI'] } });
    expect(res.json().attachments).toHaveLength(3);
    const status = await applicant.get(`/api/ConformityBody/GetIbanStatus?publicId=${res.json().publicId}`);
    expect(status.headers['content-type']).toContain('text/plain');
    expect(status.body).toBe('Pending');
  });

  it('checks the acceptance and notification number formats with the spec\'s messages', async () => {
    const a = await createCb({ acceptanceNumber: '12-345H-CB' });
    expect(a.json().error.message).toBe('Wrong acceptance number format (expected #-####H-CB, for example 1-2345H-CB).');
    const n = await createCb({ notificationNumber: 'H-CB12-34' });
    expect(n.json().error.message).toBe('Invalid notification number (expected H-CB####-#, for example H-CB1234-5).');
    const ok = await applicant.post('/api/ConformityBody/ValidateAcceptanceNumberAsync', { acceptanceNumber: '7-7777h-cb' });
    expect(ok.json()).toBe(true);
  });

  it('refuses a certificate expiry that is not after today (CB-00006)', async () => {
    for (const expiry of [day(0), day(-10)]) {
      const res = await createCb({ certificateExpiryDate: expiry });
      expect(res.json().error).toMatchObject({ code: 'CB-00006', message: 'The certificate expiry date must be greater than today.' });
    }
  });

  it('refuses duplicate registration, acceptance and notification numbers', async () => {
    const first = (await createCb()).json();
    const dupReg = await createCb({ registrationNumber: first.registrationNumber });
    expect(dupReg.json().error.code).toBe('RegistrationNumberDuplicate');
    const dupAcc = await createCb({ acceptanceNumber: first.acceptanceNumber });
    expect(dupAcc.json().error.code).toBe('AcceptanceNumberDuplicate');
    const dupNot = await createCb({ notificationNumber: first.notificationNumber });
    expect(dupNot.json().error.code).toBe('NotificationNumberDuplicate');
    expect((await applicant.post('/api/ConformityBody/ValidateAcceptanceNumberAsync', { acceptanceNumber: first.acceptanceNumber })).json().error.code).toBe('AcceptanceNumberDuplicate');
    // The CB's own number is not a duplicate of itself.
    expect((await applicant.post('/api/ConformityBody/ValidateAcceptanceNumberAsync', { acceptanceNumber: first.acceptanceNumber, publicId: first.publicId })).json()).toBe(true);
    expect((await applicant.post('/api/ConformityBody/ValidateRegistrationNumberAsync', { registrationNumber: first.registrationNumber, countryCode: 'AE' })).json().error.code).toBe('RegistrationNumberDuplicate');
  });

  it('refuses an invalid IBAN, unknown categories and missing attachments', async () => {
    expect((await createCb({ iban: 'SA0000000000000000000000' })).json().error.code).toBe('IbanInvalid');
    expect((await createCb({ categories: ['Z9'] })).json().error.code).toBe('CategoryInvalid');
    const missing = await createCb({ attachments: [{ id: (await upload(applicant, 'commercialRegistration')).json().id }] });
    expect(missing.json().error.message).toBe('At least one attachment is required: Accreditation certificate.');
  });
});

describe('IBAN confirmation', () => {
  it('stays pending until the main user confirms; then it can only change through customer service', async () => {
    const cb = (await createCb()).json();
    const confirmed = await applicant.post(`/api/ConformityBody/ConfirmConformityBodyIban?publicId=${cb.publicId}&isIbanConfirmed=true`);
    expect(confirmed.json().ibanStatus).toBe('Confirmed');
    expect((await applicant.get(`/api/ConformityBody/GetIbanStatus?publicId=${cb.publicId}`)).body).toBe('Confirmed');
    const update = await applicant.put('/api/ConformityBody/update?lang=en', {
      ...(await cbBody({ registrationNumber: cb.registrationNumber, acceptanceNumber: cb.acceptanceNumber, notificationNumber: cb.notificationNumber })),
      publicId: cb.publicId,
      iban: makeSaudiIban('20', '999999999999999999'),
      attachments: [],
    });
    expect(update.json().error.message).toBe('The IBAN has been confirmed. To change it, please contact customer service.');
  });

  it('a declined IBAN is cleared so it can be entered again', async () => {
    const cb = (await createCb()).json();
    const declined = await applicant.post(`/api/ConformityBody/ConfirmConformityBodyIban?publicId=${cb.publicId}&isIbanConfirmed=false`);
    expect(declined.json()).toMatchObject({ iban: null, ibanStatus: 'NotProvided' });
  });
});

describe('editing a CB', () => {
  it('is refused with CB-00009 while it holds a valid designation certificate, allowed through a renewal', async () => {
    const cb = (await createCb()).json();
    const body = { ...(await cbBody({ registrationNumber: cb.registrationNumber, acceptanceNumber: cb.acceptanceNumber, notificationNumber: cb.notificationNumber, iban: cb.iban })), publicId: cb.publicId, city: 'Abu Dhabi', attachments: [] };
    const before = await applicant.put('/api/ConformityBody/update', body);
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json().city).toBe('Abu Dhabi');
    await t.database.db.insert(certificates).values({
      number: `CB-DES-${cb.publicId}`,
      kind: 'cbDesignation',
      facilityPublicId: cb.publicId,
      verificationCode: `v-${cb.publicId}`,
      expiresAt: new Date(Date.now() + 300 * 86_400_000),
    });
    const locked = await applicant.put('/api/ConformityBody/update?lang=ar', { ...body, city: 'Sharjah' });
    expect(locked.json().error).toMatchObject({ code: 'CB-00009', message: 'لا يمكنك تعديل جهة تقويم المطابقة.' });
    const [row] = await t.database.db.select().from(facilities).where(eq(facilities.publicId, cb.publicId));
    expect(row.city).toBe('Abu Dhabi');
    const renewal = await applicant.post('/api/ConformityBody/UpdateConformityBodyForCbRenewal', {
      publicId: cb.publicId,
      acceptanceNumber: cb.acceptanceNumber,
      certificateIssueDate: day(-1),
      certificateExpiryDate: day(1000),
      attachments: [{ id: (await upload(applicant, 'acceptanceCertificate')).json().id }],
    });
    expect(renewal.statusCode, renewal.body).toBe(200);
    expect(renewal.json().certificateExpiryDate).toBe(day(1000));
  });
});

describe('an expired acceptance certificate blocks the CB\'s services', () => {
  it('with the spec\'s message, until a renewal brings a valid one', async () => {
    const cb = (await createCb()).json();
    await t.database.db.update(facilities).set({ certificateExpiryDate: day(-1) }).where(eq(facilities.publicId, cb.publicId));
    const check = await applicant.get(`/api/ConformityBody/validateAcceptanceCertificateExpiry/${cb.publicId}?lang=en`);
    expect(check.statusCode).toBe(400);
    expect(check.json().error.message).toBe('You cannot use the service because the acceptance certificate has expired. Please renew it through the acceptance portal.');
    expect((await applicant.get(`/api/ConformityBody/get/${cb.publicId}`)).json().acceptanceCertificateExpired).toBe(true);
    const update = await applicant.put('/api/ConformityBody/update', { ...(await cbBody({ registrationNumber: cb.registrationNumber })), publicId: cb.publicId, attachments: [] });
    expect(update.json().error.code).toBe('AcceptanceCertificateExpired');
    const renewal = await applicant.post('/api/ConformityBody/UpdateConformityBodyForCbRenewal', {
      publicId: cb.publicId,
      acceptanceNumber: cb.acceptanceNumber,
      certificateIssueDate: day(0),
      certificateExpiryDate: day(1095),
      attachments: [{ id: (await upload(applicant, 'acceptanceCertificate')).json().id }],
    });
    expect(renewal.statusCode, renewal.body).toBe(200);
    expect((await applicant.get(`/api/ConformityBody/validateAcceptanceCertificateExpiry/${cb.publicId}`)).json()).toBe(true);
  });
});

describe('CB users and details', () => {
  it('lists users with roles, details of one, and the designation certificate', async () => {
    const cbMain = await t.login('cb.main');
    const users = (await cbMain.get('/api/ConformityBody/GetListOfUsersForConformityBodies/cb-global-halal')).json();
    expect(users.map((u: { userName: string; role: number }) => [u.userName, u.role])).toEqual([
      ['cb.main', 0],
      ['cb.sub', 1],
    ]);
    const details = (await cbMain.get('/api/ConformityBody/GetConformityBodyDetails/cb-global-halal')).json();
    expect(details).toMatchObject({ userCount: 2, designationCertificate: { usable: true }, acceptanceNumber: '1-2024H-CB' });
    const sub = users.find((u: { userName: string }) => u.userName === 'cb.sub');
    const info = (await cbMain.get(`/api/ConformityBody/GetUserInfoInConformityBody/cb-global-halal/${sub.userId}`)).json();
    expect(info).toMatchObject({ name: 'Farid Ismail', role: 1, maskedPhone: expect.stringContaining('***') });
    const mine = (await cbMain.get('/api/ConformityBody/get-user-cb?serachText=global')).json();
    expect(mine.items.map((f: { publicId: string }) => f.publicId)).toEqual(['cb-global-halal']);
    expect((await cbMain.get('/api/ConformityBody/IsUserForCbIsMainUser/cb-global-halal')).json()).toBe(true);
    const cbSub = await t.login('cb.sub');
    expect((await cbSub.get('/api/ConformityBody/IsUserForCbIsMainUser/cb-global-halal')).json()).toBe(false);
    expect((await cbSub.post('/api/ConformityBody/ValidateIsUserForCBMemeberIsMainUser/cb-global-halal')).json().error.code).toBe('NotMainUser');
  });

  it('Halal-center staff read any CB and facility with its users', async () => {
    const staff = await t.login('audit');
    const cb = (await staff.get('/api/HalalCenter/ConformityBody/get/cb-global-halal')).json();
    expect(cb).toMatchObject({ publicId: 'cb-global-halal', currentUserRole: null, certificate: { kind: 'cbDesignation' } });
    expect(cb.users).toHaveLength(2);
    expect((await staff.get('/api/HalalCenter/Facility/get/cb-global-halal')).statusCode).toBe(404);
    expect((await staff.get('/api/HalalCenter/Facility/get/exf-anatolia-meat')).json().facilityType).toBe('ExternalFacility');
  });
});

describe('attachments', () => {
  it('accepts PDF, PNG and JPG by content, refuses the rest with the upload messages', async () => {
    expect((await upload(applicant, 'qualityManual', PNG, 'manual.png', 'image/png')).statusCode).toBe(200);
    const cases: [Buffer, string, string, string][] = [
      [PDF, 'manual.v2.pdf', 'application/pdf', 'AttachmentNameInvalid'],
      [PDF, 'manual.docx', 'application/pdf', 'AttachmentTypeInvalid'],
      [PNG, 'manual.pdf', 'application/pdf', 'AttachmentContentMismatch'],
      [PDF, 'manual.pdf', 'image/png', 'AttachmentContentMismatch'],
      [Buffer.from('MZ not a document'), 'manual.pdf', 'application/pdf', 'AttachmentContentMismatch'],
    ];
    for (const [content, name, type, code] of cases) {
      const res = await upload(applicant, 'qualityManual', content, name, type);
      expect(res.statusCode, name).toBe(400);
      expect(res.json().error.code, name).toBe(code);
    }
    expect((await upload(applicant, 'passport')).statusCode).toBe(400);
  });

  it('downloads only for the uploader, users of the facility and staff', async () => {
    const cb = (await createCb()).json();
    const file = cb.attachments[0];
    const own = await applicant.get(`/api/facility-attachments/${file.id}`);
    expect(own.statusCode).toBe(200);
    expect(own.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    const stranger = await t.login('internal.main');
    expect((await stranger.get(`/api/facility-attachments/${file.id}`)).statusCode).toBe(404);
    expect((await (await t.login('registration')).get(`/api/facility-attachments/${file.id}`)).statusCode).toBe(200);
  });
});
