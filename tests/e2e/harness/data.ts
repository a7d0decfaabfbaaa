import { eq } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { certificates, users } from '../../../db/schema';
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
