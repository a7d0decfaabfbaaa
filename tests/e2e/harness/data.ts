import { eq } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { certificates, facilities, facilityMembers, users } from '../../../db/schema';
import { businessDefaults } from '../../../server/business-defaults';
import { testConfig } from '../../../server/config';
import { storeDeps } from '../../../workflows';
import { entityPort } from '../../../workflows/store';

/**
 * Data a walk starts from, written before its server starts (startServerWithData): an issued certificate with its
 * lifecycle running, as the committee would have issued it, owned by a demo user of its facility.
 */
export async function issueCertificate(
  database: Database,
  owner: string,
  values: typeof certificates.$inferInsert & { expiresAt: Date },
): Promise<string> {
  const [user] = await database.db.select({ id: users.id }).from(users).where(eq(users.userName, owner));
  const deps = storeDeps({ settings: () => businessDefaults(testConfig()) });
  return database.db.transaction(async (tx) => {
    const [cert] = await tx.insert(certificates).values(values).returning();
    await entityPort(tx, deps, new Date()).start('certificate', {
      id: cert!.id,
      number: values.number,
      facilityPublicId: values.facilityPublicId,
      ownerUserId: user!.id,
      data: { expiresAt: values.expiresAt.toISOString() },
    });
    return cert!.id;
  });
}

/**
 * A conformity body of `owner` (its main user) holding no designation yet, as the demo seed's Gulf Halal CB that
 * new.applicant registers (scripts/lib/demo-requests.ts): a CB whose designation has not expired may not ask for another
 * (README, choices: one designation per conformity body), so a designation request is walked for this one. `n` keeps
 * each body's numbers apart (one body per walk: once designated, it may not ask again). Returns its public id.
 */
export async function addUndesignatedCb(database: Database, owner: string, n: number): Promise<string> {
  const publicId = `cb-gulf-halal-${n}`;
  const [user] = await database.db.select({ id: users.id }).from(users).where(eq(users.userName, owner));
  const [cb] = await database.db
    .insert(facilities)
    .values({
      publicId,
      type: 'ConformityBody',
      nameAr: 'هيئة الخليج لتقويم مطابقة الحلال',
      nameEn: 'Gulf Halal Conformity Body',
      registrationNumber: `AE-CB-2093${n}`,
      countryCode: 'AE',
      city: 'Dubai',
      details: { address: 'Sheikh Zayed Road 1', categories: ['C0', 'CI'] },
      acceptanceNumber: `${n}-2026H-CB`,
      notificationNumber: `H-CB2026-${n}`,
      certificateIssueDate: new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10),
      certificateExpiryDate: new Date(Date.now() + 700 * 86_400_000).toISOString().slice(0, 10),
      createdBy: user!.id,
    })
    .returning({ id: facilities.id });
  await database.db.insert(facilityMembers).values({ facilityId: cb!.id, userId: user!.id, role: 0, permissions: [] });
  return publicId;
}
