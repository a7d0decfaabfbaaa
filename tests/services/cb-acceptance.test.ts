import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { certificates, facilities } from '../../db/schema';
import { SERVICES, REQUEST_KINDS } from '../../machines/services';
import { completeDraft, send, type RequestJson } from '../helpers/requests';
import { createWorld, type World, lapseDesignations } from './walk';

/**
 * Issue 12 item 5 (spec 02 sections 4 and 8): an expired acceptance or notification certificate blocks every service of
 * the conformity body, starting with POST /api/requests, with the spec's message; and a draft made before it expired
 * cannot be submitted (the precondition is checked again on submission).
 */
const CB = 'cb-global-halal';
const MESSAGE = 'You cannot use the service because the acceptance certificate has expired. Please renew it through the acceptance portal.';
let w: World;
let designationId: string;

const setAcceptanceExpiry = (isoDay: string) => w.t.database.db.update(facilities).set({ certificateExpiryDate: isoDay }).where(eq(facilities.publicId, CB));
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** Every service a conformity body may start, with what it needs to start (its designation for certificate-based ones). */
const startBody = (kind: string) => ({
  kind,
  facilityId: CB,
  ...(SERVICES[kind as keyof typeof SERVICES].subject.type === 'certificate' && kind.startsWith('cb') ? { certificateId: designationId } : {}),
});

beforeAll(async () => {
  w = await createWorld();
  const [designation] = await w.t.database.db
    .select({ id: certificates.id })
    .from(certificates)
    .where(and(eq(certificates.facilityPublicId, CB), eq(certificates.kind, 'cbDesignation')));
  designationId = designation.id;
}, 120_000);
afterAll(() => w?.t.close());

describe('an expired acceptance certificate blocks every CB service', () => {
  it('every service a CB may start declares the rule', () => {
    const cbServices = REQUEST_KINDS.map((k) => SERVICES[k]).filter((d) => d.facilityTypes.includes('cb'));
    expect(cbServices.length).toBeGreaterThan(3);
    for (const d of cbServices) expect(d.preconditions.map((p) => p.type), d.kind).toContain('cbAcceptanceValid');
  });

  it('with a valid acceptance certificate the CB starts its services', async () => {
    await setAcceptanceExpiry(day(365));
    for (const kind of ['cbDesignation', 'cbAddCategories', 'externalCertificate', 'shipment']) {
      // A designation is asked for while the CB holds none in force (README, choices); the others rest on the one it holds.
      const restore = kind === 'cbDesignation' ? await lapseDesignations(w.t.database.db, CB) : async () => {};
      const res = await w.as['cb.main'].post('/api/requests?lang=en', startBody(kind)).finally(restore);
      expect(res.statusCode, `${kind}: ${res.body}`).toBe(201);
    }
  });

  it('once it has expired, POST /api/requests is refused with the spec’s message for each of them, in both languages', async () => {
    await setAcceptanceExpiry(day(-1));
    for (const kind of ['cbDesignation', 'cbAddCategories', 'externalCertificate', 'shipment']) {
      const res = await w.as['cb.main'].post('/api/requests?lang=en', startBody(kind));
      expect(res.statusCode, kind).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'AcceptanceCertificateExpired', message: MESSAGE });
    }
    const ar = await w.as['cb.main'].post('/api/requests?lang=ar', startBody('cbDesignation'));
    expect(ar.json().error.message).toContain('لانتهاء صلاحية شهادة القبول');
  });

  it('a draft made while it was valid cannot be submitted after it expired; the draft is unchanged', async () => {
    await setAcceptanceExpiry(day(365));
    const restore = await lapseDesignations(w.t.database.db, CB);
    const draft = await completeDraft(w.as['cb.main'], 'cbDesignation', CB).finally(restore);
    await setAcceptanceExpiry(day(-1));
    const res = await send(w.as['cb.main'], draft.id, 'SUBMIT', draft.version, { agreementAccepted: true });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'AcceptanceCertificateExpired', message: MESSAGE });
    const after = (await w.as['cb.main'].get(`/api/requests/${draft.id}`)).json() as RequestJson;
    expect([after.status.code, after.version]).toEqual([draft.status.code, draft.version]);
  });
});
