/** Placeholder: the tables module exports its copy-from scopes here. */
import type { CopyScope } from '../../platform/copy-scopes.js';

export const tablesCopyScopes: CopyScope[] = [];
