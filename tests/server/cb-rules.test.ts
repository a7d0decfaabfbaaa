import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { bills, certificates, requests } from '../../db/schema';
import { tFor } from '../../server/i18n';
import type { EmbeddedEngine } from '../../workflows/embedded/embedded-engine';
import type { Client } from '../helpers/app';
import { accept, completeDraft, send, type RequestJson } from '../helpers/requests';
import { externalCertificateData, shipmentData } from '../services/fixtures';
import { billsOf, certificatesOf, committeeSends, createWorld, fireDue, fireTimer, fireWaiting, payBill, walk, type CertificateJson, type World } from '../services/walk';

/*
 * Rules around conformity bodies (spec 02 sections 1, 3, 4 and 8) read over HTTP as their users meet them: who exports
 * a shipment, and which of a body's designations (or a facility's certificates) is "the newest" when it holds several.
 * Every refusal is read in Arabic and English and leaves the request as it was.
 */
const CB = 'cb-global-halal';
const OTHER_CB = 'cb-istanbul-halal';
/** A foreign factory Global Halal CB certifies in beforeAll (it also holds a suspended certificate of São Paulo's CB). */
const PARANA = 'exf-parana-chicken';
/** A foreign factory only Istanbul's CB certified (db/seed-public.ts). */
const BURSA = 'exf-bursa-meat';
/** The foreign factory of the demo account `external`. */
const ANATOLIA = 'exf-anatolia-meat';
const LANGS = ['ar', 'en'] as const;
const DAY = 86_400_000;

let w: World;
let cb: Client;
/** The external certificate Global Halal CB issued for the Parana factory in beforeAll. */
let paranaCert: CertificateJson;

beforeAll(async () => {
  w = await createWorld();
  cb = w.as['cb.main'];
  const draft = await completeDraft(cb, 'externalCertificate', CB, { data: { factory: externalCertificateData(PARANA).factory } });
  const { request, steps } = await walk(w, draft.id, { applicant: 'cb.main', until: 105 });
  expect(request.status.code, JSON.stringify(steps)).toBe(105);
  [paranaCert] = await certificatesOf(w, cb, draft.id);
}, 240_000);
afterAll(() => w?.t.close());

const said = (lang: 'ar' | 'en', key: string, params: Record<string, unknown> = {}) => tFor(lang)(key, params);
const requestOf = async (c: Client, id: string) => (await c.get(`/api/requests/${id}`)).json() as RequestJson;
const stored = async (id: string) => {
  const [row] = await w.t.database.db.select({ version: requests.version, status: requests.status, snapshot: requests.snapshot }).from(requests).where(eq(requests.id, id));
  return { version: row.version, status: row.status, data: (row.snapshot.context as { data?: unknown }).data };
};
const requestCount = async (facility: string) => (await w.t.database.db.select({ id: requests.id }).from(requests).where(eq(requests.facilityPublicId, facility))).length;
type Issue = { key: string; members: string[]; message: string };
const issuesOf = (body: string) => (JSON.parse(body) as { error: { validationErrors: Issue[] } }).error.validationErrors.map((i) => [i.key, i.members, i.message]);
const issue = (key: string, member: string, params: Record<string, unknown> = {}) => LANGS.map((lang) => [`validation:form.${key}`, [member], said(lang, `validation:form.${key}`, params)]);
/** Writes a draft's section as an earlier save could have (before the rule), to reach the submission's door. */
const storeSection = async (id: string, section: string, value: Record<string, unknown>) => {
  const [row] = await w.t.database.db.select({ snapshot: requests.snapshot }).from(requests).where(eq(requests.id, id));
  const snapshot = structuredClone(row.snapshot) as { context: { data: Record<string, Record<string, unknown>> } };
  snapshot.context.data[section] = { ...snapshot.context.data[section], ...value };
  await w.t.database.db.update(requests).set({ snapshot: snapshot as never }).where(eq(requests.id, id));
};
/** Sends in both languages; each refused (400) with the issues; the request, its bills unchanged. */
const refusedBoth = async (c: Client, id: string, type: string, payload: Record<string, unknown>) => {
  const before = await stored(id);
  const billsBefore = await w.t.database.db.select({ id: bills.id }).from(bills).where(eq(bills.requestId, id));
  const got = [];
  for (const lang of LANGS) {
    const res = await send(c, id, type, before.version, payload, lang);
    expect(res.statusCode, res.body).toBe(400);
    got.push(...issuesOf(res.body));
  }
  expect(await stored(id)).toEqual(before);
  expect(await w.t.database.db.select({ id: bills.id }).from(bills).where(eq(bills.requestId, id))).toEqual(billsBefore);
  return got;
};
/** A copy of a stored certificate under a new id, number and verification code (a record migrated or issued earlier). */
const copyOf = async (number: string, changes: Partial<typeof certificates.$inferInsert>) => {
  const [row] = await w.t.database.db.select().from(certificates).where(eq(certificates.number, number));
  const id = randomUUID();
  const code = id.replace(/-/g, '').slice(0, 12).toUpperCase();
  await w.t.database.db.insert(certificates).values({ ...row, id, number: `${number}-${code.slice(0, 6)}`, verificationCode: code, ...changes });
  return id;
};

describe('who exports a shipment: the conformity body that issued the factory’s certificate (README, choices)', () => {
  it('a CB naming another CB as the exporting body: refused at the start, a draft save and the submission (ar/en); nothing stored', async () => {
    const before = await requestCount(CB);
    const starts = [];
    for (const lang of LANGS) {
      const res = await cb.post(`/api/requests?lang=${lang}`, { kind: 'shipment', facilityId: CB, data: { factory: { facilityPublicId: PARANA }, other: { exportingCbPublicId: OTHER_CB } } });
      expect(res.statusCode, res.body).toBe(400);
      starts.push(...issuesOf(res.body));
    }
    expect(starts).toEqual(issue('exportingCbNotApplicant', 'other.exportingCbPublicId', { cb: OTHER_CB }));
    expect(await requestCount(CB)).toBe(before);

    const draft = await completeDraft(cb, 'shipment', CB, { data: { factory: { facilityPublicId: PARANA }, slaughters: [] } });
    const edits = await refusedBoth(cb, draft.id, 'EDIT', { data: { other: { ...((await stored(draft.id)).data as { other: Record<string, unknown> }).other, exportingCbPublicId: OTHER_CB } } });
    expect(edits).toEqual(issue('exportingCbNotApplicant', 'other.exportingCbPublicId', { cb: OTHER_CB }));

    // Saved before this rule: the submission is refused, the draft kept (0), no bill.
    await storeSection(draft.id, 'other', { exportingCbPublicId: OTHER_CB });
    const submits = await refusedBoth(cb, draft.id, 'SUBMIT', { agreementAccepted: true });
    expect(submits).toEqual(issue('exportingCbNotApplicant', 'other.exportingCbPublicId', { cb: OTHER_CB }));
    expect((await requestOf(cb, draft.id)).status.code).toBe(0);
  });

  it('a CB naming a factory it holds no certificate for (another CB certified it): refused at the start, a save and the submission', async () => {
    const before = await requestCount(CB);
    const starts = [];
    for (const lang of LANGS) {
      const res = await cb.post(`/api/requests?lang=${lang}`, { kind: 'shipment', facilityId: CB, data: { factory: { facilityPublicId: BURSA } } });
      expect(res.statusCode, res.body).toBe(400);
      starts.push(...issuesOf(res.body));
    }
    expect(starts).toEqual(issue('factoryNotCertifiedByCb', 'factory.facilityPublicId'));
    expect(await requestCount(CB)).toBe(before);

    const draft = await completeDraft(cb, 'shipment', CB, { data: { factory: { facilityPublicId: PARANA }, slaughters: [] } });
    expect(await refusedBoth(cb, draft.id, 'EDIT', { data: { factory: { facilityPublicId: BURSA } } })).toEqual(issue('factoryNotCertifiedByCb', 'factory.facilityPublicId'));

    await storeSection(draft.id, 'factory', { facilityPublicId: BURSA });
    expect(await refusedBoth(cb, draft.id, 'SUBMIT', { agreementAccepted: true })).toEqual(issue('factoryNotCertifiedByCb', 'factory.facilityPublicId'));
    expect((await requestOf(cb, draft.id)).status.code).toBe(0);
  });

  it('its own factory under its own designation goes through: submitted (1007), billed', async () => {
    const draft = await completeDraft(cb, 'shipment', CB, { data: { factory: { facilityPublicId: PARANA }, slaughters: [] } });
    expect((await accept(cb, draft.id, 'SUBMIT', { agreementAccepted: true })).status.code).toBe(1007);
    expect((await billsOf(cb, draft.id)).map((b) => b.status.code)).toEqual([1]);
    await accept(cb, draft.id, 'CANCEL');
    expect((await requestOf(cb, draft.id)).status.code).toBe(0);
  });

  it('a foreign factory certified only through a CB names that CB as the exporter: another is refused at a save and the submission', async () => {
    const external = w.as.external;
    // Anatolia's Halal certificate, issued through Istanbul's CB (a record like the seed's Bursa one).
    const certId = await copyOf('HC-EXT-2024-004271', { facilityPublicId: ANATOLIA, cbPublicId: OTHER_CB, products: externalCertificateData(ANATOLIA).products as never, categories: ['C0', 'CI'] });
    try {
      const draft = await completeDraft(external, 'shipment', ANATOLIA, { data: { other: { ...shipmentData().other as Record<string, unknown>, exportingCbPublicId: OTHER_CB } } });
      const data = (await stored(draft.id)).data as { other: Record<string, unknown> };
      expect(await refusedBoth(external, draft.id, 'EDIT', { data: { other: { ...data.other, exportingCbPublicId: CB } } })).toEqual(
        issue('exportingCbNotIssuer', 'other.exportingCbPublicId', { cb: CB }),
      );
      await storeSection(draft.id, 'other', { exportingCbPublicId: CB });
      const submits = await refusedBoth(external, draft.id, 'SUBMIT', { agreementAccepted: true });
      expect(submits.filter(([key]) => key === 'validation:form.exportingCbNotIssuer')).toEqual(issue('exportingCbNotIssuer', 'other.exportingCbPublicId', { cb: CB }));
      await accept(external, draft.id, 'DELETE', { confirmed: true });
    } finally {
      await w.t.database.db.delete(certificates).where(eq(certificates.id, certId));
    }
  });
});

describe('a CB’s shipment rests on the certificate that CB issued, not on another body’s', () => {
  it('while its own certificate of the factory is suspended, another CB’s in force neither lets it be paid nor issued; reinstated, it is issued (1008)', async () => {
    const draft = await completeDraft(cb, 'shipment', CB, { data: { factory: { facilityPublicId: PARANA }, slaughters: [] } });
    expect((await accept(cb, draft.id, 'SUBMIT', { agreementAccepted: true })).status.code).toBe(1007);
    const [bill] = (await billsOf(cb, draft.id)).filter((b) => b.status.code === 1);
    // Istanbul's CB certifies the same factory too, in force.
    const theirs = await copyOf('HC-EXT-2024-004271', { facilityPublicId: PARANA, cbPublicId: OTHER_CB, status: 1, expiresAt: new Date(Date.now() + 300 * DAY) });
    await committeeSends(w, paranaCert.id, 'SUSPEND', 'Inspection pending');
    try {
      for (const lang of LANGS) {
        const res = await cb.post(`/api/bills/${bill.id}/pay?lang=${lang}`, {});
        expect([res.statusCode, res.json().error?.code, res.json().error?.message]).toEqual([409, 'BillCertificateNotInForce', said(lang, 'errors:BillCertificateNotInForce', { number: paranaCert.number })]);
      }
      expect((await billsOf(cb, draft.id)).map((b) => b.status.code)).toEqual([1]);
      // A payment the portal had already taken is kept; the shipment waits, paid, with no certificate.
      await payBill(w.t, bill.id, bill);
      await fireDue(w.t);
      await fireWaiting(w.t);
      expect([(await requestOf(cb, draft.id)).status.code, (await billsOf(cb, draft.id)).map((b) => b.status.code)]).toEqual([1007, [2]]);
      expect(await certificatesOf(w, cb, draft.id)).toEqual([]);
    } finally {
      await committeeSends(w, paranaCert.id, 'REINSTATE', 'Inspection passed');
      await w.t.database.db.delete(certificates).where(eq(certificates.id, theirs));
    }
    await fireTimer(w.t, draft.id, 'ISSUE_CERTIFICATE');
    expect((await requestOf(cb, draft.id)).status.code).toBe(1008);
    expect((await certificatesOf(w, cb, draft.id)).map((c) => [c.kind, c.holder.publicId])).toEqual([['shipment', PARANA]]);
  });
});

describe('one rule for "the newest" designation or certificate: latest expiry, then latest issue', () => {
  it('a suspended short designation issued after the CB’s running one hides nothing: the public list shows the running one, a paid shipment is issued (1008)', async () => {
    const [running] = await w.t.database.db.select().from(certificates).where(and(eq(certificates.facilityPublicId, CB), eq(certificates.kind, 'cbDesignation')));
    // Issued after the running designation (10 days ago), ending before it, and suspended.
    const later = await copyOf(running.number, { issuedAt: new Date(Date.now() - 10 * DAY), validFrom: new Date(Date.now() - 10 * DAY), expiresAt: new Date(Date.now() + 100 * DAY), status: 4, suspendedAt: new Date(), categories: ['K'] });
    try {
      const list = (await w.as.external.get('/api/public/conformity-bodies?name=Global&pageNumber=1&pageSize=10')).json() as { items: { publicId: string; certificate: { number: string; status: string } }[] };
      expect(list.items.filter((c) => c.publicId === CB).map((c) => [c.certificate.number, c.certificate.status])).toEqual([[running.number, 'active']]);

      const draft = await completeDraft(cb, 'shipment', CB, { data: { factory: { facilityPublicId: PARANA }, slaughters: [] } });
      expect((await accept(cb, draft.id, 'SUBMIT', { agreementAccepted: true })).status.code).toBe(1007);
      const [bill] = (await billsOf(cb, draft.id)).filter((b) => b.status.code === 1);
      await payBill(w.t, bill.id, bill);
      await fireDue(w.t);
      expect((await requestOf(cb, draft.id)).status.code).toBe(1008);
      expect((await certificatesOf(w, cb, draft.id)).map((c) => [c.kind, c.holder.publicId])).toEqual([['shipment', PARANA]]);
    } finally {
      await w.t.database.db.delete(certificates).where(eq(certificates.id, later));
    }
  });

  it('a migrated Halal mark stands on its facility’s newest certificate: of two ending together, the later issued', async () => {
    const [najd] = await w.t.database.db.select().from(certificates).where(eq(certificates.number, 'HC-INT-2025-000118'));
    const ends = new Date(Date.now() + 1000 * DAY);
    const older = await copyOf(najd.number, { issuedAt: new Date(Date.now() - 400 * DAY), validFrom: new Date(Date.now() - 400 * DAY), expiresAt: ends, status: 1 });
    const newer = await copyOf(najd.number, { issuedAt: new Date(Date.now() - 20 * DAY), validFrom: new Date(Date.now() - 20 * DAY), expiresAt: ends, status: 1 });
    const [markRow] = await w.t.database.db.select().from(certificates).where(and(eq(certificates.facilityPublicId, najd.facilityPublicId), eq(certificates.kind, 'halalMark')));
    const mark = await copyOf(markRow.number, { expiresAt: new Date(Date.now() + 200 * DAY) });
    // The facility's own certificate ends first in the seed; these two run longest and end together.
    expect(najd.expiresAt.getTime()).toBeLessThan(ends.getTime());
    const engine = w.t.app.engine as unknown as EmbeddedEngine;
    // Left in place once adopted (their lifecycles' history refers to them); nothing else here reads this facility.
    const errors: unknown[] = [];
    expect(await engine.adoptCertificates((err) => errors.push(String(err)))).toBe(3);
    expect(errors).toEqual([]);
    // What the mark's page and lists read its certificate's state from (server/modules/certificates/mark-state.ts).
    const [lifecycle] = await w.t.database.db.select({ input: requests.input }).from(requests).where(eq(requests.id, mark));
    const standsOn = (lifecycle?.input as { data?: { certificateId?: string } } | undefined)?.data?.certificateId;
    expect([standsOn === older, standsOn === newer]).toEqual([false, true]);
  });
});
