import { createHash } from 'node:crypto';

/** The fields of a history row that its hash covers (everything but the hashes themselves). */
export interface HashedRow {
  requestId: string;
  seq: number;
  actorUserId: string;
  actor: Record<string, unknown>;
  event: string;
  payload: Record<string, unknown>;
  note: string | null;
  fromStatus: number | null;
  toStatus: number;
  fromQueue: string | null;
  toQueue: string | null;
  at: Date;
}

/**
 * JSON with object keys sorted at every depth, so a row read back from jsonb (which reorders keys) hashes the same
 * as the row that was written.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** sha256 over the previous row's hash and the canonical row; the first row chains to ''. */
export function historyHash(prevHash: string, row: HashedRow): string {
  const { requestId, seq, actorUserId, actor, event, payload, note, fromStatus, toStatus, fromQueue, toQueue, at } = row;
  const canonical = canonicalJson({ requestId, seq, actorUserId, actor, event, payload, note, fromStatus, toStatus, fromQueue, toQueue, at });
  return createHash('sha256').update(prevHash).update('\n').update(canonical).digest('hex');
}

export type ChainCheck =
  | { ok: true; rows: number }
  | { ok: false; rows: number; firstBrokenSeq: number; reason: 'hash' | 'prevHash' | 'sequence' | 'head' };

/**
 * Walks a request's history in seq order: seq must run 1, 2, 3 ..., each prev_hash must be the previous row's hash,
 * each hash must match its recomputed value, and the last hash must be the head stored on the request row (so that
 * deleting the newest rows is found too).
 */
export function checkChain(rows: (HashedRow & { prevHash: string; hash: string })[], head: { seq: number; hash: string }): ChainCheck {
  let prev = '';
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const broken = (reason: 'hash' | 'prevHash' | 'sequence') => ({ ok: false as const, rows: rows.length, firstBrokenSeq: row.seq, reason });
    if (row.seq !== i + 1) return { ...broken('sequence'), firstBrokenSeq: i + 1 };
    if (row.prevHash !== prev) return broken('prevHash');
    if (historyHash(prev, row) !== row.hash) return broken('hash');
    prev = row.hash;
  }
  if (head.seq !== rows.length || head.hash !== prev) {
    return { ok: false, rows: rows.length, firstBrokenSeq: Math.min(head.seq, rows.length) + 1, reason: 'head' };
  }
  return { ok: true, rows: rows.length };
}
