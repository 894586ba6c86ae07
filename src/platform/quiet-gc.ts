/**
 * Memory given back when the server goes quiet (docs/decisions.md, "Memory given back when quiet").
 *
 * V8 collects its old generation when allocation asks for room, so a server that goes quiet after a burst
 * (a table drop, an on-sale, a roster export) keeps the burst's garbage, and the pages it fills, until the
 * next burst: tens of megabytes of resident memory held for nothing. Even its own full collections during
 * the burst leave the heap's pages committed at the burst's size. Once no request has started for
 * `quietMs` and the heap's committed size is at least `grownBytes` above what the last such collection
 * left (or the start), one full collection runs, at a moment nobody is waiting; V8 then shrinks the heap
 * and hands the emptied pages back to the system. A server that is never quiet, or whose heap does not
 * grow, is never collected by this.
 */
import type { EventEmitter } from 'node:events';
import v8 from 'node:v8';
import vm from 'node:vm';

export interface QuietCollectionOptions {
  /** How long no request may have started before the collection runs. */
  quietMs: number;
  /** How much the heap's committed size must have grown since the last collection (or the start) to be worth one. */
  grownBytes: number;
  /** How often quiet is looked for. */
  checkEveryMs: number;
  now?: () => number;
  /** The heap's committed size (V8's total heap size). */
  heapSize?: () => number;
  collect?: () => void;
  /** Run just before each collection: what can drop memory it no longer needs does it then (the caches' sweep). */
  beforeCollect?: () => void;
  /** Run just after each collection: what it freed below V8 is handed back to the system then (platform/malloc-trim.ts). */
  afterCollect?: () => void;
  /** Told what each collection did. */
  onCollected?: (result: { ms: number; heapBefore: number; heapAfter: number }) => void;
}

export const QUIET_COLLECTION_DEFAULTS = { grownBytes: 4 * 1024 * 1024, checkEveryMs: 500 } as const;

type GcFunction = (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * V8's full collection, memory-reducing: the `gc` function of a context made while `--expose-gc` is on
 * (the flag is turned off again at once, so no other code gets a `gc` global; the collection is of the
 * whole isolate). V8 12 (Node 22 and later) takes the `last-resort` flavour, which compacts the heap and
 * releases what it emptied; Node 20's V8 does not know it, and compacts a little more with each ordinary
 * collection, so there it collects twice.
 */
export function fullCollection(v8Major = Number(process.versions.v8.split('.')[0])): () => void {
  const gc = exposedGc();
  if (v8Major >= 12) return () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return () => {
    gc();
    gc();
  };
}

function exposedGc(): GcFunction {
  if (typeof globalThis.gc === 'function') return globalThis.gc as GcFunction;
  v8.setFlagsFromString('--expose-gc');
  try {
    return vm.runInNewContext('gc') as GcFunction;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}

/** Watches `server`'s requests and collects once it has gone quiet after the heap grew; `stop` ends it. */
export function collectWhenQuiet(server: Pick<EventEmitter, 'on' | 'off'>, options: QuietCollectionOptions) {
  const now = options.now ?? (() => performance.now());
  const heapSize = options.heapSize ?? (() => v8.getHeapStatistics().total_heap_size);
  const collect = options.collect ?? fullCollection();
  let lastRequestAt = now();
  let baseline = heapSize();
  const onRequest = () => {
    lastRequestAt = now();
  };
  server.on('request', onRequest);

  /** One look: collects if the server has been quiet long enough and the heap has grown enough. */
  function check(): boolean {
    const at = now();
    if (at - lastRequestAt < options.quietMs) return false;
    const before = heapSize();
    if (before - baseline < options.grownBytes) return false;
    options.beforeCollect?.();
    collect();
    options.afterCollect?.();
    baseline = heapSize();
    options.onCollected?.({ ms: now() - at, heapBefore: before, heapAfter: baseline });
    return true;
  }

  const timer = setInterval(check, options.checkEveryMs);
  timer.unref();
  return {
    check,
    stop() {
      clearInterval(timer);
      server.off('request', onRequest);
    },
  };
}
