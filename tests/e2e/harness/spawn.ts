import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * Starting the real server in a child process, without vitest: the e2e harness (server.ts) and `npm run bench:web`
 * both start it this way.
 */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

export interface RunningServer {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  dataDir: string;
  /** Everything the server printed so far (shown when it fails to start). */
  output(): string;
  /** Stops the server and deletes its data directory. */
  stop(): Promise<void>;
}

/** A port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output()}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not answer /api/health within ${timeoutMs} ms:\n${output()}`);
}

/**
 * Starts the real server (`tsx server/main.ts`, the same entry as `npm start`) on a free port with a fresh
 * DATA_DIR (embedded PGlite, migrated and seeded on start) and the simulators on. `env` overrides settings (a
 * DATA_DIR given is used and removed on stop). Uses PostgreSQL only when E2E_DATABASE_URL is set.
 */
export async function spawnServer(env: Record<string, string | undefined> = {}): Promise<RunningServer> {
  // A PORT given is kept (a test that restarts the server on the same origin, e.g. a new build for the service worker).
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'halal-e2e-'));
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SIMULATORS: 'true',
    LOG_LEVEL: 'warn',
    ...env,
  };
  delete childEnv.DATABASE_URL;
  if (process.env.E2E_DATABASE_URL) childEnv.DATABASE_URL = process.env.E2E_DATABASE_URL;

  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['server/main.ts'], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so stop() also ends the node process tsx starts.
    detached: true,
  });
  let log = '';
  child.stdout?.on('data', (d) => (log += d));
  child.stderr?.on('data', (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;

  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }, 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForHealth(url, child, () => log, 90_000);
  } catch (e) {
    await stop();
    throw e;
  }
  return { url, port, dataDir, output: () => log, stop };
}
