/** Placeholder: the venues module registers its routes here. */
import type { ModulePlugin } from '../../platform/module.js';

export const venuesRoutes: ModulePlugin = async () => {};
