import { describe, expect, it } from 'vitest';
import { freedMemoryReleaser, loadMallocTrim } from './malloc-trim.js';
import { fullCollection } from './quiet-gc.js';

const MB = 1024 * 1024;

/** glibc's version where the C library is glibc (Linux), else undefined. */
const glibc = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime;

const rssMb = () => process.memoryUsage.rss() / MB;

describe('freedMemoryReleaser', () => {
  it('answers what the addon did: released, none, or unavailable', () => {
    const answers = [1, 0, -1].map((result) => freedMemoryReleaser({ trim: () => result })());
    expect(answers).toEqual(['released', 'none', 'unavailable']);
  });

  it('does nothing without the addon: not installed, failing to load, or not what it should be', () => {
    const missing = (): never => {
      throw Object.assign(new Error("Cannot find module '@maitred/malloc-trim'"), { code: 'MODULE_NOT_FOUND' });
    };
    expect(loadMallocTrim(missing)).toBeNull();
    expect(loadMallocTrim(() => ({}))).toBeNull();
    expect(freedMemoryReleaser(null)()).toBe('unavailable');
  });

  it.runIf(glibc !== undefined)('loads the built addon on glibc, and hands freed pages back to the system', async () => {
    const addon = loadMallocTrim();
    expect(addon).not.toBeNull();
    const release = freedMemoryReleaser(addon);
    release();
    // 96 MB of 64 KB buffers (each below glibc's mmap threshold, so from its arenas), every other one freed:
    // the freed half lies between live ones, where free() alone cannot give it back.
    const buffers: (Buffer | null)[] = Array.from({ length: 1536 }, () => Buffer.alloc(64 * 1024, 1));
    for (let i = 0; i < buffers.length; i += 2) buffers[i] = null;
    fullCollection()();
    // The backing stores of collected buffers may be freed a moment after the collection (V8 sweeps them concurrently).
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = rssMb();
    expect(release()).toBe('released');
    const after = rssMb();
    expect(before - after).toBeGreaterThan(24);
    expect(buffers.filter(Boolean)).toHaveLength(768);
  });
});
