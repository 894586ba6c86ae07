/**
 * The shape of a module's route plugin: a Fastify plugin with the TypeBox provider whose options are the
 * services it uses (and the guard), handed over by the composition root (src/modules/index.ts); and the
 * application those plugins are registered on.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyPluginAsync, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';

/** The Fastify application with the TypeBox type provider (built by src/app.ts). */
export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

export type RoutePlugin<Deps extends object> = FastifyPluginAsync<Deps, RawServerDefault, TypeBoxTypeProvider, FastifyBaseLogger>;
