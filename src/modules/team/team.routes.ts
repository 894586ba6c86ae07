/** Placeholder: the team module registers its routes here. */
import type { ModulePlugin } from '../../platform/module.js';

export const teamRoutes: ModulePlugin = async () => {};
