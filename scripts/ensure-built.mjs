/**
 * Runs before every start (./bin/maitred, npm start): builds dist/ when it is missing or older than its
 * inputs, so `npm install && npm start` works on a fresh clone and after every edit or checkout.
 *
 * The check only compares modification times (a few ms for the whole tree) and loads esbuild only when
 * a build is due. Directories count too, so deleting or renaming a source file also rebuilds. Without
 * src/ (a deployment that ships dist/ alone) there is nothing to compare and dist/ is used as it is.
 *
 * Several processes may start at once (`PORT=3000 npm start & PORT=3001 npm start &`): one builds while
 * the others wait on a lock directory, then find dist/ fresh.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'src');
const STAMP = path.join(ROOT, 'dist', '.built');
/** The compiled program (scripts/build.mjs). */
export const DIST_FILE = path.join(ROOT, 'dist', 'maitred.cjs');
const LOCK = path.join(ROOT, '.build-lock');
/** Files outside src/ that change what the build produces (bundled package versions, build options). */
const INPUTS = ['package-lock.json', 'tsconfig.json', 'scripts/build.mjs'].map((file) => path.join(ROOT, file));
/** A lock older than this is left over from a build that died; builds take a few seconds. */
const STALE_LOCK_MS = 60_000;

function mtimeMs(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** The newest modification time among the sources (test files excluded: they are not built). */
function newestSource(dir) {
  let newest = mtimeMs(dir);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, mtimeMs(full));
  }
  return newest;
}

export function isStale() {
  if (!fs.existsSync(SRC)) return false;
  const built = mtimeMs(STAMP);
  if (!built || !fs.existsSync(DIST_FILE)) return true;
  return Math.max(newestSource(SRC), ...INPUTS.map(mtimeMs)) > built;
}

function tryLock() {
  try {
    fs.mkdirSync(LOCK);
    return true;
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
    if (Date.now() - mtimeMs(LOCK) > STALE_LOCK_MS) fs.rmSync(LOCK, { recursive: true, force: true });
    return false;
  }
}

/**
 * Runs `fn` holding the build lock. `skip()` is asked again once the lock is held (and while waiting
 * for it), so a process that waited on another's build does not build again.
 */
export async function withBuildLock(fn, skip = () => false) {
  for (;;) {
    let locked;
    try {
      locked = tryLock();
    } catch (error) {
      throw new Error(
        `cannot build dist/ in ${ROOT} (${error.code ?? error.message}): run \`npm run build\` as a user who may write there`,
        { cause: error },
      );
    }
    if (locked) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (skip()) return;
  }
  try {
    if (!skip()) await fn();
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}

export async function ensureBuilt() {
  if (!isStale()) return;
  await withBuildLock(
    async () => {
      const { build } = await import('./build.mjs');
      await build({ log: (line) => process.stderr.write(`maitred: ${line}\n`) });
    },
    () => !isStale(),
  );
}
