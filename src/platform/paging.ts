/**
 * Paged lists (decisions: Lists): offset paging `{ data, total, limit, offset, has_more }` and cursor
 * paging (`paging=cursor`, then `cursor=<opaque>`) `{ data, limit, has_more, cursor }` with `cursor` null
 * at the end. Page size: default 50, at most 200.
 *
 * A cursor is the sort key of the last row sent (for example `(created_at, id)` or
 * `(booking_date, start_time, id)`) as base64url JSON: opaque to clients, stable under inserts (a row
 * added before the cursor is not sent twice, nor is one skipped), and checked on the way back in, so a
 * tampered or foreign cursor is a 400 rather than a 500. Lists sort by their key ending in the id, so
 * the key names exactly one position.
 */
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { Type, type TSchema } from 'typebox';
import { badRequest } from './errors.js';
import { Nullable } from './http.js';

export const PAGE_DEFAULT = 50;
export const PAGE_MAX = 200;
/** Far beyond any real list; keeps `offset` a safe integer for both engines. */
export const OFFSET_MAX = 1_000_000;
export const CURSOR_MAX_LENGTH = 500;

/** The query fields every paged list accepts (spread into the list's query schema). */
export const pagingQueryFields = {
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: PAGE_MAX, description: `Page size: default ${PAGE_DEFAULT}, at most ${PAGE_MAX}` }),
  ),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: OFFSET_MAX, description: 'Rows to skip (offset paging)' })),
  paging: Type.Optional(
    Type.Literal('cursor', { description: '`cursor` for cursor paging: the answer carries `cursor` instead of `total` and `offset`' }),
  ),
  cursor: Type.Optional(
    Type.String({ minLength: 1, maxLength: CURSOR_MAX_LENGTH, description: 'The `cursor` of the previous page (implies `paging=cursor`)' }),
  ),
};

export interface PagingQuery {
  limit?: number;
  offset?: number;
  paging?: 'cursor';
  cursor?: string;
}

/** One sort-key value; `null` is not allowed (sort by `coalesce(column, '')` instead, the same on both engines). */
export type KeyValue = string | number;

export type PageRequest = { mode: 'offset'; limit: number; offset: number } | { mode: 'cursor'; limit: number; after: KeyValue[] | null };

/** Reads the paging fields of a query; a cursor must have `arity` values (400 otherwise). */
export function pageRequest(query: PagingQuery, arity: number): PageRequest {
  const limit = query.limit ?? PAGE_DEFAULT;
  if (query.paging === 'cursor' || query.cursor !== undefined) {
    if (query.offset !== undefined && query.offset !== 0) throw badRequest('offset cannot be combined with cursor paging');
    return { mode: 'cursor', limit, after: query.cursor === undefined ? null : decodeCursor(query.cursor, arity) };
  }
  return { mode: 'offset', limit, offset: query.offset ?? 0 };
}

export function encodeCursor(key: readonly KeyValue[]): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

export const INVALID_CURSOR = 'cursor is not valid: pass the cursor of the previous page as it was returned';

export function decodeCursor(cursor: string, arity: number): KeyValue[] {
  let value: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('not base64url');
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(INVALID_CURSOR);
  }
  const valid =
    Array.isArray(value) &&
    value.length === arity &&
    value.every((v) => (typeof v === 'string' && v.length <= CURSOR_MAX_LENGTH) || (typeof v === 'number' && Number.isSafeInteger(v)));
  if (!valid) throw badRequest(INVALID_CURSOR);
  return value as KeyValue[];
}

/**
 * The rows strictly after `after` in the order of `keys` (all ascending): `k1 > v1 OR (k1 = v1 AND k2 > v2) …`,
 * written out rather than as a row-value comparison so that it reads the same on SQLite and PostgreSQL.
 */
export function afterKey(keys: readonly Expression<unknown>[], after: readonly KeyValue[]): RawBuilder<SqlBool> {
  const branches = keys.map((key, index) => {
    const equal = keys.slice(0, index).map((k, i) => sql`${k} = ${after[i]}`);
    return sql`(${sql.join([...equal, sql`${key} > ${after[index]}`], sql` and `)})`;
  });
  return sql<SqlBool>`(${sql.join(branches, sql` or `)})`;
}

/** `coalesce(column, '')` for a nullable text sort key, so nulls sort first on both engines. */
export const textKey = (column: string) => sql<string>`coalesce(${sql.ref(column)}, '')`;

export interface OffsetPage<T> {
  data: T[];
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
}

export interface CursorPage<T> {
  data: T[];
  limit: number;
  has_more: boolean;
  cursor: string | null;
}

export const offsetPage = <T>(data: T[], total: number, request: { limit: number; offset: number }): OffsetPage<T> => ({
  data,
  total,
  limit: request.limit,
  offset: request.offset,
  has_more: request.offset + data.length < total,
});

/**
 * The page from `rows` fetched with `limit + 1` (the extra row only says there is more); the cursor is
 * the key of the last row sent, null at the end.
 */
export function cursorPage<R>(rows: R[], limit: number, keyOf: (row: R) => KeyValue[]): CursorPage<R> {
  const hasMore = rows.length > limit;
  const data = hasMore ? rows.slice(0, limit) : rows;
  return { data, limit, has_more: hasMore, cursor: hasMore ? encodeCursor(keyOf(data[data.length - 1])) : null };
}

/**
 * The response of a list with both paging modes: offset paging fills `total` and `offset`, cursor
 * paging `cursor` (one schema, so the serializer needs no union).
 */
export const PagedList = <T extends TSchema>(item: T, description: string) =>
  Type.Object(
    {
      data: Type.Array(item),
      limit: Type.Integer(),
      has_more: Type.Boolean(),
      total: Type.Optional(Type.Integer({ description: 'Offset paging: rows matching the filters' })),
      offset: Type.Optional(Type.Integer({ description: 'Offset paging: rows skipped' })),
      cursor: Type.Optional(Nullable(Type.String({ description: 'Cursor paging: pass as `cursor` for the next page; null at the end' }))),
    },
    { description },
  );
