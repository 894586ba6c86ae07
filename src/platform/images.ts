/**
 * Uploaded images are fully decoded and re-encoded in their own format before they are stored. Only
 * pixels survive: a file that merely starts with an image signature (a PNG header followed by HTML, say)
 * does not decode and is refused, bytes appended after the image end are dropped, and metadata (EXIF
 * with GPS position and camera serials, XMP, comments, ICC profiles) is stripped — these images are
 * shown to guests, and an operator's phone photo must not publish where it was taken. EXIF orientation
 * is applied to the pixels first, so a photo still stands the right way up without its tag.
 *
 * Re-encoding keeps what matters to the picture: PNG and GIF stay lossless (a palette PNG stays a
 * palette PNG), lossless WebP stays lossless, animations keep their frames, delays and loop count, and
 * JPEG and lossy WebP are written at quality 90, so a second generation is not visibly different.
 * What an upload may cost is bounded: pixels (all frames together), frames, one libvips thread each, and
 * the image queue (image-queue.ts) decides how many run at once.
 *
 * The decoding and re-encoding run in a child process (image-worker.ts), never in the server: sharp and
 * libvips hold 20–27 MB once loaded, which the server would keep for the rest of its life after one
 * upload. This module keeps what both sides share and the server's side: one image process, started by
 * the first upload, shared by the re-encodes the queue lets run, and stopped after a while without work.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { AppError } from './errors.js';

export type ImageType = 'png' | 'jpeg' | 'webp' | 'gif';

/**
 * The most pixels an upload may decode to, all frames of an animation together: a 48-megapixel phone
 * photo fits, while a small file that inflates to gigabytes (a decompression bomb) is refused before it
 * is decoded.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;

/**
 * GIF and animated WebP cost far more per pixel to re-encode (palette quantisation frame by frame: a
 * 26-megapixel, 524-frame GIF of 388 KB took ~9 s of CPU), so they get a smaller budget, all frames
 * together, and a frame cap: a few seconds of one core at most, whoever uploads.
 */
export const MAX_ANIMATION_PIXELS = 5_000_000;
export const MAX_ANIMATION_FRAMES = 100;

/** Whether a WebP file is lossless (VP8L), reading its RIFF chunks and the first frame of an animation. */
export function isLosslessWebp(bytes: Uint8Array): boolean {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const walk = (start: number, end: number): boolean | undefined => {
    for (let at = start; at + 8 <= end;) {
      const fourcc = view.toString('latin1', at, at + 4);
      const size = view.readUInt32LE(at + 4);
      if (fourcc === 'VP8L') return true;
      if (fourcc === 'VP8 ') return false;
      // An animation frame: a 16-byte frame header, then the frame's own chunks.
      if (fourcc === 'ANMF') return walk(at + 8 + 16, Math.min(end, at + 8 + size));
      at += 8 + size + (size % 2);
    }
    return undefined;
  };
  return walk(12, view.length) ?? false;
}

/** A re-encode asked of the image process (image-worker.ts). */
export interface ImageJob {
  id: number;
  bytes: Uint8Array;
  type: ImageType;
}

/** Its answer: the re-encoded bytes, or the error (`status` only for an AppError, such as the 400s). */
export type ImageJobResult = { id: number; bytes: Uint8Array } | { id: number; error: { status?: number; message: string } };

/** How long the image process waits for the next upload before it exits (its memory goes with it). */
export const IMAGE_PROCESS_IDLE_MS = 30_000;

/**
 * How long one re-encode may take before the image process is stopped (its jobs fail with a 500, and the
 * next job starts a new one). The pixel and frame caps keep an honest upload to a few seconds; a job still
 * unanswered after a minute is a process stuck in libvips, which would otherwise hold every later upload.
 */
export const IMAGE_JOB_TIMEOUT_MS = 60_000;

export const IMAGE_PROCESS_STOPPED_MESSAGE = 'Image processing stopped unexpectedly. Please try again.';

/**
 * The image process's file beside this module's: image-worker.ts from the sources (run through tsx, as
 * this module is), dist/image-worker.cjs beside dist/maitred.cjs once compiled (scripts/build.mjs).
 */
function workerCommand(): { file: string; execArgv: string[] } {
  const self = fileURLToPath(import.meta.url);
  const extension = path.extname(self);
  const file = path.join(path.dirname(self), `image-worker${extension}`);
  if (extension !== '.ts') return { file, execArgv: [] };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { file, execArgv: ['--import', tsx] };
}

interface Pending {
  resolve(bytes: Buffer): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** One running image process and the jobs it owes an answer. */
interface Session {
  child: ChildProcess;
  pending: Map<number, Pending>;
  idle?: NodeJS.Timeout;
  ended: boolean;
}

export interface ImageProcess {
  reencode(bytes: Buffer, type: ImageType): Promise<Buffer>;
  /** The running image process's id; undefined when none runs. */
  readonly pid: number | undefined;
  /** Stops the image process (its jobs fail) and resolves once it has exited. */
  close(): Promise<void>;
}

/**
 * Runs re-encodes in one child process, started when a job comes and none runs. Each job has an id, so
 * the jobs the queue lets run at once share the process. It never keeps this process alive while idle
 * (`unref`) and exits after `idleMs` without a job; if it dies, or leaves a job unanswered for
 * `jobTimeoutMs` (then it is killed), the jobs it had fail with a 500 and the next job starts another
 * one. The child exits on its own when this process dies (its channel closes).
 */
export function createImageProcess(options: { idleMs: number; jobTimeoutMs?: number }): ImageProcess {
  const jobTimeoutMs = options.jobTimeoutMs ?? IMAGE_JOB_TIMEOUT_MS;
  let current: Session | undefined;
  let nextId = 0;

  const end = (session: Session, error: Error) => {
    if (session.ended) return;
    session.ended = true;
    if (current === session) current = undefined;
    clearTimeout(session.idle);
    for (const job of session.pending.values()) {
      clearTimeout(job.timer);
      job.reject(error);
    }
    session.pending.clear();
  };

  const start = (): Session => {
    const { file, execArgv } = workerCommand();
    const child = fork(file, [], { execArgv, serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const session: Session = { child, pending: new Map(), ended: false };
    child.unref();
    child.channel?.unref();
    child.on('message', (result: ImageJobResult) => {
      const job = session.pending.get(result.id);
      if (!job) return;
      session.pending.delete(result.id);
      clearTimeout(job.timer);
      if ('bytes' in result) job.resolve(Buffer.from(result.bytes.buffer, result.bytes.byteOffset, result.bytes.byteLength));
      else if (result.error.status !== undefined) job.reject(new AppError(result.error.status, result.error.message));
      else job.reject(new Error(`image process: ${result.error.message}`));
      if (session.pending.size === 0) idle(session);
    });
    child.on('exit', (code, signal) => end(session, stopped(`exited with ${signal ?? `code ${code}`}`)));
    child.on('error', (error) => {
      end(session, stopped(error.message));
      child.kill();
    });
    return session;
  };

  /** The 500 of the jobs an image process leaves unanswered; what happened to it is the cause. */
  const stopped = (detail: string) => {
    const error = new AppError(500, IMAGE_PROCESS_STOPPED_MESSAGE);
    error.cause = new Error(`image process ${detail}`);
    return error;
  };

  /** No job left: the channel no longer holds this process open, and the child goes after `idleMs`. */
  const idle = (session: Session) => {
    session.child.channel?.unref();
    session.idle = setTimeout(() => {
      if (current === session) current = undefined;
      session.child.disconnect();
    }, options.idleMs);
    session.idle.unref();
  };

  return {
    reencode(bytes, type) {
      const session = (current ??= start());
      clearTimeout(session.idle);
      // A job owed an answer holds this process open (a command that awaits an upload must not exit first).
      session.child.channel?.ref();
      const id = ++nextId;
      return new Promise<Buffer>((resolve, reject) => {
        // Unanswered in time: the process is stuck, so it goes (with it the jobs it holds; `end` on its exit).
        const timer = setTimeout(() => {
          if (!session.pending.has(id)) return;
          end(session, stopped(`did not answer a job within ${jobTimeoutMs} ms and was stopped`));
          session.child.kill('SIGKILL');
        }, jobTimeoutMs);
        timer.unref();
        session.pending.set(id, { resolve, reject, timer });
        const job: ImageJob = { id, bytes, type };
        session.child.send(job, (error) => {
          if (!error || !session.pending.delete(id)) return;
          clearTimeout(timer);
          reject(stopped(`could not be sent the job: ${error.message}`));
          if (session.pending.size === 0) idle(session);
        });
      });
    },
    get pid() {
      return current?.child.pid;
    },
    async close() {
      const session = current;
      if (!session) return;
      current = undefined;
      const { child } = session;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      // Held until it has exited: whoever awaits the close is not left with nothing to wait on.
      child.ref();
      child.kill();
      await exited;
    },
  };
}

const imageProcess = createImageProcess({ idleMs: IMAGE_PROCESS_IDLE_MS });

/**
 * Decodes `bytes` as an image of `type` (recognised from its signature) and returns it re-encoded in
 * the same format, in the image process; 400 when it does not decode completely or has too many pixels,
 * 500 when the image process stops before it answers.
 */
export function reencodeImage(bytes: Buffer, type: ImageType): Promise<Buffer> {
  return imageProcess.reencode(bytes, type);
}

/** Stops the image process, if one runs (the application closes: src/context.ts). */
export function stopImageProcess(): Promise<void> {
  return imageProcess.close();
}

/** The image process's id while one runs, for the tests that stop it behind the server's back. */
export function imageProcessId(): number | undefined {
  return imageProcess.pid;
}
