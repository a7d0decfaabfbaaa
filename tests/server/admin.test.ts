import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { createTestApp, type Client, type TestApp } from '../helpers/app';
import { completeDraft, send } from '../helpers/requests';
import { auditLogs, bills, portalSettings, requestHistory, users } from '../../db/schema';
import { DEMO_PASSWORD } from '../../db/seed';
import { Permissions } from '../../machines/permissions';
import { AUDITOR_ROLE } from '../../machines/default-roles';
import { SettingsStore } from '../../server/admin/settings-store';
import { csvField, purgeAudit } from '../../server/admin/audit-log';
import { satisfies } from '../../server/plugins/auth';
import type { Actor } from '../../machines/actor';

/**
 * Issue 15, administration: the settings store (in force without restart, audited), the audit log (sign-ins,
 * writes, search, CSV export, retention), identity (staff users and roles from the database, applied from the next
 * request, audited) and the read-only auditor role (every write refused).
 */
let t: TestApp;
let admin: Client;
beforeAll(async () => {
  // This file signs in far more often than a person does; the limit itself is covered by tests/server/auth.test.ts.
  t = await createTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: '1000' });
  admin = await t.login('admin');
});
afterAll(() => t?.close());

const FACILITY = 'inf-almarai-foods';

async function settings() {
  return (await admin.get('/api/admin/settings')).json() as { value: Record<string, unknown> & { vatRate: number }; version: number };
}
async function auditRows(action: string) {
  return t.database.db.select().from(auditLogs).where(eq(auditLogs.action, action)).orderBy(desc(auditLogs.id));
}

describe('settings store', () => {
  it('a new VAT rate is used by the next bill, without restart, and the change is audited with old and new value', async () => {
    const applicant = await t.login('internal.main');
    const before = await settings();
    expect(before.value.vatRate).toBe(0.15);
    const res = await admin.put('/api/admin/settings', { value: { ...before.value, vatRate: 0.2 }, expectedVersion: before.version });
    expect(res.statusCode).toBe(200);
    expect(res.json().changes).toEqual([{ path: 'vatRate', old: 0.15, new: 0.2 }]);

    const r = await completeDraft(applicant, 'internalCertificate', FACILITY);
    expect((await send(applicant, r.id, 'SUBMIT', r.version, { agreementAccepted: true })).statusCode).toBe(200);
    const [bill] = await t.database.db.select().from(bills).where(eq(bills.requestId, r.id));
    expect(Number(bill.total)).toBeCloseTo(Number(bill.amount) * 1.2, 2);

    const [row] = await auditRows('settings.change');
    expect(row).toMatchObject({ userName: 'admin', outcome: 'success' });
    expect(row.details).toMatchObject({ changes: [{ path: 'vatRate', old: 0.15, new: 0.2 }] });

    // Back to the default for the other tests.
    const now = await settings();
    expect((await admin.put('/api/admin/settings', { value: { ...now.value, vatRate: 0.15 }, expectedVersion: now.version })).statusCode).toBe(200);
  });

  it('refuses invalid values and a stale version, and keeps the values in force', async () => {
    const s = await settings();
    const bad = await admin.put('/api/admin/settings', { value: { ...s.value, vatRate: 3 }, expectedVersion: s.version });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.validationErrors[0].members).toEqual(['vatRate']);
    const stale = await admin.put('/api/admin/settings', { value: { ...s.value, vatRate: 0.1 }, expectedVersion: s.version - 1 });
    expect(stale.statusCode).toBe(409);
    expect(t.app.settings.current().vatRate).toBe(0.15);
  });

  it('a change saved by another process is picked up after the refresh interval, and a new session time is served', async () => {
    const store = new SettingsStore(t.database.db, t.app.settingsStore.defaults, 0);
    await store.refresh();
    const s = await settings();
    await t.database.db
      .update(portalSettings)
      .set({ value: { ...s.value, sessionTimeMinutes: 42 }, version: s.version + 1 })
      .where(eq(portalSettings.key, 'business'));
    await store.refresh();
    expect(store.current().sessionTimeMinutes).toBe(42);
    await t.app.settingsStore.refresh();
    expect((await admin.get('/api/auth/session')).json().sessionTime).toBe(42);
    const again = await settings();
    await admin.put('/api/admin/settings', { value: { ...again.value, sessionTimeMinutes: 20 }, expectedVersion: again.version });
  });

  it('only administrators read or change the settings', async () => {
    const registration = await t.login('registration');
    expect((await registration.get('/api/admin/settings')).statusCode).toBe(403);
  });
});

describe('audit log', () => {
  it('records a failed and a successful sign-in with the typed name and the address', async () => {
    const res = await t.anonymous.post('/api/auth/login', { userName: 'Registration', password: 'wrong-password' });
    expect(res.statusCode).toBe(401);
    await t.login('registration');
    // Rows are written once the answer is sent (onResponse): wait for this test's failure row rather than race it.
    await expect.poll(async () => (await auditRows('auth.login')).some((r) => r.userName === 'registration' && r.outcome === 'failure')).toBe(true);
    const rows = (await auditRows('auth.login')).filter((r) => r.userName === 'registration');
    expect(rows.find((r) => r.outcome === 'failure')).toMatchObject({ statusCode: 401, details: { error: 'InvalidCredentials' }, ip: '127.0.0.1' });
    expect(rows.find((r) => r.outcome === 'success')).toBeTruthy();
  });

  it('records every API write with who, what, outcome and the request it was about; searchable by request id', async () => {
    const applicant = await t.login('internal.main');
    const r = await completeDraft(applicant, 'internalCertificate', FACILITY);
    const refused = await send(applicant, r.id, 'SUBMIT', r.version, {});
    expect(refused.statusCode).toBe(400);
    // The row is written once the answer is sent (onResponse), so it may land just after the client has its answer.
    const found = async () => (await admin.get(`/api/admin/audit-logs?requestId=${r.id}&maxResultCount=50`)).json();
    const routes = async () => (await found()).items.map((i: { route: string; outcome: string }) => `${i.route} ${i.outcome}`);
    await expect.poll(routes).toContain('/api/requests/:id/events failure');
    await expect.poll(routes).toContain('/api/requests/:id/events success');
    expect((await found()).items.every((i: { userName: string }) => i.userName === 'internal.main')).toBe(true);
    const search = (await admin.get('/api/admin/audit-logs?search=internal.main&outcome=failure')).json();
    expect(search.items.some((i: { requestId: string }) => i.requestId === r.id)).toBe(true);
  });

  it("writes a taken event's row in the event's transaction and a refused one's after the answer: each once, same fields", async () => {
    const applicant = await t.login('internal.main');
    const r = await completeDraft(applicant, 'internalCertificate', FACILITY);
    const rows = () =>
      t.database.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.requestId, r.id), eq(auditLogs.route, '/api/requests/:id/events')))
        .orderBy(auditLogs.id);
    // The taken EDIT's row committed with the EDIT: written by the same transaction as its history row.
    expect(await rows()).toMatchObject([{ statusCode: 200, outcome: 'success' }]);
    const xmin = sql<string>`xmin::text`;
    const [auditTx] = await t.database.db.select({ xmin }).from(auditLogs).where(eq(auditLogs.id, (await rows())[0].id));
    const [historyTx] = await t.database.db.select({ xmin }).from(requestHistory).where(eq(requestHistory.requestId, r.id)).orderBy(desc(requestHistory.seq)).limit(1);
    expect(auditTx.xmin).toBe(historyTx.xmin);
    const stale = await send(applicant, r.id, 'EDIT', r.version - 1, { data: {} });
    expect(stale.statusCode).toBe(409);
    // The refusal's row comes once its answer is sent.
    await expect.poll(async () => (await rows()).some((row) => row.outcome === 'failure')).toBe(true);
    const same = { action: 'api.write', userName: 'internal.main', method: 'POST', route: '/api/requests/:id/events', path: `/api/requests/${r.id}/events`, ip: '127.0.0.1', requestId: r.id };
    expect(await rows()).toMatchObject([
      { ...same, statusCode: 200, outcome: 'success', details: null },
      { ...same, statusCode: 409, outcome: 'failure', details: { error: 'ConcurrencyConflict' } },
    ]);
    const [taken, refused] = await rows();
    expect(taken.userId).not.toBeNull();
    expect(taken.userId).toBe(refused.userId);
    // Nothing more comes after the answer of the taken EDIT (a second row for it would have landed by now).
    await new Promise((done) => setTimeout(done, 100));
    expect(await rows()).toHaveLength(2);
  });

  it('exports CSV with formula-looking cells neutralised', async () => {
    await t.anonymous.post('/api/auth/login', { userName: '=HYPERLINK("http://evil")', password: 'x' });
    const exported = () => admin.get('/api/admin/audit-logs/export?action=auth.login&outcome=failure');
    // Written once the answer is sent: wait for the row rather than race it.
    await expect.poll(async () => (await exported()).body).toContain('hyperlink');
    const res = await exported();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.body).toContain(`"'=hyperlink(""http://evil"")"`);
    expect(res.body).not.toMatch(/(^|,)=hyperlink/m);
    expect(['+1', '-1', '@a', 'ok'].map(csvField)).toEqual(["'+1", "'-1", "'@a", 'ok']);
  });

  it('deletes rows older than the retention setting', async () => {
    await t.database.db.insert(auditLogs).values({ action: 'old.entry', outcome: 'success', at: new Date(Date.now() - 40 * 86_400_000) });
    await t.database.db.insert(auditLogs).values({ action: 'old.entry', outcome: 'success', at: new Date(Date.now() - 5 * 86_400_000) });
    expect(await purgeAudit(t.database.db, 30)).toBeGreaterThanOrEqual(1);
    expect(await auditRows('old.entry')).toHaveLength(1);
  });

  it('is not open to staff without the audit-log permission', async () => {
    const committee = await t.login('committee');
    expect((await committee.get('/api/admin/audit-logs')).statusCode).toBe(403);
  });
});

describe('identity', () => {
  const password = 'Staff@2026x';

  it('a staff user\'s first password follows the portal\'s one rule, and the published demo password is refused', async () => {
    const create = (pw: string, lang: string) =>
      admin.post(`/api/identity/users?lang=${lang}`, { userName: 'weak.staff', name: 'Weak Staff', email: 'weak.staff@example.org', password: pw, roles: ['auditEmployee'] });
    const weak = await create('password1', 'en');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.validationErrors).toMatchObject([{ members: ['password'], message: 'At least 8 characters with upper-case and lower-case letters, a digit and a symbol.' }]);
    const published = await create(DEMO_PASSWORD, 'ar');
    expect(published.statusCode).toBe(400);
    expect(published.json().error.validationErrors).toMatchObject([{ members: ['password'], message: 'كلمة المرور هذه منشورة مع الحسابات التجريبية للبوابة؛ اختر كلمة مرور أخرى.' }]);
    expect(await t.database.db.select().from(users).where(eq(users.userName, 'weak.staff'))).toEqual([]);
  });

  it('a created staff user acts with the granted role; a role change applies on their next request and is audited', async () => {
    const created = await admin.post('/api/identity/users', { userName: 'new.registrar', name: 'New Registrar', email: 'new.registrar@example.org', password, roles: ['registrationEmployee'] });
    expect(created.statusCode).toBe(200);
    const user = await t.login('new.registrar', password);
    const perms = async () => (await user.get('/api/auth/session')).json().permissions as string[];
    expect(await perms()).toContain(Permissions.internalRequest.registrationReview);
    expect((await user.get('/api/requests/queue/registration')).statusCode).not.toBe(403);

    // The role editor takes the permission away: the same session loses it on its next request.
    const roles = (await admin.get('/api/identity/roles')).json();
    const reg = roles.find((r: { name: string }) => r.name === 'registrationEmployee');
    const without = reg.permissions.filter((p: string) => p !== Permissions.internalRequest.registrationReview);
    expect((await admin.put('/api/identity/roles/registrationEmployee', { permissions: without, readOnly: false })).statusCode).toBe(200);
    expect(await perms()).not.toContain(Permissions.internalRequest.registrationReview);
    const [change] = await auditRows('role.change');
    expect(change.details).toMatchObject({ role: 'registrationEmployee', removed: [Permissions.internalRequest.registrationReview] });
    await admin.put('/api/identity/roles/registrationEmployee', { permissions: reg.permissions, readOnly: false });

    // Assigning another role: next request.
    const id = created.json().id;
    expect((await admin.put(`/api/identity/users/${id}/roles`, { roles: ['committeeMember'] })).statusCode).toBe(200);
    expect(await perms()).toContain(Permissions.internalRequest.committeeReview);
    const [assigned] = await auditRows('user.roles');
    expect(assigned.details).toMatchObject({ user: 'new.registrar', roles: { old: ['registrationEmployee'], new: ['committeeMember'] } });
  });

  it('lists and searches staff, not facility users', async () => {
    const staff = (await admin.get('/api/identity/users?search=al-')).json();
    const names = staff.items.map((u: { userName: string }) => u.userName);
    expect(names).toContain('registration');
    expect(names).not.toContain('internal.main');
  });

  it('lock ends the sessions and refuses sign-in; unlock and reset password let the user in again', async () => {
    await admin.post('/api/identity/users', { userName: 'to.lock', name: 'To Lock', email: 'to.lock@example.org', password, roles: ['auditEmployee'] });
    const list = (await admin.get('/api/identity/users?search=to.lock')).json();
    const id = list.items[0].id;
    const user = await t.login('to.lock', password);
    expect((await admin.post(`/api/identity/users/${id}/lock`)).json().locked).toBe(true);
    expect((await user.get('/api/app/halal-user/get-user-info')).statusCode).toBe(401);
    const refused = await t.anonymous.post('/api/auth/login', { userName: 'to.lock', password });
    expect(refused.json().error.code).toBe('UserLocked');
    await admin.post(`/api/identity/users/${id}/unlock`);
    const reset = (await admin.post(`/api/identity/users/${id}/reset-password`)).json();
    await expect(t.login('to.lock', password)).rejects.toThrow();
    await t.login('to.lock', reset.password);
    const actions = (await t.database.db.select().from(auditLogs).where(and(eq(auditLogs.userName, 'admin')))).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['user.create', 'user.lock', 'user.unlock', 'user.password-reset']));
  });

  it('refuses an administrator locking their own account, in their language, and leaves it unlocked', async () => {
    const me = (await admin.get('/api/identity/users?search=admin')).json().items.find((u: { userName: string }) => u.userName === 'admin');
    for (const [lang, text] of [['ar', 'لا يمكنك قفل حسابك'], ['en', 'You cannot lock your own account']] as const) {
      const res = await admin.post(`/api/identity/users/${me.id}/lock?lang=${lang}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('OwnAccountNotLocked');
      expect(res.json().error.message).toContain(text);
    }
    expect((await admin.get('/api/identity/users?search=admin')).json().items.find((u: { id: string }) => u.id === me.id).locked).toBe(false);
    expect((await admin.get('/api/app/halal-user/get-user-info')).statusCode).toBe(200);
  });
});

describe('lifecycle diagram', () => {
  it('is generated from the machine with the current status and the path taken, for the request and its bill', async () => {
    const applicant = await t.login('internal.main');
    const r = await completeDraft(applicant, 'internalCertificate', FACILITY);
    await send(applicant, r.id, 'SUBMIT', r.version, { agreementAccepted: true });
    const d = (await admin.get(`/api/diagram/${r.id}?lang=en`)).json();
    expect(d).toMatchObject({ kind: 'internalCertificate', current: 2, path: [0, 2] });
    expect(d.nodes.find((n: { code: number }) => n.code === 2)).toMatchObject({ label: 'Pending Payment of Application Fee', visited: true });
    expect(d.edges.find((e: { from: number; to: number }) => e.from === 0 && e.to === 2)).toMatchObject({ taken: 1 });
    expect(d.edges.filter((e: { taken: number }) => e.taken > 0)).toHaveLength(1);
    const [bill] = await t.database.db.select().from(bills).where(eq(bills.requestId, r.id));
    expect((await admin.get(`/api/diagram/${bill.id}`)).json()).toMatchObject({ kind: 'bill', current: 1 });
    // Another facility's user cannot read it.
    expect((await (await t.login('external')).get(`/api/diagram/${r.id}`)).statusCode).toBe(404);
  });
});

describe('read-only auditor role', () => {
  let auditor: Client;
  beforeAll(async () => {
    const res = await admin.post('/api/identity/users', { userName: 'inspector', name: 'Inspector', email: 'inspector@example.org', password: 'Inspect@2026', roles: [AUDITOR_ROLE] });
    expect(res.statusCode).toBe(200);
    auditor = await t.login('inspector', 'Inspect@2026');
  });

  it('sees any request, its history and its verification, and the audit log', async () => {
    const applicant = await t.login('internal.main');
    const r = await completeDraft(applicant, 'internalCertificate', FACILITY);
    expect((await auditor.get(`/api/requests/${r.id}`)).statusCode).toBe(200);
    expect((await auditor.get(`/api/requests/${r.id}/history`)).statusCode).toBe(200);
    expect((await auditor.get(`/api/requests/${r.id}/history/verify`)).json()).toMatchObject({ ok: true });
    expect((await auditor.get('/api/admin/audit-logs')).statusCode).toBe(200);
  });

  it('every write route is refused', async () => {
    const allowed = new Set(['POST /api/auth/login', 'POST /api/auth/logout', 'POST /api/app/halal-user/create-update-user']);
    const fill = (url: string) => url.replace(/:(\w+)/g, (_m, name: string) => (/id$/i.test(name) ? '00000000-0000-4000-8000-000000000000' : 'x'));
    const writes = t.app.routePolicies.filter((r) => r.method !== 'GET' && r.policy !== 'public' && !allowed.has(`${r.method} ${r.url}`));
    expect(writes.length).toBeGreaterThan(20);
    const permissions: string[] = (await auditor.get('/api/auth/session')).json().permissions;
    const actor = { permissions } as unknown as Actor;
    const byRole: string[] = [];
    for (const r of writes) {
      const res = await auditor.request({ method: r.method as never, url: fill(r.url), payload: {} });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
      // Routes the auditor's permissions would open are refused for being read-only; the others by their policy.
      const expected = satisfies(actor, r.policy) ? 'ReadOnlyRole' : 'NotAuthorized';
      expect(res.json().error.code, `${r.method} ${r.url}`).toBe(expected);
      if (expected === 'ReadOnlyRole') byRole.push(`${r.method} ${r.url}`);
    }
    // Among them the doors every signed-in user has: starting a request and sending it events.
    expect(byRole).toEqual(expect.arrayContaining(['POST /api/requests', 'POST /api/requests/:id/events']));
  });
});
