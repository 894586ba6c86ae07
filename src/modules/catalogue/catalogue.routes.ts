/** Placeholder: the catalogue module registers its routes here. */
import type { ModulePlugin } from '../../platform/module.js';

export const catalogueRoutes: ModulePlugin = async () => {};
