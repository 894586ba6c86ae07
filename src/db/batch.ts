/** Multi-row writes in batches that stay far below SQLite's and PostgreSQL's bound-parameter limits. */
export const INSERT_CHUNK = 500;

/** `rows` in consecutive slices of at most `size`. */
export function chunked<T>(rows: readonly T[], size = INSERT_CHUNK): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < rows.length; start += size) out.push(rows.slice(start, start + size));
  return out;
}

/**
 * `rows` in consecutive slices whose lengths are powers of two, largest first, none over `size` (37 rows:
 * 32, 4, 1). For SQLite, where each distinct statement text is compiled once and kept
 * (db/connect.ts): a batch's inserts of any number of rows then reuse a few statements per table
 * instead of one per row count, each holding its compiled program (tens of kilobytes for a few hundred
 * parameters) for as long as it is kept.
 */
export function chunkedByPowersOfTwo<T>(rows: readonly T[], size = INSERT_CHUNK): T[][] {
  const largest = 2 ** Math.floor(Math.log2(Math.max(1, size)));
  const out: T[][] = [];
  let start = 0;
  while (start < rows.length) {
    const left = rows.length - start;
    const length = Math.min(largest, 2 ** Math.floor(Math.log2(left)));
    out.push(rows.slice(start, start + length));
    start += length;
  }
  return out;
}
