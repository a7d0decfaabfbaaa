import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categoriesAlreadyCertified } from '../../server/modules/requests/server-checks';
import { completeDraft, send, type RequestJson } from '../helpers/requests';
import { createWorld, designationOf, type World } from './walk';

/**
 * CB add categories: "each chosen category or sub-category adds something the designation certificate does not cover
 * yet; one it already covers is refused and named" (machines/services/readings.ts, categoriesNotOnCertificate). A walk
 * (walk3 D4) submitted C0, already on the designation, beside the new CIII and it went through: the check refused an
 * entry only when every chosen sub-category was already held. cb-global-halal is designated for C0, CI, CII, CIV
 * (db/seed-public.ts).
 */
const CB = 'cb-global-halal';
let w: World;
let designationId: string;

beforeAll(async () => {
  w = await createWorld();
  const designation = await designationOf(w, CB);
  expect(designation.categories).toEqual(expect.arrayContaining(['C0']));
  expect(designation.categories).not.toContain('CIII');
  designationId = designation.id;
}, 120_000);
afterAll(() => w?.t.close());

describe('add categories refuses a category the designation already holds, even beside new ones', () => {
  it('C0 (held) with CIII (new) is refused naming C0 only, in English and Arabic, the draft unchanged; CIII alone is then submitted', async () => {
    const cb = w.as['cb.main'];
    const draft = await completeDraft(cb, 'cbAddCategories', CB, { certificateId: designationId, data: { categories: [{ category: 'C', subCategories: ['C0', 'CIII'] }] } });
    for (const [lang, message] of [
      ['en', 'C0 is already on the designation certificate; choose categories it does not cover yet'],
      ['ar', 'C0 مدرجة في شهادة التعيين بالفعل؛ اختر فئات لا تشملها بعد'],
    ]) {
      const res = await send(cb, draft.id, 'SUBMIT', draft.version, { agreementAccepted: true }, lang);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.validationErrors).toMatchObject([{ members: ['categories.0'], message }]);
      const after = (await cb.get(`/api/requests/${draft.id}`)).json() as RequestJson;
      expect([after.status.code, after.version]).toEqual([draft.status.code, draft.version]);
    }
    // A wholly new choice passes.
    const edited = await send(cb, draft.id, 'EDIT', draft.version, { data: { categories: [{ category: 'C', subCategories: ['CIII'] }] } });
    expect(edited.statusCode, edited.body).toBe(200);
    const res = await send(cb, draft.id, 'SUBMIT', edited.json().version, { agreementAccepted: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: { code: 1001 }, data: { categories: [{ category: 'C', subCategories: ['CIII'] }] } });
  });

  it('the rule itself: held sub-categories are named, a main category chosen whole is refused only when wholly held', () => {
    const held = ['C0', 'CI', 'E'];
    expect(categoriesAlreadyCertified(held, [{ category: 'C', subCategories: ['CIII', 'C0', 'CI'] }])).toEqual([
      { path: 'categories.0', message: 'form.categoryAlreadyCertified', params: { category: 'C0, CI' } },
    ]);
    expect(categoriesAlreadyCertified(held, [{ category: 'C', subCategories: ['CIII'] }])).toEqual([]);
    expect(categoriesAlreadyCertified(held, [{ category: 'C', subCategories: [] }])).toEqual([]);
    expect(categoriesAlreadyCertified(held, [{ category: 'E', subCategories: [] }])).toEqual([
      { path: 'categories.0', message: 'form.categoryAlreadyCertified', params: { category: 'E' } },
    ]);
  });
});
