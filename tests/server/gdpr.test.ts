import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { createTestApp, type Client, type TestApp } from '../helpers/app';
import { completeDraft, send } from '../helpers/requests';
import { auditLogs, bills, personalDataRequests, requestHistory, requests, users } from '../../db/schema';
import { buildApp } from '../../server/app';
import { testConfig } from '../../server/config';
import { SYSTEM_ACTOR } from '../../machines/actor';

/**
 * GDPR (issue 15): a user downloads their personal data (theirs only), and deletes their account where the law
 * allows: refused while their facility has an open request or an unpaid bill; afterwards the person is anonymised,
 * cannot sign in, their sessions end, and the authority's records (requests, bills) remain.
 */
const FACILITY = 'inf-almarai-foods';

let t: TestApp;
let main: Client;
let sub: Client;
let mainId: string;
const numbers: Record<string, string> = {};
let submittedId = '';

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: '1000' });
  main = await t.login('internal.main');
  sub = await t.login('internal.sub');
  await t.login('registration');
  const [u] = await t.database.db.select().from(users).where(eq(users.userName, 'internal.main'));
  mainId = u.id;
  await t.database.db.update(users).set({ nationalId: '1012345678', phone: '+966500000001' }).where(eq(users.id, u.id));

  const r = await completeDraft(main, 'internalCertificate', FACILITY);
  expect((await send(main, r.id, 'SUBMIT', r.version, { agreementAccepted: true })).statusCode).toBe(200);
  numbers.main = r.number;
  submittedId = r.id;
  // The sub user's own request of the same facility: their data, not the main user's.
  numbers.sub = (await completeDraft(sub, 'internalCertificate', FACILITY)).number;
}, 120_000);
afterAll(() => t?.close());

/** Asks for a copy and waits until the job runner has prepared it; returns the request id. */
async function prepared(c: Client): Promise<string> {
  const res = await c.post('/api/gdpr/requests');
  expect(res.statusCode, res.body).toBe(201);
  const { id } = res.json();
  await t.app.personalDataJobs.nudge();
  expect(statusOf(await c.get('/api/gdpr/requests'), id)).toBe('ready');
  return id;
}
const statusOf = (res: { json(): { items: { id: string; status: string }[] } }, id: string) => res.json().items.find((r) => r.id === id)?.status;

/** Gets a one-time token and downloads the file with it. */
async function download(c: Client, id: string) {
  const token = await c.post(`/api/gdpr/requests/${id}/download-token`);
  expect(token.statusCode, token.body).toBe(200);
  return c.get(`/api/gdpr/requests/${id}/file?token=${encodeURIComponent(token.json().token)}`);
}

describe('data export', () => {
  it('holds the user’s profile, facilities, requests, sessions and audit entries, and nothing of another user', async () => {
    const res = await download(main, await prepared(main));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="my-data-\d{4}-\d{2}-\d{2}\.json"/);
    const d = res.json();
    expect(d.profile).toMatchObject({ userName: 'internal.main', name: 'Khalid Al-Harbi', email: 'internal.main@demo.halal.local', nationalId: '1012345678', mobile: '+966500000001' });
    expect(d.facilities).toEqual([expect.objectContaining({ publicId: FACILITY, role: 'main' })]);
    expect(d.requests.map((r: { number: string }) => r.number)).toEqual([numbers.main]);
    expect(d.requestActions.map((a: { request: string; event: string }) => `${a.request} ${a.event}`)).toContain(`${numbers.main} SUBMIT`);
    expect(d.sessions.length).toBeGreaterThanOrEqual(1);
    expect(d.auditEntries.some((a: { action: string; outcome: string }) => a.action === 'auth.login' && a.outcome === 'success')).toBe(true);

    const text = res.body;
    for (const foreign of ['internal.sub', 'Sara Al-Qahtani', 'registration', 'Noura', numbers.sub]) expect(text, foreign).not.toContain(foreign);

    // The sub user's export is theirs: their request, not the main user's.
    const other = (await download(sub, await prepared(sub))).json();
    expect(other.profile.userName).toBe('internal.sub');
    expect(other.requests.map((r: { number: string }) => r.number)).toEqual([numbers.sub]);
    expect(JSON.stringify(other)).not.toContain('internal.main');

    const [row] = await t.database.db.select().from(auditLogs).where(eq(auditLogs.action, 'gdpr.export')).orderBy(desc(auditLogs.id));
    expect(row).toMatchObject({ userId: other.profile.id, outcome: 'success' });
  });

  it('is for signed-in users only, and each user reaches only their own requests', async () => {
    expect((await t.anonymous.get('/api/gdpr/requests')).statusCode).toBe(401);
    expect((await t.anonymous.post('/api/gdpr/requests')).statusCode).toBe(401);
    const [theirs] = (await sub.get('/api/gdpr/requests')).json().items;
    // Another user's request is not found, for the list, the token and the file alike.
    expect((await main.get('/api/gdpr/requests')).json().items.map((r: { id: string }) => r.id)).not.toContain(theirs.id);
    expect((await main.post(`/api/gdpr/requests/${theirs.id}/download-token`)).statusCode).toBe(404);
    expect((await main.get(`/api/gdpr/requests/${theirs.id}/file?token=x`)).statusCode).toBe(404);
  });

  it('refuses a second request within a day with the spec’s message, in the user’s language, and creates nothing', async () => {
    const before = (await main.get('/api/gdpr/requests')).json();
    expect(before.nextRequestAt).not.toBeNull();
    for (const [lang, text] of [['en', 'still pending'], ['ar', 'ما زال قائمًا']]) {
      const res = await main.post(`/api/gdpr/requests?lang=${lang}`);
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('GdprRequestPending');
      expect(res.json().error.message).toContain(text);
    }
    expect((await main.get('/api/gdpr/requests')).json().items).toHaveLength(before.items.length);
  });

  it('a token is used up by its download, and a wrong or old token downloads nothing', async () => {
    const [ready] = (await main.get('/api/gdpr/requests')).json().items;
    const token = (await main.post(`/api/gdpr/requests/${ready.id}/download-token`)).json().token;
    expect((await main.get(`/api/gdpr/requests/${ready.id}/file?token=wrong`)).statusCode).toBe(403);
    expect((await main.get(`/api/gdpr/requests/${ready.id}/file?token=${token}`)).statusCode).toBe(200);
    const again = await main.get(`/api/gdpr/requests/${ready.id}/file?token=${token}&lang=en`);
    expect(again.statusCode).toBe(403);
    expect(again.json().error).toMatchObject({ code: 'GdprDownloadTokenInvalid', message: expect.stringContaining('no longer valid') });
  });

  it('while the data is being prepared, no token: "still being prepared"; a request survives a restart and is prepared by the next server', async () => {
    // The runner is stopped, as if the server went down right after acknowledging the request.
    await t.app.personalDataJobs.stop();
    const other = await t.login('cb.main');
    const res = await other.post('/api/gdpr/requests?lang=en');
    expect(res.statusCode).toBe(201);
    const { id } = res.json();
    const waiting = await other.post(`/api/gdpr/requests/${id}/download-token?lang=en`);
    expect(waiting.statusCode).toBe(409);
    expect(waiting.json().error).toMatchObject({ code: 'GdprDataNotReady', message: expect.stringContaining('still being prepared') });
    const waitingAr = await other.post(`/api/gdpr/requests/${id}/download-token?lang=ar`);
    expect(waitingAr.json().error.message).toContain('قيد الإعداد');

    // A new server on the same database picks the acknowledged request up when it starts.
    const next = await buildApp({ config: testConfig(), database: t.database });
    try {
      await next.ready();
      await next.personalDataJobs.nudge();
      const [row] = await t.database.db.select().from(personalDataRequests).where(eq(personalDataRequests.id, id));
      expect(row.status).toBe('ready');
      expect(JSON.parse(row.data!).profile.userName).toBe('cb.main');
      // The file is in the language the user asked in.
      expect(row.language).toBe('en');
    } finally {
      await next.close();
      t.app.personalDataJobs.start();
    }
    expect((await download(other, id)).json().profile.userName).toBe('cb.main');
  });

  it('no token once the file is no longer kept: "cannot get a download token"', async () => {
    const [ready] = (await sub.get('/api/gdpr/requests')).json().items;
    // Eight days later the runner has deleted the file.
    await t.database.db.update(personalDataRequests).set({ readyAt: new Date(Date.now() - 8 * 24 * 3600 * 1000) }).where(eq(personalDataRequests.id, ready.id));
    await t.app.personalDataJobs.nudge();
    const [row] = await t.database.db.select().from(personalDataRequests).where(eq(personalDataRequests.id, ready.id));
    expect(row).toMatchObject({ status: 'expired', data: null });
    for (const [lang, text] of [['en', 'cannot be given'], ['ar', 'تعذّر الحصول على رمز تنزيل']]) {
      const res = await sub.post(`/api/gdpr/requests/${ready.id}/download-token?lang=${lang}`);
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({ code: 'GdprNoDownloadToken', message: expect.stringContaining(text) });
    }
  });
});

describe('account deletion', () => {
  it('is refused while the user’s facility has an open request or an unpaid bill, with the counts', async () => {
    const res = await main.post('/api/gdpr/delete-account?lang=en', { confirm: true });
    expect(res.statusCode).toBe(409);
    const error = res.json().error;
    expect(error.code).toBe('GdprAccountInUse');
    // Both requests of the facility are open (the sub user's draft counts: the main user owns the facility) and the fee is unpaid.
    expect(error.message).toContain('2 open requests');
    expect(error.message).toContain('1 unpaid bills');
    expect((await main.get('/api/auth/session')).json().authenticated).toBe(true);
  });

  it('is refused for Halal-center staff and needs an explicit confirmation', async () => {
    const staff = await t.login('registration');
    expect((await staff.post('/api/gdpr/delete-account', { confirm: true })).json().error.code).toBe('GdprStaffAccount');
    expect((await main.post('/api/gdpr/delete-account', {})).statusCode).toBe(400);
  });

  it('once nothing is open: anonymises the user, ends the sessions, refuses sign-in, keeps the requests; audited', async () => {
    // The fee lapses (the request stops, its bill expires); the users delete their requests (tombstones: the rows and
    // their histories stay).
    await t.app.engine.send(submittedId, { type: 'PAYMENT_EXPIRED' }, SYSTEM_ACTOR);
    const byNumber = async (n: string) => (await t.database.db.select().from(requests).where(eq(requests.number, n)))[0];
    expect((await send(main, submittedId, 'DELETE', (await byNumber(numbers.main)).version, { confirmed: true })).statusCode).toBe(200);
    const subDraft = await byNumber(numbers.sub);
    expect((await send(sub, subDraft.id, 'DELETE', subDraft.version, { confirmed: true })).statusCode).toBe(200);
    expect((await t.database.db.select().from(bills).where(eq(bills.requestId, submittedId)))[0].status).not.toBe(1);

    const res = await main.post('/api/gdpr/delete-account', { confirm: true });
    expect(res.statusCode, res.body).toBe(200);

    // Sessions ended, sign-in refused with the old name.
    expect((await main.get('/api/gdpr/requests')).statusCode).toBe(401);
    await expect(t.login('internal.main')).rejects.toThrow(/401/);

    // The person is anonymised; the user row (id) stays so the records keep their owner.
    const [u] = await t.database.db.select().from(users).where(eq(users.id, mainId));
    expect(u.userName).toMatch(/^deleted-[0-9a-f]{12}$/);
    expect(u).toMatchObject({ name: 'Deleted user', nationalId: null, phone: null, roles: [] });
    expect(u.email).not.toContain('internal.main');
    expect(u.lockedAt).not.toBeNull();

    // The authority's records remain: the request with its owner and its history, and its bill.
    const kept = await byNumber(numbers.main);
    expect(kept).toMatchObject({ id: submittedId, ownerUserId: mainId, creatorName: 'Deleted user' });
    expect((await t.database.db.select().from(requestHistory).where(eq(requestHistory.requestId, submittedId))).length).toBeGreaterThanOrEqual(3);
    expect(await t.database.db.select().from(bills).where(eq(bills.requestId, submittedId))).toHaveLength(1);
    // The other members of the facility keep working.
    expect((await sub.get('/api/gdpr/requests')).statusCode).toBe(200);
    // Their prepared copies went with them.
    expect(await t.database.db.select().from(personalDataRequests).where(eq(personalDataRequests.userId, mainId))).toEqual([]);

    const rows = await t.database.db.select().from(auditLogs).where(eq(auditLogs.userId, mainId)).orderBy(desc(auditLogs.id));
    const deletion = rows.find((r) => r.action === 'gdpr.delete');
    expect(deletion).toMatchObject({ userName: u.userName, outcome: 'success', details: { facilitiesKept: [FACILITY] } });
    // The write's own row names the anonymous user, not the deleted one.
    expect(rows.find((r) => r.route === '/api/gdpr/delete-account')).toMatchObject({ userName: u.userName, outcome: 'success' });
  });
});
