import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, inArray, isNull, like, notInArray, sql } from 'drizzle-orm';
import { requests, users } from '../../db/schema';
import { ENTITY_KINDS } from '../../machines/services/types';
import { actorOf } from '../../server/plugins/auth';
import { COUNT_AHEAD } from '../../workflows/queries';
import { createTestApp, type Client, type TestApp } from '../helpers/app';
import { completeDraft } from '../helpers/requests';

/*
 * The request lists past COUNT_AHEAD rows (docs/performance-log.md, "Lists, third pass"): the total is exact up to
 * COUNT_AHEAD rows past the page's first one and says "more" beyond; paging walks the whole list in order across that
 * boundary; a page past the end still has its total; and the count, like the rows, covers only what the viewer may see.
 */

const FACILITY = 'inf-almarai-foods';
/** A facility none of the signed-in users belongs to: only the Halal center's staff may list its requests. */
const OTHER = 'list-paging-other-facility';
const SEEDED = COUNT_AHEAD + 150;

let t: TestApp;
let holder: Client;
let external: Client;
let registration: Client;
let registrationUserId: string;

type PageJson = { items: { id: string; number: string; facilityId: string }[]; totalCount: number; totalCapped?: boolean };
const page = async (c: Client, url: string): Promise<PageJson> => {
  const res = await c.get(url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

/** The list's rows straight from the table, newest first: what the list must show, independent of its query. */
const rowsWhere = async (...where: Parameters<typeof and>) =>
  (
    await t.database.db
      .select({ id: requests.id })
      .from(requests)
      .where(and(isNull(requests.deletedAt), notInArray(requests.kind, [...ENTITY_KINDS]), ...where))
      .orderBy(desc(requests.updatedAt), desc(requests.number))
  ).map((r) => r.id);

beforeAll(async () => {
  t = await createTestApp();
  [holder, external, registration] = await Promise.all(['internal.main', 'external', 'registration'].map((u) => t.login(u)));
  [{ id: registrationUserId }] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.userName, 'registration'));
  const template = await completeDraft(holder, 'internalCertificate', FACILITY);
  // Copies of a real request (as bench:http seeds them): SEEDED in the holder's facility, in the registration queue,
  // one in ten assigned to the registration employee; a third as many in a facility of no signed-in user; one deleted
  // and one bill in the facility, which no list shows. Minutes apart, so the order is the same on both engines.
  await t.database.db.execute(sql`
    insert into requests (id, number, kind, machine_version, input, snapshot, status, queue, state_value, version,
                          facility_public_id, owner_user_id, assignee_user_id, creator_name, brand_names,
                          history_seq, history_hash, deleted_at, created_at, updated_at)
    select gen_random_uuid(), 'LP-' || g, case when g = 3 then 'bill' else t.kind end, t.machine_version, t.input, t.snapshot,
           1, 'registration', t.state_value, t.version,
           case when g % 4 = 0 then ${OTHER} else ${FACILITY} end,
           t.owner_user_id, case when g % 10 = 1 then ${registrationUserId} else null end,
           t.creator_name, t.brand_names, t.history_seq, t.history_hash,
           case when g = 5 then now() else null end,
           now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval
    from generate_series(1, ${Math.ceil((SEEDED * 4) / 3)}) g, requests t where t.id = ${template.id}`);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('list totals past COUNT_AHEAD rows', () => {
  it('counts exactly up to COUNT_AHEAD rows past the page and says "more" beyond', async () => {
    const all = await rowsWhere(eq(requests.facilityPublicId, FACILITY));
    expect(all.length).toBeGreaterThan(COUNT_AHEAD + 40);
    const list = (n: number, size: number) => page(holder, `/api/queues/all?facilityId=${FACILITY}&tab=any&pageSize=${size}&pageNumber=${n}`);
    const first = await list(1, 20);
    expect(first).toMatchObject({ totalCount: COUNT_AHEAD, totalCapped: true });
    expect(first.items.map((i) => i.id)).toEqual(all.slice(0, 20));
    // Each page counts COUNT_AHEAD rows past its first one; from the page whose count reaches the end, exact again.
    const reaching = Math.ceil((all.length - COUNT_AHEAD) / 20) + 1;
    expect(await list(reaching - 1, 20)).toMatchObject({ totalCount: (reaching - 2) * 20 + COUNT_AHEAD, totalCapped: true });
    expect(await list(reaching, 20)).toMatchObject({ totalCount: all.length, totalCapped: false });
    // A page past the end has no row to carry the count: still exact.
    expect(await list(100, 100)).toMatchObject({ items: [], totalCount: all.length, totalCapped: false });
    // A filtered list under the cap is exact.
    const numbered = await page(holder, `/api/queues/all?facilityId=${FACILITY}&tab=any&pageSize=100&requestNumber=LP-11`);
    const expected = await rowsWhere(eq(requests.facilityPublicId, FACILITY), like(requests.number, 'LP-11%'));
    expect(expected.length).toBeLessThan(100);
    expect(numbered).toMatchObject({ totalCount: expected.length, totalCapped: false });
    expect(numbered.items.map((i) => i.id)).toEqual(expected);
  });

  it('pages through the whole list in order across the cap, with no row twice or missing', async () => {
    const all = await rowsWhere(eq(requests.facilityPublicId, FACILITY));
    const seen: string[] = [];
    for (let n = 1; ; n++) {
      const p = await page(holder, `/api/queues/all?facilityId=${FACILITY}&tab=any&pageSize=100&pageNumber=${n}`);
      seen.push(...p.items.map((i) => i.id));
      if (p.items.length < 100) break;
    }
    expect(seen).toEqual(all);
  });

  it("staff queues count what the tab shows: waiting capped, mine exact", async () => {
    const waiting = await page(registration, '/api/queues/registration?tab=waiting&pageSize=20');
    expect(waiting).toMatchObject({ totalCount: COUNT_AHEAD, totalCapped: true });
    const notMine = await rowsWhere(eq(requests.queue, 'registration'), sql`${requests.assigneeUserId} is distinct from ${registrationUserId}`);
    expect(waiting.items.map((i) => i.id)).toEqual(notMine.slice(0, 20));
    const mine = await page(registration, '/api/queues/registration?tab=mine&pageSize=100');
    const assigned = await rowsWhere(eq(requests.queue, 'registration'), eq(requests.assigneeUserId, registrationUserId));
    expect(mine).toMatchObject({ totalCount: assigned.length, totalCapped: false });
    expect(mine.items.map((i) => i.id)).toEqual(assigned.slice(0, 100));
  });

  it("never lists or counts another facility's rows", async () => {
    const [{ id, roles }] = await t.database.db.select({ id: users.id, roles: users.roles }).from(users).where(eq(users.userName, 'internal.main'));
    const { facilityIds } = await actorOf(t.app, id, roles);
    expect(facilityIds).not.toContain(OTHER);
    const visible = await rowsWhere(inArray(requests.facilityPublicId, facilityIds));
    // Every request the holder may see, past the cap: the same rows in the same order, none of the other facility's.
    const seen: PageJson['items'] = [];
    for (let n = 1; ; n++) {
      const p = await page(holder, `/api/queues/all?tab=any&pageSize=100&pageNumber=${n}`);
      if (n === 1) expect(p).toMatchObject({ totalCount: Math.min(visible.length, COUNT_AHEAD), totalCapped: visible.length > COUNT_AHEAD });
      seen.push(...p.items);
      if (p.items.length < 100) break;
    }
    expect(seen.map((i) => i.id)).toEqual(visible);
    expect(seen.some((i) => i.facilityId === OTHER)).toBe(false);
    // A user of another facility sees none of these, and the count says so.
    const theirs = await page(external, '/api/queues/all?tab=any&pageSize=100');
    expect(theirs.items.some((i) => i.facilityId === FACILITY || i.facilityId === OTHER)).toBe(false);
    expect(theirs.totalCount).toBe(theirs.items.length);
    expect((await external.get(`/api/queues/all?facilityId=${OTHER}&tab=any`)).statusCode).toBe(403);
    // The Halal center's staff see the other facility's requests.
    const staff = await page(registration, `/api/queues/all?facilityId=${OTHER}&tab=any&pageSize=100`);
    expect(staff.items.length).toBeGreaterThan(0);
    expect(staff.items.every((i) => i.facilityId === OTHER)).toBe(true);
  });
});
