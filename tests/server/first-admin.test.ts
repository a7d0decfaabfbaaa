import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FirstAdminRefused, createFirstAdmin } from '../../db/first-admin';
import { createTestApp, type TestApp } from '../helpers/app';

/** Production seeds no accounts: `npm run admin:create` makes the first administrator, and never touches an existing one. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('the first administrator', () => {
  it('is created with a generated password that signs in with the administrator’s permissions', async () => {
    const created = await createFirstAdmin(t.database.db, { userName: 'chief.admin', email: 'chief@halal.gov.sa' });
    expect(created.password.length).toBeGreaterThanOrEqual(12);
    const admin = await t.login('chief.admin', created.password);
    const session = (await admin.get('/api/auth/session')).json();
    expect(JSON.stringify(session)).toContain('SettingManagement.Manage');
  });

  it('is refused for a taken user name or email, a weak password or a bad name, and nothing changes', async () => {
    await expect(createFirstAdmin(t.database.db, { userName: 'chief.admin', email: 'other@halal.gov.sa' })).rejects.toBeInstanceOf(FirstAdminRefused);
    await expect(createFirstAdmin(t.database.db, { userName: 'someone', email: 'chief@halal.gov.sa' })).rejects.toThrow(/exists already/);
    await expect(createFirstAdmin(t.database.db, { userName: 'second.admin', email: 's@halal.gov.sa', password: 'short1' })).rejects.toThrow(/ADMIN_PASSWORD/);
    await expect(createFirstAdmin(t.database.db, { userName: 'no spaces', email: 's@halal.gov.sa' })).rejects.toThrow(/user name/);
    // The existing administrator's password was not reset by any of these.
    await expect(t.login('admin')).resolves.toBeDefined();
    await expect(t.login('second.admin', 'short1')).rejects.toThrow(/login second.admin failed/);
  });
});
