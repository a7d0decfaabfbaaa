import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { EmbeddedEngine } from '../../workflows/embedded/embedded-engine';
import { machinesCatalogue } from '../../workflows/machines-catalogue';
import { createTestDatabase } from '../helpers/db';
import { testStoreDeps } from '../helpers/deps';
import { internalCertificateData } from '../services/fixtures';
import { FACILITY, applicant, registration } from './fixtures/internal-certificate-scenario';

/**
 * The staff "brand name" filter reads a copy of the brand names kept on the request row. The engine recomputes that
 * copy only when an event changed the request's data (docs/performance-log.md): an edit must still show in the filter, and
 * events that leave the data alone must keep it.
 */
let database: Database;
let engine: EmbeddedEngine;

beforeAll(async () => {
  database = await createTestDatabase({ seed: false });
  engine = new EmbeddedEngine({ db: database.db, deps: testStoreDeps({ catalogue: machinesCatalogue }) });
});
afterAll(() => database?.close());

const byBrand = async (brandName: string) =>
  (await engine.list({ queue: 'all', tab: 'any', viewer: registration, brandName, pageNumber: 1, pageSize: 50 })).items.map((v) => v.id);

describe('brand names of a request', () => {
  it('follow an edit of the trademarks, and stay through events that do not touch the data', async () => {
    const r = await engine.start('internalCertificate', { ownerUserId: applicant.userId, facilityId: FACILITY, data: internalCertificateData() }, applicant);
    expect(await byBrand('Almarai')).toContain(r.id);

    // The second brand renamed, in its trademark and its product alike (the contract wants each brand to have products).
    const data = internalCertificateData() as { trademarks: { nameAr: string; nameEn: string }[]; products: { brandAr: string; brandEn: string }[] };
    const rename = { ar: 'نخلة', en: 'Nakhla Dates' };
    const trademarks = data.trademarks.map((t) => (t.nameEn === 'Lusine' ? { nameAr: rename.ar, nameEn: rename.en } : t));
    const products = data.products.map((p) => (p.brandEn === 'Lusine' ? { ...p, brandAr: rename.ar, brandEn: rename.en } : p));
    const edited = await engine.send(r.id, { type: 'EDIT', data: { trademarks, products } }, applicant, r.version);
    expect(await byBrand('Nakhla')).toContain(r.id);
    expect(await byBrand('Lusine')).not.toContain(r.id);

    // SUBMIT leaves the data as it is: the names found by the filter are the edited ones still.
    const submitted = await engine.send(r.id, { type: 'SUBMIT', agreementAccepted: true }, applicant, edited.version);
    expect(submitted.version).toBe(edited.version + 1);
    expect(await byBrand('Nakhla')).toContain(r.id);
    expect(await byBrand('Lusine')).not.toContain(r.id);
  });
});
