import { parentPort } from 'node:worker_threads';
import { AppError } from '../../../lib/app-error';
import { readProductRowsHere } from './parse';

/*
 * The worker thread that reads uploaded product forms (xlsx-pool.ts starts it), so that reading a large or hostile
 * workbook never holds the server's event loop: other requests, /api/health included, keep answering.
 */
parentPort?.on('message', ({ id, buffer }: { id: number; buffer: Uint8Array }) => {
  readProductRowsHere(buffer).then(
    (rows) => parentPort!.postMessage({ id, ok: true, rows }),
    (err: unknown) =>
      parentPort!.postMessage(
        err instanceof AppError ? { id, ok: false, code: err.code, params: err.params } : { id, ok: false, code: 'ProductUploadInvalidFile', params: {} },
      ),
  );
});
