import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * End-to-end tests (npm run test:e2e): tests/e2e/**\/*.e2e.ts, run one file at a time in one fork because each
 * file starts a real server and a real Chromium. global-setup.ts builds the web app once first.
 */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['tests/e2e/**/*.e2e.ts'],
    globalSetup: ['tests/e2e/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
  },
});
