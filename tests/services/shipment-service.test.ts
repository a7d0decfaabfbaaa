import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICES, validateSubmission } from '../../machines/services';
import { accept, completeDraft } from '../helpers/requests';
import { shipmentData } from './fixtures';
import { billsOf, createWorld, fireDue, payBill, walk, type World } from './walk';

/**
 * Spec 02 section 3: a shipment is billed under the payment service of its goods: 3 poultry, 4 meat, 2 other
 * shipments. A walk (walk1 item 1) saw a meat shipment billed as "Other shipment certificates": the machine compared
 * the `shipmentType` section (an object `{ goods }`) with the goods' names. Each shipment here is the contract-valid
 * fixture with its goods chosen, submitted by the factory over HTTP; its bill is read as the applicant reads it.
 */
const FACTORY = 'exf-anatolia-meat';
let w: World;

beforeAll(async () => {
  w = await createWorld();
  // A shipment needs the factory's Halal certificate valid on the shipment date: the factory gets one first.
  const certificate = await completeDraft(w.as.external, 'externalCertificate', FACTORY);
  expect((await walk(w, certificate.id, { applicant: 'external', until: 105 })).request.status.code).toBe(105);
}, 120_000);
afterAll(() => w?.t.close());

async function submittedShipment(goods: 'meat' | 'poultry' | 'other') {
  const data = { ...shipmentData(), shipmentType: { goods } };
  // The data is what the product's own schemas accept.
  expect(validateSubmission(SERVICES.shipment, data).ok).toBe(true);
  const draft = await completeDraft(w.as.external, 'shipment', FACTORY, { data });
  const submitted = await accept(w.as.external, draft.id, 'SUBMIT', { agreementAccepted: true });
  expect(submitted.status.code).toBe(1007);
  return draft.id;
}

describe('the shipment bill follows the goods (spec 02 section 3)', () => {
  it.each([
    ['meat', 4, 'Meat shipment', 'شحنة لحوم'],
    ['poultry', 3, 'Poultry shipment', 'شحنة دواجن'],
    ['other', 2, 'Other shipment certificates', 'شهادات الشحنات الأخرى'],
  ] as const)('a %s shipment is billed as service %i (%s)', async (goods, code, en, ar) => {
    const id = await submittedShipment(goods);
    const [bill] = await billsOf(w.as.external, id);
    expect(bill).toMatchObject({ feeKind: { code: 'shipment' }, status: { code: 1 }, service: { code } });
    for (const [lang, name] of [['en', en], ['ar', ar]] as const) {
      const listed = (await w.as.external.get(`/api/bills?requestId=${id}&lang=${lang}`)).json().items as { service: { code: number; name: string } }[];
      expect(listed.map((b) => b.service)).toEqual([{ code, name }]);
    }
    // Paid, the shipment completes under the same service.
    await payBill(w.t, bill.id, bill);
    await fireDue(w.t);
    expect((await w.as.external.get(`/api/requests/${id}`)).json().status.code).toBe(1008);
    expect((await billsOf(w.as.external, id)).map((b) => [b.service.code, b.status.code])).toEqual([[code, 2]]);
  });
});
