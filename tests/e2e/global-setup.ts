import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Builds web/dist once before the E2E files run (each file's server serves it). E2E_SKIP_BUILD=1 reuses the last
 * build when only tests changed.
 */
export default async function setup(): Promise<void> {
  if (process.env.E2E_SKIP_BUILD === '1') return;
  await build({ configFile: `${ROOT}/vite.config.ts`, logLevel: 'warn' });
}
