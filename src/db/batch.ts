/** Multi-row writes in batches that stay far below SQLite's and PostgreSQL's bound-parameter limits. */
export const INSERT_CHUNK = 500;

/** `rows` in consecutive slices of at most `size`. */
export function chunked<T>(rows: readonly T[], size = INSERT_CHUNK): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < rows.length; start += size) out.push(rows.slice(start, start + size));
  return out;
}
