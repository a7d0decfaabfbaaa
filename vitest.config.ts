import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    // On PGlite every test database starts from one migrated dump made here (tests/helpers/db.ts).
    globalSetup: ['tests/helpers/global-setup.ts'],
    // Generous: a 2-core CI machine runs two forks, each with its own PGlite; time is measured by benchmarks, not here.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default is one fork less than the cores, which is one fork on these 2-core machines: the suite is
    // CPU-bound (PGlite runs in the fork), and each file has its own database, so two forks share nothing.
    maxWorkers: 2,
  },
});
