import { randomUUID } from 'node:crypto';
import type postgres from 'postgres';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { type Database, type Db } from '../../db/client';
import { SYSTEM_ACTOR, type Actor } from '../../machines/actor';
import { EmbeddedEngine } from '../../workflows/embedded/embedded-engine';
import type { WorkflowEvent } from '../../workflows/engine';
import { machinesCatalogue } from '../../workflows/machines-catalogue';
import { testStoreDeps } from '../helpers/deps';
import { internalCertificateData } from '../services/fixtures';
import { FACILITY, applicant, registration } from '../workflows/fixtures/internal-certificate-scenario';

/**
 * The realistic mix of issue 18 item 2: each client takes requests through their working life, over and over —
 * an applicant's complete draft is started (request number drawn, draft-retention timer armed), submitted (the
 * application-fee bill is started as its own lifecycle, the payment-window timer armed, the draft timer cancelled),
 * the payment is confirmed (bill paid, its timer cancelled), a registration employee takes it, writes a note, and
 * accepts it. Six operations per request, three of them with effects.
 *
 * The raw side replays, through the bare driver, the very statements the engine sent for one such cycle (recorded
 * once with a drizzle logger, ids and numbers renamed per cycle, each operation in its own transaction): the same
 * writes to the same tables, without the machine, the validation, the hashing or the query building.
 */
export type Op = { start: true } | { event: WorkflowEvent; actor: Actor };

export const MIX: Op[] = [
  { start: true },
  { event: { type: 'SUBMIT', agreementAccepted: true }, actor: applicant },
  { event: { type: 'PAYMENT_CONFIRMED' }, actor: SYSTEM_ACTOR },
  { event: { type: 'ASSIGN_TO_ME' }, actor: registration },
  { event: { type: 'ADD_NOTE', note: 'Called the factory about the trademark' }, actor: registration },
  { event: { type: 'ACCEPT' }, actor: registration },
];

export const opName = (op: Op) => ('start' in op ? 'START' : op.event.type);

/** One client of the engine side: a request and its version, moved through MIX. */
export function engineMixClient(engine: EmbeddedEngine) {
  let id = '';
  let version = 0;
  let step = 0;
  return async () => {
    const op = MIX[step];
    if ('start' in op) {
      const r = await engine.start('internalCertificate', { ownerUserId: applicant.userId, facilityId: FACILITY, data: internalCertificateData() }, applicant);
      id = r.id;
      version = r.version;
    } else {
      version = (await engine.send(id, op.event, op.actor, version)).version;
    }
    step = (step + 1) % MIX.length;
  };
}

type Statement = { sql: string; params: unknown[] };
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Records the statements the engine sends for each operation of one MIX cycle. */
export async function recordMix(database: Database): Promise<Statement[][]> {
  let current: Statement[] = [];
  const logger = { logQuery: (sql: string, params: unknown[]) => void current.push({ sql, params }) };
  const client = (database.db as unknown as { $client: unknown }).$client;
  const db = (
    database.kind === 'postgres'
      ? drizzlePostgres({ client: client as postgres.Sql, logger })
      : drizzlePglite({ client: client as PGlite, logger })
  ) as unknown as Db;
  const engine = new EmbeddedEngine({ db, deps: testStoreDeps({ catalogue: machinesCatalogue }) });
  const next = engineMixClient(engine);
  const ops: Statement[][] = [];
  for (let i = 0; i < MIX.length; i++) {
    current = [];
    await next();
    ops.push(current);
  }
  return ops;
}

/**
 * A client of the raw side: the recorded statements replayed, one transaction per operation. Every uuid and every
 * number drawn in the recorded cycle (request and bill numbers, unique columns) is renamed per cycle, consistently
 * across statements and inside JSON parameters, so each replayed cycle writes rows of its own.
 */
let cycles = 0;

export function rawMixClient(database: Database, ops: Statement[][]) {
  const client = (database.db as unknown as { $client: unknown }).$client;
  const numbers = new Set<string>();
  for (const op of ops) for (const s of op) if (/insert into "requests"/.test(s.sql)) for (const p of s.params) if (typeof p === 'string' && /^\d{4}-\d{6}$|^[A-Z]+-\d+/.test(p)) numbers.add(p);
  let cycle = 0;
  let step = 0;
  let renames = new Map<string, string>();
  const rename = (p: unknown): unknown => {
    if (typeof p !== 'string') return p;
    if (numbers.has(p)) return `${p}-${process.pid}-${cycle}`;
    return p.replace(UUID, (u) => {
      let r = renames.get(u);
      if (!r) renames.set(u, (r = randomUUID()));
      return r;
    });
  };
  return async () => {
    if (step === 0) {
      cycle = ++cycles;
      renames = new Map();
    }
    const statements = ops[step].map((s) => ({ sql: s.sql, params: s.params.map(rename) }));
    if (database.kind === 'postgres') {
      await (client as postgres.Sql).begin(async (tx) => {
        for (const s of statements) await tx.unsafe(s.sql, s.params as never[], { prepare: true });
      });
    } else {
      await (client as PGlite).transaction(async (tx) => {
        for (const s of statements) await tx.query(s.sql, s.params);
      });
    }
    step = (step + 1) % ops.length;
  };
}
