/**
 * What the two browser apps' builds share (build-widget.mjs, build-portal.mjs): the staleness check
 * (sources, the lockfile and the build script against the last build's stamp), building into a folder
 * beside the output and swapping it in whole, skipping with a message when Vite is not installed (an
 * install without dev dependencies: the API starts without the app), and the command line
 * (`--if-stale`, under the lock the server build takes too, so no two builds swap parts of dist/ at once).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

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

/**
 * One app: `name` (for messages), `sources` and `dist` relative to the project, `script` (the build script,
 * an input too) and `without` (what the API lacks without the build, for the skip message).
 */
export function uiTarget({ name, sources, dist, script, without }) {
  const sourceDir = path.join(ROOT, sources);
  const distDir = path.join(ROOT, dist);
  const stamp = path.join(distDir, '.built');
  const inputs = ['package-lock.json', script, 'scripts/ui-build.mjs'].map((file) => path.join(ROOT, file));

  const isStale = () => {
    if (!fs.existsSync(sourceDir)) return false;
    const built = mtimeMs(stamp);
    return !built || Math.max(newest(sourceDir), ...inputs.map(mtimeMs)) > built;
  };

  /** Builds with `into(outDir, vite)` beside the output, then swaps it in whole; false when Vite is missing. */
  async function build(into, { log = (line) => process.stderr.write(`${line}\n`) } = {}) {
    let vite;
    try {
      vite = await import('vite');
    } catch {
      log(`${name}: Vite is not installed (dev dependencies), so ${without}`);
      return false;
    }
    const startedAt = new Date();
    const outDir = `${distDir}.tmp-${process.pid}`;
    fs.rmSync(outDir, { recursive: true, force: true });
    try {
      await into(outDir, vite);
      fs.writeFileSync(path.join(outDir, '.built'), `${startedAt.toISOString()}\n`);
      fs.utimesSync(path.join(outDir, '.built'), startedAt, startedAt);
      fs.mkdirSync(path.dirname(distDir), { recursive: true });
      const old = `${distDir}.old-${process.pid}`;
      if (fs.existsSync(distDir)) fs.renameSync(distDir, old);
      fs.renameSync(outDir, distDir);
      fs.rmSync(old, { recursive: true, force: true });
    } finally {
      fs.rmSync(outDir, { recursive: true, force: true });
    }
    log(`built ${dist}/ from ${sources}/ in ${Date.now() - startedAt.getTime()} ms`);
    return true;
  }

  /** The script's command line: build (under the build lock), or only when stale with `--if-stale`. */
  async function main(run) {
    try {
      const { withBuildLock } = await import('./ensure-built.mjs');
      if (!process.argv.includes('--if-stale')) await withBuildLock(run);
      else if (isStale()) await withBuildLock(run, () => !isStale());
    } catch (error) {
      process.stderr.write(`${name} build failed: ${error instanceof Error ? error.message : error}\n`);
      process.exit(1);
    }
  }

  return { dist: distDir, sourceDir, isStale, build, main };
}

/** True when `metaUrl` is the script node was started with. */
export const isMain = (metaUrl) => Boolean(process.argv[1]) && path.resolve(process.argv[1]) === fileURLToPath(metaUrl);
