/**
 * The portal's weight budget (issue 25: the shell and the floor's first load ≤ 200 KB of gzipped
 * JavaScript): what index.html loads before anyone acts (its entry and the modules it preloads), measured
 * on the build the test set-up made. The door's QR decoder is loaded when the door opens, so it is not part of it.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { portalBuildDir } from './portal-build.js';

export function portalFirstLoad(dir = portalBuildDir()): { files: string[]; gzip: number } {
  const index = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
  const files = [...index.matchAll(/(?:src|href)="\/app\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  const gzip = files.reduce((sum, file) => sum + zlib.gzipSync(fs.readFileSync(path.join(dir, file)), { level: 9 }).length, 0);
  return { files, gzip };
}

describe('portal weight', () => {
  it('loads the shell and the floor with at most 200 KB of gzipped JavaScript', () => {
    const { files, gzip } = portalFirstLoad();
    expect(files.length).toBeGreaterThan(0);
    expect(gzip).toBeGreaterThan(10 * 1024);
    expect(gzip).toBeLessThanOrEqual(200 * 1024);
  });
});
