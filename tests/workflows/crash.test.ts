import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { asc, eq } from 'drizzle-orm';
import postgres from 'postgres';
import { openDatabase, type Database } from '../../db/client';
import { requestHistory, requests, workflowTimers } from '../../db/schema';
import type { Actor } from '../../machines/actor';
import { ENTITY_KINDS } from '../../machines/services';
import { machinesCatalogue } from '../../workflows/machines-catalogue';
import { replay, type StoredSnapshot } from '../../workflows/step';
import { checkChain } from '../../workflows/hash-chain';
import { TEST_DATABASE_URL } from '../helpers/db';
import { pdf } from '../helpers/multipart';
import { internalCertificateData } from '../services/fixtures';
import { startSimulators } from '../helpers/simulators';

/*
 * Crash safety of the embedded engine. The real server (server/main.ts) runs as a child process on its own database
 * (a fresh PostgreSQL database when DATABASE_URL is set, else a PGlite data directory); four clients stream events
 * over HTTP while the payment window is a couple of seconds, so deadline timers come due all the time; the child is
 * killed with SIGKILL at a random moment, 20 times, and restarted. Afterwards: every event the server acknowledged is
 * in the history at the version it answered, every stored snapshot equals the replay of its history, every hash chain
 * holds, and every due timer fired exactly once.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const KILLS = 20;
const CLIENTS = 4;
const FACILITY = 'inf-almarai-foods';
/** 1.8 seconds: payment steps expire while the test runs (and while the server is down). */
const PAYMENT_WINDOW_HOURS = '0.0005';

interface Ack {
  requestId: string;
  event: string;
  version: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

class Child {
  proc: ChildProcess | undefined;
  stderr = '';
  constructor(
    private readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  async start(): Promise<void> {
    // `node --import tsx`: one process, so SIGKILL kills the server itself (the tsx CLI would leave a grandchild).
    this.proc = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...this.env, PORT: String(this.port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The log's tail (stdout and stderr) goes into the failure message: a start that never answers says where it stopped.
    const keep = (d: Buffer) => (this.stderr = (this.stderr + String(d)).slice(-4000));
    this.proc.stdout!.on('data', keep);
    this.proc.stderr!.on('data', keep);
    // Generous: the first start migrates and seeds, and CI machines may be busy.
    const deadline = Date.now() + 300_000;
    while (Date.now() < deadline) {
      // A server killed by a signal has no exit code: without the signal check a stray kill waited out the deadline.
      if (this.proc.exitCode !== null || this.proc.signalCode !== null) throw new Error(`server exited with ${this.proc.exitCode ?? this.proc.signalCode}: ${this.stderr}`);
      try {
        const res = await fetch(`http://127.0.0.1:${this.port}/api/health`);
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    throw new Error(`server did not start: ${this.stderr}`);
  }

  async kill(signal: NodeJS.Signals): Promise<void> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill(signal);
    await exited;
  }
}

/** A signed-in HTTP client (session cookie + CSRF token); sessions live in the database, so they survive restarts. */
class Http {
  private cookie = '';
  private csrf = '';
  constructor(private readonly base: string) {}

  private remember(res: Response) {
    const jar = new Map(this.cookie ? this.cookie.split('; ').map((c) => c.split('=') as [string, string]) : []);
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
    this.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async login(userName: string) {
    const res = await fetch(`${this.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userName, password: 'Demo@12345' }),
    });
    if (!res.ok) throw new Error(`login ${res.status}`);
    this.remember(res);
    const s = await fetch(`${this.base}/api/auth/session`, { headers: { cookie: this.cookie } });
    this.remember(s);
    this.csrf = (await s.json()).csrfToken;
  }

  /** Uploads a small PDF into a request's attachment category; the attachment's id. */
  async upload(facilityPublicId: string, requestId: string, category: string): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(pdf())], { type: 'application/pdf' }), `${category}.pdf`);
    const res = await fetch(`${this.base}/api/attachments?facilityPublicId=${facilityPublicId}&category=${category}&requestId=${requestId}`, {
      method: 'POST',
      headers: { cookie: this.cookie, 'x-csrf-token': this.csrf },
      body: form,
    });
    if (res.status !== 201) throw new Error(`upload ${res.status}`);
    return ((await res.json()) as { id: string }).id;
  }

  async call(method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: { cookie: this.cookie, 'x-csrf-token': this.csrf, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  }
}

/**
 * One client: keeps a request going draft -> SUBMIT (application fee) -> CANCEL (draft) -> SUBMIT ... and starts a
 * new one when a deadline expired it. Records every acknowledged event; stops at the first network error (the kill).
 */
/** Starts, fills and submits requests (then cancels them) until stopped; `untilSubmitted`: returns after one SUBMIT. */
async function stream(http: Http, acks: Ack[], stop: { now: boolean }, untilSubmitted = false): Promise<void> {
  let current: { id: string; version: number; status: number } | undefined;
  while (!stop.now) {
    try {
      if (!current) {
        // A complete draft (the service contract refuses to submit less), with its two required documents uploaded.
        const { attachments: _placeholders, ...data } = internalCertificateData();
        const r = await http.call('POST', '/api/requests', { kind: 'internalCertificate', facilityId: FACILITY, data });
        if (r.status !== 201) throw new Error(`start ${r.status} ${JSON.stringify(r.json)}`);
        const id = r.json.id as string;
        acks.push({ requestId: id, event: 'START', version: r.json.version as number });
        const attachments = [];
        for (const category of ['commercialRegistrationCopy', 'industrialLicense']) attachments.push({ id: await http.upload(FACILITY, id, category), category });
        const e = await http.call('POST', `/api/requests/${id}/events`, { type: 'EDIT', expectedVersion: r.json.version, payload: { data: { attachments } } });
        if (e.status !== 200) throw new Error(`EDIT ${e.status} ${JSON.stringify(e.json)}`);
        current = { id, version: e.json.version as number, status: (e.json.status as { code: number }).code };
        acks.push({ requestId: id, event: 'EDIT', version: current.version });
        continue;
      }
      const type = current.status === 0 ? 'SUBMIT' : 'CANCEL';
      const payload = type === 'SUBMIT' ? { agreementAccepted: true } : {};
      const r = await http.call('POST', `/api/requests/${current.id}/events`, { type, expectedVersion: current.version, payload });
      if (r.status === 200) {
        current = { id: current.id, version: r.json.version as number, status: (r.json.status as { code: number }).code };
        acks.push({ requestId: current.id, event: type, version: current.version });
        if (untilSubmitted && type === 'SUBMIT') return;
      } else if (r.status === 409) {
        // A deadline (or an unacknowledged write before the last kill) moved it: re-read and go on, or start anew.
        const g = await http.call('GET', `/api/requests/${current.id}`);
        const status = (g.json.status as { code: number }).code;
        current = status === 0 || status === 2 ? { id: current.id, version: g.json.version as number, status } : undefined;
      } else {
        throw new Error(`${type} answered ${r.status} ${JSON.stringify(r.json)}`);
      }
    } catch (e) {
      if (stop.now || (e instanceof TypeError && /fetch failed/.test(e.message))) return;
      throw e;
    }
  }
}

const kind = TEST_DATABASE_URL ? 'postgres' : 'pglite';

describe(`crash safety of the embedded engine (${kind})`, () => {
  let env: Record<string, string>;
  let open: () => Promise<Database>;
  let cleanup: () => Promise<void>;
  let sims: Awaited<ReturnType<typeof startSimulators>> | undefined;

  beforeAll(async () => {
    // A submission asks the food authority about its products (spec 02 section 5): its simulator answers over HTTP
    // from this process, which the SIGKILLs leave alone.
    sims = await startSimulators();
    const base = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      SIMULATORS: 'false',
      FOOD_AUTHORITY_URL: `${sims.url}/simulators/foodAuthority`,
      TIMER_POLL_MS: '50',
      PAYMENT_WINDOW_HOURS,
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
    };
    if (TEST_DATABASE_URL) {
      const name = `crash_${Date.now().toString(36)}`;
      const admin = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database ${name}`);
      const url = new URL(TEST_DATABASE_URL);
      url.pathname = `/${name}`;
      env = { ...base, DATABASE_URL: url.toString() };
      open = () => openDatabase({ databaseUrl: url.toString(), maxConnections: 2 });
      cleanup = async () => {
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      };
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'halal-crash-'));
      env = { ...base, DATA_DIR: join(dir, 'db') };
      open = () => openDatabase({ dataDir: join(dir, 'db') });
      cleanup = async () => rmSync(dir, { recursive: true, force: true });
    }
  });
  afterAll(async () => {
    await cleanup?.();
    await sims?.app.close();
  });

  it(`every acknowledged event survives ${KILLS} SIGKILLs; snapshots equal their replay; due timers fire once`, { timeout: 900_000 }, async () => {
    const port = await freePort();
    const child = new Child(port, env);
    const acks: Ack[] = [];
    const http = new Http(`http://127.0.0.1:${port}`);
    let killedWhileStreaming = 0;
    try {
      for (let round = 0; round < KILLS; round++) {
        await child.start();
        if (round === 0) await http.login('internal.main');
        const stop = { now: false };
        const before = acks.length;
        const clients = Array.from({ length: CLIENTS }, () => stream(http, acks, stop));
        await sleep(300 + Math.random() * 1500);
        await child.kill('SIGKILL');
        stop.now = true;
        await Promise.all(clients);
        if (acks.length > before) killedWhileStreaming++;
      }
      // A last run without a kill: the runner fires what came due while the server was down, then a clean stop.
      await child.start();
      // One request left waiting for its payment, so a payment window surely expires in this run (not left to timing).
      await stream(http, acks, { now: false }, true);
      const windowMs = Number(PAYMENT_WINDOW_HOURS) * 3_600_000;
      await sleep(windowMs + 2000);
      await expect
        .poll(async () => (await http.call('GET', '/api/queues/payment?tab=mine&pageSize=100')).json.totalCount, { timeout: 60_000, interval: 500 })
        .toBe(0);
      await child.kill('SIGTERM');
    } finally {
      await child.kill('SIGKILL');
    }
    expect(killedWhileStreaming).toBeGreaterThan(KILLS / 2);

    const database = await open();
    try {
      const db = database.db;
      const rows = await db.select().from(requests);
      const history = await db.select().from(requestHistory).orderBy(asc(requestHistory.requestId), asc(requestHistory.seq));
      const byRequest = new Map<string, (typeof history)[number][]>();
      for (const h of history) byRequest.set(h.requestId, [...(byRequest.get(h.requestId) ?? []), h]);

      // 1. Every acknowledged event is in the history, at the version the server answered.
      const missing = acks.filter((a) => byRequest.get(a.requestId)?.[a.version - 1]?.event !== a.event);
      expect(missing).toEqual([]);
      expect(acks.length).toBeGreaterThan(KILLS * 2);

      // 2. Each stored snapshot is the replay of its history; 3. every hash chain holds up to the head on the row.
      for (const row of rows) {
        const events = byRequest.get(row.id) ?? [];
        expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
        expect(row.version).toBe(events.length);
        const machine = machinesCatalogue.getMachine(row.kind, row.machineVersion);
        const replayed = replay(
          machine,
          row.input,
          events.slice(1).map((e) => ({ event: e.event, payload: e.payload, actor: e.actor as unknown as Actor })),
        );
        expect(replayed, `request ${row.number}`).toEqual(row.snapshot as unknown as StoredSnapshot);
        expect(checkChain(events, { seq: row.historySeq, hash: row.historyHash })).toEqual({ ok: true, rows: events.length });
      }

      // 4. Due timers: none left pending, each fired exactly once (one history row per accepted timer).
      const timers = await db.select().from(workflowTimers);
      const now = Date.now();
      expect(timers.filter((t) => t.dueAt.getTime() < now && !t.firedAt && !t.cancelledAt)).toEqual([]);
      const accepted = timers.filter((t) => t.outcome === 'accepted' && t.event === 'PAYMENT_EXPIRED');
      expect(accepted.length).toBeGreaterThan(0);
      for (const row of rows) {
        const fired = accepted.filter((t) => t.requestId === row.id).length;
        const inHistory = (byRequest.get(row.id) ?? []).filter((h) => h.event === 'PAYMENT_EXPIRED').length;
        if (row.kind === 'bill') {
          // A bill's deadline and its request's fall due together: the bill expires by its own timer or by its
          // request's expiry (effect.expireBill), whichever runs first — once either way, and never by a timer that
          // was not accepted.
          expect(inHistory, `bill ${row.number}`).toBeLessThanOrEqual(1);
          expect(fired, `bill ${row.number}`).toBeLessThanOrEqual(inHistory);
        } else {
          expect(inHistory, `request ${row.number}`).toBe(fired);
        }
      }
      const expired = await db.select().from(requests).where(eq(requests.status, 3));
      // Code 3 is "expiring soon" for a certificate (the seed's, whose lifecycles the server starts): requests only.
      const expiredRequests = expired.filter((r) => !(ENTITY_KINDS as readonly string[]).includes(r.kind));
      expect(expiredRequests.length).toBe(new Set(accepted.filter((t) => rows.find((r) => r.id === t.requestId)?.kind !== 'bill').map((t) => t.requestId)).size);
      // Every expired bill heard its expiry exactly once.
      for (const bill of expired.filter((r) => r.kind === 'bill')) {
        expect((byRequest.get(bill.id) ?? []).filter((h) => h.event === 'PAYMENT_EXPIRED').length, `bill ${bill.number}`).toBe(1);
      }
      console.log(
        `crash test (${kind}): ${KILLS} SIGKILLs, ${acks.length} acknowledged events, ${rows.length} requests, ` +
          `${accepted.length} payment deadlines fired`,
      );
    } finally {
      await database.close();
    }
  });
});
