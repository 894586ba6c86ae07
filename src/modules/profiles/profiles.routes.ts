/** Placeholder: the profiles module registers its routes here. */
import type { ModulePlugin } from '../../platform/module.js';

export const profilesRoutes: ModulePlugin = async () => {};
