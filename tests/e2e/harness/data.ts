import { openDatabase } from '../../../db/client';
import { seed } from '../../../db/seed';
import { certificates } from '../../../db/schema';

export type SeededCertificate = typeof certificates.$inferInsert;

/**
 * Prepares a data dir before its server starts: the demo data, plus the given certificates (e.g. an issued external
 * Halal certificate a later step needs, so an E2E file does not walk the steps that issue it). Returns their ids in
 * the same order.
 */
export async function prepareData(dir: string, extra: SeededCertificate[] = []): Promise<string[]> {
  const database = await openDatabase({ dataDir: dir });
  try {
    await seed(database.db);
    const ids: string[] = [];
    for (const values of extra) {
      const [row] = await database.db.insert(certificates).values(values).returning({ id: certificates.id });
      ids.push(row!.id);
    }
    return ids;
  } finally {
    await database.close();
  }
}
