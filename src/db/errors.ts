/** Recognising database errors the same way on both engines, by the drivers' error codes. */

/** SQLite extended result codes for a unique or primary-key violation; PostgreSQL SQLSTATE 23505. */
const UNIQUE_CODES = new Set(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY', '23505']);

/** True when the error is a unique-constraint violation (e.g. a concurrent duplicate insert lost the race). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && UNIQUE_CODES.has(code);
}
