import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface ReceivedFile {
  /** Where the bytes wait until they are committed or discarded. */
  tmpPath: string;
  sha256: string;
  size: number;
  /** True when the stream was longer than the limit and was cut (nothing past the limit was kept). */
  truncated: boolean;
}

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * Files on disk, content-addressed: the bytes of sha256 "abcd..." live at `<root>/ab/cd...`, so the same file
 * uploaded twice is stored once and a stored file never changes. Writes go to `<root>/tmp` first, are fsynced,
 * and are renamed into place (an atomic step on one file system), and the directory is fsynced so the rename
 * survives a crash: once `commit` returns, the file is durable.
 */
export class FileStore {
  readonly root: string;
  private readonly tmp: string;

  constructor(dataDir: string) {
    this.root = resolve(dataDir, 'files');
    this.tmp = join(this.root, 'tmp');
  }

  /** `<root>/ab/cdef...` for a sha256. */
  pathOf(sha256: string): string {
    if (!SHA256.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
    return join(this.root, sha256.slice(0, 2), sha256.slice(2));
  }

  /**
   * Streams `source` to a temporary file, hashing as it goes. Stops writing at `maxBytes` and reports the file
   * as truncated when the source had more (`isTruncated` asks the source, e.g. busboy's `truncated` flag, since
   * a limited source ends early rather than failing).
   */
  async receive(source: Readable, maxBytes: number, isTruncated: () => boolean = () => false): Promise<ReceivedFile> {
    await mkdir(this.tmp, { recursive: true });
    const tmpPath = join(this.tmp, randomUUID());
    const hash = createHash('sha256');
    let size = 0;
    let over = false;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        if (over) return done();
        const room = maxBytes - size;
        if (chunk.length > room) {
          over = true;
          chunk = chunk.subarray(0, Math.max(room, 0));
        }
        size += chunk.length;
        hash.update(chunk);
        done(null, chunk);
      },
    });
    const out = createWriteStream(tmpPath, { flags: 'wx' });
    try {
      await pipeline(source, meter, out);
      await fsyncFile(tmpPath);
    } catch (err) {
      await rm(tmpPath, { force: true });
      throw err;
    }
    return { tmpPath, sha256: hash.digest('hex'), size, truncated: over || isTruncated() };
  }

  /** Moves a received file to its content address (durably); returns that path. */
  async commit(file: ReceivedFile): Promise<string> {
    const target = this.pathOf(file.sha256);
    const dir = join(this.root, file.sha256.slice(0, 2));
    await mkdir(dir, { recursive: true });
    if (await exists(target)) {
      // Same bytes already stored: content addressing makes the copy redundant.
      await rm(file.tmpPath, { force: true });
      return target;
    }
    await rename(file.tmpPath, target);
    await fsyncDir(dir);
    return target;
  }

  async discard(file: ReceivedFile): Promise<void> {
    await rm(file.tmpPath, { force: true });
  }

  async has(sha256: string): Promise<boolean> {
    return exists(this.pathOf(sha256));
  }

  /**
   * The stored file, opened before anything is sent: undefined when its content is not on disk (a data folder restored
   * without its files), which the caller answers as an error instead of a response broken half-way.
   */
  async read(sha256: string): Promise<ReadStream | undefined> {
    try {
      return (await open(this.pathOf(sha256), 'r')).createReadStream();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
  }

  /**
   * Deletes stored files that no row references and that are older than `minAgeMs` (an upload refused by its last
   * check leaves one), and temporary files of that age (a crash mid-upload leaves one). The age guard keeps a file
   * that an upload in progress has committed but not yet recorded. Returns the sha256s removed.
   */
  async sweep(isReferenced: (sha256: string) => Promise<boolean>, minAgeMs: number, now = Date.now()): Promise<string[]> {
    const removed: string[] = [];
    const old = async (p: string) => now - (await stat(p)).mtimeMs >= minAgeMs;
    for (const dir of await readdirSafe(this.root)) {
      const dirPath = join(this.root, dir);
      if (dir === 'tmp') {
        for (const f of await readdirSafe(dirPath)) if (await old(join(dirPath, f))) await rm(join(dirPath, f), { force: true });
        continue;
      }
      if (!/^[0-9a-f]{2}$/.test(dir)) continue;
      for (const rest of await readdirSafe(dirPath)) {
        const sha = dir + rest;
        if (!SHA256.test(sha)) continue;
        if (!(await old(join(dirPath, rest))) || (await isReferenced(sha))) continue;
        await rm(join(dirPath, rest), { force: true });
        removed.push(sha);
      }
    }
    return removed;
  }
}

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

async function readdirSafe(p: string): Promise<string[]> {
  try {
    return await readdir(p);
  } catch {
    return [];
  }
}

export async function fsyncFile(p: string): Promise<void> {
  const fh = await open(p, 'r+');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Makes a rename durable. Some platforms cannot open a directory for sync; the rename is then as durable as they allow. */
export async function fsyncDir(p: string): Promise<void> {
  let fh;
  try {
    fh = await open(p, 'r');
    await fh.sync();
  } catch {
    // EISDIR/EPERM on platforms without directory fsync.
  } finally {
    await fh?.close();
  }
}
