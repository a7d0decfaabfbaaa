import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificates } from '../../db/schema';
import { completeDraft, send, uploadTo, type RequestJson } from '../helpers/requests';
import { NON_CONFORMITY } from '../machines/samples';
import { internalCertificateData } from '../services/fixtures';
import { createWorld, planOf, walk, type World } from '../services/walk';

/*
 * Issue 14 item 8, the remaining internal gaps, over HTTP (POST /api/requests/:id/events, the door every screen uses):
 * - the renewal request's reason and notes (spec 02 data model "Renewal request: reason, additional notes, agreement
 *   flag"): a renewal without a reason is refused and named; the reason and notes are stored and staff read them;
 * - the audit plan's notes for the decision committee (spec 02 "Audit plan: ... notes for the decision committee"):
 *   kept on the plan and read by the committee;
 * - the corrective action's customer-signature file (spec 02 "Non-conformity: ... customer signature file"): the
 *   applicant names a file uploaded to the request, staff read it; a file of another request is refused, nothing changes.
 */

const FACILITY = 'inf-almarai-foods';
const DAY = 86_400_000;
let w: World;
let cert: RequestJson;
const en = { headers: { 'accept-language': 'en' } };
const view = async (who: 'registration' | 'committee' | 'audit' | 'internal.main', id: string) => {
  const res = await w.as[who].get(`/api/requests/${id}`, en);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as RequestJson & { context: Record<string, unknown>; data: Record<string, unknown> };
};
const version = async (id: string) => (await view('registration', id)).version;

beforeAll(async () => {
  w = await createWorld();
  cert = await completeDraft(w.as['internal.main'], 'internalCertificate', FACILITY);
  // Registration accepts; the walk stops where the audit employee submits the plan (6).
  const { request, steps } = await walk(w, cert.id, { applicant: 'internal.main', until: 6 });
  expect(request.status.code, JSON.stringify(steps)).toBe(6);
}, 180_000);
afterAll(() => w?.t.close());

describe('audit plan: notes for the decision committee', () => {
  it('keeps the plan’s notes for the committee, and the committee reads them on the request', async () => {
    const plan = { ...planOf(w), notesForCommittee: 'Second shift was not observed; check the night-cleaning log.' };
    const res = await send(w.as.audit, cert.id, 'SUBMIT_PLAN', await version(cert.id), { plan });
    expect(res.statusCode, res.body).toBe(200);
    const seen = await view('committee', cert.id);
    expect((seen.context.auditPlan as { notesForCommittee?: string }).notesForCommittee).toBe('Second shift was not observed; check the night-cleaning log.');
  });
});

describe('corrective actions: the customer-signature file', () => {
  let foreign: string;
  let signature: string;

  it('reaches corrective actions after a non-compliant audit', async () => {
    const { request, steps } = await walk(w, cert.id, { applicant: 'internal.main', until: 9 });
    expect(request.status.code, JSON.stringify(steps)).toBe(9);
    const actions = (await w.as.audit.get(`/api/requests/${cert.id}/actions`)).json() as { version: number; actions: { type: string }[] };
    const by = actions.actions.some((a) => a.type === 'SUBMIT_AUDIT_RESULT') ? w.as.audit : w.as.teamleader;
    const res = await send(by, cert.id, 'SUBMIT_AUDIT_RESULT', await version(cert.id), { compliant: false, nonConformities: [NON_CONFORMITY] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status.code).toBe(10);
  });

  it('refuses a signature file that was not uploaded to this request (another request’s), naming it; nothing changes', async () => {
    const other = await completeDraft(w.as['internal.main'], 'internalCertificate', FACILITY);
    foreign = await uploadTo(w.as['internal.main'], FACILITY, other.id, 'report', 'signature.pdf');
    const before = await version(cert.id);
    const res = await send(w.as['internal.main'], cert.id, 'SUBMIT_CORRECTIVE_ACTIONS', before, {
      actions: [{ nonConformityId: NON_CONFORMITY.id, description: 'Night-cleaning log kept', implementationDate: '2031-04-01', customerSignatureFileId: foreign }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('actions.0.customerSignatureFileId');
    expect(res.body).toContain('was not found or belongs to another request');
    expect(await version(cert.id)).toBe(before);
    expect((await view('registration', cert.id)).status.code).toBe(10);
  });

  it('keeps the applicant’s signature file with the action, and the auditor reads it in the request’s history', async () => {
    signature = await uploadTo(w.as['internal.main'], FACILITY, cert.id, 'report', 'customer-signature.pdf');
    const res = await send(w.as['internal.main'], cert.id, 'SUBMIT_CORRECTIVE_ACTIONS', await version(cert.id), {
      actions: [{ nonConformityId: NON_CONFORMITY.id, description: 'Night-cleaning log kept', implementationDate: '2031-04-01', customerSignatureFileId: signature }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status.code).toBe(11);
    const history = (await w.as.audit.get(`/api/requests/${cert.id}/history`, en)).json() as { event: string; payload: Record<string, unknown> }[] | { items: { event: string; payload: Record<string, unknown> }[] };
    const rows = Array.isArray(history) ? history : history.items;
    const submitted = rows.filter((r) => r.event === 'SUBMIT_CORRECTIVE_ACTIONS').at(-1)!;
    expect((submitted.payload.actions as { customerSignatureFileId?: string }[])[0].customerSignatureFileId).toBe(signature);
    const file = await w.as.audit.get(`/api/attachments/${signature}/download`);
    expect(file.statusCode).toBe(200);
  });
});

describe('renewal request: reason, notes and terms', () => {
  let renewal: RequestJson;

  beforeAll(async () => {
    const issuedAt = new Date(Date.now() - 330 * DAY);
    const [c] = await w.t.database.db
      .insert(certificates)
      .values({ number: 'HC-RENEW-000001', kind: 'internalHalal', facilityPublicId: FACILITY, verificationCode: 'RENEWCERT001', issuedAt, validFrom: issuedAt, expiresAt: new Date(Date.now() + 30 * DAY) })
      .returning({ id: certificates.id });
    // Every section complete but the renewal's own (reason and notes): JSON leaves the undefined section out.
    renewal = await completeDraft(w.as['internal.main'], 'internalRenewal', FACILITY, { certificateId: c.id, data: { ...internalCertificateData(), renewal: undefined } });
  }, 60_000);

  it('refuses a renewal without its reason, naming the field, in English and Arabic', async () => {
    const v = await version(renewal.id);
    const res = await send(w.as['internal.main'], renewal.id, 'SUBMIT', v, { agreementAccepted: true });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.validationErrors).toMatchObject([{ message: 'This field is required', members: ['renewal'] }]);
    const ar = await send(w.as['internal.main'], renewal.id, 'SUBMIT', v, { agreementAccepted: true }, 'ar');
    expect(ar.statusCode).toBe(400);
    expect(ar.json().error.validationErrors[0].members).toEqual(['renewal']);
    expect(ar.json().error.validationErrors[0].message).not.toBe('This field is required');
    expect(await version(renewal.id)).toBe(v);
  });

  it('refuses it without the terms ticked', async () => {
    const edited = await send(w.as['internal.main'], renewal.id, 'EDIT', await version(renewal.id), { data: { renewal: { reason: 'Production continues', notes: 'Same products' } } });
    expect(edited.statusCode, edited.body).toBe(200);
    const res = await send(w.as['internal.main'], renewal.id, 'SUBMIT', await version(renewal.id), {});
    expect(res.statusCode).toBe(400);
  });

  it('stores the reason and notes, and registration staff read them on the submitted request', async () => {
    const res = await send(w.as['internal.main'], renewal.id, 'SUBMIT', await version(renewal.id), { agreementAccepted: true });
    expect(res.statusCode, res.body).toBe(200);
    const seen = await view('registration', renewal.id);
    expect(seen.data.renewal).toEqual({ reason: 'Production continues', notes: 'Same products' });
  });
});
