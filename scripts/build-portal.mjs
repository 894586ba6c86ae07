/**
 * Builds the operator portal (portal/, React + Vite) into dist/portal/: index.html and hashed files under
 * assets/, served at /app/ (src/modules/portal). The sibling of build-widget.mjs, with the same rules:
 * `--if-stale` (prepare, prestart, the test set-up) builds only when portal/ or the lockfile is newer
 * than the last build; without Vite (an install without dev dependencies) it says so and the API starts
 * without the portal (/app answers 503); the output is built beside dist/portal and swapped in whole.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = path.join(ROOT, 'portal');
export const PORTAL_DIST = path.join(ROOT, 'dist', 'portal');
const STAMP = path.join(PORTAL_DIST, '.built');
const INPUTS = ['package-lock.json', 'scripts/build-portal.mjs'].map((file) => path.join(ROOT, file));

const mtimeMs = (file) => {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
};

function newest(dir) {
  let latest = mtimeMs(dir);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : mtimeMs(full));
  }
  return latest;
}

export function portalIsStale() {
  if (!fs.existsSync(SOURCES)) return false;
  const built = mtimeMs(STAMP);
  return !built || Math.max(newest(SOURCES), ...INPUTS.map(mtimeMs)) > built;
}

export async function buildPortal({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  let vite;
  try {
    vite = await import('vite');
  } catch {
    log('portal: Vite is not installed (dev dependencies), so the portal is not built; the API works without it');
    return false;
  }
  const startedAt = new Date();
  const outDir = `${PORTAL_DIST}.tmp-${process.pid}`;
  fs.rmSync(outDir, { recursive: true, force: true });
  try {
    // A production build whatever NODE_ENV the caller runs under: Vite and the React plugin read it, and
    // vitest sets it to `test`, which would ship React's development build (70 KB more, and slower).
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await vite.build({
        configFile: path.join(SOURCES, 'vite.config.ts'),
        logLevel: 'warn',
        mode: 'production',
        build: { outDir, emptyOutDir: true },
      });
    } finally {
      if (nodeEnv === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = nodeEnv;
    }
    fs.writeFileSync(path.join(outDir, '.built'), `${startedAt.toISOString()}\n`);
    fs.utimesSync(path.join(outDir, '.built'), startedAt, startedAt);
    fs.mkdirSync(path.dirname(PORTAL_DIST), { recursive: true });
    const old = `${PORTAL_DIST}.old-${process.pid}`;
    if (fs.existsSync(PORTAL_DIST)) fs.renameSync(PORTAL_DIST, old);
    fs.renameSync(outDir, PORTAL_DIST);
    fs.rmSync(old, { recursive: true, force: true });
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
  log(`built dist/portal/ from portal/ in ${Date.now() - startedAt.getTime()} ms`);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { withBuildLock } = await import('./ensure-built.mjs');
    if (!process.argv.includes('--if-stale')) await withBuildLock(() => buildPortal());
    else if (portalIsStale())
      await withBuildLock(
        () => buildPortal(),
        () => !portalIsStale(),
      );
  } catch (error) {
    process.stderr.write(`portal build failed: ${error instanceof Error ? error.message : error}\n`);
    process.exit(1);
  }
}
