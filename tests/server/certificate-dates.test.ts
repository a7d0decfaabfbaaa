import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificates, facilities, facilityMembers, users } from '../../db/schema';
import { riyadhDate } from '../../machines/working-days';
import { tFor } from '../../server/i18n';
import { issueCertificate } from '../e2e/harness/data';
import { readPdf } from '../helpers/pdf';
import { completeDraft, send, type RequestJson } from '../helpers/requests';
import { externalCertificateData, renewalSection } from '../services/fixtures';
import { certificatesOf, committeeSends, createWorld, setExpiry, walk, type CertificateJson, type World } from '../services/walk';

/*
 * The dates a renewed certificate carries, as its holder downloads it (the PDF), opens it (the certificate page's API)
 * and anyone looks it up (the public verification), renewed before its expiry and after it (README, choices); and the
 * refusal of a service whose certificate is not valid, saying why in Arabic and English.
 */
const FACTORY = 'exf-anatolia-meat';
const LANGS = ['ar', 'en'] as const;
const DAY = 86_400_000;

let w: World;
let cert: CertificateJson;
/** The request that issued the certificate (its set A changes stay with it). */
let issuing: RequestJson;
const validityMonths = () => (externalCertificateData().paymentWay as { validityYears: number }).validityYears * 12;

beforeAll(async () => {
  w = await createWorld();
  const draft = await completeDraft(w.as.external, 'externalCertificate', FACTORY);
  const { request, steps } = await walk(w, draft.id, { applicant: 'external', until: 105 });
  expect(request.status.code, JSON.stringify(steps)).toBe(105);
  issuing = request;
  [cert] = await certificatesOf(w, w.as.external, draft.id);
}, 240_000);
afterAll(() => w?.t.close());

const addMonths = (d: Date, months: number) => {
  const out = new Date(d);
  out.setUTCMonth(out.getUTCMonth() + months);
  return out;
};
/** A day as the PDF prints it (DD/MM/YYYY), from the authority's calendar day. */
const printed = (gregorian: string) => gregorian.split('-').reverse().join('/');
const today = () => riyadhDate(Date.now());

/** Time has passed: the certificate was issued `issuedDaysAgo` days ago and expires in `expiresInDays` (negative: expired). */
async function aged(issuedDaysAgo: number, expiresInDays: number): Promise<{ issued: Date; expires: Date }> {
  const issued = new Date(Date.now() - issuedDaysAgo * DAY);
  await w.t.database.db.update(certificates).set({ issuedAt: issued, validFrom: issued }).where(eq(certificates.id, cert.id));
  return { issued, expires: await setExpiry(w, cert.id, expiresInDays) };
}

/** Renews the certificate as its holder does, paid in full, to its issue (5). */
async function renew(): Promise<void> {
  const started = await w.as.external.post('/api/requests?lang=en', { kind: 'externalRenewal', facilityId: FACTORY, certificateId: cert.id });
  expect(started.statusCode, started.body).toBe(201);
  const draft = started.json() as RequestJson;
  const edited = await send(w.as.external, draft.id, 'EDIT', draft.version, { data: { renewal: renewalSection() } });
  expect(edited.statusCode, edited.body).toBe(200);
  const { request, steps } = await walk(w, draft.id, { applicant: 'external', until: 5, option: 'full' });
  expect(request.status.code, JSON.stringify(steps)).toBe(5);
}

/** What the holder and the public see: the page's dates, the lookup's dates and status, and the PDF's text. */
async function shown() {
  const page = (await w.as.external.get(`/api/certificates/${cert.id}`)).json() as CertificateJson & { issuedAt: { gregorian: string }; validFrom: { gregorian: string }; expiresAt: { gregorian: string } };
  const lookup = (await w.t.anonymous.get(`/api/public/verify/${encodeURIComponent(cert.number)}?lang=en`)).json() as {
    found: boolean;
    certificate: { status: string; issuedAt: { gregorian: string }; validFrom: { gregorian: string }; expiresAt: { gregorian: string } };
  };
  const pdf = await w.as.external.get(`/api/certificates/${cert.id}/pdf`);
  expect(pdf.statusCode).toBe(200);
  const { text } = await readPdf(pdf.rawPayload);
  const dates = (c: { issuedAt: { gregorian: string }; validFrom: { gregorian: string }; expiresAt: { gregorian: string } }) => [c.issuedAt.gregorian, c.validFrom.gregorian, c.expiresAt.gregorian];
  return { page: dates(page), lookup: [lookup.found, lookup.certificate.status, ...dates(lookup.certificate)], text };
}

describe('the dates of a renewed certificate', () => {
  it('renewed before its expiry: issued today, valid without a break from its first day, to its old expiry plus the validity', async () => {
    const { issued, expires } = await aged(3 * 365 - 30, 30);
    await renew();
    const expiry = riyadhDate(addMonths(expires, validityMonths()).getTime());
    const { page, lookup, text } = await shown();
    expect(page).toEqual([today(), riyadhDate(issued.getTime()), expiry]);
    expect(lookup).toEqual([true, 'active', today(), riyadhDate(issued.getTime()), expiry]);
    // The PDF: issued today, valid from the first day (both languages' labels), to the new expiry.
    for (const line of ['Issue date', 'تاريخ الإصدار', 'Valid from', 'تاريخ السريان', 'Expiry date']) expect(text).toContain(line);
    for (const day of [today(), riyadhDate(issued.getTime()), expiry]) expect(text).toContain(printed(day));
  }, 180_000);

  it('renewed after its expiry: issued and valid from today (the days it was expired are not covered), to today plus the validity', async () => {
    const { issued, expires } = await aged(3 * 365 + 10, -10);
    await renew();
    const expiry = riyadhDate(addMonths(new Date(), validityMonths()).getTime());
    const { page, lookup, text } = await shown();
    expect(page).toEqual([today(), today(), expiry]);
    expect(lookup).toEqual([true, 'active', today(), today(), expiry]);
    // Nothing on the PDF says it was valid before: no "valid from" line, neither its first day nor its old expiry.
    expect(text).toContain(printed(today()));
    expect(text).toContain(printed(expiry));
    for (const gone of ['Valid from', printed(riyadhDate(issued.getTime())), printed(riyadhDate(expires.getTime()))]) expect(text).not.toContain(gone);
  }, 180_000);
});

/** The refusal of `code` in `lang`, as the server words it. */
const said = (lang: 'ar' | 'en', code: string, params: Record<string, unknown> = {}) => tFor(lang)(`errors:${code}`, params);
/** Starting an added-products request on the certificate, in `lang`. */
const startAdding = (lang: 'ar' | 'en') => w.as.external.post(`/api/requests?lang=${lang}`, { kind: 'externalAddProducts', facilityId: FACTORY, certificateId: cert.id });

describe('a service refused on a certificate that is not valid says why, in both languages', () => {
  it('suspended: the certificate’s number, at the start and at the change asked on the issued request', async () => {
    await committeeSends(w, cert.id, 'SUSPEND', 'Inspection found a non-conformity');
    try {
      for (const lang of LANGS) {
        const refused = await startAdding(lang);
        expect([refused.statusCode, refused.json().error.code, refused.json().error.message]).toEqual([400, 'CertificateNotValidSuspended', said(lang, 'CertificateNotValidSuspended', { number: cert.number })]);
        expect(refused.json().error.message).toContain(cert.number);
        const version = ((await w.as.external.get(`/api/requests/${issuing.id}`)).json() as RequestJson).version;
        const change = await send(w.as.external, issuing.id, 'ADD_CATEGORIES', version, { categories: ['C0'] }, lang);
        expect([change.statusCode, change.json().error?.message]).toEqual([400, said(lang, 'CertificateNotValidSuspended', { number: cert.number })]);
      }
      expect(said('en', 'CertificateNotValidSuspended', { number: cert.number })).toBe(`Certificate ${cert.number} is suspended: services that rest on it are blocked until the suspension is lifted.`);
      expect(said('ar', 'CertificateNotValidSuspended', { number: cert.number })).toBe(`الشهادة رقم \u2066${cert.number}\u2069 موقوفة، والخدمات التي تقوم عليها متوقفة حتى يُرفع الإيقاف عنها.`);
    } finally {
      await committeeSends(w, cert.id, 'REINSTATE', 'Corrective actions accepted');
    }
  }, 120_000);

  it('expired: its number and the day it expired, at the start and at the submission of a draft started while it was valid', async () => {
    const draft = await completeDraft(w.as.external, 'externalAddProducts', FACTORY, { certificateId: cert.id });
    const expires = await setExpiry(w, cert.id, -2);
    const day = riyadhDate(expires.getTime());
    for (const lang of LANGS) {
      const refused = await startAdding(lang);
      expect([refused.statusCode, refused.json().error.code, refused.json().error.message]).toEqual([400, 'CertificateNotValidExpired', said(lang, 'CertificateNotValidExpired', { number: cert.number, date: day })]);
      const submitted = await send(w.as.external, draft.id, 'SUBMIT', draft.version, { agreementAccepted: true }, lang);
      expect([submitted.statusCode, submitted.json().error.code, submitted.json().error.message]).toEqual([400, 'CertificateNotValidExpired', said(lang, 'CertificateNotValidExpired', { number: cert.number, date: day })]);
    }
    // The day in the reader's language (29 Nov 2026; 29‏/11‏/2026 with its right-to-left marks), the number isolated in Arabic.
    const [y, m, d] = day.split('-');
    const month = new Date(`${day}T12:00:00Z`).toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' });
    expect(said('en', 'CertificateNotValidExpired', { number: cert.number, date: day })).toBe(`Certificate ${cert.number} expired on ${Number(d)} ${month} ${y}: renew it before using this service.`);
    expect(said('ar', 'CertificateNotValidExpired', { number: cert.number, date: day })).toBe(`انتهت صلاحية الشهادة رقم \u2066${cert.number}\u2069 في ${d}\u200f/${m}\u200f/${y}، يرجى تجديدها قبل استخدام هذه الخدمة.`);
    expect(((await w.as.external.get(`/api/requests/${draft.id}`)).json() as RequestJson).version).toBe(draft.version);
    await setExpiry(w, cert.id, 300);
  }, 120_000);

  it('no certificate: a draft whose certificate is gone from the records, the facility holding no other, is told so (no empty number)', async () => {
    const draft = await completeDraft(w.as.external, 'externalAddProducts', FACTORY, { certificateId: cert.id });
    await w.t.database.db.delete(certificates).where(and(eq(certificates.facilityPublicId, FACTORY), eq(certificates.kind, 'externalHalal')));
    for (const lang of LANGS) {
      const submitted = await send(w.as.external, draft.id, 'SUBMIT', draft.version, { agreementAccepted: true }, lang);
      expect([submitted.statusCode, submitted.json().error.code, submitted.json().error.message]).toEqual([400, 'CertificateNotValidMissing', said(lang, 'CertificateNotValidMissing')]);
    }
    expect(said('en', 'CertificateNotValidMissing')).toBe('The facility holds no certificate this service rests on yet: it can be requested once the certificate is issued.');
    expect(said('ar', 'CertificateNotValidMissing')).toBe('لا تملك المنشأة بعدُ الشهادة التي تقوم عليها هذه الخدمة، ويمكن طلبها بعد إصدار الشهادة.');
  }, 120_000);
});

describe('the factory choice of a request offers only the factories its save accepts', () => {
  /** A foreign factory the CB certified (an external certificate it issued), and one only another body certified. */
  const CB = 'cb-global-halal';
  const CERTIFIED = 'exf-parana-chicken';
  const NOT_CERTIFIED = 'exf-bursa-meat';

  it('a CB’s shipment is offered the factories it certified, its factory certificate any; naming another is still refused', async () => {
    const cb = w.as['cb.main'];
    // The CB's user registered both factories (their member), and the CB certified one of them.
    const [user] = await w.t.database.db.select({ id: users.id }).from(users).where(eq(users.userName, 'cb.main'));
    for (const publicId of [CERTIFIED, NOT_CERTIFIED]) {
      const [f] = await w.t.database.db.select({ id: facilities.id }).from(facilities).where(eq(facilities.publicId, publicId));
      await w.t.database.db.insert(facilityMembers).values({ facilityId: f.id, userId: user.id, role: 0, permissions: [] }).onConflictDoNothing();
    }
    await issueCertificate(w.t.database, 'cb.main', {
      number: 'EHC-DATES-0001',
      kind: 'externalHalal',
      facilityPublicId: CERTIFIED,
      cbPublicId: CB,
      categories: ['C0'],
      verificationCode: 'dates-choice-0001',
      expiresAt: new Date(Date.now() + 300 * DAY),
    });
    const offered = async (requestId: string) =>
      ((await cb.get(`/api/Facility/GetUserFacilities?pageSize=100&forRequest=${requestId}`)).json() as { items: { publicId: string; facilityType: string }[] }).items
        .filter((f) => f.facilityType === 'ExternalFacility')
        .map((f) => f.publicId)
        .sort();
    const shipment = (await cb.post('/api/requests?lang=en', { kind: 'shipment', facilityId: CB })).json() as RequestJson;
    expect(await offered(shipment.id)).toEqual([CERTIFIED]);
    const certificate = (await cb.post('/api/requests?lang=en', { kind: 'externalCertificate', facilityId: CB })).json() as RequestJson;
    expect(await offered(certificate.id)).toEqual([CERTIFIED, NOT_CERTIFIED].sort());
    // Without the request, the list is the user's facilities as before.
    const all = ((await cb.get('/api/Facility/GetUserFacilities?pageSize=100')).json() as { items: { publicId: string }[] }).items.map((f) => f.publicId);
    expect(all).toEqual(expect.arrayContaining([CERTIFIED, NOT_CERTIFIED]));
    // The refusal stays: saving the factory the choice left out.
    for (const lang of LANGS) {
      const saved = await send(cb, shipment.id, 'EDIT', shipment.version, { data: { factory: { facilityPublicId: NOT_CERTIFIED } } }, lang);
      expect([saved.statusCode, saved.json().error.validationErrors.map((i: { key: string }) => i.key)]).toEqual([400, ['validation:form.factoryNotCertifiedByCb']]);
    }
    // Another user's request is not theirs to read through the choice.
    expect((await w.as.external.get(`/api/Facility/GetUserFacilities?forRequest=${shipment.id}`)).statusCode).toBe(404);
  }, 120_000);

  it('a foreign factory’s own account is offered only itself, not another factory its user holds; naming that one is still refused', async () => {
    const external = w.as.external;
    const OTHER = 'exf-surabaya-foods';
    const [user] = await w.t.database.db.select({ id: users.id }).from(users).where(eq(users.userName, 'external'));
    const [f] = await w.t.database.db.select({ id: facilities.id }).from(facilities).where(eq(facilities.publicId, OTHER));
    await w.t.database.db.insert(facilityMembers).values({ facilityId: f.id, userId: user.id, role: 1, permissions: [] }).onConflictDoNothing();
    const mine = ((await external.get('/api/Facility/GetUserFacilities?pageSize=100')).json() as { items: { publicId: string }[] }).items.map((x) => x.publicId);
    expect(mine).toEqual(expect.arrayContaining([FACTORY, OTHER]));
    const draft = (await external.post('/api/requests?lang=en', { kind: 'externalCertificate', facilityId: FACTORY })).json() as RequestJson;
    const offered = ((await external.get(`/api/Facility/GetUserFacilities?pageSize=100&forRequest=${draft.id}`)).json() as { items: { publicId: string }[] }).items.map((x) => x.publicId);
    expect(offered).toEqual([FACTORY]);
    for (const lang of LANGS) {
      const saved = await send(external, draft.id, 'EDIT', draft.version, { data: { factory: { facilityPublicId: OTHER } } }, lang);
      expect([saved.statusCode, saved.json().error.validationErrors.map((i: { key: string }) => i.key)]).toEqual([400, ['validation:form.factoryNotOwn']]);
    }
  }, 120_000);
});
