/**
 * `npm run build`: compiles src/ into dist/ with esbuild, which only strips types (type checking is
 * `npm run typecheck`). The two entry points (src/cli.ts for ./bin/maitred, src/main.ts for the server)
 * are bundled with code splitting, so each CLI command's dynamic import() becomes a chunk of its own.
 *
 * npm packages stay external (loaded from node_modules) except the few pure-ESM ones published as
 * hundreds of small files: Node spends ~0.5 ms per ESM file it loads, and typebox (700 files) and kysely
 * (560) cost more to load that way than everything else the server starts with. Bundled, they load as
 * part of one file. Native and CommonJS packages stay external: they resolve files next to themselves.
 *
 * The output is built beside dist/ and swapped in only when complete (under the lock of
 * ensure-built.mjs), so a process that starts while another one builds never sees half a dist/.
 * `dist/.built` records when the sources were read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = path.join(ROOT, 'dist');
export const STAMP = path.join(DIST, '.built');

/** Bundled into dist/ (see above); must stay pure ESM with no files read relative to themselves. */
const BUNDLED = /^(typebox|kysely)(\/|$)/;

export async function build({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const { build: esbuild } = await import('esbuild');
  const startedAt = new Date();
  const outdir = `${DIST}.tmp-${process.pid}`;
  fs.rmSync(outdir, { recursive: true, force: true });
  try {
    await esbuild({
      absWorkingDir: ROOT,
      entryPoints: ['src/cli.ts', 'src/main.ts'],
      outdir,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      sourcemap: 'linked',
      chunkNames: 'chunks/[name]-[hash]',
      logLevel: 'warning',
      plugins: [
        {
          name: 'external-packages',
          setup(builder) {
            // Bare specifiers (packages and node: built-ins) stay imports, except the bundled ones.
            builder.onResolve({ filter: /^[^./]/ }, (args) => (BUNDLED.test(args.path) ? undefined : { path: args.path, external: true }));
          },
        },
      ],
    }).catch((error) => {
      // esbuild has already printed each error with its file and line.
      const count = error.errors?.length ?? 1;
      throw new Error(`building dist/ from src/ failed with ${count} error${count === 1 ? '' : 's'} (shown above)`);
    });
    fs.writeFileSync(path.join(outdir, '.built'), `${startedAt.toISOString()}\n`);
    // The stamp carries the time the sources were read: a file saved during the build is newer.
    fs.utimesSync(path.join(outdir, '.built'), startedAt, startedAt);
    swapIn(outdir);
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
  log(`built dist/ from src/ in ${Date.now() - startedAt.getTime()} ms`);
}

function swapIn(outdir) {
  const old = `${DIST}.old-${process.pid}`;
  if (fs.existsSync(DIST)) fs.renameSync(DIST, old);
  fs.renameSync(outdir, DIST);
  fs.rmSync(old, { recursive: true, force: true });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    // The same lock as the build before a start, so the two never swap dist/ at once.
    const { withBuildLock } = await import('./ensure-built.mjs');
    await withBuildLock(() => build());
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : error}\n`);
    process.exit(1);
  }
}
