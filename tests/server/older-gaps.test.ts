import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowTimers } from '../../db/schema';
import { productKey } from '../../machines/services';
import { certificateFee, formatAmount, withVat } from '../../machines/services/fees';
import { completeDraft, send, type RequestJson } from '../helpers/requests';
import { VALID_DATA, addProductsData, externalCertificateData, renewalSection } from '../services/fixtures';
import { goodProduct } from '../forms/fixtures';
import { billsOf, certificatesOf, committeeSends, createWorld, fireTimer, money, setExpiry, walk, type CertificateJson, type DemoUser, type World } from '../services/walk';

/**
 * Older gaps named in earlier sessions' notes, each over the HTTP API as a person meets it: a renewal that offers the
 * certificate's products as they stand (added ones included) and renews exactly those kept; the yearly instalments of a
 * certificate suspended over its anniversaries, billed when it is renewed; the food-authority number of each product on
 * the certificate; the internal added-products draft labelled "Draft".
 */
let w: World;
beforeAll(async () => {
  w = await createWorld();
}, 180_000);
afterAll(() => w?.t.close());

const certificateOf = async (user: DemoUser, id: string) => {
  const res = await w.as[user].get(`/api/certificates/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as CertificateJson;
};
/** A product as the certificate's page tells it apart: its name under its brand. */
const nameOf = (p: { nameEn: string; brandEn?: string }) => productKey({ nameEn: p.nameEn, brandEn: p.brandEn });
const namesOf = (products: unknown) => (products as { nameEn: string; brandEn?: string }[]).map(nameOf).sort();

/** Starts the certificate's renewal as its holder does, inside the renewal window; the draft as the wizard reads it. */
async function startRenewal(user: DemoUser, kind: 'internalRenewal' | 'externalRenewal', facilityId: string, certificateId: string, daysLeft: number | null = 30): Promise<RequestJson> {
  if (daysLeft !== null) await setExpiry(w, certificateId, daysLeft);
  const started = await w.as[user].post('/api/requests?lang=en', { kind, facilityId, certificateId });
  expect(started.statusCode, started.body).toBe(201);
  return started.json() as RequestJson;
}

describe('1. a product added to a certificate after issuance is offered by its renewal, to keep or drop', () => {
  it('internal: the renewal lists the added product with its full data; dropped, the renewed certificate no longer lists it', async () => {
    const FACILITY = 'inf-almarai-foods';
    const certified = await completeDraft(w.as['internal.main'], 'internalCertificate', FACILITY);
    expect((await walk(w, certified.id, { applicant: 'internal.main', until: 25, option: 'full' })).request.status.code).toBe(25);
    const [cert] = await certificatesOf(w, w.as['internal.main'], certified.id);
    const added = await completeDraft(w.as['internal.main'], 'internalAddProducts', FACILITY, { certificateId: cert.id });
    expect((await walk(w, added.id, { applicant: 'internal.main', until: 1005 })).request.status.code).toBe(1005);
    const yoghurt = nameOf((addProductsData().products as { nameEn: string; brandEn?: string }[])[0]);
    const listed = namesOf((await certificateOf('internal.main', cert.id)).products);
    expect(listed).toContain(yoghurt);

    // The renewal's products step offers what the certificate lists now, the added product with its weights and unit.
    const draft = await startRenewal('internal.main', 'internalRenewal', FACILITY, cert.id);
    expect(namesOf(draft.data.products)).toEqual(listed);
    const offered = (draft.data.products as { nameEn: string; netWeight?: number; unit?: number }[]).find((p) => p.nameEn === 'Plain Yoghurt');
    expect(offered).toMatchObject({ netWeight: 1000, unit: 5 });

    // The applicant drops the added product: the renewed certificate lists exactly the products kept.
    const kept = (draft.data.products as { nameEn: string }[]).filter((p) => p.nameEn !== 'Plain Yoghurt');
    const edited = await send(w.as['internal.main'], draft.id, 'EDIT', draft.version, { data: { renewal: renewalSection(), products: kept } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await walk(w, draft.id, { applicant: 'internal.main', until: 25, option: 'full' })).request.status.code).toBe(25);
    const renewed = await certificateOf('internal.main', cert.id);
    expect(renewed.requestId).toBe(draft.id);
    expect(namesOf(renewed.products)).toEqual(namesOf(kept));
    expect(namesOf(renewed.products)).not.toContain(yoghurt);
  }, 300_000);

  it('internal: a product added while the renewal is under way was never offered, so the renewal keeps it', async () => {
    const FACILITY = 'inf-almarai-foods';
    const certified = await completeDraft(w.as['internal.main'], 'internalCertificate', FACILITY);
    expect((await walk(w, certified.id, { applicant: 'internal.main', until: 25, option: 'full' })).request.status.code).toBe(25);
    const [cert] = await certificatesOf(w, w.as['internal.main'], certified.id);
    const draft = await startRenewal('internal.main', 'internalRenewal', FACILITY, cert.id);
    // The bread and its brand dropped in the wizard.
    const kept = (draft.data.products as { nameEn: string }[]).filter((p) => p.nameEn !== 'Sliced White Bread');
    const trademarks = (draft.data.trademarks as { nameEn: string }[]).filter((t) => t.nameEn !== 'Lusine');
    const edited = await send(w.as['internal.main'], draft.id, 'EDIT', draft.version, { data: { renewal: renewalSection(), products: kept, trademarks } });
    expect(edited.statusCode, edited.body).toBe(200);
    // Meanwhile a product is added to the certificate.
    const added = await completeDraft(w.as['internal.main'], 'internalAddProducts', FACILITY, { certificateId: cert.id });
    expect((await walk(w, added.id, { applicant: 'internal.main', until: 1005 })).request.status.code).toBe(1005);
    expect((await walk(w, draft.id, { applicant: 'internal.main', until: 25, option: 'full' })).request.status.code).toBe(25);
    expect(namesOf((await certificateOf('internal.main', cert.id)).products)).toEqual(namesOf([...kept, ...(addProductsData().products as unknown[])]));
  }, 300_000);

  it('external: the renewal lists the product added after issuance; dropped, the renewed certificate no longer lists it', async () => {
    const FACTORY = 'exf-anatolia-meat';
    const lamb = goodProduct({ nameAr: 'لحم ضأن مجمد', nameEn: 'Frozen Lamb', brandAr: 'اناضول', brandEn: 'Anatolia', saudiHsCode: '020430000000', globalHsCode: '020430', productNumber: 'TRX00000000000002', category: 'C0', unit: 0, netWeight: 20, grossWeight: 21 });
    const certified = await completeDraft(w.as.external, 'externalCertificate', FACTORY);
    expect((await walk(w, certified.id, { applicant: 'external', until: 105 })).request.status.code).toBe(105);
    const [cert] = await certificatesOf(w, w.as.external, certified.id);
    const added = await completeDraft(w.as.external, 'externalAddProducts', FACTORY, { certificateId: cert.id, data: { products: [lamb] } });
    expect((await walk(w, added.id, { applicant: 'external', until: 8 })).request.status.code).toBe(8);
    expect(namesOf((await certificateOf('external', cert.id)).products)).toEqual(namesOf([...(externalCertificateData().products as unknown[]), lamb]));

    const draft = await startRenewal('external', 'externalRenewal', FACTORY, cert.id);
    expect(namesOf(draft.data.products)).toEqual(namesOf([...(externalCertificateData().products as unknown[]), lamb]));
    const kept = (draft.data.products as { nameEn: string }[]).filter((p) => p.nameEn !== 'Frozen Lamb');
    const edited = await send(w.as.external, draft.id, 'EDIT', draft.version, { data: { renewal: renewalSection(), products: kept } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await walk(w, draft.id, { applicant: 'external', until: 5 })).request.status.code).toBe(5);
    expect(namesOf((await certificateOf('external', cert.id)).products)).toEqual(namesOf(externalCertificateData().products));
  }, 300_000);
});

describe('2. a certificate paid yearly, suspended over its anniversaries, expired, then renewed', () => {
  const FACILITY = 'inf-almarai-foods';
  const pendingTimers = (workflowId: string, event: string) =>
    w.t.database.db
      .select()
      .from(workflowTimers)
      .where(and(eq(workflowTimers.requestId, workflowId), eq(workflowTimers.event, event), isNull(workflowTimers.firedAt), isNull(workflowTimers.cancelledAt)));
  const year = () => {
    const c = withVat(certificateFee(w.t.app.settings.current().fees.internalCertificateYear, 1, 'yearly'), w.t.app.settings.current().vatRate);
    return { amount: formatAmount(c.amount), vat: formatAmount(c.vat), total: formatAmount(c.total) };
  };

  it('bills the years of the old validity never billed when it is renewed: every year chosen is owed, as paid in full', async () => {
    const years = (VALID_DATA.internalCertificate().validity as { years: number }).years;
    expect(years).toBeGreaterThan(1);
    const certified = await completeDraft(w.as['internal.main'], 'internalCertificate', FACILITY);
    expect((await walk(w, certified.id, { applicant: 'internal.main', until: 25, option: 'yearly' })).request.status.code).toBe(25);
    const [cert] = await certificatesOf(w, w.as['internal.main'], certified.id);
    expect(await pendingTimers(cert.id, 'INSTALLMENT_DUE')).toHaveLength(1);

    // Suspended by the committee: no anniversary bill goes out while it is suspended; its validity ends so.
    await committeeSends(w, cert.id, 'SUSPEND', 'Corrective actions of the surveillance audit not closed');
    expect(await pendingTimers(cert.id, 'INSTALLMENT_DUE')).toEqual([]);
    await setExpiry(w, cert.id, -1);
    await fireTimer(w.t, cert.id, 'CERTIFICATE_EXPIRED');
    expect((await certificateOf('internal.main', cert.id)).status.code).toBe(2);
    expect(await billsOf(w.as['internal.main'], cert.id)).toEqual([]);

    // Renewed (an expired certificate must be renewed): the old validity's later years are billed on the certificate,
    // one year each at the fee in force, awaiting payment, besides the renewal's own first year.
    const draft = await startRenewal('internal.main', 'internalRenewal', FACILITY, cert.id, null);
    const edited = await send(w.as['internal.main'], draft.id, 'EDIT', draft.version, { data: { renewal: renewalSection() } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await walk(w, draft.id, { applicant: 'internal.main', until: 25, option: 'yearly' })).request.status.code).toBe(25);
    const instalments = await billsOf(w.as['internal.main'], cert.id);
    expect(instalments.map((b) => [b.service.code, b.feeKind.code, b.status.code, money(b)])).toEqual(
      Array.from({ length: years - 1 }, () => [6, 'certificateInstallment', 1, year()]),
    );
    const renewal = (await billsOf(w.as['internal.main'], draft.id)).filter((b) => b.feeKind.code === 'renewal');
    expect(renewal.map((b) => [b.status.code, money(b)])).toEqual([[2, year()]]);
    // The renewed validity's own anniversaries are armed: one pending, the next year's.
    expect(await pendingTimers(cert.id, 'INSTALLMENT_DUE')).toHaveLength(1);
  }, 300_000);
});

describe('3. the certificate lists each product with its number in the national food authority system', () => {
  it('GET /api/certificates/:id shows every product’s food-authority number, as the request gave it', async () => {
    const FACTORY = 'exf-anatolia-meat';
    const certified = await completeDraft(w.as.external, 'externalCertificate', FACTORY);
    expect((await walk(w, certified.id, { applicant: 'external', until: 105 })).request.status.code).toBe(105);
    const [cert] = await certificatesOf(w, w.as.external, certified.id);
    const expected = (externalCertificateData().products as { nameEn: string; productNumber: string }[]).map((p) => [p.nameEn, p.productNumber]);
    expect(cert.products.map((p) => [p.nameEn, p.productNumber])).toEqual(expected);
    // Staff read the same.
    expect((await certificateOf('registration', cert.id)).products.map((p) => [p.nameEn, p.productNumber])).toEqual(expected);
  }, 300_000);
});

describe('4. the internal added-products draft reads "Draft", as every other service’s draft does', () => {
  it('its draft shows 0 "Draft" (مسودة) in both languages; submitted, it is 1001 "New"', async () => {
    const FACILITY = 'inf-almarai-foods';
    const certified = await completeDraft(w.as['internal.main'], 'internalCertificate', FACILITY);
    expect((await walk(w, certified.id, { applicant: 'internal.main', until: 25, option: 'full' })).request.status.code).toBe(25);
    const [cert] = await certificatesOf(w, w.as['internal.main'], certified.id);
    const draft = await completeDraft(w.as['internal.main'], 'internalAddProducts', FACILITY, { certificateId: cert.id });
    const statusIn = async (lang: 'en' | 'ar') => ((await w.as['internal.main'].get(`/api/requests/${draft.id}?lang=${lang}`)).json() as RequestJson).status;
    expect(await statusIn('en')).toEqual({ code: 0, label: 'Draft' });
    expect(await statusIn('ar')).toEqual({ code: 0, label: 'مسودة' });
    // The internal certificate's draft reads the same.
    const other = await w.as['internal.main'].post('/api/requests?lang=en', { kind: 'internalCertificate', facilityId: FACILITY });
    expect((other.json() as RequestJson).status).toEqual({ code: 0, label: 'Draft' });
    const sent = await send(w.as['internal.main'], draft.id, 'SUBMIT', draft.version, { agreementAccepted: true });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await statusIn('en')).toEqual({ code: 1001, label: 'New' });
    expect(await statusIn('ar')).toEqual({ code: 1001, label: 'جديد' });
  }, 300_000);
});
