/**
 * Builds the operator portal (portal/, React + Vite) into dist/portal/: index.html and hashed files under
 * assets/, served at /app/ (src/modules/portal). The sibling of build-widget.mjs, with the same rules:
 * `--if-stale` (prepare, prestart, the test set-up) builds only when portal/ or the lockfile is newer
 * than the last build; without Vite (an install without dev dependencies) it says so and the API starts
 * without the portal (/app answers 503); the output is built beside dist/portal and swapped in whole.
 */
import path from 'node:path';
import { isMain, uiTarget } from './ui-build.mjs';

const portal = uiTarget({
  name: 'portal',
  sources: 'portal',
  dist: 'dist/portal',
  script: 'scripts/build-portal.mjs',
  without: 'the portal is not built; the API works without it',
});
export const PORTAL_DIST = portal.dist;
export const portalIsStale = portal.isStale;

export function buildPortal(options = {}) {
  return portal.build(async (outDir, vite) => {
    // A production build whatever NODE_ENV the caller runs under: Vite and the React plugin read it, and
    // vitest sets it to `test`, which would ship React's development build (70 KB more, and slower).
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await vite.build({
        configFile: path.join(portal.sourceDir, 'vite.config.ts'),
        logLevel: 'warn',
        mode: 'production',
        build: { outDir, emptyOutDir: true },
      });
    } finally {
      if (nodeEnv === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = nodeEnv;
    }
  }, options);
}

if (isMain(import.meta.url)) await portal.main(() => buildPortal());
