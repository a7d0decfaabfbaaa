/**
 * npm run db:backup -- <file.tar.gz>
 *
 * Backs up the database (PGlite in DATA_DIR, or PostgreSQL at DATABASE_URL) and the uploaded files (DATA_DIR/files)
 * into one archive (see scripts/lib/backup.ts). PGlite: stop the server first (its data directory opens in one
 * process at a time). PostgreSQL: runs online; needs pg_dump on PATH.
 */
import { DataDirectoryInUseError } from '../db/client';
import { ConfigError, loadConfig } from '../server/config';
import { backup, BackupError } from './lib/backup';

async function main() {
  const file = process.argv[2];
  if (!file || process.argv.length > 3) {
    console.error('usage: npm run db:backup -- <file.tar.gz>');
    process.exit(2);
  }
  const config = loadConfig();
  const m = await backup({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR }, file);
  console.log(
    `backed up ${m.kind}: ${m.counts.requests} requests, ${m.counts.historyRows} history rows, ${m.counts.files} files ` +
      `(${m.counts.fileBytes} bytes) -> ${file}`,
  );
}

main().catch((e: unknown) => {
  if (e instanceof DataDirectoryInUseError) console.error(`${e.message}\nA PGlite database is backed up with the server stopped.`);
  else if (e instanceof BackupError || e instanceof ConfigError) console.error(e.message);
  else console.error(e);
  process.exit(1);
});
