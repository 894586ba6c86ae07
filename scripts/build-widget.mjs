/**
 * Builds the guest widgets (widget/, Preact + Vite) into dist/widget/: one hashed entry per widget type
 * (bookings, events, vouchers, combo) with a manifest the server reads, and the embed loader
 * (dist/widget/loader.js, a stable name because venues paste it into their sites).
 *
 * `node scripts/build-widget.mjs --if-stale` (prepare, prestart) builds only when widget/ or the lockfile
 * is newer than the last build, so `npm install && npm start` stays one step and a start costs a few ms
 * of modification-time checks. Without Vite (an install without dev dependencies) it says so and leaves
 * the API to start without widget pages (they answer 503 until a build exists).
 * The output is built beside dist/widget and swapped in when complete; scripts/build.mjs keeps it when it
 * swaps in a new dist/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = path.join(ROOT, 'widget');
export const WIDGET_DIST = path.join(ROOT, 'dist', 'widget');
const STAMP = path.join(WIDGET_DIST, '.built');
const INPUTS = ['package-lock.json', 'scripts/build-widget.mjs'].map((file) => path.join(ROOT, file));

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

export function widgetIsStale() {
  if (!fs.existsSync(SOURCES)) return false;
  const built = mtimeMs(STAMP);
  return !built || Math.max(newest(SOURCES), ...INPUTS.map(mtimeMs)) > built;
}

export async function buildWidget({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  let vite;
  try {
    vite = await import('vite');
  } catch {
    log('widget: Vite is not installed (dev dependencies), so the widget pages are not built; the API works without them');
    return false;
  }
  const startedAt = new Date();
  const outDir = `${WIDGET_DIST}.tmp-${process.pid}`;
  fs.rmSync(outDir, { recursive: true, force: true });
  try {
    await vite.build({ configFile: path.join(SOURCES, 'vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
    const { build: esbuild } = await import('esbuild');
    await esbuild({
      entryPoints: [path.join(SOURCES, 'loader', 'loader.ts')],
      outfile: path.join(outDir, 'loader.js'),
      bundle: true,
      format: 'iife',
      target: 'es2019',
      minify: true,
      logLevel: 'warning',
    });
    fs.writeFileSync(path.join(outDir, '.built'), `${startedAt.toISOString()}\n`);
    fs.utimesSync(path.join(outDir, '.built'), startedAt, startedAt);
    fs.mkdirSync(path.dirname(WIDGET_DIST), { recursive: true });
    const old = `${WIDGET_DIST}.old-${process.pid}`;
    if (fs.existsSync(WIDGET_DIST)) fs.renameSync(WIDGET_DIST, old);
    fs.renameSync(outDir, WIDGET_DIST);
    fs.rmSync(old, { recursive: true, force: true });
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
  log(`built dist/widget/ from widget/ in ${Date.now() - startedAt.getTime()} ms`);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    // The same lock as the server build: the two never swap parts of dist/ at once.
    const { withBuildLock } = await import('./ensure-built.mjs');
    if (!process.argv.includes('--if-stale')) await withBuildLock(() => buildWidget());
    else if (widgetIsStale())
      await withBuildLock(
        () => buildWidget(),
        () => !widgetIsStale(),
      );
  } catch (error) {
    process.stderr.write(`widget build failed: ${error instanceof Error ? error.message : error}\n`);
    process.exit(1);
  }
}
