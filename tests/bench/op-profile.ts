import { Session } from 'node:inspector/promises';

/**
 * A CPU profile of chosen operations only (`BENCH_PROFILE=START,SUBMIT` in engine-ops.ts): the profiler runs for the
 * whole bench, each operation's window is noted (V8's sample clock and `process.hrtime` are both the monotonic clock,
 * in µs), and only the samples inside the windows are counted. Prints each function's self and inclusive share of them,
 * so the cost of one operation is read without the other five mixed in.
 */
type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number };

export async function opProfiler() {
  const session = new Session();
  session.connect();
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  const windows = new Map<string, [number, number][]>();
  const cpu = new Map<string, number>();
  return {
    async time<T>(op: string, run: () => Promise<T>): Promise<T> {
      const from = Number(process.hrtime.bigint() / 1000n);
      const c = process.cpuUsage();
      const r = await run();
      const u = process.cpuUsage(c);
      cpu.set(op, (cpu.get(op) ?? 0) + u.user + u.system);
      let w = windows.get(op);
      if (!w) windows.set(op, (w = []));
      w.push([from, Number(process.hrtime.bigint() / 1000n)]);
      return r;
    },
    async report(top = 45) {
      const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
      session.disconnect();
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      const parent = new Map<number, number>();
      for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
      const name = (n: Node) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/^.*\/(?=[^/]+\/[^/]+$)/, '')}:${n.callFrame.lineNumber + 1}`;
      for (const [op, ws] of windows) {
        const self = new Map<string, number>();
        const byPackage = new Map<string, number>();
        const incl = new Map<string, number>();
        let t = profile.startTime;
        let wi = 0;
        let total = 0;
        let busy = 0;
        for (let i = 0; i < profile.samples.length; i++) {
          t += profile.timeDeltas[i];
          while (wi < ws.length && ws[wi][1] < t) wi++;
          if (wi >= ws.length) break;
          if (t < ws[wi][0]) continue;
          let n = byId.get(profile.samples[i])!;
          if (n.callFrame.functionName === '(idle)') continue;
          total++;
          busy += profile.timeDeltas[i];
          self.set(name(n), (self.get(name(n)) ?? 0) + 1);
          const pkg = n.callFrame.url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ?? (n.callFrame.url.startsWith('node:') ? 'node' : n.callFrame.url ? 'project' : n.callFrame.functionName);
          byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + 1);
          const seen = new Set<string>();
          for (let id: number | undefined = n.id; id !== undefined; id = parent.get(id)) {
            const k = name(byId.get(id)!);
            if (!seen.has(k)) { seen.add(k); incl.set(k, (incl.get(k) ?? 0) + 1); }
          }
          n = byId.get(profile.samples[i])!;
        }
        const pct = (v: number) => ((100 * v) / total).toFixed(1).padStart(5);
        console.log(`\n== ${op}: ${ws.length} operations, ${total} busy samples, ${(busy / 1000 / ws.length).toFixed(2)} ms/op sampled, ${(cpu.get(op)! / 1000 / ws.length).toFixed(2)} ms/op CPU`);
        console.log('-- inclusive');
        for (const [k, v] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(v)}  ${k}`);
        console.log(`-- self by package: ${[...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([k, v]) => `${k} ${pct(v).trim()}`).join(', ')}`);
        console.log('-- self');
        for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 60)) console.log(`${pct(v)}  ${k}`);
      }
    },
  };
}
