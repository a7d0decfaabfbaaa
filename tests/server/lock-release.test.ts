import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, users } from '../../db/schema';
import { releaseLeftAssignments } from '../../server/modules/admin/release-assignments';
import { Permissions as P } from '../../machines/permissions';
import type { Client } from '../helpers/app';
import { completeDraft, send, type RequestJson } from '../helpers/requests';
import { billsOf, createWorld, payBill, type World } from '../services/walk';

/**
 * Locking a staff user releases the requests assigned to them (server/modules/admin/release-assignments.ts): each goes
 * back to its queue through its machine (CANCEL_ASSIGNMENT by the administrator who locked them), so a colleague can
 * take it; a request someone else holds is left alone; a release that is refused is recorded, never silent.
 */
const KIND = 'internalCertificate';
const FACILITY = 'inf-almarai-foods';

let w: World;
beforeAll(async () => {
  w = await createWorld();
}, 300_000);
afterAll(() => w?.t.close());

type Read = RequestJson & { assigneeUserId: string | null };
interface HistoryItem {
  event: string;
  actor: { userId: string; name: string; system: boolean };
  from: { code: number } | null;
  to: { code: number };
}

const read = async (c: Client, id: string) => {
  const res = await c.get(`/api/requests/${id}?lang=en`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Read;
};
const ok = async (c: Client, id: string, type: string, payload?: Record<string, unknown>) => {
  const res = await send(c, id, type, (await read(c, id)).version, payload, 'en');
  expect(res.statusCode, `${type}: ${res.body}`).toBe(200);
  return res.json() as Read;
};
const historyOf = async (c: Client, id: string) => {
  const res = await c.get(`/api/requests/${id}/history?lang=en`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items as HistoryItem[];
};
const actionsOf = async (c: Client, id: string) => {
  const res = await c.get(`/api/requests/${id}/actions`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().actions as { type: string }[]).map((a) => a.type);
};
const waitingList = async (c: Client) => {
  const res = await c.get('/api/queues/registration?tab=waiting&pageSize=100');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items as { id: string; assigneeUserId: string | null; status: { code: number } }[];
};
const releaseRows = async (action = 'user.lock.release') =>
  (await w.t.database.db.select().from(auditLogs).where(and(eq(auditLogs.action, action)))).map((r) => r.details as Record<string, unknown>);
const setRoles = (c: Client, userId: string, roles: string[]) => c.put(`/api/identity/users/${userId}/roles`, { roles });

/** A staff user created by the administrator, signed in. */
async function staff(userName: string, name: string, roles: string[]): Promise<{ id: string; client: Client }> {
  const password = 'Staff@Lock2026';
  const created = await w.as.admin.post('/api/identity/users', { userName, name, email: `${userName}@example.com`, password, roles });
  expect(created.statusCode, created.body).toBe(200);
  return { id: created.json().id as string, client: await w.t.login(userName, password) };
}

/** A submitted internal certificate request whose application fee is paid: waiting in the registration queue. */
async function waitingForRegistration(): Promise<string> {
  const draft = await completeDraft(w.as['internal.main'], KIND, FACILITY);
  await ok(w.as['internal.main'], draft.id, 'SUBMIT', { agreementAccepted: true });
  const [fee] = (await billsOf(w.as.registration, draft.id)).filter((b) => b.status.code === 1);
  await payBill(w.t, fee.id, fee);
  return draft.id;
}

describe('locking a staff user releases the requests assigned to them', () => {
  it('their request returns to the registration queue unassigned, a colleague takes it; a colleague’s own request is untouched', async () => {
    const locked = await staff('reg.leaving', 'Salem Al-Harbi', ['registrationEmployee']);
    const colleague = await staff('reg.staying', 'Huda Al-Qahtani', ['registrationEmployee']);
    const theirs = await waitingForRegistration();
    const others = await waitingForRegistration();
    const waitingCode = (await read(w.as.registration, theirs)).status.code;

    const taken = await ok(locked.client, theirs, 'ASSIGN_TO_ME');
    expect(taken.assigneeUserId).toBe(locked.id);
    const reviewCode = taken.status.code;
    expect(reviewCode).not.toBe(waitingCode);
    const held = await ok(colleague.client, others, 'ASSIGN_TO_ME');
    expect(held.assigneeUserId).toBe(colleague.id);
    // While held, the colleague cannot take it: it is in someone else's hands.
    expect(await actionsOf(colleague.client, theirs)).not.toContain('ASSIGN_TO_ME');
    const othersHistory = await historyOf(w.as.registration, others);

    const lock = await w.as.admin.post(`/api/identity/users/${locked.id}/lock`);
    expect(lock.statusCode, lock.body).toBe(200);
    expect(lock.json().locked).toBe(true);
    // The answer tells the administrator how many went back to their queue (the identity screen's message).
    expect(lock.json().release).toEqual({ released: 1, failed: 0 });

    // The request shows no assignee and is waiting again (the status before anyone took it).
    const released = await read(w.as.registration, theirs);
    expect(released.assigneeUserId).toBeNull();
    expect(released.status.code).toBe(waitingCode);
    expect((await waitingList(colleague.client)).filter((r) => r.id === theirs).map((r) => [r.assigneeUserId, r.status.code])).toEqual([[null, waitingCode]]);

    // Its history names the release: the assignment cancelled by the administrator who locked the user.
    const history = await historyOf(w.as.registration, theirs);
    const last = history.at(-1)!;
    expect(last).toMatchObject({ event: 'CANCEL_ASSIGNMENT', actor: { userId: w.userId('admin'), system: false }, from: { code: reviewCode }, to: { code: waitingCode } });
    const adminName = (await (await w.as.admin.get(`/api/identity/users?search=admin`)).json()).items.find((u: { id: string }) => u.id === w.userId('admin')).name;
    expect(last.actor.name).toBe(adminName);

    // A colleague takes it.
    expect(await actionsOf(colleague.client, theirs)).toContain('ASSIGN_TO_ME');
    const retaken = await ok(colleague.client, theirs, 'ASSIGN_TO_ME');
    expect(retaken.assigneeUserId).toBe(colleague.id);
    expect(retaken.status.code).toBe(reviewCode);

    // The colleague's own request: still theirs, nothing added to its history.
    const untouched = await read(w.as.registration, others);
    expect(untouched.assigneeUserId).toBe(colleague.id);
    expect(untouched.status.code).toBe(reviewCode);
    expect(await historyOf(w.as.registration, others)).toEqual(othersHistory);

    // The administration's record: the lock and what it released.
    expect(await releaseRows()).toContainEqual(expect.objectContaining({ user: 'reg.leaving', released: 1, failed: [] }));
  }, 300_000);

  it('an administrator whose roles cannot cancel assignments still locks the user; the refused release is recorded on the request', async () => {
    const role = await w.as.admin.post('/api/identity/roles', { name: 'identityOnly', permissions: [P.portals.halalCenter, P.admin.manage], readOnly: false });
    expect(role.statusCode, role.body).toBe(200);
    const identityAdmin = await staff('identity.admin', 'Nasser Al-Otaibi', ['identityOnly']);
    const locked = await staff('reg.refused', 'Maha Al-Shammari', ['registrationEmployee']);
    const id = await waitingForRegistration();
    const taken = await ok(locked.client, id, 'ASSIGN_TO_ME');

    const lock = await identityAdmin.client.post(`/api/identity/users/${locked.id}/lock`);
    expect(lock.statusCode, lock.body).toBe(200);
    expect(lock.json().locked).toBe(true);
    expect(lock.json().release).toEqual({ released: 0, failed: 1 });

    // Not released (the machine refused this administrator), but not silently: the request's history says so ...
    const still = await read(w.as.registration, id);
    expect([still.assigneeUserId, still.status.code]).toEqual([locked.id, taken.status.code]);
    const last = (await historyOf(w.as.registration, id)).at(-1)!;
    expect(last).toMatchObject({ event: 'ASSIGNMENT_RELEASE_FAILED', actor: { userId: identityAdmin.id } });
    // ... the administration's record names it, and a registration lead can still release it by hand.
    expect(await releaseRows()).toContainEqual(
      expect.objectContaining({ user: 'reg.refused', released: 0, failed: [expect.objectContaining({ requestId: id, code: 'NotAuthorized' })] }),
    );
    expect(await actionsOf(w.as.registration, id)).toContain('CANCEL_ASSIGNMENT');
    // The sweep at the next start tries again (still refused): the history says it once, not once per start.
    await releaseLeftAssignments(w.t.app);
    expect((await read(w.as.registration, id)).assigneeUserId).toBe(locked.id);
    expect((await historyOf(w.as.registration, id)).filter((h) => h.event === 'ASSIGNMENT_RELEASE_FAILED')).toHaveLength(1);
  }, 300_000);

  it('a lock whose releases never ran (the server stopped right after it committed) is released when the server is ready again', async () => {
    const locked = await staff('reg.interrupted', 'Faisal Al-Mutairi', ['registrationEmployee']);
    const id = await waitingForRegistration();
    const waitingCode = (await read(w.as.registration, id)).status.code;
    await ok(locked.client, id, 'ASSIGN_TO_ME');
    // What the lock's transaction commits, and nothing after it.
    await w.t.database.db.update(users).set({ lockedAt: new Date() }).where(eq(users.id, locked.id));
    await w.t.database.db.insert(auditLogs).values({ userId: w.userId('admin'), userName: 'admin', action: 'user.lock', outcome: 'success', details: { user: 'reg.interrupted' } });
    expect((await read(w.as.registration, id)).assigneeUserId).toBe(locked.id);

    await releaseLeftAssignments(w.t.app);
    const released = await read(w.as.registration, id);
    expect([released.assigneeUserId, released.status.code]).toEqual([null, waitingCode]);
    expect((await historyOf(w.as.registration, id)).at(-1)).toMatchObject({ event: 'CANCEL_ASSIGNMENT', actor: { userId: w.userId('admin') } });
    expect(await releaseRows()).toContainEqual(expect.objectContaining({ user: 'reg.interrupted', released: 1, resumed: true }));
  }, 300_000);
});

/**
 * Changing a staff user's roles without locking them releases the requests their new roles cannot work (the rule of
 * whom ASSIGN_TO_EMPLOYEE may name: a permission of the request's queue); those they still may work stay theirs.
 */
describe('a role change releases the requests the new roles cannot work', () => {
  it('registration taken away: the request returns to the registration queue unassigned, the answer counts it, a colleague takes it', async () => {
    const moved = await staff('reg.to.audit', 'Omar Al-Ghamdi', ['registrationEmployee']);
    const colleague = await staff('reg.colleague', 'Reem Al-Dosari', ['registrationEmployee']);
    const id = await waitingForRegistration();
    const waitingCode = (await read(w.as.registration, id)).status.code;
    const reviewCode = (await ok(moved.client, id, 'ASSIGN_TO_ME')).status.code;

    const changed = await setRoles(w.as.admin, moved.id, ['auditEmployee']);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ roles: ['auditEmployee'], locked: false, release: { released: 1, failed: 0 } });

    const released = await read(w.as.registration, id);
    expect([released.assigneeUserId, released.status.code]).toEqual([null, waitingCode]);
    expect((await waitingList(colleague.client)).filter((r) => r.id === id).map((r) => [r.assigneeUserId, r.status.code])).toEqual([[null, waitingCode]]);
    expect((await historyOf(w.as.registration, id)).at(-1)).toMatchObject({
      event: 'CANCEL_ASSIGNMENT',
      actor: { userId: w.userId('admin'), system: false },
      from: { code: reviewCode },
      to: { code: waitingCode },
    });
    expect(await releaseRows('user.roles.release')).toContainEqual(expect.objectContaining({ user: 'reg.to.audit', released: 1, failed: [] }));
    expect(await releaseRows()).not.toContainEqual(expect.objectContaining({ user: 'reg.to.audit' }));
    expect((await ok(colleague.client, id, 'ASSIGN_TO_ME')).assigneeUserId).toBe(colleague.id);
  }, 300_000);

  it('roles that still work the queue keep the assignment: a role added, or a narrower role with the review permission', async () => {
    const role = await w.as.admin.post('/api/identity/roles', {
      name: 'registrationReviewOnly',
      permissions: [P.portals.halalCenter, P.internalRequest.registrationReview],
      readOnly: false,
    });
    expect(role.statusCode, role.body).toBe(200);
    const kept = await staff('reg.kept', 'Abdullah Al-Zahrani', ['registrationEmployee']);
    const id = await waitingForRegistration();
    const taken = await ok(kept.client, id, 'ASSIGN_TO_ME');
    const history = await historyOf(w.as.registration, id);

    for (const roles of [['registrationEmployee', 'auditEmployee'], ['registrationReviewOnly']]) {
      const changed = await setRoles(w.as.admin, kept.id, roles);
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toMatchObject({ roles, release: { released: 0, failed: 0 } });
      const still = await read(w.as.registration, id);
      expect([still.assigneeUserId, still.status.code]).toEqual([kept.id, taken.status.code]);
    }
    expect(await historyOf(w.as.registration, id)).toEqual(history);
    expect(await releaseRows('user.roles.release')).not.toContainEqual(expect.objectContaining({ user: 'reg.kept' }));
    // Still theirs to work: the assignee decides it.
    expect(await actionsOf(kept.client, id)).toContain('ACCEPT');
  }, 300_000);

  it('a role edited to grant less: its holders whose roles no longer work the queue are released, one with another role that does keeps theirs', async () => {
    const role = await w.as.admin.post('/api/identity/roles', {
      name: 'registrationNarrowed',
      permissions: [P.portals.halalCenter, P.internalRequest.registrationReview],
      readOnly: false,
    });
    expect(role.statusCode, role.body).toBe(200);
    const only = await staff('reg.narrowed', 'Faisal Al-Harbi', ['registrationNarrowed']);
    const both = await staff('reg.narrowed.both', 'Nouf Al-Qahtani', ['registrationNarrowed', 'registrationEmployee']);
    const [lost, kept] = [await waitingForRegistration(), await waitingForRegistration()];
    const waitingCode = (await read(w.as.registration, lost)).status.code;
    await ok(only.client, lost, 'ASSIGN_TO_ME');
    const keptCode = (await ok(both.client, kept, 'ASSIGN_TO_ME')).status.code;

    const edited = await w.as.admin.put('/api/identity/roles/registrationNarrowed', { permissions: [P.portals.halalCenter], readOnly: false });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ name: 'registrationNarrowed', release: { released: 1, failed: 0 } });

    const released = await read(w.as.registration, lost);
    expect([released.assigneeUserId, released.status.code]).toEqual([null, waitingCode]);
    expect((await historyOf(w.as.registration, lost)).at(-1)).toMatchObject({ event: 'CANCEL_ASSIGNMENT', actor: { userId: w.userId('admin'), system: false } });
    const still = await read(w.as.registration, kept);
    expect([still.assigneeUserId, still.status.code]).toEqual([both.id, keptCode]);
    expect(await releaseRows('user.roles.release')).toContainEqual(expect.objectContaining({ user: 'reg.narrowed', role: 'registrationNarrowed', released: 1 }));
    expect(await releaseRows('user.roles.release')).not.toContainEqual(expect.objectContaining({ user: 'reg.narrowed.both' }));
  }, 300_000);

  it('only an administrator changes roles: a registration lead or a facility user is refused and the assignment stays', async () => {
    const held = await staff('reg.held', 'Lama Al-Subaie', ['registrationEmployee']);
    const id = await waitingForRegistration();
    await ok(held.client, id, 'ASSIGN_TO_ME');
    const history = await historyOf(w.as.registration, id);

    for (const who of ['registration', 'internal.main'] as const) {
      const refused = await setRoles(w.as[who], held.id, ['auditEmployee']);
      expect(refused.statusCode, `${who}: ${refused.body}`).toBe(403);
    }
    const roles = (await (await w.as.admin.get('/api/identity/users?search=reg.held')).json()).items[0].roles;
    expect(roles).toEqual(['registrationEmployee']);
    expect((await read(w.as.registration, id)).assigneeUserId).toBe(held.id);
    expect(await historyOf(w.as.registration, id)).toEqual(history);
    expect(await releaseRows('user.roles.release')).not.toContainEqual(expect.objectContaining({ user: 'reg.held' }));
  }, 300_000);
});
