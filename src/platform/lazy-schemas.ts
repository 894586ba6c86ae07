/**
 * The route schema compilers: ours for params, query, headers and bodies (platform/validation.ts), Fastify's
 * own fast-json-stringify compiler for responses, both compiling on a route's first request instead of at
 * start-up.
 *
 * Fastify compiles every route's validators and serializers while it starts: for this API that was most
 * of the server's start-up time and a good share of its memory, spent on routes that may not be called
 * for hours. Deferred, each route pays its few milliseconds on its first request. What runs is
 * unchanged; `compileDeferredSchemas()` compiles everything still pending, which is how a test proves
 * every schema compiles without calling every route.
 */
import { createRequire } from 'node:module';
import type { SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

const pending = new Set<() => void>();

function deferred<R, F extends (...args: never[]) => unknown>(compile: (route: R) => F): (route: R) => F {
  return (route) => {
    let compiled: F | undefined;
    const force = (): F => {
      if (!compiled) {
        compiled = compile(route);
        pending.delete(force);
      }
      return compiled;
    };
    pending.add(force);
    return ((...args: Parameters<F>) => force()(...args)) as F;
  };
}

// fast-json-stringify (and the Ajv it brings) loads with the first serializer compiled, not at start-up.
const requireCjs = createRequire(import.meta.url);
const defaultSerializerFactory = (): SerializerFactory =>
  (requireCjs('@fastify/fast-json-stringify-compiler') as { SerializerSelector(): SerializerFactory }).SerializerSelector();

/**
 * Fastify's `schemaController.compilersFactory`: `validator` for params, query, headers and bodies, and
 * Fastify's default serializer compiler for responses, each compiling on first use. Naming both also
 * spares Fastify loading its Ajv validator compiler, which this app never uses.
 */
export function deferredCompilers<S>(validator: FastifySchemaCompiler<S>): CompilersFactory {
  const buildSerializer: SerializerFactory = (externalSchemas, options) => {
    let compile: ReturnType<SerializerFactory> | undefined;
    return deferred((route) => (compile ??= defaultSerializerFactory()(externalSchemas, options))(route));
  };
  // Fastify types buildValidator as returning Ajv's compiler; any schema compiler works there at run
  // time (it is what setValidatorCompiler would install).
  return { buildValidator: () => deferred(validator), buildSerializer } as unknown as CompilersFactory;
}

/** Compiles every deferred validator and serializer not compiled yet; returns how many there were. */
export function compileDeferredSchemas(): number {
  const all = [...pending];
  for (const force of all) force();
  return all.length;
}
