/**
 * The audit module: owns the `audit_log` table. Other modules never write it directly: they call
 * `audit.record(trx, …)` (platform/audit.ts), whose insert is this module's `insertAuditEntry`, handed
 * over by the composition root. Serves `GET /api/my-operator/audit-log`.
 */
export { auditRoutes } from './audit.routes.js';
export { createAuditService } from './audit.service.js';
export { insertAuditEntry } from './audit.repository.js';
