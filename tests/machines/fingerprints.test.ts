import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFINITIONS } from '../../machines';
import { stateNodesOf } from '../../machines/catalogues';
import { eventSchemas } from '../../machines/validate-event';
import { z } from 'zod';
import { setup } from 'xstate';

/**
 * Pinned versions stay pinned: a request keeps the (kind, version) machine it started on, so that definition must
 * never change under it. This test fingerprints each definition — states, transitions with their guards, targets and
 * actions (effect params included, as source when they are computed), state meta (status, deadlines, tags) and the
 * event payload schemas — against tests/machines/fingerprints.json. A change to a shared fragment that alters a
 * released version fails here: add the changed machine as the next version instead (machines/registry.ts).
 * Re-recording is for machines no request runs on yet: `UPDATE_FINGERPRINTS=1 npx vitest run tests/machines/fingerprints.test.ts`.
 */

const FILE = fileURLToPath(new URL('./fingerprints.json', import.meta.url));

/**
 * A function's source without the test runner's import numbering: vitest rewrites `may(...)` imported from another
 * module to `(0, __vite_ssr_import_3__.may)(...)` (older runners `__vi_import_3__`), numbered by the import's place in
 * the file, so an import added above others would change released versions' fingerprints. The imported name stays.
 */
export const functionText = (fn: { toString(): string }) => fn.toString().replace(/__(?:vite_ssr|vi)_import_\d+__/g, '__import__');

/** Canonical JSON: sorted keys, functions as their source, documentation text and xstate's toJSON helpers left out. */
function canonical(value: unknown, seen = new WeakSet<object>()): string {
  if (typeof value === 'function') return JSON.stringify(`fn:${functionText(value)}`);
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (seen.has(value)) return '"[cycle]"';
  seen.add(value);
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v, seen)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([k, v]) => v !== undefined && k !== 'toJSON' && k !== 'description')
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v, seen)}`).join(',')}}`;
}

/** A deep copy that keeps functions (a machine config holds some). */
function clone(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(clone);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clone(x)]));
  return v;
}

function fingerprint(d: (typeof DEFINITIONS)[number]): string {
  const nodes = stateNodesOf(d.machine).map((n) => {
    const node = n as unknown as { id: string; meta?: Record<string, unknown>; tags: Iterable<string>; config: Record<string, unknown> };
    return { id: node.id, meta: node.meta ?? null, tags: [...node.tags].sort(), config: node.config };
  });
  // Only the payloads of events this version accepts: a later version of the kind may add events of its own.
  const accepted = new Set(
    [d.machine.root, ...stateNodesOf(d.machine)].flatMap((n) => [...(n as unknown as { transitions: Map<string, unknown> }).transitions.keys()]),
  );
  const schemas = Object.fromEntries(
    Object.entries(eventSchemas[d.kind])
      .filter(([type]) => accepted.has(type))
      .map(([type, schema]) => [type, z.toJSONSchema(schema as z.ZodType, { unrepresentable: 'any', io: 'input' })]),
  );
  return createHash('sha256')
    .update(canonical({ root: (d.machine.root as unknown as { config: unknown }).config, nodes, schemas }))
    .digest('hex');
}

describe('pinned machine versions', () => {
  const current = Object.fromEntries(DEFINITIONS.map((d) => [`${d.kind}@${d.version}`, fingerprint(d)]));

  it('every (kind, version) definition is exactly the one recorded', () => {
    if (process.env.UPDATE_FINGERPRINTS) writeFileSync(FILE, `${JSON.stringify(current, null, 2)}\n`);
    const recorded = JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, string>;
    for (const [key, hash] of Object.entries(recorded)) {
      expect(current[key], `${key} changed: add the changed machine as a new version instead of editing a pinned one`).toBe(hash);
    }
  });

  it('every definition has a recorded fingerprint (a new version is recorded when it is added)', () => {
    const recorded = JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, string>;
    expect(Object.keys(current).filter((k) => !(k in recorded))).toEqual([]);
  });

  it('a function is read without the import numbering, but with what it calls', () => {
    const text = (src: string) => functionText({ toString: () => src });
    expect(text('() => (0, __vite_ssr_import_3__.may)({ when: "x" })')).toBe(text('() => (0, __vite_ssr_import_7__.may)({ when: "x" })'));
    expect(text('() => (0, __vi_import_3__.may)({})')).toBe(text('() => (0, __vite_ssr_import_0__.may)({})'));
    expect(text('() => (0, __vite_ssr_import_3__.may)({})')).not.toBe(text('() => (0, __vite_ssr_import_3__.mayNot)({})'));
    expect(text('() => (0, __vite_ssr_import_3__.may)({ when: "x" })')).not.toBe(text('() => (0, __vite_ssr_import_3__.may)({ when: "y" })'));
  });

  it('the fingerprint sees a changed status code, guard or target, and nothing else', () => {
    const bill = DEFINITIONS.find((x) => x.kind === 'bill')!;
    const config = (bill.machine.root as unknown as { config: Record<string, unknown> }).config;
    /** The bill machine rebuilt from its own config, with `edit` applied to a copy of it. */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test edits an untyped copy of a machine config
    type Config = Record<string, any>;
    const rebuilt = (edit: (c: Config) => void) => {
      const copy = clone(config) as Config;
      edit(copy);
      return { ...bill, machine: setup({ guards: { may: () => true } }).createMachine(copy as never) } as unknown as typeof bill;
    };
    expect(fingerprint(rebuilt(() => {}))).toBe(fingerprint(bill));
    expect(fingerprint(rebuilt((c) => (c.states.paid.meta.status = 99)))).not.toBe(fingerprint(bill));
    expect(fingerprint(rebuilt((c) => (c.states.awaitingPayment.on.CANCEL.guard.params = { relation: 'applicant' })))).not.toBe(fingerprint(bill));
    expect(fingerprint(rebuilt((c) => (c.states.awaitingPayment.on.CANCEL.target = 'expired')))).not.toBe(fingerprint(bill));
    expect(fingerprint(rebuilt((c) => (c.states.paid.meta.description = 'Reworded')))).toBe(fingerprint(bill));
  });
});
