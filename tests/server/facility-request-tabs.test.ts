import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type Client, type TestApp } from '../helpers/app';
import { completeDraft, send } from '../helpers/requests';
import { requests } from '../../db/schema';

/*
 * Issue 14 item 6, previous requests: a facility's list has the tabs draft / active / completed, filtered by the
 * server, with one search box for request number, brand or creator; another facility's list is refused.
 */

const FACILITY = 'inf-almarai-foods';
let t: TestApp;
let holder: Client;
let other: Client;
const ids: Record<'draft' | 'submitted' | 'done', string> = {} as never;
const numbers: Record<keyof typeof ids, string> = {} as never;

const tab = async (c: Client, name: string, extra = '') => {
  const res = await c.get(`/api/queues/all?facilityId=${FACILITY}&tab=${name}${extra}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: { number: string }[] }).items.map((i) => i.number).sort();
};

beforeAll(async () => {
  t = await createTestApp();
  [holder, other] = await Promise.all(['internal.main', 'external'].map((u) => t.login(u)));
  for (const k of ['draft', 'submitted', 'done'] as const) {
    const draft = await completeDraft(holder, 'internalCertificate', FACILITY);
    ids[k] = draft.id;
    numbers[k] = draft.number;
    if (k !== 'draft') {
      const res = await send(holder, draft.id, 'SUBMIT', draft.version, { agreementAccepted: true });
      expect(res.statusCode, res.body).toBe(200);
    }
  }
  // A finished request (its state final): walking a whole certificate is tests/services' job; the tab reads the queue.
  await t.database.db.update(requests).set({ queue: 'final' }).where(eq(requests.id, ids.done));
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('previous requests: tabs', () => {
  it('draft lists only drafts, active the submitted unfinished ones, completed the finished ones', async () => {
    expect(await tab(holder, 'draft')).toEqual([numbers.draft]);
    expect(await tab(holder, 'active')).toEqual([numbers.submitted]);
    expect(await tab(holder, 'completed')).toEqual([numbers.done]);
    expect(await tab(holder, 'any')).toEqual([numbers.draft, numbers.submitted, numbers.done].sort());
  });

  it('searches inside a tab by request number and by creator', async () => {
    expect(await tab(holder, 'active', `&any=${numbers.submitted}`)).toEqual([numbers.submitted]);
    expect(await tab(holder, 'draft', `&any=${numbers.submitted}`)).toEqual([]);
    expect(await tab(holder, 'draft', `&any=${encodeURIComponent('khalid')}`)).toEqual([numbers.draft]);
    expect(await tab(holder, 'any', `&any=nobody-by-that-name`)).toEqual([]);
  });

  it('refuses another facility’s list whatever the tab, and an unknown tab', async () => {
    expect((await other.get(`/api/queues/all?facilityId=${FACILITY}&tab=draft`)).statusCode).toBe(403);
    expect((await holder.get(`/api/queues/all?facilityId=${FACILITY}&tab=archived`)).statusCode).toBe(400);
  });
});
