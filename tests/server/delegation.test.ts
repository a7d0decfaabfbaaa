import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { certificates, delegations, facilities, facilityMembers, users } from '../../db/schema';
import { withLuhnDigit } from '../../machines/forms/facilities/formats';
import { DEMO_IDENTITIES } from '../../server/simulators/demo-identities';
import { nextDelegationStatus } from '../../server/modules/facilities/delegation-machine';
import type { Client } from '../helpers/app';
import { createFacilitiesTestApp, type FacilitiesTestApp } from './facilities-harness';

const INTERNAL = '/api/InternalFacilityDelegation/SubmitFacilityDelegationRequest';
const CB = '/api/ConformityBodyDelegation/SubmitCBDelegationRequest';

let t: FacilitiesTestApp;
let main: Client;
let seq = 0;
const newNationalId = () => withLuhnDigit(`1${String(600_000_00 + seq++).padStart(8, '0')}`);
const startBody = (facilityPublicId: string, nationalId: string, phone: string, extra: Record<string, unknown> = {}) => ({
  step: 'start',
  facilityPublicId,
  delegate: { nationalId, firstName: 'Huda', lastName: 'Al-Shammari', birthDate: '1991-03-14', phone, preferredLanguage: 'en', email: `${nationalId}@example.com` },
  delegationType: 1,
  permissions: [],
  ...extra,
});
const memberRow = async (publicId: string, nationalId: string) => {
  const [row] = await t.database.db
    .select({ role: facilityMembers.role, permissions: facilityMembers.permissions })
    .from(facilityMembers)
    .innerJoin(facilities, eq(facilities.id, facilityMembers.facilityId))
    .innerJoin(users, eq(users.id, facilityMembers.userId))
    .where(and(eq(facilities.publicId, publicId), eq(users.nationalId, nationalId)));
  return row;
};

beforeAll(async () => {
  t = await createFacilitiesTestApp();
  main = await t.login('internal.main');
}, 120_000);
afterAll(() => t?.close());

describe('delegation machine', () => {
  it('moves only forward, only by the delegator, and completes only after acknowledgment', () => {
    expect(nextDelegationStatus('awaitingOtp', 'u1', { type: 'OTP_VERIFIED', actorUserId: 'u1' })).toBe('awaitingAcknowledgment');
    expect(nextDelegationStatus('awaitingOtp', 'u1', { type: 'ACKNOWLEDGE', actorUserId: 'u1' })).toBeNull();
    expect(nextDelegationStatus('awaitingOtp', 'u1', { type: 'OTP_VERIFIED', actorUserId: 'u2' })).toBeNull();
    expect(nextDelegationStatus('awaitingAcknowledgment', 'u1', { type: 'ACKNOWLEDGE', actorUserId: 'u1' })).toBe('completed');
    expect(nextDelegationStatus('completed', 'u1', { type: 'CANCEL', actorUserId: 'u1' })).toBeNull();
    expect(nextDelegationStatus('awaitingAcknowledgment', 'u1', { type: 'CANCEL', actorUserId: 'u1' })).toBe('cancelled');
  });
});

describe('delegating a new person (no account yet)', () => {
  it('OTP to the delegate, acknowledgment, then an account with a set-password link; the delegate signs in as a sub user', async () => {
    const nationalId = newNationalId();
    const lookup = await main.post('/api/InternalFacilityDelegation/ValidateUserExisitenceBeforeAndReturnUserInfoForFacility', { facilityPublicId: 'inf-almarai-foods', nationalId });
    expect(lookup.json()).toEqual({ exists: false, alreadyMember: false, user: null });

    const started = await main.post(INTERNAL, startBody('inf-almarai-foods', nationalId, '+966 55 700 0001'));
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({ status: 'awaitingOtp', otp: { maskedPhone: '+96655***0001' } });
    const id = started.json().id;
    const [sms] = await t.smsTo('+966557000001');
    expect(sms.text).toContain('Al Marai Foods Factory');

    // Acknowledging before the code is confirmed is refused and creates nothing.
    const early = await main.post(INTERNAL, { step: 'acknowledge', delegationId: id, acknowledged: true });
    expect(early.statusCode).toBe(409);
    expect(await memberRow('inf-almarai-foods', nationalId)).toBeUndefined();

    const verified = await main.post(INTERNAL, { step: 'verifyOtp', delegationId: id, code: await t.lastOtp('+966557000001') });
    expect(verified.json().status).toBe('awaitingAcknowledgment');
    // Still no access: the delegation completes only after the acknowledgment.
    expect(await memberRow('inf-almarai-foods', nationalId)).toBeUndefined();

    const notTicked = await main.post(INTERNAL, { step: 'acknowledge', delegationId: id, acknowledged: false });
    expect(notTicked.json().error.code).toBe('AcknowledgmentRequired');

    const done = await main.post(INTERNAL, { step: 'acknowledge', delegationId: id, acknowledged: true });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ status: 'completed', accountCreated: true });
    expect(await memberRow('inf-almarai-foods', nationalId)).toMatchObject({ role: 1 });

    // The delegate cannot sign in until they choose a password through the link sent to their mobile.
    const noPassword = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { userName: nationalId, password: '!invited' } });
    expect(noPassword.statusCode).toBe(401);
    const [welcome] = await t.smsTo('+966557000001');
    const link = welcome.text.match(/http:\/\/portal\.test\/delegate-invitation\/([\w-]+)/);
    expect(link, welcome.text).not.toBeNull();
    const token = link![1];
    const info = await t.anonymous.get(`/api/delegate-invitations/${token}`);
    expect(info.json()).toMatchObject({ userName: nationalId, name: 'Huda Al-Shammari' });
    const weak = await t.anonymous.post(`/api/delegate-invitations/${token}`, { password: 'password' });
    expect(weak.json().error.code).toBe('PasswordTooWeak');
    const set = await t.anonymous.post(`/api/delegate-invitations/${token}`, { password: 'Delegate@2026' });
    expect(set.statusCode, set.body).toBe(200);
    const again = await t.anonymous.post(`/api/delegate-invitations/${token}`, { password: 'Other@20260' });
    expect(again.statusCode).toBe(404);

    const delegate = await t.login(nationalId, 'Delegate@2026');
    const list = await delegate.get('/api/Facility/GetUserFacilities');
    expect(list.json().items.map((f: { publicId: string }) => f.publicId)).toEqual(['inf-almarai-foods']);
    expect(list.json().items[0].currentUserRole).toBe(1);
    expect((await delegate.get('/api/Facility/IsUserForFacilityIsMainUser/inf-almarai-foods')).json()).toBe(false);
    expect((await delegate.get('/api/InternalFacilityDelegation/ValidateIfCurrentUserHasAuthorityToAddDelegation/inf-almarai-foods')).statusCode).toBe(403);
    const subTries = await delegate.post(INTERNAL, startBody('inf-almarai-foods', newNationalId(), '0557000002'));
    expect(subTries.statusCode).toBe(403);
    expect(subTries.json().error.code).toBe('NotMainUser');
    const users = (await main.get('/api/Facility/GetListOfUsersForFacility/inf-almarai-foods')).json();
    expect(users.find((u: { userName: string }) => u.userName === nationalId)).toMatchObject({ role: 1, delegatedBy: 'Khalid Al-Harbi', isCurrentUser: false });
  });
});

describe('delegating an existing user', () => {
  it('sends the OTP to the phone on their account and adds the membership to their existing account', async () => {
    const nationalId = DEMO_IDENTITIES['cb.sub'].nationalId;
    const lookup = await main.post('/api/InternalFacilityDelegation/ValidateUserExisitenceAndReturnUserInfoForFacility', { facilityPublicId: 'inf-almarai-foods', nationalId });
    expect(lookup.json()).toMatchObject({ exists: true, alreadyMember: false, user: { firstName: 'Farid', lastName: 'Ismail', maskedPhone: expect.stringContaining('***') } });

    const started = await main.post(INTERNAL, startBody('inf-almarai-foods', nationalId, '0557009999'));
    expect(started.statusCode, started.body).toBe(200);
    expect(await t.smsTo('+966557009999')).toHaveLength(0);
    const code = await t.lastOtp(DEMO_IDENTITIES['cb.sub'].phone);
    await main.post(INTERNAL, { step: 'verifyOtp', delegationId: started.json().id, code });
    const done = await main.post(INTERNAL, { step: 'acknowledge', delegationId: started.json().id, acknowledged: true });
    expect(done.json()).toMatchObject({ status: 'completed', accountCreated: false });
    const cbSub = await t.login('cb.sub');
    const mine = (await cbSub.get('/api/Facility/GetUserFacilities')).json().items.map((f: { publicId: string }) => f.publicId).sort();
    expect(mine).toEqual(['cb-global-halal', 'inf-almarai-foods']);

    const twice = await main.post(INTERNAL, startBody('inf-almarai-foods', nationalId, '0557009999'));
    expect(twice.json().error.code).toBe('DelegateAlreadyMember');
  });

  it('needs no mobile or email for a person with an account, and both for a new person', async () => {
    const body = startBody('inf-almarai-foods', DEMO_IDENTITIES['external'].nationalId, '');
    const { phone: _phone, email: _email, ...delegate } = body.delegate;
    const existing = await main.post(INTERNAL, { ...body, delegate });
    expect(existing.statusCode, existing.body).toBe(200);
    expect(existing.json().otp.maskedPhone).toBe('+90530***0001');
    const fresh = { ...delegate, nationalId: newNationalId() };
    const noEmail = await main.post(INTERNAL, { ...body, delegate: { ...fresh, phone: '0557000040' } });
    expect(noEmail.json().error.validationErrors[0].members).toEqual(['delegate.email']);
    const noPhone = await main.post(INTERNAL, { ...body, delegate: { ...fresh, email: 'new.person@example.com' } });
    expect(noPhone.json().error.code).toBe('PhoneInvalid');
  });

  it('refuses delegating to oneself and invalid ids', async () => {
    const self = await main.post(INTERNAL, startBody('inf-almarai-foods', DEMO_IDENTITIES['internal.main'].nationalId, '0557000003'));
    expect(self.json().error.code).toBe('DelegateIsSelf');
    const bad = await main.post(`${INTERNAL}?lang=ar`, startBody('inf-almarai-foods', '1234567890', '0557000003'));
    expect(bad.json().error).toMatchObject({ code: 'NationalIdInvalid', message: 'رقم الهوية الوطنية أو الإقامة غير صالح.' });
  });
});

describe('main (sub-authoriser) delegation', () => {
  it('needs the explicit confirmation, then the delegate may delegate in turn', async () => {
    const nationalId = newNationalId();
    const unconfirmed = await main.post(INTERNAL, startBody('inf-almarai-foods', nationalId, '0557000010', { delegationType: 0 }));
    expect(unconfirmed.json().error.code).toBe('MainDelegationConfirmationRequired');
    const started = await main.post(INTERNAL, startBody('inf-almarai-foods', nationalId, '0557000010', { delegationType: 0, confirmMainDelegation: true }));
    expect(started.statusCode, started.body).toBe(200);
    await main.post(INTERNAL, { step: 'verifyOtp', delegationId: started.json().id, code: await t.lastOtp('+966557000010') });
    await main.post(INTERNAL, { step: 'acknowledge', delegationId: started.json().id, acknowledged: true });
    expect(await memberRow('inf-almarai-foods', nationalId)).toMatchObject({ role: 0 });
  });

  it('refuses permissions that do not belong to the facility type', async () => {
    const res = await main.post(INTERNAL, startBody('inf-almarai-foods', newNationalId(), '0557000011', { permissions: ['CBAccreditationService.Submit'] }));
    expect(res.json().error.code).toBe('DelegationPermissionInvalid');
  });
});

describe('cancelling', () => {
  it('a cancelled delegation cannot be completed and leaves no membership', async () => {
    const nationalId = newNationalId();
    const started = (await main.post(INTERNAL, startBody('inf-almarai-foods', nationalId, '0557000020'))).json();
    await main.post(INTERNAL, { step: 'verifyOtp', delegationId: started.id, code: await t.lastOtp('+966557000020') });
    expect((await main.post(INTERNAL, { step: 'cancel', delegationId: started.id })).json().status).toBe('cancelled');
    const ack = await main.post(INTERNAL, { step: 'acknowledge', delegationId: started.id, acknowledged: true });
    expect(ack.statusCode).toBe(409);
    expect(await memberRow('inf-almarai-foods', nationalId)).toBeUndefined();
  });
  it('another facility cannot drive someone else\'s delegation', async () => {
    const started = (await main.post(INTERNAL, startBody('inf-almarai-foods', newNationalId(), '0557000021'))).json();
    const other = await t.login('new.applicant');
    const res = await other.post(INTERNAL, { step: 'cancel', delegationId: started.id });
    expect(res.statusCode).toBe(404);
    const [row] = await t.database.db.select().from(delegations).where(eq(delegations.id, started.id));
    expect(row.status).toBe('awaitingOtp');
  });
});

describe('certificates that block delegation', () => {
  const setCbCertificate = async (status: number, expiresInDays: number) => {
    await t.database.db
      .update(certificates)
      .set({ status, expiresAt: new Date(Date.now() + expiresInDays * 86_400_000) })
      .where(and(eq(certificates.facilityPublicId, 'cb-global-halal'), eq(certificates.kind, 'cbDesignation')));
  };

  it('refuses a CB delegation while the designation certificate is expired or suspended, with the spec message', async () => {
    const cbMain = await t.login('cb.main');
    const body = startBody('cb-global-halal', newNationalId(), '+60123000777');
    expect((await cbMain.post(CB, body)).statusCode).toBe(200);

    for (const [status, days] of [[4, 300], [2, -3], [1, -1]] as const) {
      await setCbCertificate(status, days);
      const res = await cbMain.post(`${CB}?lang=en`, startBody('cb-global-halal', newNationalId(), '+60123000778'));
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(
        "You cannot proceed with the delegation because the conformity body's certificate or the external facility's Halal certificate is expired or suspended.",
      );
      const check = await cbMain.get('/api/ConformityBodyDelegation/ValidateIfCurrentUserHasAuthorityToAddDelegation/cb-global-halal');
      expect(check.json().error.code).toBe('DelegationCertificateBlocked');
    }
    await setCbCertificate(1, 400);
    expect((await cbMain.get('/api/ConformityBodyDelegation/ValidateIfCurrentUserHasAuthorityToAddDelegation/cb-global-halal')).json()).toBe(true);
  });

  it('refuses it when the certificate expires between the OTP and the acknowledgment', async () => {
    const cbMain = await t.login('cb.main');
    const d = (await cbMain.post(CB, startBody('cb-global-halal', newNationalId(), '+60123000779'))).json();
    await cbMain.post(CB, { step: 'verifyOtp', delegationId: d.id, code: await t.lastOtp('+60123000779') });
    await setCbCertificate(4, 300);
    const ack = await cbMain.post(CB, { step: 'acknowledge', delegationId: d.id, acknowledged: true });
    expect(ack.json().error.code).toBe('DelegationCertificateBlocked');
    await setCbCertificate(1, 400);
  });

  it('refuses a CB delegation while its acceptance certificate is expired (services blocked)', async () => {
    const cbMain = await t.login('cb.main');
    await t.database.db.update(facilities).set({ certificateExpiryDate: '2020-01-01' }).where(eq(facilities.publicId, 'cb-global-halal'));
    const res = await cbMain.post(`${CB}?lang=en`, startBody('cb-global-halal', newNationalId(), '+60123000780'));
    expect(res.json().error).toMatchObject({
      code: 'AcceptanceCertificateExpired',
      message: 'You cannot use the service because the acceptance certificate has expired. Please renew it through the acceptance portal.',
    });
    await t.database.db.update(facilities).set({ certificateExpiryDate: '2035-01-01' }).where(eq(facilities.publicId, 'cb-global-halal'));
  });

  it('a CB delegation is refused through the internal group and vice versa', async () => {
    const cbMain = await t.login('cb.main');
    expect((await cbMain.post(INTERNAL, startBody('cb-global-halal', newNationalId(), '+60123000781'))).statusCode).toBe(404);
    expect((await main.post(CB, startBody('inf-almarai-foods', newNationalId(), '0557000030'))).statusCode).toBe(404);
  });
});
