/** The unique index a failed insert/update violated, if that is why it failed (postgres.js and PGlite alike). */
export function violatedUniqueIndex(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const pg = e as { code?: string; constraint?: string; constraint_name?: string; detail?: string; message?: string };
    if (pg.code === '23505') return pg.constraint ?? pg.constraint_name ?? pg.message ?? 'unknown';
  }
  return undefined;
}
