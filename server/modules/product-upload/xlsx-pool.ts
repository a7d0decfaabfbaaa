import { Worker } from 'node:worker_threads';
import { AppError } from '../../errors';
import { ProductUploadError } from './errors';
import type { SheetRow } from './parse';

/** How long one form may take to read, and the memory the reading thread may use (stated bounds, issue 11). */
export const XLSX_WORKER_LIMITS = { timeoutMs: 30_000, maxOldGenerationSizeMb: 512 } as const;

const WORKER_URL = new URL('./xlsx-worker.ts', import.meta.url).href;
// The server runs TypeScript through tsx; a worker thread needs tsx's loader registered before importing the module.
const BOOT = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(WORKER_URL)}); })`;

type Answer = { id: number; ok: true; rows: SheetRow[] } | { id: number; ok: false; code: string; params: Record<string, unknown> };
interface Job {
  resolve(rows: SheetRow[]): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

let worker: Worker | null = null;
const jobs = new Map<number, Job>();
let nextId = 1;

/** Ends the reading thread, failing what it was reading (a form past its time, or the thread died). */
function stop(w: Worker, err: AppError): void {
  if (worker === w) worker = null;
  w.removeAllListeners();
  void w.terminate();
  for (const [id, job] of jobs) {
    clearTimeout(job.timer);
    jobs.delete(id);
    job.reject(err);
  }
}

function readingThread(): Worker {
  if (worker) return worker;
  const w = new Worker(BOOT, { eval: true, resourceLimits: { maxOldGenerationSizeMb: XLSX_WORKER_LIMITS.maxOldGenerationSizeMb } });
  w.unref(); // never keeps the process alive on its own
  w.on('message', (m: Answer) => {
    const job = jobs.get(m.id);
    if (!job) return;
    jobs.delete(m.id);
    clearTimeout(job.timer);
    if (m.ok) job.resolve(m.rows);
    else job.reject(new AppError(m.code, m.params));
  });
  // Out of its heap, or crashed: the file being read is what was wrong.
  w.on('error', () => stop(w, new AppError(ProductUploadError.InvalidFile)));
  w.on('exit', () => stop(w, new AppError(ProductUploadError.InvalidFile)));
  worker = w;
  return w;
}

/**
 * Reads a product form in the reading thread (xlsx-worker.ts, started on first use and kept), so the event loop
 * stays free while a workbook is inflated and parsed: other requests, /api/health included, keep answering. The
 * thread's heap is capped, and a form still unread after timeoutMs is refused (ProductUploadTooSlow) and the thread
 * replaced. The work itself is bounded first by xlsx-limits.ts.
 */
export function readProductRows(buffer: Buffer): Promise<SheetRow[]> {
  return new Promise<SheetRow[]>((resolve, reject) => {
    const w = readingThread();
    const id = nextId++;
    const timer = setTimeout(() => stop(w, new AppError(ProductUploadError.TooSlow)), XLSX_WORKER_LIMITS.timeoutMs);
    jobs.set(id, { resolve, reject, timer });
    const copy = new Uint8Array(buffer);
    w.postMessage({ id, buffer: copy }, [copy.buffer]);
  });
}
