import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationFee, certificateFee, discounted, formatAmount, withVat } from '../../machines/services/fees';
import { accept, completeDraft, send, type RequestJson } from '../helpers/requests';
import { VALID_DATA, renewalSection } from '../services/fixtures';
import { billsOf, certificatesOf, createWorld, fireTimer, money, payBill, setExpiry, walk, type BillJson, type CertificateJson, type World } from '../services/walk';

/**
 * A partial discount (GRANT_DISCOUNT under 100 %) on an internal certificate paid yearly, over HTTP: it reaches every
 * bill of the rest of its request, the yearly instalments of the certificate fee included (VAT on the discounted
 * amount, rounded per bill), and never a renewal of that certificate. Expected amounts come from the settings in force.
 */
let w: World;
beforeAll(async () => {
  w = await createWorld();
}, 60_000);
afterAll(() => w?.t.close());

const FACILITY = 'inf-almarai-foods';
const PERCENT = 25;
const years = (VALID_DATA.internalCertificate().validity as { years: number }).years;
const settings = () => w.t.app.settings.current();
/** The bill amounts a fee of `halalas` gives after a discount of `percent`, at the VAT rate in force. */
const billed = (halalas: number, percent = 0) => {
  const c = withVat(discounted(halalas, percent), settings().vatRate);
  return { amount: formatAmount(c.amount), vat: formatAmount(c.vat), total: formatAmount(c.total) };
};
/** One year of the internal certificate fee, as the first yearly bill and each instalment charge it. */
const aYear = () => certificateFee(settings().fees.internalCertificateYear, years, 'yearly');
const ofKind = (bills: BillJson[], code: string) => bills.filter((b) => b.feeKind.code === code);

/** Walks a new internal certificate request to `stopBefore`, grants the discount there, then on to the certificate, paid yearly. */
async function discountedCertificate(stopBefore: string): Promise<{ requestId: string; cert: CertificateJson }> {
  const draft = await completeDraft(w.as['internal.main'], 'internalCertificate', FACILITY);
  const before = await walk(w, draft.id, { applicant: 'internal.main', until: -1, option: 'yearly', stopBefore });
  const next = (await w.as.registration.get(`/api/requests/${draft.id}/actions`)).json() as { actions?: { type: string }[] };
  const applicantNext = (await w.as['internal.main'].get(`/api/requests/${draft.id}/actions`)).json() as { actions?: { type: string }[] };
  expect([...(next.actions ?? []), ...(applicantNext.actions ?? [])].map((a) => a.type), JSON.stringify(before.steps)).toContain(stopBefore);
  await accept(w.as.registration, draft.id, 'GRANT_DISCOUNT', { percent: PERCENT, reason: 'Small family kitchen' });
  const { request, steps } = await walk(w, draft.id, { applicant: 'internal.main', until: 25, option: 'yearly' });
  expect(request.status.code, JSON.stringify(steps)).toBe(25);
  const [cert] = await certificatesOf(w, w.as['internal.main'], draft.id);
  return { requestId: draft.id, cert };
}

/** Fires every anniversary of the certificate, paying each instalment; returns the instalment bills. */
async function everyInstalment(certId: string, count: number): Promise<BillJson[]> {
  for (let n = 0; n < count; n++) {
    await fireTimer(w.t, certId, 'INSTALLMENT_DUE');
    const open = (await billsOf(w.as['internal.main'], certId)).filter((b) => b.status.code === 1);
    expect(open).toHaveLength(1);
    await payBill(w.t, open[0].id, open[0]);
  }
  return billsOf(w.as['internal.main'], certId);
}

describe('a partial discount granted at the certificate fee, paid yearly', () => {
  let cert: CertificateJson;
  let requestId: string;

  it('the first year and every yearly instalment are billed with the discount, VAT on the discounted amount', async () => {
    ({ requestId, cert } = await discountedCertificate('CHOOSE_PAYMENT_OPTION'));
    const bills = await billsOf(w.as['internal.main'], requestId);
    // Bills before the discount keep their full amounts; the certificate fee's first year is discounted.
    expect(ofKind(bills, 'application').map(money)).toEqual([billed(applicationFee(settings().fees))]);
    expect(ofKind(bills, 'certificate').map(money)).toEqual([billed(aYear(), PERCENT)]);
    // Each later year: one bill on the certificate, one year at the fee in force, less the same discount.
    const instalments = await everyInstalment(cert.id, years - 1);
    expect(instalments.map((b) => [b.feeKind.code, b.status.code, money(b)])).toEqual(
      Array.from({ length: years - 1 }, () => ['certificateInstallment', 2, billed(aYear(), PERCENT)]),
    );
  }, 300_000);

  it('a renewal of that certificate does not inherit the discount: its first year and its instalments are at the full fee', async () => {
    await setExpiry(w, cert.id, 30);
    const started = await w.as['internal.main'].post('/api/requests?lang=en', { kind: 'internalRenewal', facilityId: FACILITY, certificateId: cert.id });
    expect(started.statusCode, started.body).toBe(201);
    const draft = started.json() as RequestJson;
    expect((await send(w.as['internal.main'], draft.id, 'EDIT', draft.version, { data: { renewal: renewalSection() } })).statusCode).toBe(200);
    const { request, steps } = await walk(w, draft.id, { applicant: 'internal.main', until: 25, option: 'yearly' });
    expect(request.status.code, JSON.stringify(steps)).toBe(25);
    expect(ofKind(await billsOf(w.as['internal.main'], draft.id), 'renewal').map(money)).toEqual([billed(aYear())]);
    const all = await everyInstalment(cert.id, years - 1);
    expect(all.slice(years - 1).map(money)).toEqual(Array.from({ length: years - 1 }, () => billed(aYear())));
  }, 300_000);
});

describe('a partial discount granted right after the application fee is paid', () => {
  it('the application fee stays full; the certificate fee and its yearly instalments are discounted', async () => {
    const { requestId, cert } = await discountedCertificate('ASSIGN_TO_ME');
    const bills = await billsOf(w.as['internal.main'], requestId);
    expect(ofKind(bills, 'application').map(money)).toEqual([billed(applicationFee(settings().fees))]);
    expect(ofKind(bills, 'certificate').map(money)).toEqual([billed(aYear(), PERCENT)]);
    const instalments = await everyInstalment(cert.id, years - 1);
    expect(instalments.map(money)).toEqual(Array.from({ length: years - 1 }, () => billed(aYear(), PERCENT)));
  }, 300_000);
});
