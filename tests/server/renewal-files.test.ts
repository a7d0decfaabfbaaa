import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICES, type RequestKind } from '../../machines/services';
import { completeDraft, send, uploadTo, type RequestJson } from '../helpers/requests';
import { renewalSection } from '../services/fixtures';
import { certificatesOf, createWorld, setExpiry, walk, type DemoUser, type World } from '../services/walk';

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
    const certified = await completeDraft(applicant, c.certified, c.facility);
    const { request, steps } = await walk(w, certified.id, { applicant: c.applicant, until: c.issued, option: 'full' });
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
    const other = (await applicant.post('/api/requests', { kind: c.certified, facilityId: c.facility, data: {} })).json() as RequestJson;
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
