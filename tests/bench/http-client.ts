/**
 * The load generator of `npm run bench:http`, in a process of its own (tests/bench/http.ts forks it), so the client's
 * CPU (request building, parsing, decompression) is not counted against the server's event loop. It answers each
 * message of the bench with the latencies it measured.
 */
import autocannon from 'autocannon';
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

export interface EventsJob {
  op: 'events';
  base: string;
  headers: Record<string, string>;
  /** One entry per client: the request it drives and the version it last saw. */
  clients: { id: string; version: number; step: number }[];
  loop: string[];
  seconds: number;
}
export interface EventsResult {
  latencies: number[];
  /** The client process's own CPU time over the run (user + system, µs). */
  cpuMicros: number;
  seconds: number;
  statuses: [number, number][];
  firstErrors: string[];
  clients: EventsJob['clients'];
}
export interface GetJob {
  op: 'get';
  url: string;
  headers: Record<string, string>;
  connections: number;
  seconds: number;
}
export interface GetResult {
  latencies: number[];
  seconds: number;
  non2xx: number;
}
export type Job = EventsJob | GetJob | { op: 'exit' };

/**
 * One kept-alive HTTP/1.1 connection, written to and read by hand: the request's bytes in one write, the answer read by
 * its Content-Length. node:http cost the client ~170 µs of CPU per event on these 2 cores (undici's fetch ~4× more),
 * CPU the server and PostgreSQL then do not have; this costs a fraction of it (docs/performance-log.md, "The bench
 * client"). The answers of this bench always carry a Content-Length (Fastify's, for a serialised body).
 */
class Connection {
  private readonly socket: Socket;
  private pending: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (r: { status: number; body: string }) => void; reject: (e: Error) => void } | null = null;

  constructor(url: URL) {
    this.socket = connect({ host: url.hostname, port: Number(url.port), noDelay: true });
    this.socket.on('data', (chunk: Buffer) => this.read(chunk));
    this.socket.on('error', (e) => this.fail(e));
    this.socket.on('close', () => this.fail(new Error('connection closed')));
  }

  post(head: string, body: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(`${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
  }

  close() {
    this.socket.destroy();
  }

  private read(chunk: Buffer) {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const end = this.pending.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = this.pending.toString('latin1', 0, end);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!length) return this.fail(new Error(`an answer without content-length: ${head}`));
    const total = end + 4 + Number(length[1]);
    if (this.pending.length < total) return;
    let raw: Buffer = this.pending.subarray(end + 4, total);
    this.pending = this.pending.subarray(total);
    // Like a browser it accepts compressed answers, and pays for their decompression.
    const encoding = /\r\ncontent-encoding: *(\S+)/i.exec(head)?.[1];
    if (encoding === 'br') raw = brotliDecompressSync(raw);
    else if (encoding === 'gzip') raw = gunzipSync(raw);
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.resolve({ status: Number(head.slice(9, 12)), body: raw.toString('utf8') });
  }

  private fail(e: Error) {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.reject(e);
  }
}

/**
 * Each client awaits its answer before the next event: the next send needs the version the answer carries, which
 * autocannon's request pipeline does not give (it builds the next request before the answer is read: 409s).
 */
async function events(job: EventsJob): Promise<EventsResult> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const firstErrors: string[] = [];
  const base = new URL(job.base);
  const headers = { host: base.host, 'content-type': 'application/json', 'accept-encoding': 'gzip, deflate, br', ...job.headers };
  const headerLines = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  const end = started + job.seconds * 1000;
  await Promise.all(
    job.clients.map(async (c) => {
      const connection = new Connection(base);
      const head = `POST /api/requests/${c.id}/events HTTP/1.1\r\n${headerLines}`;
      while (performance.now() < end) {
        const t0 = performance.now();
        const res = await connection.post(head, JSON.stringify({ type: job.loop[c.step % job.loop.length], expectedVersion: c.version }));
        latencies.push(performance.now() - t0);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status !== 200) {
          if (statuses.get(res.status) === 1) firstErrors.push(`first ${res.status}: ${res.body.slice(0, 300)}`);
          continue;
        }
        c.version = (JSON.parse(res.body) as { version: number }).version;
        c.step++;
      }
      connection.close();
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  return { latencies, cpuMicros: cpu.user + cpu.system, seconds: (performance.now() - started) / 1000, statuses: [...statuses], firstErrors, clients: job.clients };
}

async function get(job: GetJob): Promise<GetResult> {
  const latencies: number[] = [];
  const r = await new Promise<{ duration: number; non2xx: number }>((resolve, reject) => {
    const instance = autocannon({ url: job.url, connections: job.connections, duration: job.seconds, headers: job.headers }, (err: unknown, out: never) =>
      err ? reject(err) : resolve(out),
    );
    instance.on('response', (_c: unknown, _s: number, _b: number, ms: number) => latencies.push(ms));
  });
  return { latencies, seconds: r.duration, non2xx: r.non2xx };
}

process.on('message', (job: Job) => {
  if (job.op === 'exit') return process.disconnect();
  (job.op === 'events' ? events(job) : get(job)).then(
    (result) => process.send!(result),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
});
