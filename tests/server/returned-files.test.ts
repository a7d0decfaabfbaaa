import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTACHMENT_CATEGORIES } from '../../machines/forms/attachment-categories';
import type { Client } from '../helpers/app';
import { accept, completeDraft, confirmPayment, send, uploadTo, type RequestJson } from '../helpers/requests';
import { multipartBody, pdf } from '../helpers/multipart';
import { createWorld, type World } from '../services/walk';

/*
 * Spec 02 section 4 step 2 (returned for edit: the applicant edits and resubmits) with section 5 (a category takes a
 * limited number of files). A request returned with its attachments section has its files open again, as a draft's:
 * the wizard deletes an unlocked file it removes, so a one-file category's file can be replaced; the resubmission
 * locks them again. A return of another section leaves them locked.
 */

const FACILITY = 'inf-almarai-foods';
let w: World;
let applicant: Client;
let registration: Client;

beforeAll(async () => {
  w = await createWorld();
  applicant = w.as['internal.main'];
  registration = w.as.registration;
});
afterAll(() => w?.t.close());

type Named = { id: string; category: string };
const attachmentsOf = (r: RequestJson) => r.data.attachments as Named[];
const listed = async (requestId: string) =>
  (await applicant.get(`/api/attachments?facilityPublicId=${FACILITY}&requestId=${requestId}`)).json() as { id: string; locked: boolean }[];

function upload(requestId: string, category: string) {
  const body = multipartBody({ name: `${category}-second.pdf`, type: 'application/pdf', content: pdf(123) });
  return applicant.request({
    method: 'POST',
    url: `/api/attachments?facilityPublicId=${FACILITY}&category=${category}&requestId=${requestId}&lang=en`,
    payload: body.payload,
    headers: body.headers,
  });
}

/** What the wizard's "Remove" does (web/src/routes/internal-request/WizardStep.tsx): deletes an unlocked file, then drops it from the data. */
async function wizardRemove(r: RequestJson, fileId: string): Promise<RequestJson> {
  const file = (await listed(r.id)).find((f) => f.id === fileId);
  if (!file?.locked) expect((await applicant.request({ method: 'DELETE', url: `/api/attachments/${fileId}` })).statusCode).toBe(204);
  return accept(applicant, r.id, 'EDIT', { data: { attachments: attachmentsOf(r).filter((a) => a.id !== fileId) } });
}

/** An internal certificate request submitted, paid and returned by registration with `sections`. */
async function returned(sections: string[]): Promise<RequestJson> {
  const draft = await completeDraft(applicant, 'internalCertificate', FACILITY);
  await accept(applicant, draft.id, 'SUBMIT', { agreementAccepted: true });
  await confirmPayment(w.t, draft.id);
  await accept(registration, draft.id, 'ASSIGN_TO_ME');
  const back = await accept(registration, draft.id, 'RETURN', { reason: 'The acknowledgment is unsigned', sections });
  expect(back.status.code).toBe(5);
  return (await applicant.get(`/api/requests/${draft.id}`)).json() as RequestJson;
}

/** The request's one-file category (a rule of the product, not of this test) and the file the submission sent in it. */
function oneFileOf(r: RequestJson): Named {
  const one = attachmentsOf(r).find((a) => ATTACHMENT_CATEGORIES[a.category as keyof typeof ATTACHMENT_CATEGORIES].maxFiles === 1);
  expect(one).toBeDefined();
  return one!;
}

describe('a request returned with its attachments section (spec 02 section 4 step 2)', () => {
  it('takes a new file in place of a one-file category\'s file as the wizard replaces it; two are still refused; the resubmission names the new one and locks it', async () => {
    const r = await returned(['attachments']);
    const old = oneFileOf(r);
    // Open again, as a draft's: the wizard deletes the file it removes rather than only dropping it from the data.
    expect(new Set((await listed(r.id)).map((f) => f.locked))).toEqual(new Set([false]));
    const dropped = await wizardRemove(r, old.id);

    const fresh = await uploadTo(applicant, FACILITY, r.id, old.category, `${old.category}-corrected.pdf`);
    // The category's limit still holds: a second file beside the new one is refused.
    const second = await upload(r.id, old.category);
    expect([second.statusCode, second.json().error.code]).toEqual([400, 'UploadTooManyFiles']);

    const edited = await accept(applicant, r.id, 'EDIT', { data: { attachments: [...attachmentsOf(dropped), { id: fresh, category: old.category }] } });
    const resubmitted = await accept(applicant, r.id, 'RESUBMIT', {});
    expect(resubmitted.version).toBeGreaterThan(edited.version);
    const names = attachmentsOf(resubmitted).filter((a) => a.category === old.category).map((a) => a.id);
    expect(names).toEqual([fresh]);
    // The replaced file was never certified: removed while open, as a draft's; the rest are frozen again.
    expect((await applicant.get(`/api/attachments/${old.id}/download`)).statusCode).toBe(404);
    expect((await applicant.get(`/api/attachments/${fresh}/download`)).statusCode).toBe(200);
    const files = await listed(r.id);
    expect(files.map((f) => f.id)).not.toContain(old.id);
    expect(new Set(files.map((f) => f.locked))).toEqual(new Set([true]));
    expect((await applicant.request({ method: 'DELETE', url: `/api/attachments/${fresh}?lang=en` })).statusCode).toBe(409);
  });

  it('leaves the files locked when registration returns another section: removing one only drops it from the data', async () => {
    const r = await returned(['products']);
    const old = oneFileOf(r);
    expect(new Set((await listed(r.id)).map((f) => f.locked))).toEqual(new Set([true]));
    const res = await send(applicant, r.id, 'EDIT', r.version, { data: { attachments: [] } });
    expect(res.statusCode).toBe(400);
    expect((await applicant.request({ method: 'DELETE', url: `/api/attachments/${old.id}?lang=en` })).statusCode).toBe(409);
    expect((await applicant.get(`/api/attachments/${old.id}/download`)).statusCode).toBe(200);
  });
});
