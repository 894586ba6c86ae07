/**
 * The neighbour scenario's load generator (bench/crowd.ts), in its own process: another venue's guests
 * and staff are other clients, so their requests must not wait behind the drop's 200 connections in the
 * bench's own event loop. Told the request, the connections and the duration on its IPC channel, it
 * drives it with `bench/driver.ts` and answers with the figures.
 */
import { drive, quantile, type Call } from './driver.js';

process.once('message', (message: { base: string; call: Call; connections: number; durationMs: number }) => {
  void (async () => {
    const run = await drive({
      base: message.base,
      connections: message.connections,
      durationMs: message.durationMs,
      call: () => message.call,
    });
    const failed = run.answers.filter((a) => a.status !== 200).length;
    process.send!({ answered: run.answers.length, failed, elapsedMs: run.elapsedMs, p99: quantile(run.answers, 0.99) }, () =>
      process.exit(0),
    );
  })();
});
