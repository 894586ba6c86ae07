/** Placeholder: the tables module registers its routes here. */
import type { ModulePlugin } from '../../platform/module.js';

export const tablesRoutes: ModulePlugin = async () => {};
