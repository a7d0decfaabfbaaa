import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, type Client, type TestApp } from '../helpers/app';
import { completeDraft, confirmPayment, send } from '../helpers/requests';
import { requestHistory } from '../../db/schema';
import { isWorkingDate, riyadhDate } from '../../machines/working-days';

/**
 * Issue 15 item 7 over HTTP: a certificate request carries its working-day clock (days used of 15, computed from its
 * history), on the request and in the staff queue; it is overdue past 15 working days, and a holiday set in the
 * settings gives a day back.
 */
let t: TestApp;
let admin: Client;
let applicant: Client;
let registration: Client;
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: '500' });
  [admin, applicant, registration] = await Promise.all(['admin', 'internal.main', 'registration'].map((u) => t.login(u)));
});
afterAll(() => t?.close());

async function setHolidays(holidays: string[]) {
  const s = (await admin.get('/api/admin/settings')).json() as { value: Record<string, unknown>; version: number };
  return admin.put('/api/admin/settings', { value: { ...s.value, holidays }, expectedVersion: s.version });
}

describe('working-day clock', () => {
  it('counts the working days since the request reached the center, red past 15, and skips a configured holiday', async () => {
    const r = await completeDraft(applicant, 'internalCertificate', 'inf-almarai-foods');
    expect((await send(applicant, r.id, 'SUBMIT', r.version, { agreementAccepted: true })).statusCode).toBe(200);
    const waitingPayment = (await applicant.get(`/api/requests/${r.id}`)).json();
    expect(waitingPayment.clock).toMatchObject({ usedDays: 0, limitDays: 15, paused: true, overdue: false });

    await confirmPayment(t, r.id);
    const rows = await t.database.db.select().from(requestHistory).where(eq(requestHistory.requestId, r.id));
    const reached = rows.find((h) => h.toQueue === 'registration')!;
    expect(reached).toBeDefined();
    // Four weeks ago, as if the request had waited that long: every 7 days hold exactly 5 working days.
    const since = new Date(Date.now() - 28 * DAY);
    for (const h of rows) {
      const at = h.seq < reached.seq ? new Date(+since - (reached.seq - h.seq) * 3_600_000) : since;
      await t.database.db.update(requestHistory).set({ at }).where(and(eq(requestHistory.requestId, r.id), eq(requestHistory.seq, h.seq)));
    }

    const clock = (await registration.get(`/api/requests/${r.id}`)).json().clock;
    expect(clock.usedDays).toBeCloseTo(20, 1);
    expect(clock).toMatchObject({ limitDays: 15, paused: false, stopped: false, overdue: true });
    const queue = (await registration.get(`/api/queues/registration?requestNumber=${r.number}`)).json();
    expect(queue.items[0]).toMatchObject({ id: r.id, clock: { overdue: true, limitDays: 15 } });

    // A working day inside the window declared a holiday gives it back.
    let d = Date.now() - 10 * DAY;
    while (!isWorkingDate(riyadhDate(d), new Set())) d += DAY;
    expect((await setHolidays([riyadhDate(d)])).statusCode).toBe(200);
    expect((await registration.get(`/api/requests/${r.id}`)).json().clock.usedDays).toBeCloseTo(19, 1);
    expect((await setHolidays([])).statusCode).toBe(200);

    // The staff dashboard counts it past its limit, and under the employee who takes it.
    const dashboard = async () => (await registration.get('/api/dashboard/staff')).json() as { overdue: number; byAssignee: { name: string; count: number }[] };
    expect((await dashboard()).overdue).toBe(1);
    expect((await dashboard()).byAssignee).toEqual([]);
    const live = (await registration.get(`/api/requests/${r.id}`)).json();
    expect((await send(registration, r.id, 'ASSIGN_TO_ME', live.version)).statusCode).toBe(200);
    const me = (await registration.get('/api/auth/session')).json() as { user: { name: string } };
    expect((await dashboard()).byAssignee).toEqual([{ userId: expect.any(String), name: me.user.name, count: 1 }]);
  });

  it('refuses a holiday that is not a date, and keeps the holidays in force', async () => {
    const res = await setHolidays(['2026-13-45']);
    expect(res.statusCode).toBe(400);
    expect(t.app.settingsStore.current().holidays).toEqual([]);
  });

  it('kinds without a time limit carry no clock', async () => {
    const queue = (await registration.get('/api/queues/all?pageSize=50')).json();
    for (const item of queue.items as { kind: string; clock: unknown }[]) {
      if (!['internalCertificate', 'internalRenewal', 'externalRenewal', 'cbRenewal'].includes(item.kind)) expect(item.clock).toBeNull();
    }
  });
});
