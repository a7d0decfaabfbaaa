import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { certificates, facilities, facilityMembers, requests, users, workflowTimers } from '../../db/schema';
import { SYSTEM_ACTOR } from '../../machines/actor';
import { normalizePhone, withLuhnDigit } from '../../machines/forms/facilities/formats';
import { actorOf } from '../../server/plugins/auth';
import { DEMO_IDENTITIES } from '../../db/demo-identities';
import type { Client } from '../helpers/app';
import { createFacilitiesTestApp, type FacilitiesTestApp } from './facilities-harness';

const INTERNAL = '/api/InternalFacilityDelegation/SubmitFacilityDelegationRequest';
const CB = '/api/ConformityBodyDelegation/SubmitCBDelegationRequest';
const REMOVE_INTERNAL = '/api/InternalFacilityDelegation/RemoveUser';

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
    .select({ role: facilityMembers.role, permissions: facilityMembers.permissions, delegationId: facilityMembers.delegationId })
    .from(facilityMembers)
    .innerJoin(facilities, eq(facilities.id, facilityMembers.facilityId))
    .innerJoin(users, eq(users.id, facilityMembers.userId))
    .where(and(eq(facilities.publicId, publicId), eq(users.nationalId, nationalId)));
  return row;
};
const userIdOf = async (userName: string) => (await t.database.db.select({ id: users.id }).from(users).where(eq(users.userName, userName)))[0].id;
const stateOf = async (id: string) => (await t.app.engine.get(id))?.stateValue;

/** Start, OTP, acknowledgment: the whole wizard by `by` through `path`; returns the completed delegation. */
async function delegate(by: Client, path: string, facilityPublicId: string, nationalId: string, phone: string, permissions: string[]) {
  const started = await by.post(path, startBody(facilityPublicId, nationalId, phone, { permissions }));
  expect(started.statusCode, started.body).toBe(200);
  const id = started.json().id as string;
  const verified = await by.post(path, { step: 'verifyOtp', delegationId: id, code: await t.lastOtp(normalizePhone(phone)!) });
  expect(verified.statusCode, verified.body).toBe(200);
  const done = await by.post(path, { step: 'acknowledge', delegationId: id, acknowledged: true });
  expect(done.statusCode, done.body).toBe(200);
  expect(done.json().status).toBe('active');
  return done.json() as { id: string; accountCreated: boolean };
}

/** A new delegate's password, set through the one-time link of the newest SMS to `phone`. */
async function acceptInvitation(phone: string, password: string) {
  const sms = (await t.smsTo(phone)).find((m) => m.text.includes('/delegate-invitation/'));
  const token = sms!.text.match(/\/delegate-invitation\/([\w-]+)/)![1];
  expect((await t.anonymous.post(`/api/delegate-invitations/${token}`, { password })).statusCode).toBe(200);
}

beforeAll(async () => {
  // Many sign-ins from one address in this file.
  t = await createFacilitiesTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: '200' });
  main = await t.login('internal.main');
}, 120_000);
afterAll(() => t?.close());

describe('delegating a new person (no account yet)', () => {
  it('OTP to the delegate, acknowledgment, then an account with a set-password link; the delegate signs in as a sub user', async () => {
    const nationalId = newNationalId();
    const lookup = await main.post('/api/InternalFacilityDelegation/ValidateUserExisitenceBeforeAndReturnUserInfoForFacility', { facilityPublicId: 'inf-almarai-foods', nationalId });
    expect(lookup.json()).toEqual({ exists: false, alreadyMember: false, user: null });

    const started = await main.post(INTERNAL, startBody('inf-almarai-foods', nationalId, '+966 55 700 0001'));
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({ status: 'awaitingOtp', statusCode: 1, otp: { maskedPhone: '+96655***0001' } });
    const id = started.json().id;
    const [sms] = await t.smsTo('+966557000001');
    expect(sms.text).toContain('Al Marai Foods Factory');

    // Acknowledging before the code is confirmed is refused and creates nothing.
    const early = await main.post(INTERNAL, { step: 'acknowledge', delegationId: id, acknowledged: true });
    expect(early.statusCode).toBe(409);
    expect(await memberRow('inf-almarai-foods', nationalId)).toBeUndefined();

    const verified = await main.post(INTERNAL, { step: 'verifyOtp', delegationId: id, code: await t.lastOtp('+966557000001') });
    expect(verified.json()).toMatchObject({ status: 'pendingAcknowledgment', statusCode: 2, otp: null });
    // Still no access: the delegation completes only after the acknowledgment.
    expect(await memberRow('inf-almarai-foods', nationalId)).toBeUndefined();

    const notTicked = await main.post(INTERNAL, { step: 'acknowledge', delegationId: id, acknowledged: false });
    expect(notTicked.json().error.code).toBe('AcknowledgmentRequired');

    const done = await main.post(INTERNAL, { step: 'acknowledge', delegationId: id, acknowledged: true });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ status: 'active', statusCode: 3, accountCreated: true });
    // An empty selection delegates every permission the facility type allows.
    expect(await memberRow('inf-almarai-foods', nationalId)).toMatchObject({ role: 1, delegationId: id, permissions: expect.arrayContaining(['InternalFacilityRequestService.Submit']) });

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
    const published = await t.anonymous.post(`/api/delegate-invitations/${token}?lang=en`, { password: 'Demo@12345' });
    expect(published.json().error).toMatchObject({ code: 'PublishedPassword', message: "This password is published with the portal's demo accounts; choose another." });
    const set = await t.anonymous.post(`/api/delegate-invitations/${token}`, { password: 'Delegate@2026' });
    expect(set.statusCode, set.body).toBe(200);
    const again = await t.anonymous.post(`/api/delegate-invitations/${token}`, { password: 'Other@20260' });
    expect(again.statusCode).toBe(404);

    const delegateClient = await t.login(nationalId, 'Delegate@2026');
    const list = await delegateClient.get('/api/Facility/GetUserFacilities');
    expect(list.json().items.map((f: { publicId: string }) => f.publicId)).toEqual(['inf-almarai-foods']);
    expect(list.json().items[0].currentUserRole).toBe(1);
    expect((await delegateClient.get('/api/Facility/IsUserForFacilityIsMainUser/inf-almarai-foods')).json()).toBe(false);
    const users = (await main.get('/api/Facility/GetListOfUsersForFacility/inf-almarai-foods')).json();
    expect(users.find((u: { userName: string }) => u.userName === nationalId)).toMatchObject({ role: 1, delegatedBy: 'Khalid Al-Harbi', isCurrentUser: false, delegationId: id });
  });
});

describe('only the main user starts a delegation, and only through the delegation calls', () => {
  it('a sub user gets 403 on every step, whatever the facility', async () => {
    const sub = await t.login('internal.sub');
    expect((await sub.get('/api/InternalFacilityDelegation/ValidateIfCurrentUserHasAuthorityToAddDelegation/inf-almarai-foods')).statusCode).toBe(403);
    const tries = await sub.post(`${INTERNAL}?lang=en`, startBody('inf-almarai-foods', newNationalId(), '0557000002'));
    expect(tries.statusCode).toBe(403);
    expect(tries.json().error).toMatchObject({ code: 'NotMainUser', message: 'Only the main user can do this.' });
    // The main user's delegation in progress cannot be driven by a sub user either.
    const started = (await main.post(INTERNAL, startBody('inf-almarai-foods', newNationalId(), '0557000003'))).json();
    const cancel = await sub.post(INTERNAL, { step: 'cancel', delegationId: started.id });
    expect(cancel.statusCode).toBe(403);
    expect(await stateOf(started.id)).toBe('pending.awaitingOtp');
    const cbSub = await t.login('cb.sub');
    expect((await cbSub.post(CB, startBody('cb-global-halal', newNationalId(), '+60123000700'))).statusCode).toBe(403);
  });

  it('the generic request calls refuse kind delegation: no start, no events (no OTP skipped, no access granted)', async () => {
    const before = await t.database.db.select({ id: requests.id }).from(requests).where(eq(requests.kind, 'delegation'));
    const start = await main.post('/api/requests?lang=en', { kind: 'delegation', facilityId: 'inf-almarai-foods', data: { delegationType: 1, permissions: ['FacilityManagment.InternalFacility'] } });
    expect(start.statusCode).toBe(400);
    expect(await t.database.db.select({ id: requests.id }).from(requests).where(eq(requests.kind, 'delegation'))).toHaveLength(before.length);

    // A delegation of the main user's own: the generic events door still refuses to move it.
    const nationalId = newNationalId();
    const d = (await main.post(INTERNAL, startBody('inf-almarai-foods', nationalId, '0557000004'))).json();
    const version = (await main.get(`/api/requests/${d.id}`)).json().version;
    const cbSubId = await userIdOf('cb.sub');
    for (const event of [
      { type: 'OTP_VERIFIED' },
      { type: 'ACKNOWLEDGE', payload: { acknowledged: true, delegateUserId: cbSubId } },
      { type: 'CANCEL' },
    ]) {
      const res = await main.post(`/api/requests/${d.id}/events`, { ...event, expectedVersion: version });
      expect(res.statusCode, event.type).toBe(403);
    }
    expect(await stateOf(d.id)).toBe('pending.awaitingOtp');
    expect(await memberRow('inf-almarai-foods', DEMO_IDENTITIES['cb.sub'].nationalId)).toBeUndefined();
    // Request lists leave delegations out.
    const mine = (await main.get('/api/queues/all?tab=mine&pageNumber=1&pageSize=50')).json();
    expect(mine.items.map((r: { id: string }) => r.id)).not.toContain(d.id);
  });
});

describe('the history of a delegation', () => {
  it('records each step (the OTP as the system, the acknowledgment with the account it gave access to) and verifies', async () => {
    const nationalId = newNationalId();
    const d = await delegate(main, INTERNAL, 'inf-almarai-foods', nationalId, '0557000005', ['FacilityManagment.InternalFacility', 'InternalFacilityRequestService.Request']);
    const history = await main.get(`/api/requests/${d.id}/history?lang=en`);
    expect(history.statusCode, history.body).toBe(200);
    const items = history.json().items as { event: string; actor: { userId: string; system: boolean }; to: { code: number; label: string }; payload: Record<string, unknown> }[];
    const mainId = await userIdOf('internal.main');
    const delegateId = (await t.database.db.select({ id: users.id }).from(users).where(eq(users.nationalId, nationalId)))[0].id;
    expect(items.map((h) => [h.event, h.actor.system ? 'system' : h.actor.userId, h.to.code])).toEqual([
      ['START', mainId, 1],
      ['OTP_VERIFIED', SYSTEM_ACTOR.userId, 2],
      ['ACKNOWLEDGE', mainId, 3],
    ]);
    expect(items[2]).toMatchObject({ to: { label: 'Active' }, payload: { acknowledged: true, delegateUserId: delegateId } });
    // The START row keeps what was delegated.
    const [row] = await t.database.db.select({ input: requests.input }).from(requests).where(eq(requests.id, d.id));
    expect(row.input).toMatchObject({ data: { delegationType: 1, permissions: ['FacilityManagment.InternalFacility', 'InternalFacilityRequestService.Request'] } });

    const staff = await t.login('registration');
    const verify = await staff.get(`/api/requests/${d.id}/history/verify`);
    expect(verify.json()).toEqual({ ok: true, rows: 3 });
    // Someone of another facility does not see it.
    const other = await t.login('external');
    expect((await other.get(`/api/requests/${d.id}/history`)).statusCode).toBe(404);
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
    expect(done.json()).toMatchObject({ status: 'active', accountCreated: false });
    const cbSub = await t.login('cb.sub');
    const mine = (await cbSub.get('/api/Facility/GetUserFacilities')).json().items.map((f: { publicId: string }) => f.publicId).sort();
    expect(mine).toEqual(['cb-global-halal', 'inf-almarai-foods']);

    const twice = await main.post(INTERNAL, startBody('inf-almarai-foods', nationalId, '0557009999'));
    expect(twice.json().error.code).toBe('DelegateAlreadyMember');
  });

  it('needs no mobile or email for a person with an account, and both for a new person', async () => {
    const body = startBody('inf-almarai-foods', DEMO_IDENTITIES['external'].nationalId, '');
    const { phone: _phone, email: _email, ...delegateData } = body.delegate;
    const existing = await main.post(INTERNAL, { ...body, delegate: delegateData });
    expect(existing.statusCode, existing.body).toBe(200);
    expect(existing.json().otp.maskedPhone).toBe('+90530***0001');
    const fresh = { ...delegateData, nationalId: newNationalId() };
    const noEmail = await main.post(INTERNAL, { ...body, delegate: { ...fresh, phone: '0557000040' } });
    expect(noEmail.json().error.validationErrors[0].members).toEqual(['delegate.email']);
    const noPhone = await main.post(INTERNAL, { ...body, delegate: { ...fresh, email: 'new.person@example.com' } });
    expect(noPhone.json().error.code).toBe('PhoneInvalid');
  });

  it('refuses delegating to oneself and invalid ids', async () => {
    const self = await main.post(INTERNAL, startBody('inf-almarai-foods', DEMO_IDENTITIES['internal.main'].nationalId, '0557000006'));
    expect(self.json().error.code).toBe('DelegateIsSelf');
    const bad = await main.post(`${INTERNAL}?lang=ar`, startBody('inf-almarai-foods', '1234567890', '0557000006'));
    expect(bad.json().error).toMatchObject({ code: 'NationalIdInvalid', message: 'رقم الهوية الوطنية أو الإقامة غير صالح.' });
  });

  it('refuses permissions that do not belong to the facility type', async () => {
    const res = await main.post(INTERNAL, startBody('inf-almarai-foods', newNationalId(), '0557000011', { permissions: ['CBAccreditationService.Submit'] }));
    expect(res.json().error.code).toBe('DelegationPermissionInvalid');
  });
});

describe('no one can demote or remove the main user', () => {
  it('a delegation cannot make another main user: refused with a clear message, nothing started', async () => {
    const before = (await t.database.db.select({ id: requests.id }).from(requests).where(eq(requests.kind, 'delegation'))).length;
    const res = await main.post(`${INTERNAL}?lang=en`, startBody('inf-almarai-foods', newNationalId(), '0557000010', { delegationType: 0 }));
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({
      code: 'MainUserExists',
      message: 'This facility already has a main user. A delegation can only add sub users; the main user cannot be replaced or demoted.',
    });
    const ar = await main.post(`${INTERNAL}?lang=ar`, startBody('inf-almarai-foods', newNationalId(), '0557000010', { delegationType: 0 }));
    expect(ar.json().error.message).toMatch(/مستخدم رئيسي/);
    expect((await t.database.db.select({ id: requests.id }).from(requests).where(eq(requests.kind, 'delegation'))).length).toBe(before);
  });

  it('the main user cannot be removed, by themselves or anyone; a sub user cannot remove anyone', async () => {
    const mainId = await userIdOf('internal.main');
    const self = await main.post(`${REMOVE_INTERNAL}?lang=en`, { facilityPublicId: 'inf-almarai-foods', userId: mainId });
    expect(self.statusCode).toBe(409);
    expect(self.json().error).toMatchObject({ code: 'MainUserProtected', message: "The facility's main user cannot be removed or changed." });
    const sub = await t.login('internal.sub');
    const bySub = await sub.post(REMOVE_INTERNAL, { facilityPublicId: 'inf-almarai-foods', userId: mainId });
    expect(bySub.json().error.code).toBe('NotMainUser');
    expect((await main.get('/api/Facility/IsUserForFacilityIsMainUser/inf-almarai-foods')).json()).toBe(true);
  });

  it('a delegation never changes an existing membership: the acknowledgment is refused and the membership stays as it was', async () => {
    // A person becomes a member while their delegation waits for the acknowledgment (another way in, or a race).
    const nationalId = DEMO_IDENTITIES['external'].nationalId;
    const d = (await main.post(INTERNAL, startBody('inf-almarai-foods', nationalId, ''))).json();
    await main.post(INTERNAL, { step: 'verifyOtp', delegationId: d.id, code: await t.lastOtp(DEMO_IDENTITIES.external.phone) });
    const [facility] = await t.database.db.select({ id: facilities.id }).from(facilities).where(eq(facilities.publicId, 'inf-almarai-foods'));
    await t.database.db.insert(facilityMembers).values({ facilityId: facility.id, userId: await userIdOf('external'), role: 1, permissions: ['FacilityManagment.InternalFacility'] });
    const ack = await main.post(INTERNAL, { step: 'acknowledge', delegationId: d.id, acknowledged: true });
    expect(ack.statusCode).toBe(409);
    expect(ack.json().error.code).toBe('DelegateAlreadyMember');
    expect(await memberRow('inf-almarai-foods', nationalId)).toMatchObject({ role: 1, permissions: ['FacilityManagment.InternalFacility'], delegationId: null });
    expect(await stateOf(d.id)).toBe('pending.pendingAcknowledgment');
  });

  it('below the calls too: a main delegation driven straight through the engine is refused by the one-main-user rule', async () => {
    const mainActor = await actorOf(t.app, await userIdOf('internal.main'), ['applicant']);
    const view = await t.app.engine.start('delegation', { ownerUserId: mainActor.userId, facilityId: 'inf-almarai-foods', data: { delegationType: 0, permissions: ['FacilityManagment.InternalFacility'] } }, mainActor);
    const verified = await t.app.engine.send(view.id, { type: 'OTP_VERIFIED' }, SYSTEM_ACTOR);
    const newcomer = newNationalId();
    const [u] = await t.database.db.insert(users).values({ userName: newcomer, email: `${newcomer}@example.com`, name: 'Would Be Main', passwordHash: '!invited', roles: ['applicant'], nationalId: newcomer }).returning();
    await expect(t.app.engine.send(view.id, { type: 'ACKNOWLEDGE', acknowledged: true, delegateUserId: u.id }, mainActor, verified.version)).rejects.toThrow();
    expect(await memberRow('inf-almarai-foods', newcomer)).toBeUndefined();
    expect(await stateOf(view.id)).toBe('pending.pendingAcknowledgment');
  });
});

describe('removing a delegated user revokes the delegation', () => {
  it('the access ends at once, and the delegation\'s history records the revocation', async () => {
    const nationalId = newNationalId();
    const phone = '0557000012';
    const d = await delegate(main, INTERNAL, 'inf-almarai-foods', nationalId, phone, []);
    await acceptInvitation('+966557000012', 'Delegate@2026');
    const delegateClient = await t.login(nationalId, 'Delegate@2026');
    expect((await delegateClient.get('/api/Facility/GetFacilityByPublicId?publicId=inf-almarai-foods')).statusCode).toBe(200);
    const delegateId = (await t.database.db.select({ id: users.id }).from(users).where(eq(users.nationalId, nationalId)))[0].id;

    const removed = await main.post(REMOVE_INTERNAL, { facilityPublicId: 'inf-almarai-foods', userId: delegateId });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await memberRow('inf-almarai-foods', nationalId)).toBeUndefined();
    expect((await delegateClient.get('/api/Facility/GetFacilityByPublicId?publicId=inf-almarai-foods')).statusCode).toBe(404);
    const history = (await main.get(`/api/requests/${d.id}/history`)).json().items.map((h: { event: string }) => h.event);
    expect(history).toEqual(['START', 'OTP_VERIFIED', 'ACKNOWLEDGE', 'REVOKE']);
    expect(await stateOf(d.id)).toBe('revoked');
    // Nothing left to remove.
    expect((await main.post(REMOVE_INTERNAL, { facilityPublicId: 'inf-almarai-foods', userId: delegateId })).statusCode).toBe(404);
  });
});

describe('cancelling', () => {
  it('a cancelled delegation cannot be completed and leaves no membership', async () => {
    const nationalId = newNationalId();
    const started = (await main.post(INTERNAL, startBody('inf-almarai-foods', nationalId, '0557000020'))).json();
    await main.post(INTERNAL, { step: 'verifyOtp', delegationId: started.id, code: await t.lastOtp('+966557000020') });
    expect((await main.post(INTERNAL, { step: 'cancel', delegationId: started.id })).json()).toMatchObject({ status: 'cancelled', statusCode: 5 });
    const ack = await main.post(INTERNAL, { step: 'acknowledge', delegationId: started.id, acknowledged: true });
    expect(ack.statusCode).toBe(409);
    expect(await memberRow('inf-almarai-foods', nationalId)).toBeUndefined();
  });

  it('a new start for the same person replaces the unfinished one', async () => {
    const nationalId = newNationalId();
    const first = (await main.post(INTERNAL, startBody('inf-almarai-foods', nationalId, '0557000022'))).json();
    const second = (await main.post(INTERNAL, startBody('inf-almarai-foods', nationalId, '0557000022'))).json();
    expect(await stateOf(first.id)).toBe('cancelled');
    expect(await stateOf(second.id)).toBe('pending.awaitingOtp');
  });

  it('another facility cannot drive someone else\'s delegation', async () => {
    const started = (await main.post(INTERNAL, startBody('inf-almarai-foods', newNationalId(), '0557000021'))).json();
    const other = await t.login('new.applicant');
    const res = await other.post(INTERNAL, { step: 'cancel', delegationId: started.id });
    expect(res.statusCode).toBe(404);
    expect(await stateOf(started.id)).toBe('pending.awaitingOtp');
  });

  it('an unfinished delegation expires when the retention period ends', async () => {
    const started = (await main.post(INTERNAL, startBody('inf-almarai-foods', newNationalId(), '0557000023'))).json();
    const [timer] = await t.database.db.select().from(workflowTimers).where(eq(workflowTimers.requestId, started.id));
    expect(timer).toMatchObject({ event: 'DRAFT_EXPIRED', after: 'draftRetention' });
    expect(timer.dueAt.getTime() - Date.now()).toBeGreaterThan(29 * 86_400_000);
    await t.database.db.update(workflowTimers).set({ dueAt: new Date(Date.now() - 1000) }).where(eq(workflowTimers.id, timer.id));
    const engine = t.app.engine as unknown as { fireDueTimers(now?: Date): Promise<number> };
    await engine.fireDueTimers();
    expect(await stateOf(started.id)).toBe('expired');
    const verify = await main.post(INTERNAL, { step: 'verifyOtp', delegationId: started.id, code: await t.lastOtp('+966557000023') });
    expect(verify.statusCode).toBe(409);
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
    expect(await stateOf(d.id)).toBe('pending.pendingAcknowledgment');
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
