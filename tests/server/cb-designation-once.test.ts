import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { certificates, requests } from '../../db/schema';
import { tFor } from '../../server/i18n';
import { completeDraft, send, type RequestJson } from '../helpers/requests';
import { billsOf, createWorld, designationOf, walk, type World } from '../services/walk';

/*
 * A conformity body is designated once and then renews (README, choices: "One designation per conformity body"): while
 * it holds a designation that has not expired, a new designation request is refused at every door — the start page's
 * check, the start, the submission, paying and issuing — in Arabic and English, and nothing changes. Once the
 * designation has expired the CB may request one again. A designation request opened before one was issued may still
 * be deleted (a draft) or cancelled.
 */
const CB = 'cb-global-halal';
const LANGS = ['ar', 'en'] as const;
const DAY = 86_400_000;

let w: World;
/** The designation the demo data gives Global Halal CB (db/seed-public.ts), in force, and how it was. */
let held: { id: string; number: string; status: number; expiresAt: Date };

beforeAll(async () => {
  w = await createWorld();
  const { id } = await designationOf(w, CB);
  const [row] = await w.t.database.db.select().from(certificates).where(eq(certificates.id, id));
  held = { id, number: row.number, status: row.status, expiresAt: row.expiresAt };
}, 240_000);
afterAll(() => w?.t.close());

const said = (lang: 'ar' | 'en', key: string, params: Record<string, unknown> = {}) => tFor(lang)(key, params);
const refusal = (lang: 'ar' | 'en') => ({ code: 'CbAlreadyDesignated', message: said(lang, 'errors:CbAlreadyDesignated', { number: held.number, days: 180 }) });
const designationRequests = async () =>
  (await w.t.database.db.select({ id: requests.id }).from(requests).where(and(eq(requests.facilityPublicId, CB), eq(requests.kind, 'cbDesignation')))).length;
const startCheck = async (lang: string) =>
  (await w.as['cb.main'].get(`/api/requests/start-check?kind=cbDesignation&facilityId=${CB}&lang=${lang}`)).json() as {
    canStart: boolean;
    refusal: { code: string; message: string } | null;
  };
/** Time passing for the held designation: expired (by its code, as the daily sweep leaves it), or in force again. */
const lapse = () => w.t.database.db.update(certificates).set({ status: 2, expiresAt: new Date(Date.now() - DAY) }).where(eq(certificates.id, held.id));
const restore = () => w.t.database.db.update(certificates).set({ status: held.status, expiresAt: held.expiresAt }).where(eq(certificates.id, held.id));
const stored = async (id: string) => {
  const [row] = await w.t.database.db.select({ version: requests.version, status: requests.status }).from(requests).where(eq(requests.id, id));
  return row;
};

describe('a conformity body holding a designation in force renews it instead of requesting another', () => {
  it('the start is refused with the reason, in Arabic and English, and no request is created', async () => {
    const before = await designationRequests();
    for (const lang of LANGS) {
      const res = await w.as['cb.main'].post(`/api/requests?lang=${lang}`, { kind: 'cbDesignation', facilityId: CB, data: {} });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatchObject(refusal(lang));
      // The message names the certificate and says to renew it.
      expect(res.json().error.message).toContain(held.number);
    }
    expect(said('en', 'errors:CbAlreadyDesignated', { number: held.number, days: 180 })).toMatch(/renew/i);
    expect(said('ar', 'errors:CbAlreadyDesignated', { number: held.number, days: 180 })).toContain('جدّد');
    expect(await designationRequests()).toBe(before);
  });

  it('the services tile leads to a start page that says why and does not offer the start (start-check)', async () => {
    for (const lang of LANGS) expect(await startCheck(lang)).toEqual({ canStart: false, refusal: expect.objectContaining(refusal(lang)) });
    // The renewal is the way: its own check names the window, not this rule.
    const renewal = (await w.as['cb.main'].get(`/api/requests/start-check?kind=cbRenewal&facilityId=${CB}&certificateId=${held.id}&lang=en`)).json();
    expect(renewal.refusal?.code).not.toBe('CbAlreadyDesignated');
  });

  it('a suspended designation blocks a new request too (its way out is the suspension lifted)', async () => {
    await w.t.database.db.update(certificates).set({ status: 4 }).where(eq(certificates.id, held.id));
    try {
      expect((await startCheck('en')).refusal?.code).toBe('CbAlreadyDesignated');
    } finally {
      await restore();
    }
  });
});

describe('once the designation has expired the CB may request one again', () => {
  it('the start page offers it and the start creates the draft', async () => {
    await lapse();
    try {
      expect(await startCheck('en')).toEqual({ canStart: true, refusal: null });
      const before = await designationRequests();
      const res = await w.as['cb.main'].post('/api/requests?lang=en', { kind: 'cbDesignation', facilityId: CB, data: {} });
      expect(res.statusCode, res.body).toBe(201);
      expect(await designationRequests()).toBe(before + 1);
      expect((await send(w.as['cb.main'], res.json().id, 'DELETE', res.json().version, { confirmed: true })).statusCode).toBe(200);
    } finally {
      await restore();
    }
  });
});

describe('a designation request opened while the CB held none, when a designation is in force again (README, choices)', () => {
  it('its submission at the generic event door is refused in Arabic and English and changes nothing; it may be deleted', async () => {
    await lapse();
    let draft: RequestJson;
    try {
      draft = await completeDraft(w.as['cb.main'], 'cbDesignation', CB);
    } finally {
      await restore();
    }
    const before = await stored(draft.id);
    for (const lang of LANGS) {
      const res = await send(w.as['cb.main'], draft.id, 'SUBMIT', draft.version, { agreementAccepted: true }, lang);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatchObject(refusal(lang));
    }
    expect(await stored(draft.id)).toEqual(before);
    const deleted = await send(w.as['cb.main'], draft.id, 'DELETE', draft.version, { confirmed: true });
    expect(deleted.statusCode, deleted.body).toBe(200);
  });

  it('one waiting for its fee is not paid for nor issued: paying is refused with the reason; it may be cancelled', async () => {
    await lapse();
    let id: string;
    try {
      const draft = await completeDraft(w.as['cb.main'], 'cbDesignation', CB);
      id = draft.id;
      const { request } = await walk(w, id, { applicant: 'cb.main', until: 1003, payBills: false });
      expect(request.status.code).not.toBe(1003);
    } finally {
      await restore();
    }
    const [bill] = (await billsOf(w.as['cb.main'], id)).filter((b) => b.status.code === 1);
    expect(bill, 'a bill awaits payment').toBeDefined();
    const before = await stored(id);
    for (const lang of LANGS) {
      const pay = await w.as['cb.main'].post(`/api/bills/${bill.id}/pay?lang=${lang}`, {});
      expect(pay.statusCode, pay.body).toBe(400);
      expect(pay.json().error).toMatchObject(refusal(lang));
    }
    expect(await stored(id)).toEqual(before);
    const { version } = (await w.as['cb.main'].get(`/api/requests/${id}/actions`)).json() as { version: number };
    expect((await send(w.as['cb.main'], id, 'CANCEL', version)).statusCode).toBe(200);
  }, 120_000);
});
