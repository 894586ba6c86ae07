/** The shape of a module's route plugin: a Fastify plugin with the TypeBox provider and the context. */
import type { FastifyBaseLogger, FastifyPluginAsync, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';

export type ModulePlugin = FastifyPluginAsync<{ ctx: AppContext }, RawServerDefault, TypeBoxTypeProvider, FastifyBaseLogger>;
