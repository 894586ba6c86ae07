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
import path from 'node:path';
import { isMain, uiTarget } from './ui-build.mjs';

const widget = uiTarget({
  name: 'widget',
  sources: 'widget',
  dist: 'dist/widget',
  script: 'scripts/build-widget.mjs',
  without: 'the widget pages are not built; the API works without them',
});
export const WIDGET_DIST = widget.dist;
export const widgetIsStale = widget.isStale;

export function buildWidget(options = {}) {
  return widget.build(async (outDir, vite) => {
    await vite.build({ configFile: path.join(widget.sourceDir, 'vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
    const { build: esbuild } = await import('esbuild');
    await esbuild({
      entryPoints: [path.join(widget.sourceDir, 'loader', 'loader.ts')],
      outfile: path.join(outDir, 'loader.js'),
      bundle: true,
      format: 'iife',
      target: 'es2019',
      minify: true,
      logLevel: 'warning',
    });
  }, options);
}

if (isMain(import.meta.url)) await widget.main(() => buildWidget());
