import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeDraft } from '../helpers/requests';
import { issueCertificate } from '../e2e/harness/data';
import { createWorld, designationOf, walk, type World } from '../services/walk';

/*
 * Spec 02 section 2, "CB certificate details, and add-categories requests ... Tabs: current, previous, draft": the
 * designation certificate's page lists the add-categories requests about that certificate only (certificateId of
 * GetAddingSubCategoriesInformationRequests), and the filter opens nothing to another facility. Each row carries its
 * step of the three (submit, audit review, certificate issue) that the screen shows.
 */

const CB = 'cb-global-halal';
const LIST = '/api/AddingSubCategoriesRequest/GetAddingSubCategoriesInformationRequests';
let w: World;
const drafts: Record<'seeded' | 'second', { id: string; certificateId: string }> = {} as never;

beforeAll(async () => {
  w = await createWorld();
  const seeded = await designationOf(w, CB);
  // A second designation certificate of the same CB (an older one, still valid), with its own draft.
  const expiresAt = new Date(Date.now() + 400 * 86_400_000);
  const issuedAt = new Date(expiresAt.getTime() - 3 * 365 * 86_400_000);
  const second = await issueCertificate(w.t.database, 'cb.main', {
    number: 'CB-TEST-SECOND',
    kind: 'cbDesignation',
    facilityPublicId: CB,
    categories: ['C0'],
    verificationCode: 'CBTESTSECOND',
    scope: 'Halal certification of foreign facilities and shipments',
    issuedAt,
    validFrom: issuedAt,
    expiresAt,
  });
  for (const [k, certificateId] of [['seeded', seeded.id], ['second', second]] as const) {
    const draft = await completeDraft(w.as['cb.main'], 'cbAddCategories', CB, { certificateId, data: { categories: [{ category: 'E', subCategories: [] }] } });
    drafts[k] = { id: draft.id, certificateId };
  }
}, 120_000);
afterAll(() => w?.t.close());

const ids = async (user: 'cb.main' | 'external', body: Record<string, unknown>) => {
  const res = await w.as[user].post(LIST, { tab: 'draft', ...body });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: { id: string }[] }).items.map((i) => i.id);
};

describe('a CB designation certificate’s add-categories requests', () => {
  it('lists the requests about the certificate asked for, not those about the CB’s other certificate', async () => {
    expect(await ids('cb.main', { cbPublicId: CB })).toEqual(expect.arrayContaining([drafts.seeded.id, drafts.second.id]));
    const seeded = await ids('cb.main', { cbPublicId: CB, certificateId: drafts.seeded.certificateId });
    expect(seeded).toContain(drafts.seeded.id);
    expect(seeded).not.toContain(drafts.second.id);
    const second = await ids('cb.main', { cbPublicId: CB, certificateId: drafts.second.certificateId });
    expect(second).toEqual([drafts.second.id]);
  });

  it('shows another facility’s user nothing of them, whichever facility it names', async () => {
    const res = await w.as.external.post(LIST, { cbPublicId: CB, certificateId: drafts.seeded.certificateId, tab: 'draft' });
    expect(res.statusCode).toBe(403);
    // Its own facility with the CB's certificate: the facilities still bound the list.
    expect(await ids('external', { cbPublicId: 'exf-anatolia-meat', certificateId: drafts.seeded.certificateId })).toEqual([]);
  });

  it('says each request’s step of three, from the service’s states (a submitted one in audit review, an issued one at the issue)', async () => {
    const stepOf = async (tab: string, id: string) => {
      const res = await w.as['cb.main'].post(LIST, { cbPublicId: CB, certificateId: drafts.second.certificateId, tab });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { items: { id: string; step: unknown }[] }).items.find((i) => i.id === id)?.step;
    };
    const { id } = drafts.second;
    expect(await stepOf('draft', id)).toEqual({ key: 'submit', index: 0, count: 3 });
    await walk(w, id, { applicant: 'cb.main', until: 1001 });
    expect(await stepOf('current', id)).toEqual({ key: 'auditReview', index: 1, count: 3 });
    await walk(w, id, { applicant: 'cb.main', until: 1002 });
    expect(await stepOf('current', id)).toEqual({ key: 'issue', index: 2, count: 3 });
    const { request } = await walk(w, id, { applicant: 'cb.main', until: 1003 });
    expect(request.status.code).toBe(1003);
    expect(await stepOf('previous', id)).toEqual({ key: 'issue', index: 2, count: 3 });
  });
});
