import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { certificates } from '../../db/schema';
import { EmbeddedEngine } from '../../workflows/embedded/embedded-engine';
import { createTestApp, type Client, type TestApp } from '../helpers/app';
import { testStoreDeps } from '../helpers/deps';
import { accept } from '../helpers/requests';
import arErrors from '../../locales/ar/errors.json';
import enErrors from '../../locales/en/errors.json';

/*
 * Whether a certificate's renewal is open is read one way: the facility's certificates tab and the certificate page
 * offer the renewal (their `renewal`) exactly when the start check lets it start, and when it may not the start page
 * says why in the start's words: more than the window's days left, or suspended (README, choices).
 */
const DAY = 86_400_000;
const FACILITY = 'inf-almarai-foods';
let t: TestApp;
let applicant: Client;
let committee: Client;

async function certificate(daysLeft: number) {
  const number = `HC-OFFER-${randomUUID().slice(0, 8)}`;
  const issuedAt = new Date(Date.now() - 300 * DAY);
  const [row] = await t.database.db
    .insert(certificates)
    .values({
      number,
      kind: 'internalHalal',
      facilityPublicId: FACILITY,
      verificationCode: randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase(),
      issuedAt,
      validFrom: issuedAt,
      expiresAt: new Date(Date.now() + daysLeft * DAY),
    })
    .returning({ id: certificates.id });
  return { id: row!.id, number };
}

/** The tab's row and the page of a certificate: the renewal offered, or the open renewal linked instead. */
async function offered(id: string) {
  const list = await applicant.get(`/api/certificates?heldBy=${FACILITY}&pageSize=100`);
  const page = await applicant.get(`/api/certificates/${id}`);
  const row = (list.json().items as { id: string; renewal: unknown; openRenewal: unknown }[]).find((r) => r.id === id)!;
  return { tab: { renewal: row.renewal, openRenewal: row.openRenewal }, page: { renewal: page.json().renewal, openRenewal: page.json().openRenewal } };
}

/** What the holder sees: the renewal offered on the tab's row and on the page, and what the start page says. */
async function seen(id: string, lang: 'ar' | 'en' = 'en') {
  const list = await applicant.get(`/api/certificates?heldBy=${FACILITY}&pageSize=100&lang=${lang}`);
  const page = await applicant.get(`/api/certificates/${id}?lang=${lang}`);
  const check = await applicant.get(`/api/requests/start-check?kind=internalRenewal&facilityId=${FACILITY}&certificateId=${id}&lang=${lang}`);
  expect([list.statusCode, page.statusCode, check.statusCode]).toEqual([200, 200, 200]);
  const row = (list.json().items as { id: string; renewal: { kind: string } | null }[]).find((r) => r.id === id)!;
  return { tab: row.renewal?.kind ?? null, page: page.json().renewal?.kind ?? null, canStart: check.json().canStart, says: check.json().refusal?.message ?? null };
}

beforeAll(async () => {
  t = await createTestApp();
  [applicant, committee] = await Promise.all(['internal.main', 'committee'].map((u) => t.login(u)));
}, 60_000);
afterAll(() => t?.close());

describe('the renewal offered and the start check agree', () => {
  it('inside the window: offered on the tab and the page, and the start may go ahead', async () => {
    const { id } = await certificate(30);
    expect(await seen(id)).toEqual({ tab: 'internalRenewal', page: 'internalRenewal', canStart: true, says: null });
  });

  it('outside the window: not offered, and the start page says when it opens', async () => {
    const { id } = await certificate(200);
    expect(await seen(id)).toEqual({ tab: null, page: null, canStart: false, says: enErrors.RenewalNotOpen.replace('{{days}}', '60') });
  });

  it('suspended inside the window: not offered, and the start page says it is suspended, in both languages, until it is reinstated', async () => {
    const { id, number } = await certificate(30);
    // Suspended as the committee does it: the certificate's lifecycle (adopted as the server's start does).
    await new EmbeddedEngine({ db: t.database.db, deps: testStoreDeps() }).adoptCertificates();
    await accept(committee, id, 'SUSPEND', { reason: 'Inspection found a non-conformity' });
    expect(await seen(id)).toEqual({ tab: null, page: null, canStart: false, says: enErrors.CertificateSuspended.replace('{{number, ltr}}', number) });
    expect((await seen(id, 'ar')).says).toBe(arErrors.CertificateSuspended.replace('{{number, ltr}}', `\u2066${number}\u2069`));
    // A start sent anyway is refused with the same words, and nothing starts.
    const started = await applicant.post('/api/requests?lang=en', { kind: 'internalRenewal', facilityId: FACILITY, certificateId: id });
    expect([started.statusCode, started.json().error.message]).toEqual([400, enErrors.CertificateSuspended.replace('{{number, ltr}}', number)]);

    await accept(committee, id, 'REINSTATE', { reason: 'Corrective actions accepted' });
    expect(await seen(id)).toEqual({ tab: 'internalRenewal', page: 'internalRenewal', canStart: true, says: null });
  });

  it('one renewal at a time: once started it is linked by its number instead of offered, and offered again once it ended', async () => {
    const { id } = await certificate(30);
    const start = () => applicant.post('/api/requests?lang=en', { kind: 'internalRenewal', facilityId: FACILITY, certificateId: id });
    const first = await start();
    expect(first.statusCode).toBe(201);
    const open = { id: first.json().id, number: first.json().number, kind: 'internalRenewal' };
    // A second start is refused as before (the start's oneOpenPerSubject), and the tab and the page say so by the same rule.
    const again = await start();
    expect([again.statusCode, again.json().error.code, again.json().error.message]).toEqual([409, 'RequestAlreadyOpen', enErrors.RequestAlreadyOpen]);
    expect(await offered(id)).toEqual({ tab: { renewal: null, openRenewal: open }, page: { renewal: null, openRenewal: open } });
    expect(await seen(id)).toMatchObject({ tab: null, page: null, canStart: false });
    // The draft deleted, the machine is in its final state: the renewal is offered again and nothing is linked.
    await accept(applicant, open.id, 'DELETE', { confirmed: true });
    const offer = { renewal: { kind: 'internalRenewal', start: expect.any(String) }, openRenewal: null };
    expect(await offered(id)).toEqual({ tab: offer, page: offer });
  });
});
