import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Client, type TestApp } from '../helpers/app';
import { actorOf, satisfies } from '../../server/plugins/auth';
import { ROLE_NAMES, type RoleName } from '../../machines/roles';
import { DEMO_USERS } from '../../db/seed';
import type { Actor } from '../../machines/actor';

/**
 * Generated from the policy table: every /api route the server registers, called by anonymous and by a user of
 * every role, must be allowed or refused exactly as its declared policy says. Nothing here lists routes by hand,
 * so a new route is covered the moment it is registered.
 */
const SKIP = new Set(['POST /api/auth/logout']); // would end the session the loop reuses; auth.test.ts covers it
const userOfRole = (role: RoleName) => DEMO_USERS.find((u) => (u.roles as readonly string[]).includes(role))!.userName;

let t: TestApp;
const clients = new Map<RoleName, { client: Client; actor: Actor }>();

beforeAll(async () => {
  t = await createTestApp();
  for (const role of ROLE_NAMES) {
    const client = await t.login(userOfRole(role));
    const me = (await client.get('/api/auth/session')).json();
    clients.set(role, { client, actor: await actorOf(t.app, me.user.id, me.user.roles) });
  }
}, 120_000);
afterAll(() => t?.close());

const fill = (url: string) => url.replace(/:(\w+)/g, (_m, name: string) => (/id$/i.test(name) ? '00000000-0000-4000-8000-000000000000' : 'x'));

describe('route policies', () => {
  it('every /api route declares a policy and the table is not empty', () => {
    expect(t.app.routePolicies.length).toBeGreaterThan(5);
  });

  it('anonymous callers get 401 on every non-public route, and are served on public ones', async () => {
    for (const r of t.app.routePolicies) {
      if (SKIP.has(`${r.method} ${r.url}`)) continue;
      const res = await t.anonymous.request({ method: r.method as never, url: fill(r.url), payload: r.method === 'GET' ? undefined : {} });
      if (r.policy === 'public') expect(res.statusCode, `${r.method} ${r.url}`).not.toBe(401);
      else expect(res.statusCode, `${r.method} ${r.url}`).toBe(401);
    }
  }, 120_000);

  for (const role of ROLE_NAMES) {
    it(`a ${role} is allowed or refused exactly as each route's policy says`, async () => {
      const { client, actor } = clients.get(role)!;
      const checked: string[] = [];
      for (const r of t.app.routePolicies) {
        const key = `${r.method} ${r.url}`;
        if (SKIP.has(key) || r.policy === 'public') continue;
        const res = await client.request({ method: r.method as never, url: fill(r.url), payload: r.method === 'GET' ? undefined : {} });
        const refusedByPolicy = res.statusCode === 403 && res.json().error?.code === 'NotAuthorized';
        expect(res.statusCode, key).not.toBe(401);
        expect(refusedByPolicy, `${key} for ${role} (policy ${JSON.stringify(r.policy)})`).toBe(!satisfies(actor, r.policy));
        checked.push(key);
      }
      expect(checked.length).toBeGreaterThan(0);
    }, 120_000);
  }
});
