/**
 * The load generator of `npm run bench:http`, in a process of its own (tests/bench/http.ts forks it), so the client's
 * CPU (request building, parsing, decompression) is not counted against the server's event loop. It answers each
 * message of the bench with the latencies it measured.
 */
import autocannon from 'autocannon';
import { Agent, request } from 'node:http';
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

/** One POST on a kept-alive connection: node:http, not fetch (undici's fetch cost the client ~2/3 of the server's CPU per event). */
function post(agent: Agent, url: URL, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        let raw = Buffer.concat(chunks);
        // Like a browser it accepts compressed answers, and pays for their decompression.
        const encoding = res.headers['content-encoding'];
        if (encoding === 'br') raw = brotliDecompressSync(raw);
        else if (encoding === 'gzip') raw = gunzipSync(raw);
        resolve({ status: res.statusCode ?? 0, body: raw.toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Each client awaits its answer before the next event: the next send needs the version the answer carries, which
 * autocannon's request pipeline does not give (it builds the next request before the answer is read: 409s).
 */
async function events(job: EventsJob): Promise<EventsResult> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const firstErrors: string[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: job.clients.length });
  const headers = { 'content-type': 'application/json', 'accept-encoding': 'gzip, deflate, br', ...job.headers };
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  const end = started + job.seconds * 1000;
  await Promise.all(
    job.clients.map(async (c) => {
      const url = new URL(`${job.base}/api/requests/${c.id}/events`);
      while (performance.now() < end) {
        const t0 = performance.now();
        const res = await post(agent, url, headers, JSON.stringify({ type: job.loop[c.step % job.loop.length], expectedVersion: c.version }));
        latencies.push(performance.now() - t0);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status !== 200) {
          if (statuses.get(res.status) === 1) firstErrors.push(`first ${res.status}: ${res.body.slice(0, 300)}`);
          continue;
        }
        c.version = (JSON.parse(res.body) as { version: number }).version;
        c.step++;
      }
    }),
  );
  agent.destroy();
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
