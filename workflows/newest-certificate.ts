import { desc, sql } from 'drizzle-orm';
import { certificates } from '../db/schema';

/**
 * The one rule for "a facility's newest certificate" when it holds several of a kind (Halal certificates, a CB's
 * designations): the one that runs longest (latest expiry), of two ending together the later issued. Every reader of
 * "the" certificate orders by it (the start's checks, a CB's usable designation, its categories at submission, the
 * system's issue steps, the public list of accredited bodies, a migrated mark's certificate): by issue date alone a
 * short or lapsed certificate issued after a longer one that still runs would hide it, and by expiry alone two ending
 * together would be picked at random.
 */
export const NEWEST_CERTIFICATE_FIRST = [desc(certificates.expiresAt), desc(certificates.issuedAt)] as const;

/** The same order in a hand-written subquery over the table aliased `alias` (SQL text: `order by ${...}`). */
export const newestCertificateFirstSql = (alias: string) => sql.raw(`${alias}.expires_at desc, ${alias}.issued_at desc`);
