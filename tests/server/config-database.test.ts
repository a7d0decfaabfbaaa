import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';

/** Production runs on PostgreSQL; the embedded PGlite database is for development, demos and tests (README, Data). */
describe('the database in production', () => {
  const secrets = { JWT_SECRET: 'x'.repeat(40), PAYMENT_CALLBACK_SECRET: 'y'.repeat(20) };

  it('is refused as embedded PGlite: DATABASE_URL is required', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', ...secrets })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', ...secrets, DATABASE_URL: '' })).toThrow(/DATABASE_URL: required in production/);
  });

  it('is accepted on PostgreSQL, and PGlite stays the default outside production', () => {
    // Every other production setting a real deployment sets (tests/security/production.test.ts proves each refusal).
    const services = {
      PUBLIC_URL: 'https://halal.example.gov.sa',
      CR_REGISTRY_URL: 'https://cr.example.gov.sa/api',
      CR_REGISTRY_API_KEY: 'cr-real-key',
      PAYMENT_PORTAL_URL: 'https://pay.example.gov.sa',
      PAYMENT_PORTAL_API_KEY: 'pay-real-key',
      SMS_PROVIDER_URL: 'https://sms.example.com',
      SMS_PROVIDER_API_KEY: 'sms-real-key',
      RECAPTCHA_URL: 'https://www.google.com/recaptcha/api',
      RECAPTCHA_SECRET: 'recaptcha-real-secret',
      HISTORY_KEYS: 'k2025:0123456789abcdef0123456789abcdef-history',
    };
    expect(loadConfig({ NODE_ENV: 'production', ...secrets, ...services, DATABASE_URL: 'postgres://halal@db:5432/halal' }).DATABASE_URL).toBe(
      'postgres://halal@db:5432/halal',
    );
    expect(loadConfig({ NODE_ENV: 'development' }).DATABASE_URL).toBeUndefined();
  });
});
