import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * End-to-end tests (npm run test:e2e): tests/e2e/**\/*.e2e.ts, two files at a time, each in its own fork with
 * its own real server and real Chromium. global-setup.ts builds the web app once first.
 */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['tests/e2e/**/*.e2e.ts'],
    globalSetup: ['tests/e2e/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Two files at a time: a walk waits on its server and its browser most of the time (about 0.7 of a core), and
    // each file has its own server, port, data directory and browser.
    maxWorkers: 2,
  },
});
