import { describe, expect, it } from 'vitest';
import { ConfigError, testConfig } from '../../../server/config';
import { workerSettings } from '../../../server/worker';

describe('worker settings', () => {
  it('refuses to start without TEMPORAL_ADDRESS and DATABASE_URL, naming both', () => {
    expect(() => workerSettings(testConfig())).toThrow(ConfigError);
    expect(() => workerSettings(testConfig())).toThrow(/TEMPORAL_ADDRESS[\s\S]*DATABASE_URL/);
    // PGlite cannot be shared between the server process and the worker.
    expect(() => workerSettings(testConfig({ TEMPORAL_ADDRESS: 'temporal:7233' }))).toThrow(/DATABASE_URL/);
  });

  it('takes the frontend address and the PostgreSQL URL', () => {
    const config = testConfig({ TEMPORAL_ADDRESS: 'temporal:7233', DATABASE_URL: 'postgres://halal@postgres:5432/halal' });
    expect(workerSettings(config)).toEqual({ address: 'temporal:7233', databaseUrl: 'postgres://halal@postgres:5432/halal' });
  });
});
