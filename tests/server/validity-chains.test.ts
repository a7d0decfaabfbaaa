import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { certificates } from '../../db/schema';
import type { EmbeddedEngine } from '../../workflows/embedded/embedded-engine';
import arErrors from '../../locales/ar/errors.json';
import enErrors from '../../locales/en/errors.json';
import arValidation from '../../locales/ar/validation.json';
import enValidation from '../../locales/en/validation.json';
import { riyadhDate } from '../../machines/working-days';
import { issueCertificate } from '../e2e/harness/data';
import type { Client } from '../helpers/app';
import { accept, completeDraft, send, type RequestJson } from '../helpers/requests';
import { externalCertificateData } from '../services/fixtures';
import { billsOf, certificatesOf, createWorld, designationOf, payBill, setExpiry, walk, type CertificateJson, type DemoUser, type World } from '../services/walk';
import { tFor } from '../../server/i18n';

/**
 * Rules that depend on time and on the state of OTHER records (spec 02 section 4 "Other rules on states", section 9):
 * the renewal window and the services a certificate opens at the edges of its days, and requests already in flight
 * when the certificate they use expires or is suspended, or when another account certifies the same foreign factory.
 * Everything through HTTP, as a person meets it: the actions and offers shown, the refusal's words in both languages,
 * and nothing changed by a refused step.
 */
const INTERNAL = 'inf-almarai-foods';
const CB = 'cb-global-halal';
const FACTORY = 'exf-anatolia-meat';

let w: World;
/** The internal certificate of the file's requests, issued once down its golden path. */
let cert: CertificateJson;
beforeAll(async () => {
  w = await createWorld();
  const certified = await completeDraft(w.as['internal.main'], 'internalCertificate', INTERNAL);
  const { request, steps } = await walk(w, certified.id, { applicant: 'internal.main', until: 25, option: 'full' });
  expect(request.status.code, JSON.stringify(steps)).toBe(25);
  [cert] = await certificatesOf(w, w.as['internal.main'], certified.id);
}, 240_000);
afterAll(() => w?.t.close());


const actionsOf = async (c: Client, id: string) => ((await c.get(`/api/requests/${id}/actions`)).json() as { actions: { type: string }[] }).actions.map((a) => a.type);
const requestOf = async (c: Client, id: string) => (await c.get(`/api/requests/${id}`)).json() as RequestJson;
/** What the start page says for a service on this certificate: may it start, and if not, the start's own words. */
async function startCheck(c: Client, kind: string, facilityId: string, certificateId?: string, lang: 'ar' | 'en' = 'en') {
  const res = await c.get(`/api/requests/start-check?kind=${kind}&facilityId=${facilityId}${certificateId ? `&certificateId=${certificateId}` : ''}&lang=${lang}`);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { canStart: boolean; refusal: { code: string; message: string } | null };
  return body.canStart ? 'starts' : body.refusal!.code;
}
/** The renewal the certificate's page offers its holder (null: none). */
const renewalOffered = async (c: Client, id: string) => ((await c.get(`/api/certificates/${id}`)).json() as { renewal: { kind: string } | null }).renewal?.kind ?? null;
/** Starts paying a bill as its payer does (the portal's page answered), or the refusal in `lang`. */
const startPaying = (c: Client, billId: string, lang: 'ar' | 'en' = 'en') => c.post(`/api/bills/${billId}/pay?lang=${lang}`, {});
const openBill = async (c: Client, requestId: string) => (await billsOf(c, requestId)).find((b) => b.status.code === 1)!;
const adopt = () => (w.t.app.engine as unknown as EmbeddedEngine).adoptCertificates();
/** The refusal of the file's certificate once expired on `on`, in `lang` (its number and its expiry day in Riyadh). */
const expiredText = (lang: 'ar' | 'en', on: Date) => tFor(lang)('errors:CertificateNotValidExpired', { number: cert.number, date: riyadhDate(on.getTime()) });

describe('an internal certificate at the edges of its days', () => {
  afterAll(() => setExpiry(w, cert.id, 300));

  it('renewal opens under 60 days left; adding products and marks stay open until the expiry date, then only the renewal', async () => {
    const c = w.as['internal.main'];
    const seen: Record<string, unknown> = {};
    for (const days of [61, 60, 59, 0, -1]) {
      await setExpiry(w, cert.id, days);
      seen[days] = {
        renewal: await renewalOffered(c, cert.id),
        renew: await startCheck(c, 'internalRenewal', INTERNAL, cert.id),
        addProducts: await startCheck(c, 'internalAddProducts', INTERNAL, cert.id),
        marks: await startCheck(c, 'internalHalalMark', INTERNAL, cert.id),
        // Another certificate for the facility: an expired one blocks issuing certificates until renewed.
        another: await startCheck(c, 'internalCertificate', INTERNAL),
      };
    }
    const open = { addProducts: 'starts', marks: 'starts', another: 'starts' };
    const closed = { renewal: 'internalRenewal', renew: 'starts', addProducts: 'CertificateNotValidExpired', marks: 'CertificateNotValidExpired', another: 'FacilityCertificateExpired' };
    expect(seen).toEqual({
      61: { renewal: null, renew: 'RenewalNotOpen', ...open },
      60: { renewal: 'internalRenewal', renew: 'starts', ...open },
      59: { renewal: 'internalRenewal', renew: 'starts', ...open },
      0: closed,
      [-1]: closed,
    });
  });
});

describe('a CB designation at the edges of its days', () => {
  let designation: { id: string };
  beforeAll(async () => {
    designation = await designationOf(w, CB);
  });
  afterAll(() => setExpiry(w, designation.id, 695));

  it('the renewal prompt opens under 180 days left; at the expiry date the CB serves no factory until renewed', async () => {
    const c = w.as['cb.main'];
    const seen: Record<string, unknown> = {};
    for (const days of [181, 180, 179, -1]) {
      await setExpiry(w, designation.id, days);
      seen[days] = {
        renewal: await renewalOffered(c, designation.id),
        renew: await startCheck(c, 'cbRenewal', CB, designation.id),
        categories: await startCheck(c, 'cbAddCategories', CB, designation.id),
        factory: await startCheck(c, 'externalCertificate', CB),
      };
    }
    const valid = { categories: 'starts', factory: 'starts' };
    expect(seen).toEqual({
      181: { renewal: null, renew: 'RenewalNotOpen', ...valid },
      180: { renewal: 'cbRenewal', renew: 'starts', ...valid },
      179: { renewal: 'cbRenewal', renew: 'starts', ...valid },
      [-1]: { renewal: 'cbRenewal', renew: 'starts', categories: 'CertificateNotValidExpired', factory: 'CbDesignationNotUsable' },
    });
  });
});

describe('a request in flight when its certificate expires or is suspended', () => {
  // Each test leaves the certificate valid again, also when it fails (the later scenarios need it so).
  afterEach(async () => {
    await setExpiry(w, cert.id, 300);
    const lifecycle = await w.as.committee.get(`/api/requests/${cert.id}/actions`);
    if ((lifecycle.json() as { actions: { type: string }[] }).actions.some((a) => a.type === 'REINSTATE')) await accept(w.as.committee, cert.id, 'REINSTATE', { reason: 'Left suspended by a failed test' });
  });

  /** An add-products request about the certificate, walked to its bill (1002, unpaid). */
  async function awaitingPayment() {
    const draft = await completeDraft(w.as['internal.main'], 'internalAddProducts', INTERNAL, { certificateId: cert.id });
    const { request, steps } = await walk(w, draft.id, { applicant: 'internal.main', until: 1005, payBills: false });
    expect(request.status.code, JSON.stringify(steps)).toBe(1002);
    return request;
  }
  const productsOn = async () => ((await w.as['internal.main'].get(`/api/certificates/${cert.id}`)).json() as CertificateJson).products.map((p) => p.nameEn).sort();

  it('expired while awaiting payment: the payment is refused in the payer’s language, nothing changes; renewed, it is paid and goes on', async () => {
    const c = w.as['internal.main'];
    const request = await awaitingPayment();
    const bill = await openBill(c, request.id);
    const expiredOn = await setExpiry(w, cert.id, -1);
    for (const lang of ['en', 'ar'] as const) {
      const refused = await startPaying(c, bill.id, lang);
      expect([refused.statusCode, refused.json().error.code, refused.json().error.message]).toEqual([400, 'CertificateNotValidExpired', expiredText(lang, expiredOn)]);
    }
    expect([(await requestOf(c, request.id)).version, (await openBill(c, request.id)).id]).toEqual([request.version, bill.id]);
    // The applicant may still exit: the request offers its cancellation.
    expect(await actionsOf(c, request.id)).toEqual(['CANCEL']);

    // Renewed (time moved back inside the validity, as a completed renewal moves it): the payment opens again.
    await setExpiry(w, cert.id, 300);
    expect((await startPaying(c, bill.id)).statusCode).toBe(200);
  });

  it('suspended while awaiting payment: refused until the committee reinstates it', async () => {
    const c = w.as['internal.main'];
    const request = await awaitingPayment();
    const bill = await openBill(c, request.id);
    await accept(w.as.committee, cert.id, 'SUSPEND', { reason: 'Inspection found a non-conformity' });
    const refused = await startPaying(c, bill.id);
    expect([refused.statusCode, refused.json().error.code]).toEqual([400, 'CertificateNotValidSuspended']);
    await accept(w.as.committee, cert.id, 'REINSTATE', { reason: 'Corrective actions accepted' });
    expect((await startPaying(c, bill.id)).statusCode).toBe(200);
  });

  it('expired after payment: the committee is not offered the issue and is refused it, the products stay off; renewed, the products are added', async () => {
    const c = w.as['internal.main'];
    const before = await productsOn();
    const request = await awaitingPayment();
    await payBill(w.t, (await openBill(c, request.id)).id, await openBill(c, request.id));
    const paid = await requestOf(c, request.id);
    expect(paid.status.code).toBe(1004);
    const expiredOn = await setExpiry(w, cert.id, -1);
    expect(await actionsOf(w.as.committee, request.id)).not.toContain('ISSUE_CERTIFICATE');
    const refused = await send(w.as.committee, request.id, 'ISSUE_CERTIFICATE', paid.version, {}, 'ar');
    expect([refused.statusCode, refused.json().error.code, refused.json().error.message]).toEqual([400, 'CertificateNotValidExpired', expiredText('ar', expiredOn)]);
    expect([(await requestOf(c, request.id)).status.code, await productsOn()]).toEqual([1004, before]);

    await setExpiry(w, cert.id, 300);
    expect(await actionsOf(w.as.committee, request.id)).toContain('ISSUE_CERTIFICATE');
    const { request: issued } = await walk(w, request.id, { applicant: 'internal.main', until: 1005 });
    expect(issued.status.code).toBe(1005);
    expect((await productsOn()).length).toBeGreaterThan(before.length);
  }, 120_000);
});

describe('the CB’s designation suspended or expired while its factories’ requests are in flight', () => {
  beforeAll(() => adopt());

  afterEach(async () => {
    const { id } = await designationOf(w, CB);
    const lifecycle = await w.as.committee.get(`/api/requests/${id}/actions`);
    if ((lifecycle.json() as { actions: { type: string }[] }).actions.some((a) => a.type === 'REINSTATE')) await accept(w.as.committee, id, 'REINSTATE', { reason: 'Left suspended by a failed test' });
  });

  it('its request for a factory awaiting payment, its shipments and its changes are refused in the CB’s language; reinstated, they go on', async () => {
    const cb = w.as['cb.main'];
    const { id: designationId } = await designationOf(w, CB);
    const draft = await completeDraft(cb, 'externalCertificate', CB, { data: { factory: externalCertificateData().factory } });
    const { request } = await walk(w, draft.id, { applicant: 'cb.main', until: 105, payBills: false });
    expect(request.status.code).toBe(102);
    const bill = await openBill(cb, draft.id);

    await accept(w.as.committee, designationId, 'SUSPEND', { reason: 'Accreditation under review' });
    const number = (await cb.get(`/api/certificates/${designationId}`)).json().number as string;
    for (const lang of ['en', 'ar'] as const) {
      const refused = await startPaying(cb, bill.id, lang);
      expect([refused.statusCode, refused.json().error.message]).toEqual([400, tFor(lang)('errors:CbDesignationNotUsable', { number })]);
    }
    expect([await startCheck(cb, 'shipment', CB), await startCheck(cb, 'externalCertificate', CB)]).toEqual(['CbDesignationNotUsable', 'CbDesignationNotUsable']);
    expect((await requestOf(cb, draft.id)).version).toBe(request.version);

    await accept(w.as.committee, designationId, 'REINSTATE', { reason: 'Accreditation confirmed' });
    expect([(await startPaying(cb, bill.id)).statusCode, await startCheck(cb, 'shipment', CB)]).toEqual([200, 'starts']);
    // Left unpaid: cancelled, so the factory stays free for the next scenario's accounts.
    await accept(cb, draft.id, 'CANCEL', { reason: 'Not needed' });
  }, 120_000);
});

describe('a delegate already working when the facility’s certificate expires', () => {
  afterAll(() => setExpiry(w, cert.id, 300));

  it('the delegate’s draft is refused at submission, and the main user may not delegate anyone else, each in the reader’s language', async () => {
    const sub = w.as['internal.sub'];
    const draft = await completeDraft(sub, 'internalAddProducts', INTERNAL, { certificateId: cert.id });
    const expiredOn = await setExpiry(w, cert.id, -1);
    const refused = await send(sub, draft.id, 'SUBMIT', draft.version, { agreementAccepted: true }, 'ar');
    expect([refused.statusCode, refused.json().error.message]).toEqual([400, expiredText('ar', expiredOn)]);
    expect((await requestOf(sub, draft.id)).version).toBe(draft.version);

    for (const [lang, errors] of [['en', enErrors], ['ar', arErrors]] as const) {
      const res = await w.as['internal.main'].post(`/api/InternalFacilityDelegation/SubmitFacilityDelegationRequest?lang=${lang}`, {
        step: 'start',
        facilityPublicId: INTERNAL,
        delegate: { nationalId: '1000000008', firstName: 'Huda', lastName: 'Al-Shammari', birthDate: '1991-03-14', phone: '0557000099', preferredLanguage: 'en', email: 'huda.validchains@example.com' },
        delegationType: 1,
        permissions: [],
      });
      expect([res.statusCode, res.json().error?.message]).toEqual([400, errors.DelegationCertificateBlocked]);
    }
  });
});

describe('a category taken out of the CB’s designation (spec 02 section 4, error 119)', () => {
  it('the products of a factory’s certificate under it are shown deactivated, and a Halal mark for one is refused, naming it, in both languages', async () => {
    const cb = w.as['cb.main'];
    const designation = await designationOf(w, CB);
    const [beef] = externalCertificateData().products as Record<string, unknown>[];
    const certified = (p: Record<string, unknown>) => ({ nameAr: p.nameAr as string, nameEn: p.nameEn as string, brandAr: p.brandAr as string, brandEn: p.brandEn as string, productNumber: p.productNumber as string, category: p.category as string });
    const now = new Date();
    const certificateId = await issueCertificate(w.t.database, 'cb.main', {
      number: 'HC-VALIDCHAINS-119',
      kind: 'externalHalal',
      facilityPublicId: FACTORY,
      cbPublicId: CB,
      categories: ['C0'],
      products: [certified(beef)],
      verificationCode: 'VALIDCHAINS11900',
      issuedAt: now,
      validFrom: now,
      expiresAt: new Date(now.getTime() + 300 * 86_400_000),
    });
    const markOf = { products: [{ ...certified(beef), scope: 'Saudi' }], package: { tags: 16 } };
    /** The certificate page's products as the CB reads them: name, and whether shown deactivated. */
    const shown = async () => ((await cb.get(`/api/certificates/${certificateId}`)).json() as { products: { nameEn: string; deactivated?: boolean }[] }).products.map((p) => [p.nameEn, p.deactivated ?? false]);
    expect(await shown()).toEqual([[beef.nameEn, false]]);
    // Under the designation: the mark is submitted.
    const inside = await completeDraft(cb, 'externalHalalMark', CB, { certificateId, data: markOf });
    expect((await send(cb, inside.id, 'SUBMIT', inside.version, { agreementAccepted: true })).statusCode).toBe(200);

    await w.t.database.db.update(certificates).set({ categories: designation.categories.filter((c) => c !== beef.category) }).where(eq(certificates.id, designation.id));
    try {
      expect(await shown()).toEqual([[beef.nameEn, true]]);
      for (const [lang, messages] of [['en', enValidation], ['ar', arValidation]] as const) {
        const draft = await completeDraft(cb, 'externalHalalMark', CB, { certificateId, data: markOf });
        const refused = await send(cb, draft.id, 'SUBMIT', draft.version, { agreementAccepted: true }, lang);
        expect(refused.statusCode, refused.body).toBe(400);
        expect(refused.json().error.validationErrors.map((e: { message: string; members: string[] }) => [e.members, e.message])).toEqual([
          [['products.0'], messages.form.productDeactivatedOutsideCbDesignation.replace('{{product}}', beef.nameEn as string)],
        ]);
        expect((await requestOf(cb, draft.id)).version).toBe(draft.version);
      }
    } finally {
      await w.t.database.db.update(certificates).set({ categories: designation.categories }).where(eq(certificates.id, designation.id));
    }
    // The category given back: active again.
    expect(await shown()).toEqual([[beef.nameEn, false]]);
  }, 120_000);
});

describe('two accounts ask to certify the same foreign factory', () => {
  it('both submitted; once the first completes, the second is suspended at its payment with the spec’s sentence and may be cancelled', async () => {
    const own = await completeDraft(w.as.external, 'externalCertificate', FACTORY);
    const viaCb = await completeDraft(w.as['cb.main'], 'externalCertificate', CB, { data: { factory: externalCertificateData().factory } });
    for (const [id, applicant] of [[own.id, 'external'], [viaCb.id, 'cb.main']] as [string, DemoUser][]) {
      const { request } = await walk(w, id, { applicant, until: 105, payBills: false });
      expect(request.status.code).toBe(102);
    }
    const first = await walk(w, own.id, { applicant: 'external', until: 105 });
    expect(first.request.status.code).toBe(105);
    const [issued] = await certificatesOf(w, w.as.external, own.id);

    const cb = w.as['cb.main'];
    const waiting = await requestOf(cb, viaCb.id);
    const bill = await openBill(cb, viaCb.id);
    for (const lang of ['en', 'ar'] as const) {
      const refused = await startPaying(cb, bill.id, lang);
      expect([refused.statusCode, refused.json().error.code, refused.json().error.message]).toEqual([
        409,
        'ExternalFacilityTaken',
        tFor(lang)('errors:ExternalFacilityTaken', { number: issued.number }),
      ]);
    }
    expect([(await requestOf(cb, viaCb.id)).version, (await openBill(cb, viaCb.id)).status.code]).toEqual([waiting.version, 1]);
    // Exit and cancel: the cancellation is offered and ends the request with its bill.
    expect(await actionsOf(cb, viaCb.id)).toEqual(['CANCEL']);
    await accept(cb, viaCb.id, 'CANCEL', { reason: 'The factory is already certified' });
    expect((await billsOf(cb, viaCb.id)).map((b) => b.status.code)).not.toContain(1);
  }, 240_000);
});
