import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

declare module 'vitest' {
  export interface ProvidedContext {
    /** The web build the E2E servers serve (their WEB_DIST). */
    webDist: string;
  }
}

/**
 * Builds the web app once before the E2E files run, into a directory of this run's own: web/dist is shared with
 * anyone running `npm run build` meanwhile, and a rebuild there would pull the files from under a running test.
 * E2E_SKIP_BUILD=1 serves the existing web/dist instead (quick reruns when only tests changed).
 */
export default async function setup(project: TestProject): Promise<() => void> {
  if (process.env.E2E_SKIP_BUILD === '1') {
    project.provide('webDist', join(ROOT, 'web/dist'));
    return () => undefined;
  }
  const outDir = mkdtempSync(join(tmpdir(), 'halal-e2e-web-'));
  // Vitest sets NODE_ENV=test, and Vite then makes a development build (React's development bundle, no service
  // worker): the E2E suite must walk the build that ships.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: join(ROOT, 'vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
    // The prerender of public pages, where the server looks for it (server/plugins/web.ts: <web root>-ssr).
    await build({ configFile: join(ROOT, 'vite.config.ts'), logLevel: 'warn', build: { ssr: true, outDir: `${outDir}-ssr`, emptyOutDir: true } });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  project.provide('webDist', outDir);
  return () => {
    rmSync(outDir, { recursive: true, force: true });
    rmSync(`${outDir}-ssr`, { recursive: true, force: true });
  };
}
