/**
 * The image process (src/platform/images.ts, src/platform/image-worker.ts): uploads are re-encoded in one
 * child process, so sharp is never loaded by the server. Concurrent re-encodes share it and get their own
 * answers, it exits when idle and with the application or its parent, and when it dies mid-job (or is
 * stopped for leaving a job unanswered too long) its jobs fail with a 500 and the next one starts a new process.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/platform/errors.js';
import { createImageProcess, IMAGE_PROCESS_STOPPED_MESSAGE, imageProcessId } from '../../src/platform/images.js';
import { createOperator, createTestApp, insertVenue, TINY_IMAGES } from '../helpers/app.js';
import { ENGINE } from '../helpers/db.js';
import { startServe, stopServes } from '../helpers/serve.js';
import { api } from '../../src/modules/venues/venues.test-support.js';

const CHILD = path.resolve('test/platform/image-process.child.ts');
const bytesOf = (dataUrl: string) => Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
const PNG = bytesOf(TINY_IMAGES.png);

/** Whether a process runs (an exited one not yet reaped by its parent does not). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

/** `job` failed with the image process's 500, its cause matching `cause`. */
async function expectStopped(job: Promise<Buffer>, cause: RegExp) {
  const error = await job.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({ status: 500, message: IMAGE_PROCESS_STOPPED_MESSAGE });
  expect(String((error as Error).cause)).toMatch(cause);
}

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#336699' } });

describe('the image process', () => {
  it('answers concurrent re-encodes from one process, each job its own answer, 400s unchanged', async () => {
    const images = createImageProcess({ idleMs: 60_000 });
    try {
      const [png, jpeg, gif, webp] = await Promise.all([
        solid(40, 30).png().toBuffer(),
        solid(50, 20).jpeg().toBuffer(),
        solid(10, 12).gif().toBuffer(),
        solid(16, 8).webp({ lossless: true }).toBuffer(),
      ]);
      const polyglot = Buffer.concat([PNG.subarray(0, 8), Buffer.from('<html></html>')]);
      const jobs = [
        images.reencode(png, 'png'),
        images.reencode(jpeg, 'jpeg'),
        images.reencode(polyglot, 'png'),
        images.reencode(gif, 'gif'),
        images.reencode(webp, 'webp'),
      ];
      const pid = images.pid;
      expect(pid).toEqual(expect.any(Number));
      const [outPng, outJpeg, refused, outGif, outWebp] = await Promise.allSettled(jobs);
      const shape = async (result: PromiseSettledResult<Buffer>) => {
        if (result.status === 'rejected') throw result.reason;
        const { format, width, height } = await sharp(result.value).metadata();
        return { format, width, height };
      };
      expect(await shape(outPng)).toEqual({ format: 'png', width: 40, height: 30 });
      expect(await shape(outJpeg)).toEqual({ format: 'jpeg', width: 50, height: 20 });
      expect(await shape(outGif)).toEqual({ format: 'gif', width: 10, height: 12 });
      expect(await shape(outWebp)).toEqual({ format: 'webp', width: 16, height: 8 });
      expect(refused.status === 'rejected' && refused.reason).toBeInstanceOf(AppError);
      expect(refused).toMatchObject({
        reason: { status: 400, message: 'Image could not be decoded: the data is not a complete, valid PNG image' },
      });
      expect(images.pid).toBe(pid);
    } finally {
      await images.close();
    }
  });

  it('exits once idle, and the next job starts another process', async () => {
    const images = createImageProcess({ idleMs: 200 });
    try {
      await images.reencode(PNG, 'png');
      const first = images.pid!;
      expect(running(first)).toBe(true);
      await expect.poll(() => running(first), { timeout: 10_000 }).toBe(false);
      expect(images.pid).toBeUndefined();
      expect((await sharp(await images.reencode(PNG, 'png')).metadata()).format).toBe('png');
      expect(images.pid).toEqual(expect.any(Number));
      expect(images.pid).not.toBe(first);
    } finally {
      await images.close();
    }
  });

  it('killed mid-job, its jobs fail with a 500 and the next job starts a new process', async () => {
    const images = createImageProcess({ idleMs: 60_000 });
    try {
      await images.reencode(PNG, 'png');
      const first = images.pid!;
      // Stopped first, so it cannot answer the jobs before it is killed (on a busy machine it could).
      process.kill(first, 'SIGSTOP');
      const jobs = [images.reencode(PNG, 'png'), images.reencode(PNG, 'png')];
      process.kill(first, 'SIGKILL');
      for (const job of jobs) await expectStopped(job, /SIGKILL/);
      expect((await sharp(await images.reencode(PNG, 'png')).metadata()).format).toBe('png');
      expect(images.pid).not.toBe(first);
    } finally {
      await images.close();
    }
  });

  it('a job left unanswered past jobTimeoutMs stops the process: its jobs fail with a 500 saying so', async () => {
    // 1 ms: no job can be answered in time (the process alone takes longer to start).
    const images = createImageProcess({ idleMs: 60_000, jobTimeoutMs: 1 });
    try {
      const jobs = [images.reencode(PNG, 'png'), images.reencode(PNG, 'png')];
      const pid = images.pid!;
      for (const job of jobs) await expectStopped(job, /did not answer a job within 1 ms/);
      expect(images.pid).toBeUndefined();
      await expect.poll(() => running(pid), { timeout: 10_000 }).toBe(false);
    } finally {
      await images.close();
    }
  });

  it("over HTTP: an upload after the server's image process was killed succeeds; closing the application stops it", async () => {
    const t = await createTestApp();
    let pid: number | undefined;
    try {
      const http = api(t);
      const op = await createOperator(t);
      const venueId = await insertVenue(t, op.operatorId);
      const upload = () => http.post(`/api/venues/${venueId}/logo`, op, { data: TINY_IMAGES.gif });
      expect((await upload()).statusCode).toBe(200);
      const killed = imageProcessId()!;
      process.kill(killed, 'SIGKILL');
      // Once the server has seen it exit (an upload sent as it dies is one of its jobs: a 500).
      await expect.poll(() => imageProcessId(), { timeout: 10_000 }).toBeUndefined();
      expect(running(killed)).toBe(false);
      expect((await upload()).statusCode).toBe(200);
      pid = imageProcessId();
      expect(pid).toEqual(expect.any(Number));
      expect(pid).not.toBe(killed);
    } finally {
      await t.close();
    }
    expect(running(pid!)).toBe(false);
    expect(imageProcessId()).toBeUndefined();
  });
});

/** Runs image-process.child.ts; resolves with the image process's id it prints, and the child. */
async function startStandIn(mode: 'stay' | 'exit') {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const pid = await new Promise<number>((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (stdout.includes('\n')) resolve((JSON.parse(stdout) as { pid: number }).pid);
    });
    void exited.then((code) => reject(new Error(`image-process.child.ts exited with ${code}: ${stderr}`)));
  });
  return { child, pid, exited };
}

describe('the image process and its parent', () => {
  it('exits when its parent dies', async () => {
    const { child, pid, exited } = await startStandIn('stay');
    expect(running(pid)).toBe(true);
    child.kill('SIGKILL');
    await exited;
    await expect.poll(() => running(pid), { timeout: 10_000 }).toBe(false);
  });

  it('never keeps its parent alive: a process done with its uploads exits well before the idle time', async () => {
    const started = Date.now();
    const { pid, exited } = await startStandIn('exit');
    expect(await exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(20_000);
    await expect.poll(() => running(pid), { timeout: 10_000 }).toBe(false);
  });
});

/** The processes `pid` has started (Linux). */
const childrenOf = (pid: number) =>
  fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
const mapsLibvips = (pid: number) => /libvips/.test(fs.readFileSync(`/proc/${pid}/maps`, 'utf8'));

// The compiled server (dist/maitred.cjs starts dist/image-worker.cjs) on the test's database: PostgreSQL
// only, as the other tests of several processes (one SQLite file has one server by design).
describe.runIf(ENGINE === 'postgres' && process.platform === 'linux')('the compiled server', () => {
  it('re-encodes uploads in dist/image-worker.cjs and never maps libvips itself', async () => {
    const t = await createTestApp();
    // The server runs on the real clock: the operator's session must be fresh by it.
    t.clock.set(new Date().toISOString());
    const server = await startServe({ DATABASE_URL: t.db.url, UPLOADS_DIR: t.config.uploadsDir });
    try {
      const op = await createOperator(t);
      const venueId = await insertVenue(t, op.operatorId);
      const res = await fetch(`${server.base}/api/venues/${venueId}/logo`, {
        method: 'POST',
        headers: { ...op.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ data: TINY_IMAGES.webp }),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      expect(mapsLibvips(server.child.pid!)).toBe(false);
      const workers = childrenOf(server.child.pid!).filter((pid) =>
        /image-worker\.cjs/.test(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8')),
      );
      expect(workers).toHaveLength(1);
      expect(mapsLibvips(workers[0])).toBe(true);
      await stopServes([server]);
      await expect.poll(() => running(workers[0]), { timeout: 10_000 }).toBe(false);
    } finally {
      await stopServes([server]);
      await t.close();
    }
  }, 120_000);
});
