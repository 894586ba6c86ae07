/**
 * The ceiling bench's load generator (bench/ceiling.ts), in its own process so that the measured route
 * has the event loop to itself: told the port, the offset of its booking numbers and the duration on
 * its IPC channel, it drives `/book` with `bench/driver.ts` and answers with the figures.
 */
import { drive, quantile } from './driver.js';

process.once('message', (message: { port: number; offset: number; connections: number; durationMs: number }) => {
  void (async () => {
    let offset = message.offset;
    const run = await drive({
      base: `http://127.0.0.1:${message.port}`,
      connections: message.connections,
      durationMs: message.durationMs,
      call: () => ({ method: 'POST', path: '/book', body: JSON.stringify({ n: offset++ }) }),
    });
    const ok = run.answers.filter((a) => a.status === 200).length;
    process.send!({ ok, answered: run.answers.length, elapsedMs: run.elapsedMs, p99: quantile(run.answers, 0.99) }, () => process.exit(0));
  })();
});
