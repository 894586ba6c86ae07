/**
 * A browser app built into dist/<name>/ (the guest widgets, the operator portal; scripts/ui-build.mjs):
 * where it is, its hashed files under assets/ read once and kept (a hashed file never changes under its
 * name; a new build comes with a restart), and the build loaded on first use. A missing build is looked
 * for again at most every few seconds, so a server started before the build finds it without a restart.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyReply, FastifyRequest } from 'fastify';

const RETRY_MS = 5_000;

/** The project root: the nearest directory above this file (in src/ or dist/) with a package.json. */
function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
  return dir;
}

export const builtAppDir = (name: 'widget' | 'portal'): string => path.join(projectRoot(), 'dist', name);

/** The bytes of a built file under `dir`/assets/ by its plain name (undefined for any other name). */
export function assetReader(dir: string): (name: string) => Buffer | undefined {
  const assets = new Map<string, Buffer>();
  return (name) => {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) return undefined;
    let bytes = assets.get(name);
    if (!bytes) {
      const file = path.join(dir, 'assets', name);
      if (!existsSync(file)) return undefined;
      bytes = readFileSync(file);
      assets.set(name, bytes);
    }
    return bytes;
  };
}

/** The build `load` reads from `dir`, loaded on first use; undefined while there is none. */
export function builtAppLoader<T>(dir: string, load: (dir: string) => T, now: () => number = Date.now): () => T | undefined {
  let build: T | undefined;
  let lastTry = Number.NEGATIVE_INFINITY;
  return () => {
    if (build || now() - lastTry < RETRY_MS) return build;
    lastTry = now();
    if (existsSync(path.join(dir, '.built'))) build = load(dir);
    return build;
  };
}

/** A long-cached answer for a hashed file: its name changes with its content. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

const ASSET_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  woff2: 'font/woff2',
  map: 'application/json; charset=utf-8',
};

/** Answers a built app's hashed file (its bytes, or a 404 that no cache keeps). */
export function sendBuiltAsset(request: FastifyRequest<{ Params: { file: string } }>, reply: FastifyReply, bytes: Buffer | undefined) {
  if (!bytes) return reply.code(404).header('cache-control', 'no-store').send({ error: 'Asset not found' });
  const extension = request.params.file.split('.').pop() ?? '';
  return reply
    .type(ASSET_TYPES[extension] ?? 'application/octet-stream')
    .header('cache-control', IMMUTABLE)
    .header('cross-origin-resource-policy', 'same-origin')
    .send(bytes);
}
