/**
 * npm run db:restore -- <file.tar.gz>
 *
 * Restores a backup made by db:backup into an empty target: PGlite into an empty or new DATA_DIR; PostgreSQL into
 * an empty database at DATABASE_URL (needs pg_restore on PATH) with an empty DATA_DIR/files. Then opens it (newer
 * migrations apply) and verifies it: every request's history hash chain, the row and file counts of the backup, every
 * file's SHA-256, and that every file an attachment row names is there. Exits 1 if anything does not hold.
 */
import { DataDirectoryInUseError } from '../db/client';
import { ConfigError, loadConfig } from '../server/config';
import { configureHistoryKeys } from '../workflows/hash-chain';
import { BackupError, restore } from './lib/backup';

async function main() {
  const file = process.argv[2];
  if (!file || process.argv.length > 3) {
    console.error('usage: npm run db:restore -- <file.tar.gz>');
    process.exit(2);
  }
  const config = loadConfig();
  configureHistoryKeys({ keys: config.HISTORY_KEYS, acceptLegacy: config.HISTORY_ACCEPT_LEGACY });
  const v = await restore({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR }, file);
  const c = v.manifest.counts;
  console.log(`restored ${v.manifest.kind} backup of ${v.manifest.createdAt}`);
  console.log(`requests ${v.requests}/${c.requests}, history rows ${v.historyRows}/${c.historyRows}, files ${v.files}/${c.files}`);
  console.log(`history chains: ${v.requests - v.brokenChains.length} of ${v.requests} hold`);
  for (const b of v.brokenChains) console.log(`  broken: request ${b.id} at seq ${b.firstBrokenSeq} (${b.reason})`);
  for (const f of v.badFiles) console.log(`  file does not match its SHA-256: files/${f}`);
  for (const sha of v.missingFiles) console.log(`  file named by an attachment row is missing: ${sha}`);
  if (!v.ok) {
    console.error('restore verification FAILED');
    process.exit(1);
  }
  console.log('restore verified');
}

main().catch((e: unknown) => {
  if (e instanceof BackupError || e instanceof ConfigError || e instanceof DataDirectoryInUseError) console.error(e.message);
  else console.error(e);
  process.exit(1);
});
