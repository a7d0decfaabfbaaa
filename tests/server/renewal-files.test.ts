import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICES, type RequestKind } from '../../machines/services';
import { completeDraft, send, uploadTo, type RequestJson } from '../helpers/requests';
import { renewalSection } from '../services/fixtures';
import { certificatesOf, createWorld, setExpiry, walk, type DemoUser, type World, lapseDesignations } from '../services/walk';

/**
 * The files a renewal may name (server-checks.ts fileOwners) for the external certificate and the CB designation: a
 * renewal starts with the data of the request that issued its certificate, files included; those files stay that
 * request's, and the renewal is submitted with them and lists them (GET /api/attachments?requestId=), while a file of
 * any other request of the facility is still refused and another facility's user lists nothing.
 * (The internal renewal: tests/server/internal-requests.test.ts.)
 */
let w: World;
beforeAll(async () => {
  w = await createWorld();
}, 60_000);
afterAll(() => w?.t.close());

interface Case {
  renewal: RequestKind;
  certified: RequestKind;
  facility: string;
  applicant: DemoUser;
  /** The certified request's status once its certificate is issued. */
  issued: number;
  /** The renewal's status once the certificate is renewed. */
  renewed: number;
  /** Days left on the certificate: inside the service's renewal window. */
  daysLeft: number;
  outsider: DemoUser;
  outsiderFacility: string;
}

const CASES: Case[] = [
  { renewal: 'externalRenewal', certified: 'externalCertificate', facility: 'exf-anatolia-meat', applicant: 'external', issued: 105, renewed: 5, daysLeft: 30, outsider: 'cb.main', outsiderFacility: 'cb-global-halal' },
  { renewal: 'cbRenewal', certified: 'cbDesignation', facility: 'cb-global-halal', applicant: 'cb.main', issued: 1003, renewed: 1003, daysLeft: 150, outsider: 'external', outsiderFacility: 'exf-anatolia-meat' },
];

/** The ids of the files a request's data names, read by the service's own projection (as the submission check reads them). */
const namedFiles = (kind: RequestKind, r: RequestJson) => [...new Set(SERVICES[kind].project(r.data, r.context as never).attachmentIds)].sort();

describe.each(CASES)('$renewal: the prefilled files of the certified request', (c) => {
  it('are accepted and listed for the renewal; a file of another request of the facility is refused; another facility lists nothing', async () => {
    const applicant = w.as[c.applicant];
    // A CB asks for a designation while it holds none in force (README, choices); its seeded one comes back after.
    const restore = c.certified === 'cbDesignation' ? await lapseDesignations(w.t.database.db, c.facility) : async () => {};
    const certified = await completeDraft(applicant, c.certified, c.facility);
    const { request, steps } = await walk(w, certified.id, { applicant: c.applicant, until: c.issued, option: 'full' }).finally(restore);
    expect(request.status.code, JSON.stringify(steps)).toBe(c.issued);
    const [certificate] = await certificatesOf(w, applicant, certified.id);
    const files = namedFiles(c.certified, request);
    expect(files.length).toBeGreaterThan(0);
    await setExpiry(w, certificate.id, c.daysLeft);

    const started = await applicant.post('/api/requests?lang=en', { kind: c.renewal, facilityId: c.facility, certificateId: certificate.id });
    expect(started.statusCode, started.body).toBe(201);
    const renewal = started.json() as RequestJson;
    // Prefilled: the renewal names exactly the certified request's files, and has none of its own.
    expect(namedFiles(c.renewal, renewal)).toEqual(files);
    const list = (client = applicant, facility = c.facility) => client.get(`/api/attachments?facilityPublicId=${facility}&requestId=${renewal.id}`);
    const listed = (await list()).json() as { id: string; name: string }[];
    expect(listed.map((a) => a.id).sort()).toEqual(files);
    expect(listed.every((a) => a.name.length > 0)).toBe(true);

    // A file of another request of the same facility, named in the renewal in place of a prefilled one: refused at
    // submission (400), and not listed for the renewal.
    // (A CB holding a designation in force starts no other designation request: lapsed for that start, then back.)
    const lapsed = c.certified === 'cbDesignation' ? await lapseDesignations(w.t.database.db, c.facility) : async () => {};
    const otherStarted = await applicant.post('/api/requests', { kind: c.certified, facilityId: c.facility, data: {} }).finally(lapsed);
    expect(otherStarted.statusCode, otherStarted.body).toBe(201);
    const other = otherStarted.json() as RequestJson;
    const stray = await uploadTo(applicant, c.facility, other.id, 'requestNote');
    const section = SERVICES[c.renewal].attachmentSection!;
    const prefilled = renewal.data[section];
    const replaced = files.find((id) => JSON.stringify(prefilled).includes(id))!;
    const swapped = JSON.parse(JSON.stringify(prefilled).replaceAll(replaced, stray)) as unknown;
    expect(replaced).toBeTruthy();
    const edited = await send(applicant, renewal.id, 'EDIT', renewal.version, { data: { renewal: renewalSection(), [section]: swapped } });
    expect(edited.statusCode, edited.body).toBe(200);
    const refused = await send(applicant, renewal.id, 'SUBMIT', edited.json().version, { agreementAccepted: true });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.validationErrors).toContainEqual(expect.objectContaining({ message: expect.stringMatching(/^A file named in this request was not found/) }));
    expect(((await list()).json() as { id: string }[]).map((a) => a.id)).not.toContain(stray);

    // Back to the prefilled files: submitted as they are.
    const restored = await send(applicant, renewal.id, 'EDIT', edited.json().version, { data: { [section]: prefilled } });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(namedFiles(c.renewal, restored.json() as RequestJson)).toEqual(files);
    const sent = await send(applicant, renewal.id, 'SUBMIT', restored.json().version, { agreementAccepted: true });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(((await list()).json() as { id: string }[]).map((a) => a.id).sort()).toEqual(files);

    // Another facility's user: refused on the facility, and nothing of it through their own facility either.
    expect((await list(w.as[c.outsider])).statusCode).toBe(403);
    const theirs = await list(w.as[c.outsider], c.outsiderFacility);
    expect([theirs.statusCode, theirs.json()]).toEqual([200, []]);

    // The certificate renewed, then due again: the next renewal starts with the first renewal's data, which still names
    // the certified request's files (the renewal sent them as they were); they stay accepted and listed.
    const done = await walk(w, renewal.id, { applicant: c.applicant, until: c.renewed, option: 'full' });
    expect(done.request.status.code, JSON.stringify(done.steps)).toBe(c.renewed);
    // Renewed, the certificate names the renewal as its request: the renewal's page still names its files.
    expect(((await list()).json() as { id: string }[]).map((a) => a.id).sort()).toEqual(files);
    await setExpiry(w, certificate.id, c.daysLeft);
    const again = await applicant.post('/api/requests?lang=en', { kind: c.renewal, facilityId: c.facility, certificateId: certificate.id });
    expect(again.statusCode, again.body).toBe(201);
    const next = again.json() as RequestJson;
    expect(namedFiles(c.renewal, next)).toEqual(files);
    const nextListed = (await applicant.get(`/api/attachments?facilityPublicId=${c.facility}&requestId=${next.id}`)).json() as { id: string }[];
    expect(nextListed.map((a) => a.id).sort()).toEqual(files);
    const given = await send(applicant, next.id, 'EDIT', next.version, { data: { renewal: renewalSection() } });
    const nextSent = await send(applicant, next.id, 'SUBMIT', given.json().version, { agreementAccepted: true });
    expect(nextSent.statusCode, nextSent.body).toBe(200);
  }, 120_000);
});

/**
 * The wizard's "Remove" on a prefilled file (web WizardStep, attachments step): it deletes only a file the list does
 * not show as locked, then saves the step without it. A prefilled file is the certified request's, frozen since that
 * request was sent: removing it drops it from the renewal only, and the renewal is sent with the rest and a new upload.
 */
describe('externalRenewal: removing a prefilled file', () => {
  it('leaves it with the certified request, and the renewal is sent without it', async () => {
    const applicant = w.as.external;
    const FACTORY = 'exf-anatolia-meat';
    // Placeholders the draft helper uploads as real files: the required acknowledgment, and a test certificate (a
    // category staff may add to a running case too).
    const attachments = [
      { id: '00000000-0000-4000-8000-000000000031', category: 'finalAcknowledgment' },
      { id: '00000000-0000-4000-8000-000000000032', category: 'testCertificate' },
    ];
    const certified = await completeDraft(applicant, 'externalCertificate', FACTORY, { data: { attachments } });
    const { request, steps } = await walk(w, certified.id, { applicant: 'external', until: 105, option: 'full' });
    expect(request.status.code, JSON.stringify(steps)).toBe(105);
    const [certificate] = await certificatesOf(w, applicant, certified.id);
    await setExpiry(w, certificate.id, 30);
    const renewal = (await applicant.post('/api/requests', { kind: 'externalRenewal', facilityId: FACTORY, certificateId: certificate.id })).json() as RequestJson;
    const prefilled = renewal.data.attachments as { id: string; category: string }[];
    expect(prefilled.map((a) => a.category)).toEqual(['finalAcknowledgment', 'testCertificate']);

    // What the wizard reads to decide: every prefilled file is shown locked, so it sends no deletion...
    const listed = (await applicant.get(`/api/attachments?facilityPublicId=${FACTORY}&requestId=${renewal.id}`)).json() as { id: string; locked: boolean }[];
    expect(listed.filter((a) => prefilled.some((p) => p.id === a.id)).map((a) => a.locked)).toEqual([true, true]);
    // ... and a deletion sent anyway is refused: the file is the certified request's, and that request is closed to it.
    for (const a of prefilled) {
      const del = await applicant.request({ method: 'DELETE', url: `/api/attachments/${a.id}?lang=en` });
      expect([a.category, del.statusCode]).toEqual([a.category, 409]);
      expect(del.json().error.code).toBe('AttachmentLocked');
    }

    // Both removed from the renewal (each "Remove" saves the step at once), the required one replaced by a new upload.
    const removed = await send(applicant, renewal.id, 'EDIT', renewal.version, { data: { renewal: renewalSection(), attachments: [] } });
    expect(removed.statusCode, removed.body).toBe(200);
    const fresh = await uploadTo(applicant, FACTORY, renewal.id, 'finalAcknowledgment');
    const replaced = await send(applicant, renewal.id, 'EDIT', removed.json().version, { data: { attachments: [{ id: fresh, category: 'finalAcknowledgment' }] } });
    expect(replaced.statusCode, replaced.body).toBe(200);
    const sent = await send(applicant, renewal.id, 'SUBMIT', replaced.json().version, { agreementAccepted: true });
    expect(sent.statusCode, sent.body).toBe(200);
    expect((sent.json() as RequestJson).data.attachments).toEqual([{ id: fresh, category: 'finalAcknowledgment' }]);

    // The certified request keeps both: in its data, in its file list, and downloadable.
    const after = (await applicant.get(`/api/requests/${certified.id}`)).json() as RequestJson;
    expect(after.data.attachments).toEqual(prefilled);
    const own = (await applicant.get(`/api/attachments?facilityPublicId=${FACTORY}&requestId=${certified.id}`)).json() as { id: string }[];
    expect(own.map((a) => a.id)).toEqual(expect.arrayContaining(prefilled.map((a) => a.id)));
    for (const a of prefilled) expect((await applicant.get(`/api/attachments/${a.id}/download`)).statusCode).toBe(200);
  }, 120_000);
});
