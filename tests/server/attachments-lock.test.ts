import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '../../db/client';
import { attachments } from '../../db/schema';
import { SYSTEM_ACTOR } from '../../machines/actor';
import { createTestApp, type Client, type TestApp } from '../helpers/app';
import { accept, completeDraft, uploadTo } from '../helpers/requests';
import { multipartBody, pdf } from '../helpers/multipart';

/*
 * Issue 10 item 8: a submitted request's form files cannot be deleted or replaced, except in a section registration
 * returned; case documents (audit reports, corrective-action evidence) can still be added while the case runs.
 */

const FACILITY = 'inf-almarai-foods';
let t: TestApp;
let applicant: Client;
let registration: Client;

beforeAll(async () => {
  t = await createTestApp();
  applicant = await t.login('internal.main');
  registration = await t.login('registration');
});
afterAll(() => t?.close());

const remove = (c: Client, id: string) => c.request({ method: 'DELETE', url: `/api/attachments/${id}?lang=en` });
function uploadCode(c: Client, requestId: string, category: string) {
  const body = multipartBody({ name: `${category}-new.pdf`, type: 'application/pdf', content: pdf(321) });
  return c.request({
    method: 'POST',
    url: `/api/attachments?facilityPublicId=${FACILITY}&category=${category}&requestId=${requestId}&lang=en`,
    payload: body.payload,
    headers: body.headers,
  });
}

async function submitted() {
  const draft = await completeDraft(applicant, 'internalCertificate', FACILITY);
  const fileId = (draft.data.attachments as { id: string; category: string }[])[0].id;
  // In the draft the files are the applicant's to change.
  const extra = await uploadTo(applicant, FACILITY, draft.id, 'productCatalogue');
  expect((await remove(applicant, extra)).statusCode).toBe(204);
  await accept(applicant, draft.id, 'SUBMIT', { agreementAccepted: true });
  await t.app.engine.send(draft.id, { type: 'PAYMENT_CONFIRMED' }, SYSTEM_ACTOR);
  await accept(registration, draft.id, 'ASSIGN_TO_ME');
  return { id: draft.id, fileId };
}

describe('files of a submitted request', () => {
  it('cannot be deleted or replaced once submitted; audit reports can still be added', async () => {
    const r = await submitted();
    const del = await remove(applicant, r.fileId);
    expect(del.statusCode).toBe(409);
    expect(del.json().error.code).toBe('AttachmentLocked');
    const put = await uploadCode(applicant, r.id, 'productCatalogue');
    expect(put.statusCode).toBe(409);
    expect(put.json().error.message).toMatch(/submitted request/);
    expect((await uploadCode(applicant, r.id, 'report')).statusCode).toBe(201);
    const files = (await applicant.get(`/api/attachments?facilityPublicId=${FACILITY}&requestId=${r.id}`)).json() as { id: string }[];
    expect(files.map((f) => f.id)).toContain(r.fileId);
  });

  it('open again when registration returns the attachments, and stay frozen when it returns another section', async () => {
    const other = await submitted();
    const back = await accept(registration, other.id, 'RETURN', { reason: 'Correct the weights', sections: ['products'] });
    expect(back.status.code).toBe(5);
    expect((await remove(applicant, other.fileId)).statusCode).toBe(409);
    expect((await uploadCode(applicant, other.id, 'productCatalogue')).statusCode).toBe(409);

    const r = await submitted();
    await accept(registration, r.id, 'RETURN', { reason: 'The CR copy is unreadable', sections: ['attachments'] });
    expect((await remove(applicant, r.fileId)).statusCode).toBe(204);
    // The category allows one file: the removed one no longer counts, so the replacement goes in.
    expect((await uploadCode(applicant, r.id, 'finalAcknowledgment')).statusCode).toBe(201);
    // Another facility's user still cannot touch them.
    const stranger = await t.login('external');
    expect((await uploadCode(stranger, r.id, 'finalAcknowledgment')).statusCode).toBe(403);
  });
});

describe('the lock itself (what the wizard reads: a locked file is dropped from a later request, never deleted)', () => {
  const lockedFlags = async (requestId: string) =>
    ((await applicant.get(`/api/attachments?facilityPublicId=${FACILITY}&requestId=${requestId}`)).json() as { locked: boolean }[]).map((f) => f.locked);

  it('is set by the submission, in its own transaction', async () => {
    const draft = await completeDraft(applicant, 'internalCertificate', FACILITY);
    expect(new Set(await lockedFlags(draft.id))).toEqual(new Set([false]));
    await accept(applicant, draft.id, 'SUBMIT', { agreementAccepted: true });
    expect(new Set(await lockedFlags(draft.id))).toEqual(new Set([true]));
  });

  it('is set once the submission is accepted by an engine that has no transaction of ours (Temporal: alsoWrite not called)', async () => {
    const engine = t.app.engine;
    const send = engine.send;
    engine.send = (id, event, actor, version, options) => send.call(engine, id, event, actor, version, options && { admit: options.admit });
    try {
      const draft = await completeDraft(applicant, 'internalCertificate', FACILITY);
      await accept(applicant, draft.id, 'SUBMIT', { agreementAccepted: true });
      expect(new Set(await lockedFlags(draft.id))).toEqual(new Set([true]));
    } finally {
      engine.send = send;
    }
  });
});

describe('migration 0018: the files of requests submitted before a submission locked them', () => {
  it('locks what a submission sent, and leaves a draft\'s files and a report uploaded since open', async () => {
    const sent = await completeDraft(applicant, 'internalCertificate', FACILITY);
    await accept(applicant, sent.id, 'SUBMIT', { agreementAccepted: true });
    // As such a request was stored before: its files never locked.
    await t.app.db.update(attachments).set({ lockedAt: null }).where(eq(attachments.requestId, sent.id));
    const report = (await uploadCode(applicant, sent.id, 'report')).json() as { id: string };
    const draft = await completeDraft(applicant, 'internalCertificate', FACILITY);

    const text = readFileSync(join(MIGRATIONS_FOLDER, '0018_lock_submitted_files.sql'), 'utf8');
    for (const statement of text.split('--> statement-breakpoint')) await t.app.db.execute(sql.raw(statement));

    const listed = async (requestId: string) =>
      (await applicant.get(`/api/attachments?facilityPublicId=${FACILITY}&requestId=${requestId}`)).json() as { id: string; locked: boolean }[];
    const files = await listed(sent.id);
    expect(files.filter((f) => f.id !== report.id).every((f) => f.locked)).toBe(true);
    expect(files.find((f) => f.id === report.id)?.locked).toBe(false);
    expect(new Set((await listed(draft.id)).map((f) => f.locked))).toEqual(new Set([false]));
    // The report, uploaded since, is still the applicant's to remove.
    expect((await remove(applicant, report.id)).statusCode).toBe(204);
  });
});

describe('files of a shipment request', () => {
  it('take the invoices while a draft, and are frozen for another facility', async () => {
    const external = await t.login('external');
    const res = await external.post('/api/requests?lang=en', { kind: 'shipment', facilityId: 'exf-anatolia-meat' });
    expect(res.statusCode).toBe(201);
    const id = res.json().id as string;
    const body = multipartBody({ name: 'invoice.pdf', type: 'application/pdf', content: pdf(321) });
    const upload = (c: Client) =>
      c.request({ method: 'POST', url: `/api/attachments?facilityPublicId=exf-anatolia-meat&category=requestNote&requestId=${id}&lang=en`, payload: body.payload, headers: body.headers });
    expect((await upload(external)).statusCode).toBe(201);
    expect((await upload(applicant)).statusCode).toBe(403);
  });
});
