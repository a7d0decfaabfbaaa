import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app';
import { Permissions } from '../../machines/permissions';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const P = '/api/app/halal-user';

describe('user calls', () => {
  it('create-update-user records the language the user works in', async () => {
    const c = await t.login('internal.main');
    const res = await c.post(`${P}/create-update-user?lang=en`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ userName: 'internal.main', preferredLanguage: 'en', isAuthenticated: true });
  });

  it('offers the circular letter once: not downloaded, then downloaded', async () => {
    const c = await t.login('external');
    expect((await c.get(`${P}/is-external-user-downloaded-circular`)).json()).toBe(false);
    expect((await c.get(`${P}/set-user-download-circular`)).json()).toBe(true);
    expect((await c.get(`${P}/is-external-user-downloaded-circular`)).json()).toBe(true);
  });

  it('the circular letter calls are not for staff', async () => {
    const c = await t.login('registration');
    expect((await c.get(`${P}/is-external-user-downloaded-circular`)).statusCode).toBe(403);
  });

  it('lists the staff who hold a permission, for assignment', async () => {
    const c = await t.login('teamleader');
    const res = await c.get(`${P}/get-all-users-by-permission-name?permission=${Permissions.internalRequest.auditSubmitReport}`);
    const names = res.json().map((u: { userName: string }) => u.userName).sort();
    expect(names).toEqual(['admin', 'audit', 'auditor', 'teamleader']);
  });

  it('a facility user sees colleagues but not users of another facility', async () => {
    const staff = await t.login('registration');
    const all = (await staff.get(`${P}/get-all-users-by-permission-name?permission=${Permissions.portals.general}`)).json();
    const id = (name: string) => all.find((u: { userName: string }) => u.userName === name).id;
    const c = await t.login('internal.main');
    expect((await c.get(`${P}/get-user-info-by-id?id=${id('internal.sub')}`)).statusCode).toBe(200);
    expect((await c.get(`${P}/get-user-info-by-id?id=${id('cb.main')}`)).statusCode).toBe(404);
    const batch = await c.post(`${P}/get-all-users-info-by-ids`, { ids: [id('internal.sub'), id('cb.main')] });
    expect(batch.json().map((u: { userName: string }) => u.userName)).toEqual(['internal.sub']);
  });

  it('answers whether a user is granted a permission', async () => {
    const c = await t.login('committee');
    const me = (await c.get(`${P}/get-user-info`)).json();
    const q = (p: string) => c.get(`${P}/is-user-granted-permission?userId=${me.id}&permission=${p}`);
    expect((await q(Permissions.internalRequest.committeeReview)).json()).toBe(true);
    expect((await q(Permissions.internalRequest.registrationReview)).json()).toBe(false);
  });
});
