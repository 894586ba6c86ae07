/**
 * Image re-encodes run through one small queue per instance, with its own concurrency, apart from
 * everything else: sharp worked on the server's libuv thread pool, which password hashing (argon2) and
 * file reads share, so unbounded uploads (8 concurrent animated GIFs) made a login wait 11 s. It now runs
 * in the image process (images.ts), and the queue bounds the cores the re-encodes take from the server. At most
 * IMAGE_CONCURRENCY re-encodes run at once and IMAGE_QUEUE_SIZE more wait; beyond that an upload is
 * answered 503 with `Retry-After` at once, without decoding anything, and the rest of the product
 * keeps its threads.
 */
import { AppError } from './errors.js';

export const IMAGE_QUEUE_FULL_MESSAGE = 'Image processing is busy. Please try again shortly.';
/** Seconds a refused upload is told to wait: about what a queue of bounded re-encodes takes to drain. */
export const IMAGE_QUEUE_RETRY_AFTER_SECONDS = 10;

export interface ImageQueue {
  /** Runs `task` when a slot is free; 503 with Retry-After when the queue is full. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Re-encodes running now, and waiting for a slot. */
  readonly running: number;
  readonly waiting: number;
}

export function createImageQueue(options: { concurrency: number; queueSize: number }): ImageQueue {
  const concurrency = Math.max(1, options.concurrency);
  let running = 0;
  const waiting: (() => void)[] = [];

  /** A finished task hands its slot straight to the next waiting one, so `running` never dips between. */
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };

  return {
    async run(task) {
      if (running < concurrency) running += 1;
      else if (waiting.length < options.queueSize) await new Promise<void>((resolve) => waiting.push(resolve));
      else throw new AppError(503, IMAGE_QUEUE_FULL_MESSAGE, {}, { 'Retry-After': String(IMAGE_QUEUE_RETRY_AFTER_SECONDS) });
      try {
        return await task();
      } finally {
        release();
      }
    },
    get running() {
      return running;
    },
    get waiting() {
      return waiting.length;
    },
  };
}
