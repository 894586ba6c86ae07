/**
 * The copy-from module: copying one settings scope between two venues of an account. It owns no
 * table: each module registers its own scopes in the registry (src/platform/copy-scopes.ts).
 */
export { copyFromRoutes } from './copy-from.routes.js';
export { createCopyFromService } from './copy-from.service.js';
