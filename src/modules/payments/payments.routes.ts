/** Placeholder: the payments module registers its routes here. */
import type { ModulePlugin } from '../../platform/module.js';

export const paymentsRoutes: ModulePlugin = async () => {};
