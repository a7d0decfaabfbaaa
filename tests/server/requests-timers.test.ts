import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { requestHistory, workflowTimers } from '../../db/schema';
import { createTestApp, type TestApp } from '../helpers/app';

/** The server runs the deadline timer runner while it is up (TIMER_POLL_MS > 0) and stops it on close. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ TIMER_POLL_MS: '25' });
});
afterAll(() => t?.close());

it('a draft whose retention deadline is due is deleted by the running server', async () => {
  const applicant = await t.login('internal.main');
  const res = await applicant.post('/api/requests', { kind: 'internalCertificate', facilityId: 'inf-almarai-foods' });
  expect(res.statusCode).toBe(201);
  const id = res.json().id as string;
  const [timer] = await t.database.db.select().from(workflowTimers).where(eq(workflowTimers.requestId, id));
  expect(timer.event).toBe('DRAFT_EXPIRED');
  await t.database.db.update(workflowTimers).set({ dueAt: new Date(Date.now() - 1000) }).where(eq(workflowTimers.id, timer.id));
  await expect.poll(async () => (await applicant.get(`/api/requests/${id}`)).statusCode, { timeout: 20_000 }).toBe(404);
  const history = await t.database.db.select().from(requestHistory).where(eq(requestHistory.requestId, id));
  expect(history.map((h) => h.event).sort()).toEqual(['DRAFT_EXPIRED', 'START']);
  expect(history.find((h) => h.event === 'DRAFT_EXPIRED')!.actorUserId).toBe('system');
});
