import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificates } from '../../db/schema';
import { riyadhDate } from '../../machines/working-days';
import { readPdf } from '../helpers/pdf';
import { completeDraft, send, type RequestJson } from '../helpers/requests';
import { externalCertificateData, renewalSection } from '../services/fixtures';
import { certificatesOf, createWorld, setExpiry, walk, type CertificateJson, type World } from '../services/walk';

/*
 * The dates a renewed certificate carries, as its holder downloads it (the PDF), opens it (the certificate page's API)
 * and anyone looks it up (the public verification), renewed before its expiry and after it (README, choices).
 */
const FACTORY = 'exf-anatolia-meat';
const DAY = 86_400_000;

let w: World;
let cert: CertificateJson;
const validityMonths = () => (externalCertificateData().paymentWay as { validityYears: number }).validityYears * 12;

beforeAll(async () => {
  w = await createWorld();
  const draft = await completeDraft(w.as.external, 'externalCertificate', FACTORY);
  const { request, steps } = await walk(w, draft.id, { applicant: 'external', until: 105 });
  expect(request.status.code, JSON.stringify(steps)).toBe(105);
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
