import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import { PRODUCTION_ENV } from '../helpers/production-env';

/** Production runs on PostgreSQL; the embedded PGlite database is for development, demos and tests (README, Data). */
describe('the database in production', () => {
  const secrets = { JWT_SECRET: 'x'.repeat(40), PAYMENT_CALLBACK_SECRET: 'y'.repeat(20) };

  it('is refused as embedded PGlite: DATABASE_URL is required', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', ...secrets })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', ...secrets, DATABASE_URL: '' })).toThrow(/DATABASE_URL: required in production/);
  });

  it('is accepted on PostgreSQL, and PGlite stays the default outside production', () => {
    expect(loadConfig({ ...PRODUCTION_ENV, ...secrets, DATABASE_URL: 'postgres://halal@db:5432/halal' }).DATABASE_URL).toBe(
      'postgres://halal@db:5432/halal',
    );
    expect(loadConfig({ NODE_ENV: 'development' }).DATABASE_URL).toBeUndefined();
  });
});
