import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { testConfig } from '../../server/config';
import { users } from '../../db/schema';
import { createTestApp, type Client, type TestApp } from '../helpers/app';

/*
 * A server remembers each session's identity and, per request, reads only the identity epoch (server/plugins/auth.ts).
 * What must hold: a change made anywhere — here by a second server on the same database, as another process of a
 * deployment would — takes effect at this server's next request. Each test first uses the session on this server, so
 * the identity is remembered when the change happens elsewhere.
 */
let t: TestApp;
let other: FastifyInstance;
beforeAll(async () => {
  t = await createTestApp();
  other = await buildApp({ config: testConfig(), database: t.database });
  await other.ready();
});
afterAll(async () => {
  await other?.close();
  await t?.close();
});

/** The same signed-in browser, its request served by the other server. */
const elsewhere = (c: Client, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  other.inject({ method, url, payload: payload as never, headers: { cookie: c.cookie, 'x-csrf-token': c.csrf } });

const session = async (c: Client) => (await c.get('/api/auth/session')).json();
const userId = async (userName: string) => (await t.app.db.select({ id: users.id }).from(users).where(eq(users.userName, userName)))[0].id;

describe('a session remembered by one server', () => {
  it('ends at its next request once signed out on another server', async () => {
    const c = await t.login('internal.main');
    expect((await c.get('/api/app/halal-user/get-user-info')).statusCode).toBe(200);
    expect((await elsewhere(c, 'POST', '/api/auth/logout')).statusCode).toBe(200);
    const after = await c.get('/api/app/halal-user/get-user-info');
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('SessionExpired');
  });

  it('ends at its next request once its user is locked on another server', async () => {
    const c = await t.login('readonly.auditor');
    expect((await c.get('/api/app/halal-user/get-user-info')).statusCode).toBe(200);
    const admin = await t.login('admin');
    expect((await elsewhere(admin, 'POST', `/api/identity/users/${await userId('readonly.auditor')}/lock`)).statusCode).toBe(200);
    expect((await c.get('/api/app/halal-user/get-user-info')).statusCode).toBe(401);
  });

  it('loses a facility at its next request once the user is removed from it on another server', async () => {
    const sub = await t.login('internal.sub');
    expect((await session(sub)).facilityIds).toEqual(['inf-almarai-foods']);
    const main = await t.login('internal.main');
    const removed = await elsewhere(main, 'POST', '/api/InternalFacilityDelegation/RemoveUser', {
      facilityPublicId: 'inf-almarai-foods',
      userId: await userId('internal.sub'),
    });
    expect(removed.statusCode).toBe(200);
    expect((await session(sub)).facilityIds).toEqual([]);
    expect((await sub.get('/api/app/halal-user/get-user-info')).statusCode).toBe(200);
  });

  it("holds a role's new grants at its next request once an administrator changes them on another server", async () => {
    const c = await t.login('audit');
    const before: string[] = (await session(c)).permissions;
    expect(before.length).toBeGreaterThan(1);
    const [role] = (await t.app.db.select({ roles: users.roles }).from(users).where(eq(users.userName, 'audit')))[0].roles;
    const kept = before.slice(0, 1);
    const admin = await t.login('admin');
    expect((await elsewhere(admin, 'PUT', `/api/identity/roles/${role}`, { permissions: kept, readOnly: false })).statusCode).toBe(200);
    expect((await session(c)).permissions).toEqual(kept);
  });

  it('holds the roles an administrator gives its user on another server at its next request', async () => {
    const c = await t.login('teamleader');
    const before = await session(c);
    expect(before.isStaff).toBe(true);
    const admin = await t.login('admin');
    const changed = await elsewhere(admin, 'PUT', `/api/identity/users/${await userId('teamleader')}/roles`, { roles: [] });
    expect(changed.statusCode).toBe(200);
    const after = await session(c);
    expect(after.permissions).toEqual([]);
    expect(after.isStaff).toBe(false);
  });
});
