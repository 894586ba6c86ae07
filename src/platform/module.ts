/**
 * The shape of a module's route plugin: a Fastify plugin with the TypeBox provider whose options are the
 * services it uses (and the guard), handed over by the composition root (src/modules/index.ts).
 */
import type { FastifyBaseLogger, FastifyPluginAsync, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';

export type RoutePlugin<Deps extends object> = FastifyPluginAsync<Deps, RawServerDefault, TypeBoxTypeProvider, FastifyBaseLogger>;
