import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/app';
import { sessions, users } from '../../db/schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SESSION_TIME_MINUTES: '1' });
});
afterAll(() => t?.close());

describe('sign in', () => {
  it('refuses a wrong password in the caller language and sets no cookie', async () => {
    const ar = await t.anonymous.post('/api/auth/login', { userName: 'internal.main', password: 'wrong' });
    expect(ar.statusCode).toBe(401);
    expect(ar.json().error.message).toBe('اسم المستخدم أو كلمة المرور غير صحيحة.');
    expect(ar.headers['set-cookie']).toBeUndefined();
    const en = await t.anonymous.post('/api/auth/login?lang=en', { userName: 'internal.main', password: 'wrong' });
    expect(en.json().error.message).toBe('The user name or password is incorrect.');
  });

  it('lists each validation message for an empty form', async () => {
    const res = await t.anonymous.post('/api/auth/login?lang=en', { userName: '', password: '' });
    expect(res.statusCode).toBe(400);
    const members = res.json().error.validationErrors.map((v: { members: string[] }) => v.members[0]);
    expect(members).toEqual(expect.arrayContaining(['userName', 'password']));
  });

  it('stores passwords as scrypt hashes, never in clear', async () => {
    const [u] = await t.app.db.select().from(users).where(eq(users.userName, 'internal.main'));
    expect(u.passwordHash).toMatch(/^scrypt\$/);
    expect(u.passwordHash).not.toContain('Demo@12345');
  });

  it('tells staff and facility users apart', async () => {
    const staff = (await (await t.login('registration')).get('/api/auth/session')).json();
    const applicant = (await (await t.login('internal.main')).get('/api/auth/session')).json();
    expect(staff.isStaff).toBe(true);
    expect(applicant.isStaff).toBe(false);
    expect(applicant.facilityIds).toEqual(['inf-almarai-foods']);
  });
});

describe('sessions', () => {
  it('sign-out revokes the session: the same cookie no longer works', async () => {
    const c = await t.login('internal.main');
    expect((await c.get('/api/app/halal-user/get-user-info')).statusCode).toBe(200);
    expect((await c.post('/api/auth/logout')).statusCode).toBe(200);
    const after = await c.get('/api/app/halal-user/get-user-info');
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('SessionExpired');
  });

  it('an idle session is refused and stays revoked', async () => {
    const c = await t.login('audit');
    const me = (await c.get('/api/auth/session')).json();
    await t.app.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 2 * 60_000) })
      .where(eq(sessions.userId, me.user.id));
    const res = await c.get('/api/app/halal-user/get-user-info');
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('SessionExpired');
    const session = (await c.get('/api/auth/session')).json();
    expect(session).toMatchObject({ authenticated: false, sessionExpired: true });
    const rows = await t.app.db.select().from(sessions).where(eq(sessions.userId, me.user.id));
    expect(rows.every((r) => r.revokedAt !== null)).toBe(true);
  });

  it('a forged token is refused', async () => {
    const res = await t.anonymous.get('/api/app/halal-user/get-user-info', { headers: { cookie: 'halal_session=abc.def.ghi' } });
    expect(res.statusCode).toBe(401);
  });

  it('a cookie-authenticated write without the CSRF token is refused and changes nothing', async () => {
    const c = await t.login('internal.main');
    const bare = c.cookie.split('; ').filter((x) => x.startsWith('halal_session=')).join('; ');
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: bare } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('CsrfInvalid');
    expect((await c.get('/api/app/halal-user/get-user-info')).statusCode).toBe(200);
  });
});

describe('errors', () => {
  it('answers 404 for an unknown API path in the caller language', async () => {
    const res = await t.anonymous.get('/api/no-such-thing?lang=en');
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toEqual({ code: 'NotFound', message: 'The resource was not found.' });
  });

  it('serves the OpenAPI document as JSON', async () => {
    const res = await t.anonymous.get('/api/docs/json');
    expect(res.statusCode).toBe(200);
    expect(res.json().paths['/api/app/halal-user/get-user-info']).toBeDefined();
  });
});

describe('language', () => {
  it('follows the lang cookie over Accept-Language', async () => {
    const res = await t.anonymous.get('/api/no-such-thing', { headers: { cookie: 'lang=en', 'accept-language': 'ar' } });
    expect(res.json().error.message).toBe('The resource was not found.');
  });
});
