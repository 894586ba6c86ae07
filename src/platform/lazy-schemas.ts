/**
 * The route schema compilers: ours for params, query, headers and bodies (platform/validation.ts), Fastify's
 * own fast-json-stringify compiler for responses, both compiling on a route's first request instead of at
 * start-up.
 *
 * Fastify compiles every route's validators and serializers while it starts: for this API that was most
 * of the server's start-up time and a good share of its memory, spent on routes that may not be called
 * for hours. Deferred, each route pays its few milliseconds on its first request. What runs is
 * unchanged; `compileAll()` compiles everything still pending, which is how a test proves every schema
 * compiles without calling every route. What is pending belongs to one set of compilers (one app), so a
 * closed app's routes are released with it.
 */
import { createRequire } from 'node:module';
import type { SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

function deferred<R, F extends (...args: never[]) => unknown>(pending: Set<() => void>, compile: (route: R) => F): (route: R) => F {
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

declare module 'fastify' {
  interface FastifyInstance {
    /** Compiles every route schema of the app not compiled yet (a test's proof that all compile); returns how many. */
    compileSchemas(): number;
  }
}

export interface DeferredCompilers {
  /** Fastify's `schemaController.compilersFactory`. */
  factory: CompilersFactory;
  /** Compiles every validator and serializer of these compilers not compiled yet; returns how many there were. */
  compileAll(): number;
}

/**
 * Compilers for one app: `validator` for params, query, headers and bodies, and Fastify's default
 * serializer compiler for responses, each compiling on first use. Naming both also spares Fastify
 * loading its Ajv validator compiler, which this app never uses.
 */
export function deferredCompilers<S>(validator: FastifySchemaCompiler<S>): DeferredCompilers {
  const pending = new Set<() => void>();
  const buildSerializer: SerializerFactory = (externalSchemas, options) => {
    let compile: ReturnType<SerializerFactory> | undefined;
    return deferred(pending, (route) => (compile ??= defaultSerializerFactory()(externalSchemas, options))(route));
  };
  return {
    // Fastify types buildValidator as returning Ajv's compiler; any schema compiler works there at run
    // time (it is what setValidatorCompiler would install).
    factory: { buildValidator: () => deferred(pending, validator), buildSerializer } as unknown as CompilersFactory,
    compileAll() {
      const all = [...pending];
      for (const force of all) force();
      return all.length;
    },
  };
}
