import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../db/client';
import { seed } from '../../db/seed';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

declare module 'vitest' {
  export interface ProvidedContext {
    /** The web build the E2E servers serve (their WEB_DIST). */
    webDist: string;
    /** A PGlite data directory migrated and seeded, which each E2E server starts on a copy of (harness/server.ts). */
    dataTemplate: string;
  }
}

/**
 * Migrates and seeds a PGlite data directory once, for every E2E server to start on a copy of: a fresh directory's
 * first start (initdb and the migrations, durable, fsync on) took most of each server's start, over a minute a file on
 * a loaded CI machine.
 */
async function dataTemplate(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'halal-e2e-data-'));
  const database = await openDatabase({ dataDir });
  try {
    await seed(database.db);
  } finally {
    await database.close();
  }
  return dataDir;
}

/**
 * Builds the web app once before the E2E files run, into a directory of this run's own: web/dist is shared with
 * anyone running `npm run build` meanwhile, and a rebuild there would pull the files from under a running test.
 * E2E_SKIP_BUILD=1 serves the existing web/dist instead (quick reruns when only tests changed). First it makes the
 * data template.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  // One after the other: the build sets NODE_ENV=production for its time, and the demo seed refuses to run then.
  const template = await dataTemplate();
  const webDist = process.env.E2E_SKIP_BUILD === '1' ? join(ROOT, 'web/dist') : await buildWeb();
  project.provide('dataTemplate', template);
  project.provide('webDist', webDist);
  return () => {
    rmSync(template, { recursive: true, force: true });
    if (webDist === join(ROOT, 'web/dist')) return;
    rmSync(webDist, { recursive: true, force: true });
    rmSync(`${webDist}-ssr`, { recursive: true, force: true });
  };
}

async function buildWeb(): Promise<string> {
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
  return outDir;
}
