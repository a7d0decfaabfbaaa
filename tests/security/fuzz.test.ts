import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type Client, type TestApp } from '../helpers/app';
import type { RoutePolicy } from '../../server/types';
import { ApiDocument } from '../../server/openapi';

/*
 * Issue 11, proof: every operation of the OpenAPI document (/api/docs/json) gets bounded fast-check cases of malformed
 * input in its path parameters, query and JSON body: wrong types, missing fields, huge strings, NUL, lone
 * surrogates, deep nesting and prototype keys. Each is sent by a user the operation's policy admits (so the input
 * reaches validation and the handler), half in Arabic and half in English. No answer may be a 5xx, and every refusal
 * is the portal's error body with a message in the caller's language.
 */

const CASES_PER_OPERATION = 6;
const SEED = 20261125;
/** Operations a fuzz case must not call: signing out ends the session the other cases use. */
const SKIP = new Set(['POST /api/auth/logout']);

interface Param {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  schema?: { type?: string };
}
interface Operation {
  method: string;
  path: string;
  params: Param[];
  body?: { properties?: Record<string, { type?: string }>; required?: string[] };
  /** The statuses the document declares for it, and each one's media types. */
  answers: { statuses: string[]; mediaTypes: Record<string, string[]> };
}
type Json = Record<string, unknown>;

let t: TestApp;
let operations: Operation[] = [];
const clients = new Map<string, { client: Client; permissions: Set<string> }>();
let total = 0;
const slow: [number, string][] = [];
const statuses = new Map<number, number>();

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: '100000' });
  for (const user of ['admin', 'registration', 'teamleader', 'committee', 'internal.main', 'external', 'cb.main']) {
    const client = await t.login(user);
    const session = (await client.get('/api/auth/session')).json() as { permissions: string[] };
    clients.set(user, { client, permissions: new Set(session.permissions) });
  }
  const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
    paths: Record<string, Record<string, { parameters?: Param[]; requestBody?: { content?: Record<string, { schema?: Operation['body'] }> } }>>;
  } & Record<string, unknown>;
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (!path.startsWith('/api/') || SKIP.has(`${method.toUpperCase()} ${path}`)) continue;
      operations.push({ method: method.toUpperCase(), path, params: op.parameters ?? [], body: op.requestBody?.content?.['application/json']?.schema, answers: ApiDocument.declared(doc, method, path)! });
    }
  }
  operations = operations.sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}, 120_000);

afterAll(async () => {
  console.log(`fuzz: ${operations.length} operations, ${total} cases; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
  console.log(slow.sort((a, b) => b[0] - a[0]).slice(0, 15).map(([ms, w]) => `${ms.toFixed(0)}ms ${w}`).join('\n'));
  await t?.close();
});

/** A client whose permissions satisfy the operation's policy (anonymous for public operations). */
function clientFor(op: Operation): Client {
  const fastifyPath = op.path.replace(/\{(\w+)\}/g, ':$1');
  const route = t.app.routePolicies.find((r) => r.method === op.method && r.url === fastifyPath);
  const policy: RoutePolicy = route?.policy ?? 'public';
  if (policy === 'public') return t.anonymous;
  const needed = [policy].flat();
  for (const { client, permissions } of clients.values()) {
    if (policy === 'authenticated' || needed.some((p) => permissions.has(p))) return client;
  }
  return clients.get('admin')!.client;
}

// --- generators -----------------------------------------------------------------------------------------------

const hostileString = fc.oneof(
  fc.string({ maxLength: 8 }).map((s) => `${s}\u0000${s}`),
  fc.constantFrom('\uD800', 'a\uDFFFb', '\uDC00\uD800', 'x\uDBFF'),
  fc.constantFrom('x'.repeat(100_000), 'ا'.repeat(20_000)),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('=HYPERLINK("http://evil.example")', '@SUM(1+1)', '\u202Ecod.exe', '../../etc/passwd', "' OR 1=1 --", '<script>alert(1)</script>'),
);
const wrongType = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.anything({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.anything({ maxDepth: 1 }), { maxKeys: 3 }),
  fc.string({ maxLength: 20 }),
);
const deepJson = fc.tuple(fc.integer({ min: 40, max: 3000 }), fc.boolean()).map(([depth, arrays]) =>
  arrays ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
);

type Kind = 'missing' | 'wrongTypes' | 'hostile' | 'deep' | 'proto' | 'notJson';
const kind = fc.constantFrom<Kind>('missing', 'wrongTypes', 'hostile', 'hostile', 'deep', 'proto', 'notJson');

/** Query and path values as a client could encode them (a lone surrogate has no UTF-8: sent as its raw bytes). */
function encode(value: unknown): string {
  const s = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
  let out = '';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) out += `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`;
    else out += encodeURIComponent(ch);
  }
  return out;
}

function caseFor(op: Operation) {
  const props = Object.keys(op.body?.properties ?? {});
  return fc.record({
    kind,
    lang: fc.constantFrom('ar', 'en'),
    values: fc.array(fc.oneof(hostileString, wrongType), { minLength: Math.max(1, props.length, op.params.length), maxLength: Math.max(1, props.length, op.params.length) }),
    hostile: fc.array(hostileString, { minLength: Math.max(1, props.length, op.params.length), maxLength: Math.max(1, props.length, op.params.length) }),
    deep: deepJson,
    junk: fc.string({ maxLength: 30 }),
  });
}

type Case = ReturnType<typeof caseFor> extends fc.Arbitrary<infer C> ? C : never;

function requestOf(op: Operation, c: Case) {
  const source = c.kind === 'hostile' ? c.hostile : c.values;
  let path = op.path;
  const query = new URLSearchParams();
  let queryText = `lang=${c.lang}`;
  op.params.forEach((p, i) => {
    const v = c.kind === 'missing' ? '' : source[i % source.length];
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encode(v) || 'x');
    else if (p.in === 'query' && c.kind !== 'missing') queryText += `&${encodeURIComponent(p.name)}=${encode(v)}`;
  });
  void query;
  let payload: string | undefined;
  if (op.method !== 'GET' && op.method !== 'DELETE') {
    const props = Object.keys(op.body?.properties ?? {});
    if (c.kind === 'missing') payload = '{}';
    else if (c.kind === 'deep') payload = c.deep;
    else if (c.kind === 'notJson') payload = c.junk;
    else if (c.kind === 'proto') payload = `{"__proto__":{"isAdmin":true,"roles":["admin"]},"constructor":{"prototype":{"polluted":1}}${props.map((p) => `,${JSON.stringify(p)}:"x"`).join('')}}`;
    else payload = JSON.stringify(Object.fromEntries((props.length ? props : ['value']).map((p, i) => [p, source[i % source.length]])));
  }
  return {
    method: op.method as 'GET',
    url: `${path}?${queryText}`,
    payload,
    headers: payload !== undefined ? { 'content-type': 'application/json' } : {},
  };
}

function checkAnswer(res: LightMyRequestResponse, lang: string, what: string, op: Operation) {
  total++;
  statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
  expect(res.statusCode, `${what} -> ${res.statusCode} ${res.body.slice(0, 300)}`).toBeLessThan(500);
  // Issue 16: the document declares every answer an operation gives, with its media type.
  expect(op.answers.statuses, `${what}: ${res.statusCode} is not declared`).toContain(String(res.statusCode));
  const media = op.answers.mediaTypes[String(res.statusCode)] ?? [];
  const type = String(res.headers['content-type'] ?? '').split(';')[0]!;
  if (type && !media.includes('application/octet-stream')) expect(media, `${what}: ${res.statusCode} answered ${type}`).toContain(type);
  if (res.statusCode < 400) return;
  const body = res.json() as { error?: { code?: unknown; message?: unknown } };
  expect(typeof body.error?.code, what).toBe('string');
  expect(typeof body.error?.message, what).toBe('string');
  const message = body.error!.message as string;
  expect(message.length, what).toBeGreaterThan(0);
  expect(message, what).not.toBe(body.error!.code);
  if (lang === 'ar') expect(message, `${what}: ${message}`).toMatch(/[\u0600-\u06FF]/);
}

describe('OpenAPI-driven fuzzing of every operation', () => {
  it('has operations to fuzz', () => {
    expect(operations.length).toBeGreaterThan(100);
  });

  it('no malformed input gets a 5xx; every refusal is a localised error body', async () => {
    (Object.prototype as Json).polluted = undefined;
    delete (Object.prototype as Json).polluted;
    for (const op of operations) {
      const client = clientFor(op);
      await fc.assert(
        fc.asyncProperty(caseFor(op), async (c) => {
          const req = requestOf(op, c);
          const started = performance.now();
          const res = await client.request(req);
          slow.push([performance.now() - started, `${op.method} ${op.path} ${c.kind} ${res.statusCode}`]);
          checkAnswer(res, c.lang, `${op.method} ${op.path} [${c.kind}] ${req.url.slice(0, 120)}`, op);
        }),
        { numRuns: CASES_PER_OPERATION, seed: SEED, endOnFailure: true },
      );
    }
    // Prototype keys polluted nothing.
    expect(({} as Json).polluted).toBeUndefined();
    expect(({} as Json).isAdmin).toBeUndefined();
  }, 240_000);
});

describe('hostile text gets a 400 in the caller language, never a 500', () => {
  const login = (payload: string, lang: string) =>
    t.app.inject({ method: 'POST', url: `/api/auth/login?lang=${lang}`, payload, headers: { 'content-type': 'application/json' } });

  it.each([
    ['NUL in a JSON field', '{"userName":"ad\\u0000min","password":"x"}', 'InputUnusableText'],
    ['a lone surrogate in a JSON field', '{"userName":"\\ud800","password":"x"}', 'InputUnusableText'],
    ['a lone surrogate in a key', '{"\\udc00":1,"userName":"a","password":"x"}', 'InputUnusableText'],
    ['deep nesting', `{"userName":"a","password":"x","n":${'['.repeat(5000)}${']'.repeat(5000)}}`, 'InputTooDeep'],
  ])('%s', async (_name, payload, code) => {
    for (const lang of ['ar', 'en']) {
      const res = await login(payload, lang);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe(code);
      if (lang === 'ar') expect(res.json().error.message).toMatch(/[\u0600-\u06FF]/);
      else expect(res.json().error.message).toMatch(/[A-Za-z]/);
    }
  });

  it('NUL and a lone surrogate in a query parameter', async () => {
    for (const q of ['%00', '%ED%A0%80', 'a%00b']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/public/hs-codes?search=${q}&lang=ar` });
      expect(res.statusCode, `${q}: ${res.body}`).toBe(400);
      expect(res.json().error.message).toMatch(/[\u0600-\u06FF]/);
    }
  });

  it('a __proto__ key is refused and pollutes nothing', async () => {
    const res = await login('{"__proto__":{"isAdmin":true},"userName":"a","password":"b"}', 'en');
    expect(res.statusCode).toBe(400);
    expect(({} as Json).isAdmin).toBeUndefined();
  });
});
