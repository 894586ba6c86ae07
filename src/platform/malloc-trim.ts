/**
 * The C allocator's free pages handed back to the system (docs/decisions.md, "Memory given back when
 * quiet"). glibc keeps what the process frees inside its arenas and gives back only the top of the main
 * heap: after a burst, the statements SQLite compiled and the pages it cached, freed when the server goes
 * quiet (`Db.release`), stay resident among what is still in use. `malloc_trim(0)` gives back every whole
 * free page of every arena. Node has no way to call it, so a small addon does (native/malloc-trim, built
 * at install as an optional dependency); where it was not built, or the C library is not glibc, nothing
 * is handed back and nothing else changes.
 */
import { createRequire } from 'node:module';

interface MallocTrim {
  trim(): number;
}

const ADDON = '@maitred/malloc-trim';

/** The addon, or null where it is not installed or does not load. */
export function loadMallocTrim(require: (id: string) => unknown = createRequire(import.meta.url)): MallocTrim | null {
  try {
    const addon = require(ADDON) as Partial<MallocTrim>;
    return typeof addon.trim === 'function' ? (addon as MallocTrim) : null;
  } catch {
    return null;
  }
}

/**
 * Hands the allocator's free pages back: `released` when some were, `none` when there were none to give,
 * `unavailable` without the addon or glibc.
 */
export function freedMemoryReleaser(addon: MallocTrim | null = loadMallocTrim()): () => 'released' | 'none' | 'unavailable' {
  if (!addon) return () => 'unavailable';
  return () => {
    const result = addon.trim();
    return result === 1 ? 'released' : result === 0 ? 'none' : 'unavailable';
  };
}
