import { createHash, createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

/**
 * The keys of the history chain. Each row's hash is an HMAC-SHA-256 with a server-held key (HISTORY_KEYS in
 * server/config.ts), stored as `h1:<keyId>:<hex>`: someone who can edit the database but does not hold the key cannot
 * compute a matching hash, so editing, deleting or re-chaining rows is found by verify. The first key signs new rows;
 * every listed key verifies (rotation: put a new key first and keep the old ones while their rows exist).
 * Rows written before keys existed carry a bare SHA-256 hex hash; they verify only with acceptLegacy (a database editor
 * can forge those, so it is off unless HISTORY_ACCEPT_LEGACY says otherwise). Hashing runs in the store and the
 * activities, never in Temporal workflow code.
 */
export interface HistoryKey {
  id: string;
  secret: string;
}

/** The development and test key; production must configure its own (server/config.ts refuses to start without). */
const DEV_KEYS: HistoryKey[] = [{ id: 'dev', secret: 'dev-only-history-key-not-for-production-0123456789' }];

let keyring = { keys: DEV_KEYS, byId: new Map(DEV_KEYS.map((k) => [k.id, k.secret])), acceptLegacy: false };

/** `keyId:secret,keyId:secret` (the format of HISTORY_KEYS) to keys, first = current. */
export function parseHistoryKeys(spec: string): HistoryKey[] {
  return spec
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => {
      const at = p.indexOf(':');
      return { id: p.slice(0, at), secret: p.slice(at + 1) };
    });
}

/** Sets the process's history keys (the server, the worker and the restore command call it from the config). */
export function configureHistoryKeys(opts: { keys?: string | HistoryKey[]; acceptLegacy?: boolean }): void {
  const keys = typeof opts.keys === 'string' ? parseHistoryKeys(opts.keys) : (opts.keys ?? DEV_KEYS);
  if (!keys.length) throw new Error('history keys: at least one key is needed');
  keyring = { keys, byId: new Map(keys.map((k) => [k.id, k.secret])), acceptLegacy: opts.acceptLegacy ?? false };
}

const KEYED = /^h1:([A-Za-z0-9_-]{1,32}):([0-9a-f]{64})$/;
const LEGACY = /^[0-9a-f]{64}$/;

/** Secrets as key objects, made once: createHmac with a string key imports it again on every row. */
const keyObjects = new Map<string, KeyObject>();
function keyObjectOf(secret: string): KeyObject {
  let key = keyObjects.get(secret);
  if (!key) keyObjects.set(secret, (key = createSecretKey(Buffer.from(secret, 'utf8'))));
  return key;
}

function macOf(secret: string, prevHash: string, canonical: string): string {
  return createHmac('sha256', keyObjectOf(secret)).update(prevHash).update('\n').update(canonical).digest('hex');
}

const sameHex = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));

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
 * Canonical texts of objects that cannot change (frozen at every depth by their maker: actorJson in
 * workflows/store.ts). One actor sends many events, and its canonical text is most of a pair event's row.
 */
const frozenCanonical = new WeakMap<object, string>();

/**
 * JSON with object keys sorted at every depth, so a row read back from jsonb (which reorders keys) hashes the same
 * as the row that was written.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) {
    // An array of primitives is its own JSON text (undefined, functions and symbols become null in both).
    if (flatArray(value)) return JSON.stringify(value);
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + canonicalJson(value[i]);
    return out + ']';
  }
  const known = frozenCanonical.get(value);
  if (known !== undefined) return known;
  // Built in one pass (it runs on every history row): the default sort compares UTF-16 code units, as `<` does.
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  // Keys already in order and only strings, numbers, booleans and nulls as values: JSON.stringify writes the same text.
  if (flatSortedRecord(record, keys)) return JSON.stringify(record);
  let out = '{';
  for (const key of keys.sort()) {
    const v = record[key];
    if (v === undefined) continue;
    out += (out.length > 1 ? ',' : '') + JSON.stringify(key) + ':' + canonicalJson(v);
  }
  return out + '}';
}

function flatArray(value: unknown[]): boolean {
  if ('toJSON' in value) return false;
  for (let i = 0; i < value.length; i++) {
    const v = value[i];
    if (typeof v === 'object' && v !== null) return false;
  }
  return true;
}

function flatSortedRecord(record: Record<string, unknown>, keys: string[]): boolean {
  const proto = Object.getPrototypeOf(record);
  if ((proto !== Object.prototype && proto !== null) || 'toJSON' in record) return false;
  for (let i = 0; i < keys.length; i++) {
    if (i > 0 && !(keys[i - 1] < keys[i])) return false;
    const v = record[keys[i]];
    const t = typeof v;
    if (t !== 'string' && t !== 'number' && t !== 'boolean' && v !== null) return false;
  }
  return true;
}

/** Remembers the canonical text of `value`, which its maker froze at every depth. */
export function rememberCanonical(value: object): void {
  frozenCanonical.set(value, canonicalJson(value));
}

function canonicalRow(row: HashedRow): string {
  const { requestId, seq, actorUserId, actor, event, payload, note, fromStatus, toStatus, fromQueue, toQueue, at } = row;
  return canonicalJson({ requestId, seq, actorUserId, actor, event, payload, note, fromStatus, toStatus, fromQueue, toQueue, at });
}

/** The unkeyed hash of before (a bare SHA-256 over the previous hash and the canonical row); verify-only. */
export function legacyHistoryHash(prevHash: string, row: HashedRow): string {
  return createHash('sha256').update(prevHash).update('\n').update(canonicalRow(row)).digest('hex');
}

/** HMAC-SHA-256 with the current key over the previous row's hash and the canonical row; the first row chains to ''. */
export function historyHash(prevHash: string, row: HashedRow): string {
  const key = keyring.keys[0];
  return `h1:${key.id}:${macOf(key.secret, prevHash, canonicalRow(row))}`;
}

/** Whether a stored hash is right for the row: keyed with a known key, or (when accepted) the legacy SHA-256. */
export function hashMatches(prevHash: string, row: HashedRow, hash: string): 'keyed' | 'legacy' | false {
  const keyed = KEYED.exec(hash);
  if (keyed) {
    const secret = keyring.byId.get(keyed[1]);
    return secret !== undefined && sameHex(macOf(secret, prevHash, canonicalRow(row)), keyed[2]) ? 'keyed' : false;
  }
  if (keyring.acceptLegacy && LEGACY.test(hash)) return sameHex(legacyHistoryHash(prevHash, row), hash) ? 'legacy' : false;
  return false;
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
  let keyedSeen = false;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const broken = (reason: 'hash' | 'prevHash' | 'sequence') => ({ ok: false as const, rows: rows.length, firstBrokenSeq: row.seq, reason });
    if (row.seq !== i + 1) return { ...broken('sequence'), firstBrokenSeq: i + 1 };
    if (row.prevHash !== prev) return broken('prevHash');
    const match = hashMatches(prev, row, row.hash);
    // Once a chain is keyed it stays keyed: an unkeyed row after a keyed one is a rewrite.
    if (!match || (match === 'legacy' && keyedSeen)) return broken('hash');
    if (match === 'keyed') keyedSeen = true;
    prev = row.hash;
  }
  if (head.seq !== rows.length || head.hash !== prev) {
    return { ok: false, rows: rows.length, firstBrokenSeq: Math.min(head.seq, rows.length) + 1, reason: 'head' };
  }
  return { ok: true, rows: rows.length };
}
