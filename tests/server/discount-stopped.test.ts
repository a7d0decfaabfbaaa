import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requests } from '../../db/schema';
import { registry } from '../../machines/registry';
import type { RequestKind } from '../../machines/services';
import { certificateFee, discounted, formatAmount, toHalalas, withVat } from '../../machines/services/fees';
import { goodProduct } from '../forms/fixtures';
import { accept, completeDraft, send, type RequestJson } from '../helpers/requests';
import { externalCertificateData, renewalSection } from '../services/fixtures';
import { billsOf, certificatesOf, createWorld, fireDue, fireTimer, money, setExpiry, walk, type CertificateJson, type DemoUser, type World } from '../services/walk';

/*
 * No discount on a request stopped by its expired bill, for the seven request machines that still offered one
 * (README "No discount on a stopped request"; `noDiscountWhenStopped`, machines/fragments/common.ts): internal add
 * products and Halal mark, external certificate, renewal, add products and Halal mark (their version 2), the shipment
 * (its version 3). Over HTTP as staff: the stopped request offers GRANT_DISCOUNT to nobody, and one posted anyway is
 * refused in the reader's language and changes nothing (version, state, history, bills). A request still to be billed
 * is offered a discount and takes it: a partial one during the registration review reduces the bill made on
 * acceptance (amount and VAT on the discounted amount); a mark or shipment request, billed as it is submitted, has its
 * open bill waived by a 100% discount and goes on to issue. A request started on the previous version keeps offering it.
 */
let w: World;
let internalCert: CertificateJson;
let externalCert: CertificateJson;

const INTERNAL = 'inf-almarai-foods';
const FACTORY = 'exf-anatolia-meat';
const STAFF: DemoUser[] = ['registration', 'audit', 'teamleader', 'auditor', 'committee'];
const PERCENT = 25;

beforeAll(async () => {
  w = await createWorld();
  const int = await completeDraft(w.as['internal.main'], 'internalCertificate', INTERNAL);
  expect((await walk(w, int.id, { applicant: 'internal.main', until: 25, option: 'full' })).request.status.code).toBe(25);
  [internalCert] = await certificatesOf(w, w.as['internal.main'], int.id);
  const ext = await completeDraft(w.as.external, 'externalCertificate', FACTORY);
  expect((await walk(w, ext.id, { applicant: 'external', until: 105 })).request.status.code).toBe(105);
  [externalCert] = await certificatesOf(w, w.as.external, ext.id);
}, 300_000);
afterAll(() => w?.t.close());

const locale = (lang: 'ar' | 'en', ns: string) => JSON.parse(readFileSync(join(__dirname, `../../locales/${lang}/${ns}.json`), 'utf8'));
const ERRORS = { ar: locale('ar', 'errors'), en: locale('en', 'errors') } as Record<'ar' | 'en', Record<string, string>>;
const STATUS = { ar: locale('ar', 'status'), en: locale('en', 'status') } as Record<'ar' | 'en', Record<string, Record<string, string>>>;

const settings = () => w.t.app.settings.current();
/** The bill amounts a fee of `halalas` gives after a discount of `percent`, at the VAT rate in force. */
const billed = (halalas: number, percent = 0) => {
  const c = withVat(discounted(halalas, percent), settings().vatRate);
  return { amount: formatAmount(c.amount), vat: formatAmount(c.vat), total: formatAmount(c.total) };
};
const ZERO = { amount: '0.00', vat: '0.00', total: '0.00' };

const read = async (user: DemoUser, id: string, lang = 'en') => {
  const res = await w.as[user].get(`/api/requests/${id}?lang=${lang}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as RequestJson;
};
const actionsOf = async (user: DemoUser, id: string) => {
  const res = await w.as[user].get(`/api/requests/${id}/actions`);
  expect(res.statusCode, res.body).toBe(200);
  return ((res.json().actions ?? []) as { type: string }[]).map((a) => a.type).sort();
};
const offeredTo = async (id: string, type: string) => {
  const out: DemoUser[] = [];
  for (const u of STAFF) if ((await actionsOf(u, id)).includes(type)) out.push(u);
  return out;
};
/** Status code and label in both languages, as the request page shows them. */
const shown = async (user: DemoUser, id: string) => {
  const [ar, en] = [await read(user, id, 'ar'), await read(user, id, 'en')];
  return { code: en.status.code, ar: ar.status.label, en: en.status.label };
};
const reads = (kind: string, code: number) => ({ code, ar: STATUS.ar[kind][String(code)], en: STATUS.en[kind][String(code)] });

/** Everything a refused event must leave as it was: version, machine state, discount, history and bills. */
async function fileOf(id: string) {
  const [row] = await w.t.database.db
    .select({ version: requests.version, status: requests.status, stateValue: requests.stateValue, machineVersion: requests.machineVersion, snapshot: requests.snapshot })
    .from(requests)
    .where(eq(requests.id, id));
  const history = (await w.as.registration.get(`/api/requests/${id}/history`)).json().items as { seq: number; event: string; to: { code: number }; hash: string }[];
  const bills = await billsOf(w.as.registration, id);
  return {
    version: row.version,
    status: row.status,
    state: row.stateValue,
    machineVersion: row.machineVersion,
    discountPercent: (row.snapshot.context as { discountPercent?: number }).discountPercent,
    history: history.map((h) => [h.seq, h.event, h.to.code, h.hash]),
    bills: bills.map((b) => [b.id, b.status.code, money(b)]),
  };
}

interface Service {
  kind: RequestKind;
  applicant: DemoUser;
  /** Status codes: waiting in the registration queue (services reviewed before billing), awaiting payment, stopped. */
  codes: { review?: number; pending: number; stopped: number };
  /** The machine version new requests run on (the one with noDiscountWhenStopped). */
  version: number;
  /** A complete draft, ready to submit. */
  draft: () => Promise<RequestJson>;
  /** The fee its bill charges before discount and VAT (services reviewed before billing). */
  fee?: () => number;
}

const lamb = () =>
  goodProduct({ nameAr: 'لحم ضأن مجمد', nameEn: 'Frozen Lamb', brandAr: 'اناضول', brandEn: 'Anatolia', saudiHsCode: '020430000000', globalHsCode: '020430', productNumber: 'TRX00000000000002', category: 'C0', unit: 0, netWeight: 20, grossWeight: 21 });
const externalWay = () => externalCertificateData().paymentWay as { way: 'yearly' | 'full'; validityYears: number };

/** A renewal as its holder starts it: inside the window, prefilled, the reason written. */
async function renewalDraft(kind: 'externalRenewal', applicant: DemoUser, facilityId: string, certificateId: string): Promise<RequestJson> {
  await setExpiry(w, certificateId, 30);
  const started = await w.as[applicant].post('/api/requests?lang=en', { kind, facilityId, certificateId });
  expect(started.statusCode, started.body).toBe(201);
  const draft = started.json() as RequestJson;
  return accept(w.as[applicant], draft.id, 'EDIT', { data: { renewal: renewalSection() } });
}

const SERVICES: Service[] = [
  {
    kind: 'internalAddProducts',
    applicant: 'internal.main',
    codes: { review: 1001, pending: 1002, stopped: 1003 },
    version: 2,
    draft: () => completeDraft(w.as['internal.main'], 'internalAddProducts', INTERNAL, { certificateId: internalCert.id }),
    fee: () => toHalalas(settings().fees.application),
  },
  {
    kind: 'internalHalalMark',
    applicant: 'internal.main',
    codes: { pending: 1002, stopped: 1003 },
    version: 2,
    draft: () => completeDraft(w.as['internal.main'], 'internalHalalMark', INTERNAL, { certificateId: internalCert.id }),
  },
  {
    kind: 'externalCertificate',
    applicant: 'external',
    codes: { review: 101, pending: 102, stopped: 104 },
    version: 2,
    draft: () => completeDraft(w.as.external, 'externalCertificate', FACTORY),
    fee: () => certificateFee(settings().fees.externalCertificateYear, externalWay().validityYears, externalWay().way),
  },
  {
    kind: 'externalRenewal',
    applicant: 'external',
    codes: { review: 1, pending: 2, stopped: 4 },
    version: 2,
    draft: () => renewalDraft('externalRenewal', 'external', FACTORY, externalCert.id),
    fee: () => certificateFee(settings().fees.externalCertificateYear, externalWay().validityYears, externalWay().way),
  },
  {
    kind: 'externalAddProducts',
    applicant: 'external',
    codes: { review: 7, pending: 2, stopped: 4 },
    version: 2,
    draft: () => completeDraft(w.as.external, 'externalAddProducts', FACTORY, { certificateId: externalCert.id, data: { products: [lamb()] } }),
    fee: () => toHalalas(settings().fees.application),
  },
  {
    kind: 'shipment',
    applicant: 'external',
    codes: { pending: 1007, stopped: 4 },
    version: 3,
    draft: () => completeDraft(w.as.external, 'shipment', FACTORY),
  },
  {
    kind: 'externalHalalMark',
    applicant: 'external',
    codes: { pending: 1002, stopped: 1003 },
    version: 2,
    // The renewals above left the certificate 30 days from expiry; a mark is billed for the months it has left.
    draft: async () => {
      await setExpiry(w, externalCert.id, 400);
      return completeDraft(w.as.external, 'externalHalalMark', FACTORY, {
        certificateId: externalCert.id,
        data: {
          products: (externalCertificateData().products as Record<string, string>[]).map((p) => ({
            nameAr: p.nameAr,
            nameEn: p.nameEn,
            brandAr: p.brandAr,
            brandEn: p.brandEn,
            productNumber: p.productNumber,
            scope: 'Global',
          })),
        },
      });
    },
  },
];

/** Submits the draft: a reviewed service waits in the registration queue, the others await payment. */
async function submitted(s: Service, draft: RequestJson): Promise<string> {
  const id = draft.id;
  await accept(w.as[s.applicant], id, 'SUBMIT', { agreementAccepted: true });
  expect((await read(s.applicant, id)).status.code).toBe(s.codes.review ?? s.codes.pending);
  return id;
}
/** Registration takes the request and accepts it: the bill is made. */
async function accepted(id: string) {
  await accept(w.as.registration, id, 'ASSIGN_TO_ME');
  await accept(w.as.registration, id, 'ACCEPT');
}

/** A request of the service billed and left unpaid until its payment window closed: stopped. */
async function stoppedRequest(s: Service): Promise<string> {
  const draft = await s.draft();
  const id = await submitted(s, draft);
  if (s.codes.review !== undefined) await accepted(id);
  expect((await read(s.applicant, id)).status.code).toBe(s.codes.pending);
  expect((await billsOf(w.as.registration, id)).map((b) => b.status.code)).toEqual([1]);
  await fireTimer(w.t, id, 'PAYMENT_EXPIRED');
  expect(await shown(s.applicant, id)).toEqual(reads(s.kind, s.codes.stopped));
  expect((await billsOf(w.as.registration, id)).map((b) => b.status.code)).toEqual([3]);
  return id;
}

/** GRANT_DISCOUNT posted by registration in both languages: refused, told why, nothing changed. */
async function refusedDiscount(id: string) {
  const before = await fileOf(id);
  for (const lang of ['ar', 'en'] as const) {
    const res = await send(w.as.registration, id, 'GRANT_DISCOUNT', before.version, { percent: 100, reason: 'Waive the expired fee' }, lang);
    expect(res.statusCode, res.body).toBe(409);
    expect([res.json().error.code, res.json().error.message]).toEqual(['TransitionNotAllowed', ERRORS[lang].TransitionNotAllowed]);
  }
  expect(ERRORS.ar.TransitionNotAllowed).not.toBe(ERRORS.en.TransitionNotAllowed);
  expect(await fileOf(id)).toEqual(before);
}

describe.each(SERVICES)('$kind (new requests on version $version)', (s) => {
  it('stopped by its expired bill: no discount offered to anyone, one posted is refused (409, ar and en) and changes nothing; the applicant may still delete it', async () => {
    const id = await stoppedRequest(s);
    // New requests run on the current version, which keeps the rule the version named here brought in.
    const current = registry[s.kind as keyof typeof registry].current;
    expect(current).toBeGreaterThanOrEqual(s.version);
    expect((await fileOf(id)).machineVersion).toBe(current);
    expect(await offeredTo(id, 'GRANT_DISCOUNT')).toEqual([]);
    // Only a note for the file; the applicant may only delete it.
    expect(await actionsOf('registration', id)).toEqual(['ADD_NOTE']);
    expect(await actionsOf(s.applicant, id)).toEqual(['DELETE']);
    await refusedDiscount(id);
    await accept(w.as[s.applicant], id, 'DELETE', { confirmed: true });
    expect((await w.as[s.applicant].get(`/api/requests/${id}`)).statusCode).toBe(404);
  }, 180_000);

  if (s.fee) {
    const fee = s.fee;
    it(`in the registration review: offered a discount; ${PERCENT}% granted, the bill made on acceptance is reduced (VAT on the discounted amount)`, async () => {
      const id = await submitted(s, await s.draft());
      expect(await offeredTo(id, 'GRANT_DISCOUNT')).toEqual(['registration']);
      await accept(w.as.registration, id, 'GRANT_DISCOUNT', { percent: PERCENT, reason: 'Small family business' });
      expect((await fileOf(id)).discountPercent).toBe(PERCENT);
      await accepted(id);
      expect((await read(s.applicant, id)).status.code).toBe(s.codes.pending);
      const bills = await billsOf(w.as.registration, id);
      expect(bills.map((b) => [b.status.code, money(b)])).toEqual([[1, billed(fee(), PERCENT)]]);
      expect(billed(fee(), PERCENT)).not.toEqual(billed(fee()));
    }, 180_000);
  } else {
    it('awaiting payment: offered a discount; 100% waives the open bill and the request goes on to issue', async () => {
      const id = await submitted(s, await s.draft());
      const [bill] = await billsOf(w.as.registration, id);
      expect(bill.status.code).toBe(1);
      expect(Number(bill.total)).toBeGreaterThan(0);
      expect(await offeredTo(id, 'GRANT_DISCOUNT')).toEqual(['registration']);
      await accept(w.as.registration, id, 'GRANT_DISCOUNT', { percent: 100, reason: 'Charity: free of charge' });
      // The bill is cancelled with the amounts it had; nothing is left to pay, and nothing more would be billed.
      expect((await billsOf(w.as.registration, id)).map((b) => [b.id, b.status.code, money(b)])).toEqual([[bill.id, 4, money(bill)]]);
      const preview = (await w.as[s.applicant].get(`/api/requests/${id}/fees?lang=en`)).json() as { items: { charge: Record<string, string> | null }[] };
      expect(preview.items.map((i) => i.charge)).toEqual(preview.items.map(() => ZERO));
      await fireDue(w.t);
      expect((await read(s.applicant, id)).status.code).toBe(s.kind === 'shipment' ? 1008 : 1005);
    }, 180_000);
  }
});

describe('a request started on the version before keeps its rules', () => {
  it('a shipment started on version 2, stopped by its expired bill, is still offered a discount and takes it (nothing else moves)', async () => {
    const s = SERVICES.find((x) => x.kind === 'shipment')!;
    const current = registry.shipment.current;
    registry.shipment.current = 2;
    let draft: RequestJson;
    try {
      draft = await s.draft();
    } finally {
      registry.shipment.current = current;
    }
    // New requests are on version 3 again; this one stays on 2.
    expect(registry.shipment.current).toBe(3);
    const id = await submitted(s, draft);
    expect((await fileOf(id)).machineVersion).toBe(2);
    expect(await billsOf(w.as.registration, id)).toHaveLength(1);
    await fireTimer(w.t, id, 'PAYMENT_EXPIRED');
    expect(await shown(s.applicant, id)).toEqual(reads('shipment', 4));
    expect(await offeredTo(id, 'GRANT_DISCOUNT')).toEqual(['registration']);
    const before = await fileOf(id);
    await accept(w.as.registration, id, 'GRANT_DISCOUNT', { percent: 100, reason: 'Waive the expired fee' });
    const after = await fileOf(id);
    expect(after).toMatchObject({ version: before.version + 1, status: 4, state: before.state, machineVersion: 2, discountPercent: 100, bills: before.bills });
    expect(after.history.at(-1)?.slice(1, 3)).toEqual(['GRANT_DISCOUNT', 4]);
  }, 180_000);
});
