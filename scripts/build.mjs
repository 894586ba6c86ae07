/**
 * `npm run build`: compiles src/ into dist/ with esbuild, which only strips types (type checking is
 * `npm run typecheck`). src/cli.ts (./bin/maitred, and `serve` for the server) becomes one CommonJS file,
 * dist/maitred.cjs, whitespace- and syntax-minified (names kept): one file V8 compiles at once, and a
 * CommonJS file can be compiled with a code cache on Node 20 (see scripts/run-compiled.mjs), which
 * ES modules cannot. Measured with `npm run bench:startup` (decisions.md, "Compiled runtime").
 * src/platform/image-worker.ts, the image process the server starts as a child process, becomes a
 * second file of its own, dist/image-worker.cjs (platform/images.ts).
 *
 * Most of a start is Node loading npm packages file by file: resolving, reading and compiling each one.
 * So the packages the server starts with are bundled too, with everything they require: typebox and
 * kysely (1,300 small ESM files between them), Fastify and its dependencies, pino and the rest (the
 * server now loads ~160 files from node_modules instead of well over a thousand).
 * Left as imports from node_modules (EXTERNAL): native addons, and packages loaded only when used
 * (database drivers, Redis, Stripe, two-factor, mail, images, yaml, the response serializer compiler and
 * the Ajv it uses). Parsing a bundled package costs start-up time even when its code never runs.
 * @fastify/swagger requires yaml at load for a YAML export this API never serves: the bundle gives it a
 * stand-in that loads the real yaml on first use (LAZY_YAML). A package src/ imports that is not in
 * BUNDLED stays external too, so a new dependency works unbundled until someone checks it and adds it here.
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

/** Packages src/ imports that are bundled, with what they require (less EXTERNAL): pure JavaScript. */
const BUNDLED = /^(typebox|kysely|fastify|@fastify\/swagger|@fastify\/static|pino|rate-limiter-flexible|luxon|commander)(\/|$)/;
/** Never bundled, wherever they are required from (see above). */
const EXTERNAL =
  /^(better-sqlite3(-node20)?|@node-rs\/argon2|@fastify\/fast-json-stringify-compiler|pg|ioredis|stripe|otplib|qrcode|nodemailer|sharp|yaml|ajv)(\/|$)/;
/** Stands in for yaml where bundled code requires it: the real package loads on first property read. */
const LAZY_YAML =
  "let real; const load = () => (real ??= require('yaml')); module.exports = new Proxy({}, { get: (_t, key) => load()[key] });";
const inNodeModules = (file) => file.split(path.sep).includes('node_modules');

export async function build({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const { build: esbuild } = await import('esbuild');
  const startedAt = new Date();
  const outdir = `${DIST}.tmp-${process.pid}`;
  fs.rmSync(outdir, { recursive: true, force: true });
  try {
    await esbuild({
      absWorkingDir: ROOT,
      // The image process is a child process of the server with its own file (platform/images.ts finds
      // dist/image-worker.cjs beside dist/maitred.cjs): sharp is loaded there, never in the server.
      entryPoints: { maitred: 'src/cli.ts', 'image-worker': 'src/platform/image-worker.ts' },
      outdir,
      outExtension: { '.js': '.cjs' },
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      sourcemap: 'linked',
      minifyWhitespace: true,
      minifySyntax: true,
      logLevel: 'warning',
      // src/ is ES modules: what import.meta gives there, the CommonJS file computes from its own path.
      define: { 'import.meta.url': '__importMetaUrl', 'import.meta.resolve': '__importMetaResolve' },
      banner: {
        js: "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href; const __importMetaResolve = (specifier) => require('node:url').pathToFileURL(require.resolve(specifier)).href;",
      },
      plugins: [
        {
          name: 'external-packages',
          setup(builder) {
            builder.onResolve({ filter: /^yaml$/ }, (args) =>
              args.namespace === 'lazy-yaml' ? { path: 'yaml', external: true } : { path: 'yaml', namespace: 'lazy-yaml' },
            );
            builder.onLoad({ filter: /.*/, namespace: 'lazy-yaml' }, () => ({ contents: LAZY_YAML, loader: 'js' }));
            builder.onResolve({ filter: /^[^./]/ }, (args) => {
              const external =
                args.path.startsWith('node:') || EXTERNAL.test(args.path) || !(inNodeModules(args.importer) || BUNDLED.test(args.path));
              // Code run from V8's code cache has no import() loader on Node 20 (scripts/run-compiled.mjs).
              if (external && args.kind === 'dynamic-import') {
                return {
                  errors: [{ text: `import('${args.path}') of an external package: load it with createRequire(import.meta.url) instead` }],
                };
              }
              if (args.path.startsWith('node:') || EXTERNAL.test(args.path)) return { path: args.path, external: true };
              // Undefined: esbuild resolves and bundles it (Node built-ins stay imports on platform node).
              if (inNodeModules(args.importer) || BUNDLED.test(args.path)) return undefined;
              return { path: args.path, external: true };
            });
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
  // The widget and portal builds (scripts/build-widget.mjs, scripts/build-portal.mjs) live in dist/widget/
  // and dist/portal/ with their own staleness checks: they move over to the new dist/.
  for (const ui of ['widget', 'portal']) {
    const built = path.join(DIST, ui);
    if (fs.existsSync(built)) fs.renameSync(built, path.join(outdir, ui));
  }
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
