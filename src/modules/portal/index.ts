/**
 * The portal module: serves the operator portal built from portal/ (React + Vite) at /app/. It owns no
 * tables; the portal talks to the documented API only.
 */
export { portalBuildLoader } from './portal-build.js';
export { portalRoutes } from './portal.routes.js';
