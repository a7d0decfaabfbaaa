import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../server/app';
import { testConfig, type Config } from '../../server/config';
import { DEMO_PASSWORD } from '../../db/seed';
import type { Database } from '../../db/client';
import { createTestDatabase } from './db';
import { startSimulators } from './simulators';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  /** Signs a seeded user in and returns a client that carries the session cookie and CSRF token. */
  login(userName: string, password?: string): Promise<Client>;
  anonymous: Client;
  close(): Promise<void>;
}

export interface Client {
  request(opts: InjectOptions): Promise<LightMyRequestResponse>;
  get(url: string, opts?: InjectOptions): Promise<LightMyRequestResponse>;
  post(url: string, payload?: unknown, opts?: InjectOptions): Promise<LightMyRequestResponse>;
  put(url: string, payload?: unknown, opts?: InjectOptions): Promise<LightMyRequestResponse>;
  cookie: string;
  csrf: string;
}

function cookiesOf(res: LightMyRequestResponse): string[] {
  return [res.headers['set-cookie'] ?? []].flat().map((c) => String(c).split(';')[0]);
}

function client(app: FastifyInstance, cookie: string, csrf: string): Client {
  const request = (opts: InjectOptions) =>
    app.inject({ ...opts, headers: { cookie, ...(csrf ? { 'x-csrf-token': csrf } : {}), ...(opts.headers ?? {}) } });
  return {
    cookie,
    csrf,
    request,
    get: (url, opts = {}) => request({ ...opts, method: 'GET', url }),
    post: (url, payload, opts = {}) => request({ ...opts, method: 'POST', url, payload: payload as never }),
    put: (url, payload, opts = {}) => request({ ...opts, method: 'PUT', url, payload: payload as never }),
  };
}

/**
 * A server on a fresh seeded database (see createTestDatabase). Submitting any request that carries products asks the
 * food authority about them (spec 02 section 5): unless the test names another, its simulator answers over HTTP.
 */
export async function createTestApp(overrides: Partial<Record<keyof Config, string>> = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const sims = overrides.FOOD_AUTHORITY_URL ? undefined : await startSimulators();
  const app = await buildApp({ config: testConfig({ ...(sims ? { FOOD_AUTHORITY_URL: `${sims.url}/simulators/foodAuthority` } : {}), ...overrides }), database });
  await app.ready();
  return {
    app,
    database,
    anonymous: client(app, '', ''),
    async login(userName, password = DEMO_PASSWORD) {
      const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { userName, password } });
      if (res.statusCode !== 200) throw new Error(`login ${userName} failed: ${res.statusCode} ${res.body}`);
      const session = cookiesOf(res).join('; ');
      const s = await app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie: session } });
      const cookie = [session, ...cookiesOf(s)].join('; ');
      return client(app, cookie, s.json().csrfToken);
    },
    async close() {
      await app.close();
      await sims?.app.close();
      await database.close();
    },
  };
}
