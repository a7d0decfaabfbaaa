import fs from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { vi, type MockInstance } from 'vitest';

type Call = { name: string; args: unknown[]; result: unknown };

/** The spies on node:fs, installed once while any ledger listens; fds are mapped to paths for all of them. */
const hub = {
  listeners: new Set<DiskLedger>(),
  fds: new Map<number, string>(),
  restores: [] as (() => void)[],
  install() {
    if (this.restores.length) return;
    for (const name of ['openSync', 'closeSync', 'writeSync', 'ftruncateSync', 'truncateSync', 'writeFileSync', 'mkdirSync', 'renameSync', 'fsyncSync'] as const) {
      const original = fs[name] as (...args: unknown[]) => unknown;
      const spyOn = vi.spyOn as unknown as (o: object, n: string) => MockInstance<(...args: unknown[]) => unknown>;
      const s = spyOn(fs, name).mockImplementation((...args: unknown[]) => {
        const result = original.apply(fs, args);
        if (name === 'openSync') this.fds.set(result as number, resolve(String(args[0])));
        for (const l of this.listeners) l.observe({ name, args, result });
        if (name === 'closeSync') this.fds.delete(args[0] as number);
        return result;
      });
      this.restores.push(() => s.mockRestore());
    }
  },
  uninstall() {
    for (const r of this.restores.splice(0)) r();
    this.fds.clear();
  },
};

/**
 * Watches what this process asks Node's file system to do under one directory, and keeps what a power cut could take
 * back: files written (or truncated) since their last fsync, and directories whose entries changed (a file created,
 * renamed or made there) since their last fsync. It knows nothing of PGlite or of db/client.ts: it spies on the
 * `node:fs` calls themselves (Emscripten's NODEFS and db/client.ts both call them through the module object), so
 * it judges the bytes and the syscalls, not the code that claims to make them.
 */
export class DiskLedger {
  readonly root: string;
  /** Relative paths of files with writes not yet fsynced. */
  readonly dirtyFiles = new Set<string>();
  /** Relative paths of directories with entries not yet fsynced ('' is the root). */
  readonly dirtyDirs = new Set<string>();
  /** Every fsync, in order (relative paths). */
  readonly fsyncs: string[] = [];
  /** Every write, in order (relative paths). */
  readonly writes: string[] = [];
  private active = false;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private rel(path: unknown): string | undefined {
    const abs = resolve(String(path));
    if (abs !== this.root && !abs.startsWith(this.root + sep)) return undefined;
    return relative(this.root, abs);
  }

  private relFd(fd: unknown): string | undefined {
    const path = hub.fds.get(fd as number);
    return path === undefined ? undefined : this.rel(path);
  }

  private entryChanged(path: unknown) {
    const rel = this.rel(path);
    if (rel !== undefined && rel !== '') this.dirtyDirs.add(relative(this.root, dirname(resolve(this.root, rel))));
  }

  private written(rel: string | undefined) {
    if (rel === undefined) return;
    this.dirtyFiles.add(rel);
    this.writes.push(rel);
  }

  /** One node:fs call (from the hub). */
  observe({ name, args }: Call): void {
    const [a, b] = args;
    switch (name) {
      case 'writeSync':
      case 'ftruncateSync':
        return this.written(this.relFd(a));
      case 'truncateSync':
        return this.written(this.rel(a));
      case 'writeFileSync':
        if (typeof a === 'number') return this.written(this.relFd(a));
        this.entryChanged(a);
        if (b && (b as { length: number }).length > 0) this.written(this.rel(a));
        return;
      case 'mkdirSync':
        return this.entryChanged(a);
      case 'renameSync': {
        this.entryChanged(a);
        this.entryChanged(b);
        const from = this.rel(a);
        const to = this.rel(b);
        if (from !== undefined && this.dirtyFiles.delete(from) && to !== undefined) this.dirtyFiles.add(to);
        return;
      }
      case 'fsyncSync': {
        const rel = this.relFd(a);
        if (rel === undefined) return;
        this.fsyncs.push(rel);
        this.dirtyFiles.delete(rel);
        this.dirtyDirs.delete(rel);
        return;
      }
    }
  }

  /** Starts watching (file descriptors opened before the first ledger started are not known). */
  start(): this {
    hub.install();
    hub.listeners.add(this);
    this.active = true;
    return this;
  }

  stop(): void {
    if (!this.active) return;
    this.active = false;
    hub.listeners.delete(this);
    if (hub.listeners.size === 0) hub.uninstall();
  }

  /** Dirty files and directories under `prefix` (relative; '' for everything), minus the `ignore`d ones. */
  unsynced(prefix = '', ignore: (rel: string) => boolean = () => false): string[] {
    const under = (p: string) => prefix === '' || p === prefix || p.startsWith(prefix + sep);
    return [...[...this.dirtyFiles].map((f) => f), ...[...this.dirtyDirs].map((d) => `${d || '.'}/`)]
      .filter((p) => under(p.replace(/\/$/, '')) && !ignore(p))
      .sort();
  }
}
