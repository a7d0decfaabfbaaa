import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeDraft, send } from '../helpers/requests';
import { eq } from 'drizzle-orm';
import { facilities, requests } from '../../db/schema';
import { createWorld, designationOf, type World } from '../services/walk';

/**
 * Issue 12 item 4: the five calls of spec 01 section 7 "Adding sub-categories (prefix /api/AddingSubCategoriesRequest)",
 * at their exact paths and methods, served by the CB add-categories service through the request service.
 */

/** Spec 01 section 7, verbatim list (method and path after the prefix). */
export const ADDING_SUB_CATEGORIES_CALLS = [
  ['POST', 'GetAddingSubCategoriesInformationRequests'],
  ['POST', 'GetRequestDetailsById/{id}'],
  ['POST', 'SubmitRequest'],
  ['GET', 'ValidateRequestInitialization/{id}'],
  ['GET', 'ValidateRequestPrerequisites/{id}'],
] as const;
const PREFIX = '/api/AddingSubCategoriesRequest';
const CB = 'cb-global-halal';
let w: World;
let designationId: string;
let certified: string[];

beforeAll(async () => {
  w = await createWorld();
  const designation = await designationOf(w, CB);
  designationId = designation.id;
  certified = designation.categories;
}, 120_000);
afterAll(() => w?.t.close());

describe('spec 01 section 7: Adding sub-categories', () => {
  it.each(ADDING_SUB_CATEGORIES_CALLS)('%s %s is served at its exact path and method', (method, path) => {
    const url = `${PREFIX}/${path.replace('{id}', ':id')}`;
    expect(w.t.app.hasRoute({ method, url }), `${method} ${url}`).toBe(true);
    // And not under another method (the spec names exactly one).
    const other = method === 'GET' ? 'POST' : 'GET';
    expect(w.t.app.hasRoute({ method: other, url })).toBe(false);
  });

  it('ValidateRequestPrerequisites: the route guard passes for a valid designation and a valid acceptance certificate, and fails with the spec’s message once it expired', async () => {
    const ok = await w.as['cb.main'].get(`${PREFIX}/ValidateRequestPrerequisites/${designationId}?lang=en`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ valid: true, cbPublicId: CB });
    await w.t.database.db.update(facilities).set({ certificateExpiryDate: '2020-01-01' }).where(eq(facilities.publicId, CB));
    const expired = await w.as['cb.main'].get(`${PREFIX}/ValidateRequestPrerequisites/${designationId}?lang=en`);
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error.code).toBe('AcceptanceCertificateExpired');
    await w.t.database.db.update(facilities).set({ certificateExpiryDate: '2099-01-01' }).where(eq(facilities.publicId, CB));
    // Another facility's user does not see the certificate.
    expect((await w.as.external.get(`${PREFIX}/ValidateRequestPrerequisites/${designationId}`)).statusCode).toBe(404);
  });

  it('SubmitRequest submits the categories through the service contract; the request is then listed, detailed, and a second one cannot start', async () => {
    const cb = w.as['cb.main'];
    expect((await cb.get(`${PREFIX}/ValidateRequestInitialization/${designationId}?cbPublicId=${CB}`)).json()).toEqual({ canStart: true });
    // The contract's data rules hold: an unknown category is refused and nothing is submitted.
    const bad = await cb.post(`${PREFIX}/SubmitRequest?lang=en`, { cbPublicId: CB, certificateId: designationId, categories: [{ category: 'ZZ', subCategories: [] }] });
    expect(bad.statusCode).toBe(400);
    // A category the designation already covers adds nothing: refused and named, in both languages, and no draft is left.
    const sub = certified.find((c) => c.startsWith('C') && c.length > 1)!;
    expect(sub, `the seeded designation lists sub-categories of C: ${certified}`).toBeDefined();
    for (const [lang, text] of [['en', 'is already on the designation certificate'], ['ar', 'مدرجة في شهادة التعيين بالفعل']]) {
      const known = await cb.post(`${PREFIX}/SubmitRequest?lang=${lang}`, { cbPublicId: CB, certificateId: designationId, categories: [{ category: 'E', subCategories: [] }, { category: 'C', subCategories: [sub] }] });
      expect(known.statusCode).toBe(400);
      expect(known.json().error.validationErrors).toMatchObject([{ members: ['categories.1'], message: expect.stringContaining(text) }]);
      expect(known.json().error.validationErrors[0].message).toContain(sub);
    }
    const afterRefusal = (await cb.post(`${PREFIX}/GetAddingSubCategoriesInformationRequests`, { cbPublicId: CB, tab: 'draft' })).json();
    expect(afterRefusal.items).toEqual([]);
    // The generic door applies the same rule at SUBMIT: a draft holding only a certified sub-category is refused.
    const generic = await completeDraft(cb, 'cbAddCategories', CB, { certificateId: designationId, data: { categories: [{ category: 'C', subCategories: [sub] }] } });
    const refused = await send(cb, generic.id, 'SUBMIT', generic.version, { agreementAccepted: true });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.validationErrors).toMatchObject([{ members: ['categories.0'], message: expect.stringContaining(sub) }]);
    // That draft, given a new category, is submitted through the spec's call.
    const res = await cb.post(`${PREFIX}/SubmitRequest?lang=en`, { cbPublicId: CB, certificateId: designationId, requestId: generic.id, categories: [{ category: 'E', subCategories: [] }] });
    expect(res.statusCode, res.body).toBe(200);
    const submitted = res.json();
    expect(submitted.id).toBe(generic.id);
    expect(submitted).toMatchObject({ kind: 'cbAddCategories', status: { code: 1001 }, data: { categories: [{ category: 'E' }] } });
    const details = await cb.post(`${PREFIX}/GetRequestDetailsById/${submitted.id}?lang=en`);
    expect(details.statusCode).toBe(200);
    expect(details.json().number).toBe(submitted.number);
    const current = (await cb.post(`${PREFIX}/GetAddingSubCategoriesInformationRequests`, { cbPublicId: CB, tab: 'current' })).json();
    expect(current.items.map((i: { id: string }) => i.id)).toContain(submitted.id);
    const drafts = (await cb.post(`${PREFIX}/GetAddingSubCategoriesInformationRequests`, { cbPublicId: CB, tab: 'draft' })).json();
    expect(drafts.items.map((i: { id: string }) => i.id)).not.toContain(submitted.id);
    // One open request per certificate: initialization is now refused.
    const again = await cb.get(`${PREFIX}/ValidateRequestInitialization/${designationId}?cbPublicId=${CB}&lang=en`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('RequestAlreadyOpen');
    // Another facility neither lists nor reads it.
    expect((await w.as.external.post(`${PREFIX}/GetAddingSubCategoriesInformationRequests`, { cbPublicId: CB })).statusCode).toBe(403);
    expect((await w.as.external.post(`${PREFIX}/GetRequestDetailsById/${submitted.id}`)).statusCode).toBe(404);
  });

  it('GetAddingSubCategoriesInformationRequests still lists a request whose state is in none of the three steps, without a step, beside the others with theirs', async () => {
    const cb = w.as['cb.main'];
    const list = async () => {
      const res = await cb.post(`${PREFIX}/GetAddingSubCategoriesInformationRequests?lang=en`, { cbPublicId: CB, tab: 'current' });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().items as { id: string; step: unknown }[];
    };
    const [row] = await list();
    expect(row, 'the previous test left a request in audit review').toBeDefined();
    expect(row!.step).toEqual({ key: 'auditReview', index: 1, count: 3 });
    // A state no step names (say, of a machine version the steps no longer cover) reaches the list.
    const [{ stateValue }] = await w.t.database.db.select({ stateValue: requests.stateValue }).from(requests).where(eq(requests.id, row!.id));
    await w.t.database.db.update(requests).set({ stateValue: 'somewhereElse.underReview' }).where(eq(requests.id, row!.id));
    try {
      const odd = (await list()).find((r) => r.id === row!.id);
      expect(odd).toMatchObject({ id: row!.id, step: null });
    } finally {
      await w.t.database.db.update(requests).set({ stateValue }).where(eq(requests.id, row!.id));
    }
    expect((await list()).find((r) => r.id === row!.id)?.step).toEqual({ key: 'auditReview', index: 1, count: 3 });
  });
});
