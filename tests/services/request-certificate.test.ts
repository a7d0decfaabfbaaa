import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goodProduct } from '../forms/fixtures';
import { completeDraft } from '../helpers/requests';
import { certificatesOf, createWorld, walk, type World } from './walk';

/**
 * GET /api/requests/{id}/certificate: the request page's link to the certificate of a finished foreign-factory request
 * (the certificate it issued, or the one it changed), 404 before that, and only for those who may see the request.
 */
const FACTORY = 'exf-anatolia-meat';
let w: World;

beforeAll(async () => {
  w = await createWorld();
}, 120_000);
afterAll(() => w?.t.close());

/** What the request answer says the request produced (the request page links by it). */
const outcomeOf = async (id: string) => ((await w.as.external.get(`/api/requests/${id}`)).json() as { outcome: unknown }).outcome;
const certificateOf = (user: 'external' | 'internal.main' | 'registration', id: string) => w.as[user].get(`/api/requests/${id}/certificate`);

describe('the certificate of a request', () => {
  it('an external certificate request names its certificate once issued, not before, and not to another facility', async () => {
    const draft = await completeDraft(w.as.external, 'externalCertificate', FACTORY);
    expect((await certificateOf('external', draft.id)).statusCode).toBe(404);
    const { request, steps } = await walk(w, draft.id, { applicant: 'external', until: 105 });
    expect(request.status.code, JSON.stringify(steps)).toBe(105);
    const [issued] = await certificatesOf(w, w.as.external, draft.id);
    expect(await outcomeOf(draft.id)).toEqual({ kind: 'certificate-issued' });
    const res = await certificateOf('external', draft.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id: issued!.id, number: issued!.number });
    // Staff see it too; an internal facility's user does not learn it exists.
    expect((await certificateOf('registration', draft.id)).json()).toEqual({ id: issued!.id, number: issued!.number });
    expect((await certificateOf('internal.main', draft.id)).statusCode).toBe(404);

    // Adding products changes that certificate: the finished add-products request names it.
    const product = goodProduct({ nameAr: 'لحم ضأن مجمد', nameEn: 'Frozen Lamb', brandAr: 'اناضول', brandEn: 'Anatolia', saudiHsCode: '020430000000', globalHsCode: '020430', productNumber: 'TRX00000000000002', category: 'C0', unit: 0, netWeight: 20, grossWeight: 21 });
    const add = await completeDraft(w.as.external, 'externalAddProducts', FACTORY, { certificateId: issued!.id, data: { products: [product] } });
    expect((await certificateOf('external', add.id)).statusCode).toBe(404);
    expect(await outcomeOf(add.id)).toBeNull();
    const added = await walk(w, add.id, { applicant: 'external', until: 8 });
    expect(added.request.status.code, JSON.stringify(added.steps)).toBe(8);
    expect((await certificateOf('external', add.id)).json()).toEqual({ id: issued!.id, number: issued!.number });
    expect(await outcomeOf(add.id)).toEqual({ kind: 'certificate-changed' });
  });

  it('a paid shipment names its shipment certificate', async () => {
    const draft = await completeDraft(w.as.external, 'shipment', FACTORY);
    const { request, steps } = await walk(w, draft.id, { applicant: 'external', until: 1008 });
    expect(request.status.code, JSON.stringify(steps)).toBe(1008);
    const [issued] = await certificatesOf(w, w.as.external, draft.id);
    const res = await certificateOf('external', draft.id);
    expect(res.json()).toEqual({ id: issued!.id, number: issued!.number });
    expect(issued!.number).toMatch(/^SC/);
    expect(await outcomeOf(draft.id)).toEqual({ kind: 'certificate-issued' });
  });
});
