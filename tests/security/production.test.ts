import { PRODUCTION_ENV } from '../helpers/production-env';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { count } from 'drizzle-orm';
import { buildApp } from '../../server/app';
import { ConfigError, loadConfig } from '../../server/config';
import { openDatabase, type Database } from '../../db/client';
import { DEMO_PASSWORD, DemoSeedRefused, seedBase, seedDemo } from '../../db/seed';
import { createFirstAdmin } from '../../db/first-admin';
import { certificates, users } from '../../db/schema';
import { createTestApp, type TestApp } from '../helpers/app';

/*
 * Issue 11, point 1: production refuses to start unsafe. A production configuration must name every external
 * service's real address and key, the public URL and the history keys; the simulators cannot be turned on; demo
 * accounts (published password) are never seeded; links come from PUBLIC_URL only.
 */


const without = (name: keyof typeof PRODUCTION_ENV) => Object.fromEntries(Object.entries(PRODUCTION_ENV).filter(([k]) => k !== name));

describe('production configuration', () => {
  it('accepts a complete production environment, with the simulators off', () => {
    const c = loadConfig(PRODUCTION_ENV);
    expect(c.SIMULATORS).toBe(false);
    expect(c.PUBLIC_URL).toBe('https://halal.example.gov.sa');
  });

  it('an empty production environment is refused naming every missing setting', () => {
    let message = '';
    try {
      loadConfig({ NODE_ENV: 'production' });
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      message = (e as Error).message;
    }
    for (const name of ['JWT_SECRET', 'PAYMENT_CALLBACK_SECRET', 'DATABASE_URL', 'PUBLIC_URL', 'CR_REGISTRY_URL', 'CR_REGISTRY_API_KEY',
      'FOOD_AUTHORITY_URL', 'FOOD_AUTHORITY_API_KEY', 'PAYMENT_PORTAL_URL', 'PAYMENT_PORTAL_API_KEY', 'SMS_PROVIDER_URL', 'SMS_PROVIDER_API_KEY', 'RECAPTCHA_URL', 'RECAPTCHA_SECRET', 'HISTORY_KEYS']) {
      expect(message).toMatch(new RegExp(`^  ${name}: `, 'm'));
    }
  });

  it.each(Object.keys(PRODUCTION_ENV).filter((k) => !['NODE_ENV', 'LOG_LEVEL', 'TIMER_POLL_MS'].includes(k)))('refuses production without %s, naming it', (name) => {
    expect(() => loadConfig(without(name as keyof typeof PRODUCTION_ENV))).toThrow(new RegExp(`${name}: `));
  });

  it('refuses the simulators, and the simulator keys, in production', () => {
    expect(() => loadConfig({ ...PRODUCTION_ENV, SIMULATORS: 'true' })).toThrow(/SIMULATORS: the simulators cannot run in production/);
    expect(() => loadConfig({ ...PRODUCTION_ENV, SMS_PROVIDER_API_KEY: 'simulator-key' })).toThrow(/SMS_PROVIDER_API_KEY: the simulator's value is refused/);
    expect(() => loadConfig({ ...PRODUCTION_ENV, RECAPTCHA_SECRET: 'simulator-secret' })).toThrow(/RECAPTCHA_SECRET/);
  });

  it('refuses a trusted-proxy list that is not addresses, and a short history key', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 172.16.0.0/12' }).TRUST_PROXY).toBe('10.0.0.1, 172.16.0.0/12');
    expect(() => loadConfig({ HISTORY_KEYS: 'k1:short' })).toThrow(/HISTORY_KEYS/);
  });

  it('the server process stops at start naming the missing setting', () => {
    const res = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: { ...process.env, ...without('PUBLIC_URL') },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(/PUBLIC_URL: required in production/);
  }, 60_000);

  it('`npm run seed:demo` is refused in production', () => {
    const res = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/seed-demo.ts'], {
      env: { ...process.env, ...PRODUCTION_ENV },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(/never seeded with NODE_ENV=production/);
  }, 60_000);
});

/** A production server on a PGlite database of its own with the reference data, and what `prepare` adds first. */
function productionServer(prepare?: (database: Database) => Promise<unknown>) {
  const server = {} as { database: Database; app: Awaited<ReturnType<typeof buildApp>> };
  beforeAll(async () => {
    server.database = await openDatabase({});
    await seedBase(server.database.db);
    await prepare?.(server.database);
    server.app = await buildApp({ config: loadConfig(PRODUCTION_ENV), database: server.database });
    await server.app.ready();
  }, 60_000);
  afterAll(async () => {
    await server.app?.close();
    await server.database?.close();
  });
  return server;
}

describe('a production server on a database the demo seed was run into by mistake', () => {
  // What a development start against the production database would do.
  const server = productionServer((database) => seedDemo(database.db, 'development'));

  it('opens no account with the published password, the administrator\'s included', async () => {
    for (const userName of ['admin', 'internal.main', 'committee']) {
      const res = await server.app.inject({ method: 'POST', url: '/api/auth/login?lang=en', payload: { userName, password: DEMO_PASSWORD }, headers: { 'x-forwarded-proto': 'https' } });
      expect(res.statusCode, userName).toBe(401);
      expect(res.json().error.code).toBe('InvalidCredentials');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });
});

describe('a production server', () => {
  const server = productionServer();

  it('has reference data but no demo account: the published admin password signs nobody in', async () => {
    const [{ n }] = await server.database.db.select({ n: count() }).from(users);
    expect(n).toBe(0);
    const res = await server.app.inject({ method: 'POST', url: '/api/auth/login', payload: { userName: 'admin', password: DEMO_PASSWORD } });
    expect(res.statusCode).toBe(401);
    expect((await server.app.inject({ method: 'GET', url: '/api/public/hs-codes/sections' })).statusCode).not.toBe(500);
  });

  it('serves no simulator (no OTP to read, no bill to "pay")', async () => {
    for (const url of ['/simulators/sms/messages', '/simulators/payment-portal/pay?token=x', '/simulators/cr/health']) {
      expect((await server.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
  });

  it('tells the browser to load nothing from elsewhere and to keep to HTTPS', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/health' });
    const csp = Object.fromEntries(
      String(res.headers['content-security-policy'])
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values.join(' ')]),
    );
    // Scripts, styles, fonts, calls and frames from the portal's own origin only (fonts and images also inline).
    expect(csp['default-src']).toBe("'self'");
    expect(csp['script-src']).toBe("'self'");
    expect(csp['font-src']).toBe("'self' data:");
    expect(csp['connect-src']).toBe("'self'");
    expect(csp['frame-ancestors']).toBe("'self'");
    expect(res.headers['strict-transport-security']).toContain('max-age=');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('the demo seed refuses to run', async () => {
    await expect(seedDemo(server.database.db, 'production')).rejects.toBeInstanceOf(DemoSeedRefused);
    const [{ n }] = await server.database.db.select({ n: count() }).from(users);
    expect(n).toBe(0);
  });

  it('sets its cookies for HTTPS only, even behind a proxy it was not told to trust', async () => {
    // No TRUST_PROXY: the request arrives as plain HTTP from the proxy, and the cookies must still be Secure.
    const session = await server.app.inject({ method: 'GET', url: '/api/auth/session' });
    const admin = await createFirstAdmin(server.database.db, { userName: 'cookie.admin', email: 'cookie.admin@example.gov.sa' });
    const login = await server.app.inject({ method: 'POST', url: '/api/auth/login', payload: { userName: admin.userName, password: admin.password } });
    expect(login.statusCode).toBe(200);
    const cookies = [session, login].flatMap((res) => [res.headers['set-cookie'] ?? []].flat().map(String));
    expect(cookies.map((c) => c.split('=')[0]).sort()).toEqual(['halal_csrf', 'halal_session']);
    for (const c of cookies) expect(c, c.split('=')[0]).toMatch(/;\s*Secure(;|$)/i);
  });
});

describe('links come from PUBLIC_URL, never from X-Forwarded-Host', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://halal.example.gov.sa/' });
  }, 60_000);
  afterAll(() => t?.close());

  it('the QR verification link of a certificate ignores a forged X-Forwarded-Host', async () => {
    const [cert] = await t.database.db.select({ id: certificates.id }).from(certificates).limit(1);
    const staff = await t.login('registration');
    const res = await staff.get(`/api/certificates/${cert.id}`, { headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http', host: 'evil.example' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().verificationUrl).toMatch(/^https:\/\/halal\.example\.gov\.sa\/verify\//);
  });
});
