/** Placeholder: the availability module registers its routes here. */
import type { ModulePlugin } from '../../platform/module.js';

export const availabilityRoutes: ModulePlugin = async () => {};
