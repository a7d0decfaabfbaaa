import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { ConfigError, loadConfig } from '../../server/config';

describe('configuration', () => {
  it('applies the defaults a fresh machine needs', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ PORT: 3000, DATA_DIR: './data', WORKFLOW_ENGINE: 'embedded', SIMULATORS: true });
    expect(c.DATABASE_URL).toBeUndefined();
  });

  it.each([
    ['PORT', 'abc'],
    ['SESSION_TIME_MINUTES', '-5'],
    ['DATABASE_URL', 'not a url'],
    ['WORKFLOW_ENGINE', 'cloud'],
  ])('refuses %s=%s naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it('refuses the development secret in production and Temporal without an address', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET/);
    expect(() => loadConfig({ WORKFLOW_ENGINE: 'temporal' })).toThrow(/TEMPORAL_ADDRESS/);
  });

  it('a bad value stops the server at start with a message naming the variable', () => {
    const res = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: { ...process.env, PORT: 'not-a-port', DATABASE_URL: '' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('PORT');
  }, 60_000);
});
