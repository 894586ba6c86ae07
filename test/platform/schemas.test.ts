/**
 * Route schemas compile on first use (platform/lazy-schemas.ts), so a schema Fastify cannot compile no
 * longer stops start-up. This file compiles every route's validators and serializers up front, so such a
 * schema still fails the suite, and shows that deferral changes when they compile, not what they do.
 */
import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deferredCompilers } from '../../src/platform/lazy-schemas.js';
import { validatorCompiler } from '../../src/platform/validation.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

describe('every route schema of the app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('compiles (validators and response serializers)', async () => {
    expect(t.app.compileSchemas()).toBeGreaterThan(100);
    expect(t.app.compileSchemas()).toBe(0);
    expect((await t.app.inject({ url: '/api/auth/me' })).statusCode).toBe(401);
  });
});

describe('our validator compiler', () => {
  it('accepts, refuses and converts exactly like @fastify/type-provider-typebox (reporting the first problem only)', () => {
    const schema = Type.Object({
      n: Type.Integer({ minimum: 1 }),
      flag: Type.Optional(Type.Boolean()),
      tags: Type.Optional(Type.Array(Type.String())),
    });
    const inputs = [{ n: '2' }, { n: 2, flag: 'true' }, { n: 3, tags: 'a' }, { n: 0 }, {}, { n: 'x' }, { n: 1, extra: true }];
    for (const httpPart of ['querystring', 'params', 'headers', 'body'] as const) {
      const route = { schema, httpPart, method: 'POST', url: '/x' };
      const ours = validatorCompiler(route);
      const theirs = TypeBoxValidatorCompiler(route);
      for (const input of inputs) {
        const [a, b] = [ours(structuredClone(input)), theirs(structuredClone(input))] as { value?: unknown; error?: unknown[] }[];
        expect(a.value).toEqual(b.value);
        expect(Boolean(a.error)).toBe(Boolean(b.error));
        if (a.error) expect(a.error).toHaveLength(1);
      }
    }
    // Text from a query string is converted; a body is taken as sent.
    expect(validatorCompiler({ schema, httpPart: 'querystring', method: 'GET', url: '/x' })({ n: '2' })).toEqual({ value: { n: 2 } });
    expect(validatorCompiler({ schema, httpPart: 'body', method: 'POST', url: '/x' })({ n: '2' })).toHaveProperty('error');
  });
});

describe('deferred compilation', () => {
  it('validates and serializes like the eager compilers', async () => {
    const compilers = deferredCompilers(validatorCompiler);
    const app = Fastify({ schemaController: { compilersFactory: compilers.factory } });
    app.post(
      '/echo',
      { schema: { body: Type.Object({ n: Type.Integer({ minimum: 1 }) }), response: { 200: Type.Object({ n: Type.Integer() }) } } },
      async (request) => ({ ...(request.body as object), secret: 'dropped by the serializer' }),
    );
    await app.ready();
    expect((await app.inject({ method: 'POST', url: '/echo', payload: { n: 0 } })).statusCode).toBe(400);
    const ok = await app.inject({ method: 'POST', url: '/echo', payload: { n: 2 } });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('{"n":2}');
    expect(compilers.compileAll()).toBe(0);
    await app.close();
  });

  it('a schema that cannot compile starts, and fails compileAll', async () => {
    const compilers = deferredCompilers(validatorCompiler);
    const app = Fastify({ schemaController: { compilersFactory: compilers.factory } });
    app.get(
      '/broken',
      { schema: { response: { 200: { type: 'object', properties: { a: { $ref: '#/definitions/missing' } } } } } },
      async () => ({ a: 1 }),
    );
    await app.ready();
    expect(() => compilers.compileAll()).toThrow(/missing/);
    expect((await app.inject({ url: '/broken' })).statusCode).toBe(500);
    await app.close();
  });
});
