/**
 * Paging helpers. Offset paging: `{ data, total, limit, offset, has_more }` (default 50, max 200).
 * Cursor paging (`paging=cursor`): `{ data, limit, has_more, cursor }`, cursor opaque and null at the end.
 */
import { Type, type Static, type TSchema } from 'typebox';
import { badRequest } from './errors.js';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;

export const PagingQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  paging: Type.Optional(Type.Union([Type.Literal('offset'), Type.Literal('cursor')])),
  cursor: Type.Optional(Type.String({ maxLength: 500 })),
});
export type PagingQuery = Static<typeof PagingQuery>;

export const pageEnvelope = <T extends TSchema>(row: T) =>
  Type.Object({
    data: Type.Array(row),
    total: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
    has_more: Type.Boolean(),
  });

export const cursorEnvelope = <T extends TSchema>(row: T) =>
  Type.Object({
    data: Type.Array(row),
    limit: Type.Integer(),
    has_more: Type.Boolean(),
    cursor: Type.Union([Type.String(), Type.Null()]),
  });

export function pageParams(query: PagingQuery): { limit: number; offset: number } {
  return { limit: query.limit ?? DEFAULT_LIMIT, offset: query.offset ?? 0 };
}

export function offsetPage<T>(data: T[], total: number, limit: number, offset: number) {
  return { data, total, limit, offset, has_more: offset + data.length < total };
}

/** Encodes the sort position of the last row (e.g. `[created_at, id]`). */
export function encodeCursor(position: unknown[]): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): unknown[] | undefined {
  if (!cursor) return undefined;
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value)) return value;
  } catch {
    /* falls through */
  }
  throw badRequest('cursor is not valid');
}

/**
 * Builds a cursor page from rows fetched with `limit + 1` (the extra row only says whether more exist).
 */
export function cursorPage<T>(rows: T[], limit: number, position: (row: T) => unknown[]) {
  const has_more = rows.length > limit;
  const data = has_more ? rows.slice(0, limit) : rows;
  const last = data[data.length - 1];
  return { data, limit, has_more, cursor: has_more && last ? encodeCursor(position(last)) : null };
}
