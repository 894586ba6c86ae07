import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { collectWhenQuiet, fullCollection } from './quiet-gc.js';

const MB = 1024 * 1024;

/** A watcher on a fake server, clock and heap; `check` is called by the test, never by the timer. */
function watched(quietMs = 2000, grownBytes = 16 * MB) {
  const server = new EventEmitter();
  const state = { now: 0, heap: 40 * MB, collections: 0, order: [] as string[] };
  const results: { ms: number; heapBefore: number; heapAfter: number }[] = [];
  const watcher = collectWhenQuiet(server, {
    quietMs,
    grownBytes,
    checkEveryMs: 60_000,
    now: () => state.now,
    heapSize: () => state.heap,
    beforeCollect: () => state.order.push('sweep'),
    afterCollect: () => state.order.push('trim'),
    collect: () => {
      state.collections++;
      state.order.push('collect');
      state.heap = 42 * MB;
    },
    onCollected: (result) => results.push(result),
  });
  const request = () => server.emit('request');
  return { server, state, results, watcher, request };
}

describe('collectWhenQuiet', () => {
  it('collects once the server has been quiet for quietMs after the heap grew, then not again until it grows again', () => {
    const { state, results, watcher, request } = watched();
    state.now = 100;
    request();
    state.heap = 90 * MB;
    state.now = 2099;
    expect(watcher.check()).toBe(false);
    state.now = 2100;
    expect(watcher.check()).toBe(true);
    expect(state.collections).toBe(1);
    expect(results).toEqual([{ ms: 0, heapBefore: 90 * MB, heapAfter: 42 * MB }]);
    // Still quiet, but nothing grew since: no second collection.
    state.now = 10_000;
    expect(watcher.check()).toBe(false);
    state.heap = 42 * MB + 16 * MB;
    expect(watcher.check()).toBe(true);
    expect(state.collections).toBe(2);
    watcher.stop();
  });

  it('runs beforeCollect just before each collection and afterCollect just after it, and only then', () => {
    const { state, watcher } = watched(2000, 4 * MB);
    state.now = 5000;
    // Quiet, but the heap has not grown: neither runs.
    expect(watcher.check()).toBe(false);
    expect(state.order).toEqual([]);
    state.heap = 60 * MB;
    expect(watcher.check()).toBe(true);
    expect(state.order).toEqual(['sweep', 'collect', 'trim']);
    watcher.stop();
  });

  it('never collects while requests keep starting, however much the heap grows', () => {
    const { state, watcher, request } = watched();
    for (let t = 0; t <= 20_000; t += 500) {
      state.now = t;
      request();
      state.heap += 10 * MB;
      expect(watcher.check()).toBe(false);
    }
    expect(state.collections).toBe(0);
    watcher.stop();
  });

  it('does not collect a quiet server whose heap has not grown by grownBytes', () => {
    const { state, watcher } = watched(2000, 16 * MB);
    state.now = 60_000;
    state.heap = 40 * MB + 16 * MB - 1;
    expect(watcher.check()).toBe(false);
    expect(state.collections).toBe(0);
    watcher.stop();
  });

  it('stops listening for requests once stopped', () => {
    const { server, watcher } = watched();
    expect(server.listenerCount('request')).toBe(1);
    watcher.stop();
    expect(server.listenerCount('request')).toBe(0);
  });

  it('counts the requests of a real HTTP server as activity', async () => {
    const server = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const state = { now: 0, heap: 100 * MB, collections: 0 };
    const watcher = collectWhenQuiet(server, {
      quietMs: 1000,
      grownBytes: 1,
      checkEveryMs: 60_000,
      now: () => state.now,
      heapSize: () => state.heap,
      collect: () => state.collections++,
    });
    state.heap += MB;
    try {
      state.now = 5000;
      await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`).then((res) => res.text());
      state.now = 5999;
      expect(watcher.check()).toBe(false);
      state.now = 6000;
      expect(watcher.check()).toBe(true);
    } finally {
      watcher.stop();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('fullCollection', () => {
  it.each([
    ['this Node.js', undefined],
    ["Node 20's V8 (two ordinary collections)", 11],
  ])('collects garbage without leaving a gc global behind (%s)', async (_name, v8Major) => {
    const hadGc = 'gc' in globalThis;
    const collect = fullCollection(v8Major);
    expect(typeof collect).toBe('function');
    // 16 MB that nothing refers to but a weak reference.
    const weak = new WeakRef(Array.from({ length: 200 }, () => new Array<number>(10_000).fill(1)));
    // A WeakRef keeps its target for the rest of the job that made it.
    await new Promise((resolve) => setImmediate(resolve));
    collect();
    expect(weak.deref()).toBeUndefined();
    expect('gc' in globalThis).toBe(hadGc);
  });
});
