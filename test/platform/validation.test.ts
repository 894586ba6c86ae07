/** The validator compiler and the input guard on their own: first-error messages, linear cost. */
import { describe, expect, it } from 'vitest';
import { Type, type TSchema } from 'typebox';
import { ClockTime, DateString, Nullable, Toggle } from '../../src/platform/http.js';
import { bodyProblem, MAX_BODY_DEPTH, textProblem } from '../../src/platform/input-guard.js';
import { validatorCompiler, type ValidationIssue } from '../../src/platform/validation.js';

function validate(schema: TSchema, value: unknown, httpPart = 'body') {
  const check = validatorCompiler({ schema, httpPart, url: '/x', method: 'POST' }) as (v: unknown) => {
    value?: unknown;
    error?: ValidationIssue[];
  };
  return check(value);
}
const messageOf = (schema: TSchema, value: unknown) => {
  const issue = validate(schema, value).error?.[0];
  return issue && `${issue.instancePath} ${issue.message}`.trim();
};

describe('validation messages', () => {
  it('lists the allowed values of enums and unions of literals', () => {
    expect(messageOf(Type.Object({ k: Type.Enum(['low', 'high', 'bar']) }), { k: 'round' })).toBe('/k must be one of: low, high, bar');
    expect(messageOf(Type.Object({ k: Type.Union([Type.Literal('tables'), Type.Literal('events')]) }), { k: 'x' })).toBe(
      '/k must be one of: tables, events',
    );
    expect(messageOf(Type.Object({ k: Nullable(Type.Enum(['a', 'b'])) }), { k: 'c' })).toBe('/k must be one of: a, b, null');
    expect(messageOf(Type.Object({ t: Toggle }), { t: 2 })).toBe('/t must be one of: true, false, 0, 1');
  });

  it('names human formats instead of echoing a regular expression', () => {
    expect(messageOf(Type.Object({ at: ClockTime }), { at: '25:00' })).toBe('/at must be a clock time as HH:MM (24-hour)');
    expect(messageOf(Type.Object({ on: DateString }), { on: '2026-6-1' })).toBe('/on must be a date as YYYY-MM-DD');
    // Too long for the format: still the format, not a character count.
    expect(messageOf(Type.Object({ on: DateString }), { on: '2026-06-01T00:00' })).toBe('/on must be a date as YYYY-MM-DD');
    const bare = messageOf(Type.Object({ code: Type.String({ pattern: '^[a-z]+$' }) }), { code: 'A1' });
    expect(bare).toBe('/code is not in the expected format');
  });

  it('says what is wrong in words: types, lengths, bounds, sizes, required and unknown fields', () => {
    const schema = Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 5 }),
        n: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
        list: Type.Optional(Type.Array(Type.String(), { minItems: 2, maxItems: 3, uniqueItems: true })),
        note: Type.Optional(Nullable(Type.String({ maxLength: 3 }))),
      },
      { additionalProperties: false },
    );
    expect(messageOf(schema, {})).toBe('is missing required field name');
    expect(messageOf(schema, { name: 7 })).toBe('/name must be a string');
    expect(messageOf(schema, { name: '' })).toBe('/name must not be empty');
    expect(messageOf(schema, { name: 'abcdef' })).toBe('/name must be at most 5 characters');
    expect(messageOf(schema, { name: 'a', n: 1.5 })).toBe('/n must be an integer');
    expect(messageOf(schema, { name: 'a', n: 0 })).toBe('/n must be at least 1');
    expect(messageOf(schema, { name: 'a', n: 11 })).toBe('/n must be at most 10');
    expect(messageOf(schema, { name: 'a', list: ['x'] })).toBe('/list must have at least 2 items');
    expect(messageOf(schema, { name: 'a', list: ['x', 'y', 'z', 'w'] })).toBe('/list must have at most 3 items');
    expect(messageOf(schema, { name: 'a', list: ['x', 'x'] })).toBe('/list must not list x twice');
    expect(messageOf(schema, { name: 'a', list: ['x', 3] })).toBe('/list/1 must be a string');
    expect(messageOf(schema, { name: 'a', note: 'long' })).toBe('/note must be at most 3 characters');
    expect(messageOf(schema, { name: 'a', note: 5 })).toBe('/note must be a string or null');
    expect(messageOf(schema, { name: 'a', extra: 1 })).toBe('has unknown field extra');
    expect(messageOf(schema, JSON.parse('{"name":"a","constructor":1}'))).toBe('has unknown field constructor');
    expect(messageOf(schema, { name: 'a', ['k'.repeat(5000)]: 1 })).toBe(`has unknown field ${'k'.repeat(40)}…`);
    expect(messageOf(schema, { name: 'a', list: ['x'.repeat(5000), 'x'.repeat(5000)] })).toBe(
      `/list must not list ${'x'.repeat(40)}… twice`,
    );
    expect(validate(schema, { name: 'a', n: 3, list: ['x', 'y'], note: null })).toEqual({
      value: { name: 'a', n: 3, list: ['x', 'y'], note: null },
    });
  });

  it('counts lengths in characters, as JSON Schema does', () => {
    expect(validate(Type.String({ maxLength: 2 }), '😀😀').error).toBeUndefined();
    expect(messageOf(Type.String({ maxLength: 2 }), '😀😀😀')).toBe('must be at most 2 characters');
  });

  it('converts path and query text to the declared types; bodies keep theirs', () => {
    const schema = Type.Object({ n: Type.Integer() });
    expect(validate(schema, { n: '5' }, 'querystring')).toEqual({ value: { n: 5 } });
    expect(messageOf(schema, { n: '5' })).toBe('/n must be an integer');
  });

  it('checks all-string path parameters as they are, and still converts where any property is not a plain string', () => {
    const params = Type.Object({ venueId: Type.String(), id: Type.String({ pattern: '^[a-z]+$' }) });
    const value = { venueId: 'ven_1', id: 'abc' };
    expect(validate(params, value, 'params').value).toBe(value);
    expect(validate(params, { venueId: 'ven_1', id: 'ABC' }, 'params').error?.[0]?.instancePath).toBe('/id');
    const mixed = Type.Object({ date: Type.String(), party_size: Type.Integer() });
    expect(validate(mixed, { date: '2026-01-01', party_size: '4' }, 'querystring')).toEqual({
      value: { date: '2026-01-01', party_size: 4 },
    });
    const either = Type.Object({ n: Type.Union([Type.Integer(), Type.Literal('all')]) });
    expect(validate(either, { n: '3' }, 'querystring')).toEqual({ value: { n: 3 } });
  });

  it('answers a huge array in linear time, stopping at the first problem', () => {
    const schema = Type.Object({
      list: Type.Array(Type.Union([Type.Literal('tables'), Type.Literal('events')]), { maxItems: 2, uniqueItems: true }),
    });
    const started = performance.now();
    expect(messageOf(schema, { list: Array(100_000).fill('tables') })).toBe('/list must have at most 2 items');
    expect(messageOf(Type.Object({ list: Type.Array(Type.String(), { uniqueItems: true }) }), { list: Array(100_000).fill('x') })).toBe(
      '/list must not list x twice',
    );
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('input guard', () => {
  it('refuses control characters other than tab, newline and carriage return, and lone surrogates', () => {
    for (const bad of ['a\u0000b', '\u0001', 'x\u0008', '\u000b', '\u000c', '\u001f', '\u007f', '\u0085', '\u009f']) {
      expect(textProblem(bad), JSON.stringify(bad)).toBe('must not contain control characters');
    }
    expect(textProblem('half \ud83d')).toBe('must be valid Unicode text');
    expect(textProblem('\udc00')).toBe('must be valid Unicode text');
    for (const good of ['line one\nline two', 'a\tb', 'windows\r\nline', 'Café 😀', '\u202e reversed', '']) {
      expect(textProblem(good), JSON.stringify(good)).toBeUndefined();
    }
  });

  it('names the field of a body that holds unsafe text, a non-finite number or too deep nesting', () => {
    expect(bodyProblem({ a: [{ b: 'x\u0000' }] })).toBe('body.a.0.b must not contain control characters');
    expect(bodyProblem({ ['k\u0000']: 1 })).toBe('body has a field name that is not valid text');
    expect(bodyProblem({ n: Infinity })).toBe('body.n must be a finite number');
    expect(bodyProblem({ ok: ['text', 1, true, null, { nested: 'fine\r\n' }] })).toBeUndefined();
    const nest = (depth: number): unknown => (depth === 1 ? [] : [nest(depth - 1)]);
    expect(bodyProblem(nest(MAX_BODY_DEPTH))).toBeUndefined();
    expect(bodyProblem(nest(MAX_BODY_DEPTH + 1))).toBe(`body is nested deeper than ${MAX_BODY_DEPTH} levels`);
    expect(bodyProblem(JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)))).toBe(`body is nested deeper than ${MAX_BODY_DEPTH} levels`);
  });
});
