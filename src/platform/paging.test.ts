// Paging helpers: request parsing, cursors (round trip, tampering), and both envelopes.
import { describe, expect, it } from 'vitest';
import { AppError } from './errors.js';
import { cursorPage, decodeCursor, encodeCursor, INVALID_CURSOR, offsetPage, pageRequest, PAGE_DEFAULT } from './paging.js';

const badRequest = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).status === 400 ? (error as AppError).message : `status ${(error as AppError).status}`;
  }
  return 'no error';
};

describe('pageRequest', () => {
  it('defaults to offset paging of 50 from 0', () => {
    expect(pageRequest({}, 2)).toEqual({ mode: 'offset', limit: PAGE_DEFAULT, offset: 0 });
    expect(pageRequest({ limit: 10, offset: 30 }, 2)).toEqual({ mode: 'offset', limit: 10, offset: 30 });
  });

  it('switches to cursor paging with paging=cursor or a cursor', () => {
    expect(pageRequest({ paging: 'cursor', limit: 5 }, 2)).toEqual({ mode: 'cursor', limit: 5, after: null });
    const cursor = encodeCursor(['2026-06-20', 'bkg_a']);
    expect(pageRequest({ cursor }, 2)).toEqual({ mode: 'cursor', limit: PAGE_DEFAULT, after: ['2026-06-20', 'bkg_a'] });
  });

  it('refuses an offset with cursor paging', () => {
    expect(badRequest(() => pageRequest({ paging: 'cursor', offset: 10 }, 2))).toMatch(/offset/);
  });
});

describe('cursors', () => {
  it('round-trip as base64url text', () => {
    const key = ['2026-06-20', '', 'bkg_x', 3];
    const cursor = encodeCursor(key);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, 4)).toEqual(key);
  });

  it.each([
    ['not base64url', '***'],
    ['not JSON', Buffer.from('{nope').toString('base64url')],
    ['not an array', Buffer.from('{"a":1}').toString('base64url')],
    ['the wrong arity', encodeCursor(['a'])],
    ['a null value', Buffer.from('["a",null]').toString('base64url')],
    ['an object value', Buffer.from('["a",{}]').toString('base64url')],
    ['a fractional number', Buffer.from('["a",1.5]').toString('base64url')],
  ])('are a 400 when %s', (_, cursor) => {
    expect(badRequest(() => decodeCursor(cursor, 2))).toBe(INVALID_CURSOR);
  });
});

describe('envelopes', () => {
  it('offset: has_more while rows remain after this page', () => {
    expect(offsetPage([1, 2], 5, { limit: 2, offset: 0 })).toEqual({ data: [1, 2], total: 5, limit: 2, offset: 0, has_more: true });
    expect(offsetPage([5], 5, { limit: 2, offset: 4 })).toEqual({ data: [5], total: 5, limit: 2, offset: 4, has_more: false });
    expect(offsetPage([], 5, { limit: 2, offset: 10 })).toMatchObject({ data: [], has_more: false });
  });

  it('cursor: the extra row only says there is more; the cursor is the last sent row’s key, null at the end', () => {
    const rows = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    const page = cursorPage(rows, 2, (row) => [row.id]);
    expect(page).toEqual({ data: [{ id: 'a' }, { id: 'b' }], limit: 2, has_more: true, cursor: encodeCursor(['b']) });
    expect(cursorPage(rows, 3, (row) => [row.id])).toEqual({ data: rows, limit: 3, has_more: false, cursor: null });
  });
});
