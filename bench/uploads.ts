/**
 * `npm run bench:uploads`: what image uploads cost everybody else. On the compiled server (its own
 * process, SQLite in a temporary directory), seeded by `maitred demo`, it times BENCH_LOGINS sign-ins
 * and `/uploads/` reads alone, then again while BENCH_UPLOADERS clients keep uploading an expensive
 * animated GIF (100 frames, 4.8 megapixels: about the most the image limits accept) as the branding logo. It
 * prints the latency of both (median and worst) and what the uploads were answered (200, or 503 with
 * Retry-After once the image queue is full). Set IMAGE_CONCURRENCY / IMAGE_QUEUE_SIZE to compare.
 * A measurement, not a test: numbers depend on the machine (docs/decisions.md, Security round 2).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { startServer } from './server.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'maitred');
const LOGINS = Number(process.env.BENCH_LOGINS ?? 20);
const UPLOADERS = Number(process.env.BENCH_UPLOADERS ?? 8);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const summary = (values: number[]) => `median ${median(values).toFixed(0)} ms, worst ${Math.max(...values).toFixed(0)} ms`;

/** An animated GIF at the limits: 100 frames of 220×220 busy pixels (about 1 MB; busy pixels make quantising slow). */
async function heavyGif(): Promise<string> {
  const frames = await Promise.all(
    Array.from({ length: 100 }, (_, i) => {
      const raw = Buffer.alloc(220 * 220 * 3);
      for (let p = 0; p < raw.length; p++) raw[p] = (p * 7 + i * 13) & 255;
      return sharp(raw, { raw: { width: 220, height: 220, channels: 3 } })
        .png()
        .toBuffer();
    }),
  );
  const gif = await sharp(frames, { join: { animated: true } })
    .gif()
    .toBuffer();
  return `data:image/gif;base64,${gif.toString('base64')}`;
}

async function timed(run: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const res = await run();
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`unexpected ${res.status}`);
  return performance.now() - started;
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maitred-bench-uploads-'));
  const env = { DATABASE_URL: `sqlite:${path.join(dir, 'bench.db')}`, UPLOADS_DIR: path.join(dir, 'uploads'), LOG_LEVEL: 'warn' };
  const demo = JSON.parse(execFileSync(process.execPath, [BIN, 'demo', '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' }));
  const server = await startServer({ ...env, RATE_LIMITS: 'login_failures_ip=100000/60,login_failures_email_ip=100000/60' });
  try {
    const login = () =>
      fetch(`${server.base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: demo.email, password: demo.password }),
      });
    const { token } = (await (await login()).json()) as { token: string };
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const upload = (data: string) =>
      fetch(`${server.base}/api/my-venues/${demo.venue_id}/branding-logo`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ data }),
      });
    const small = (await (
      await upload(
        (
          await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } })
            .png()
            .toBuffer()
        ).toString('base64'),
      )
    ).json()) as { url: string };
    const file = () => fetch(`${server.base}${new URL(small.url).pathname}`);

    const measure = async () => {
      const logins: number[] = [];
      const files: number[] = [];
      for (let i = 0; i < LOGINS; i++) {
        logins.push(await timed(login));
        files.push(await timed(file));
      }
      return { logins, files };
    };

    const quiet = await measure();
    const gif = await heavyGif();
    const answers = new Map<number, number>();
    let busy = true;
    const uploaders = Array.from({ length: UPLOADERS }, async () => {
      while (busy) {
        const res = await upload(gif);
        await res.arrayBuffer();
        answers.set(res.status, (answers.get(res.status) ?? 0) + 1);
        // A refused upload waits as told, like a well-behaved client.
        if (res.status === 503) await new Promise((resolve) => setTimeout(resolve, Number(res.headers.get('retry-after') ?? 1) * 100));
      }
    });
    const loaded = await measure();
    busy = false;
    await Promise.all(uploaders);

    console.log(`login alone:                 ${summary(quiet.logins)}`);
    console.log(`login, ${UPLOADERS} uploading GIFs:     ${summary(loaded.logins)}`);
    console.log(`/uploads/ read alone:        ${summary(quiet.files)}`);
    console.log(`/uploads/ read, uploading:   ${summary(loaded.files)}`);
    console.log(`upload answers: ${[...answers].map(([status, n]) => `${n} × ${status}`).join(', ')}`);
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
