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
    // Generous: on the 23:05 CI run this machine kind's Chromium drew ~3.5x slower than at 19:50 (the public pages'
    // axe walk of 26 pages took 36 s, then over 120 s; the request page's layout walk 34 s, then 111 s). A walk that
    // hangs still fails, at 5 minutes.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // What a walk polls for (an uploaded file listed, a status after an event) gets 15 s, not Vitest's default 1 s: on
    // the 10:30 CI run an upload's row came after more than 1 s with three walks of the file side by side.
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    // One file at a time. Each file has its own server and Chromium, and one walk already keeps both cores busy (the
    // renderer draws in software): two side by side made each walk ~5x slower, not 2x. Measured on this machine kind
    // (2026-12-02): the whole suite 1,099 s one at a time against 2,764 s two at a time (CI at 7319267); the
    // internal-certificate walk 167 s against 904 s.
    maxWorkers: 1,
  },
});
