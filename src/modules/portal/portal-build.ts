/**
 * The built operator portal (scripts/build-portal.mjs → dist/portal/): its index.html and the hashed files
 * under assets/. Read from disk on first use and kept (hashed files never change under their name; a new
 * build comes with a restart); a missing build is looked for again at most every few seconds, so a server
 * started before the build finds it without a restart.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PortalBuild {
  index: string;
  /** The bytes of a built file under assets/ (undefined for any other name). */
  asset(name: string): Buffer | undefined;
}

const RETRY_MS = 5_000;

function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
  return dir;
}

export function portalBuildDir(): string {
  return path.join(projectRoot(), 'dist', 'portal');
}

function loadBuild(dir: string): PortalBuild {
  const assets = new Map<string, Buffer>();
  return {
    index: readFileSync(path.join(dir, 'index.html'), 'utf8'),
    asset(name) {
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) return undefined;
      let bytes = assets.get(name);
      if (!bytes) {
        const file = path.join(dir, 'assets', name);
        if (!existsSync(file)) return undefined;
        bytes = readFileSync(file);
        assets.set(name, bytes);
      }
      return bytes;
    },
  };
}

/** The build, loaded on first use; undefined while there is none (the portal answers 503). */
export function portalBuildLoader(dir = portalBuildDir(), now: () => number = Date.now): () => PortalBuild | undefined {
  let build: PortalBuild | undefined;
  let lastTry = Number.NEGATIVE_INFINITY;
  return () => {
    if (build || now() - lastTry < RETRY_MS) return build;
    lastTry = now();
    if (existsSync(path.join(dir, '.built'))) build = loadBuild(dir);
    return build;
  };
}
