/**
 * The one image-upload service of the product. Images arrive as base64 data URLs in JSON; the type is
 * recognised from the bytes (PNG, JPEG, WebP, GIF only; the declared type is ignored and SVG refused),
 * the size is checked per route, the image is decoded and re-encoded (images.ts: only real images are
 * stored, without their metadata), and the re-encoded bytes are stored content-addressed (named by
 * their SHA-256) under UPLOADS_DIR and served as stored from /uploads/ with immutable caching.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.js';
import type { ImageQueue } from './image-queue.js';
import { reencodeImage, type ImageType } from './images.js';

export type { ImageType } from './images.js';

const KB = 1024;
const MB = 1024 * KB;

/** Per-route maxima (spec Limits). */
export const UPLOAD_LIMITS = {
  venueLogo: 500 * KB,
  brandLogo: 2 * MB,
  coverImage: 3 * MB,
  widgetLogo: 2 * MB,
  bundleItemImage: 2 * MB,
  accessRuleImage: 2 * MB,
  eventImage: 2 * MB,
} as const;

/** The largest upload, base64-encoded, plus room for the JSON around it: the HTTP body limit. */
export const MAX_UPLOAD_BODY_BYTES = Math.ceil((3 * MB * 4) / 3) + 256 * KB;

const MIME: Record<ImageType, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif' };
const EXT: Record<ImageType, string> = { png: 'png', jpeg: 'jpg', webp: 'webp', gif: 'gif' };

/** Recognises an image from its leading bytes; undefined for anything else (SVG included). */
export function sniffImageType(bytes: Uint8Array): ImageType | undefined {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  const ascii = (offset: number, text: string) => [...text].every((ch, i) => bytes[offset + i] === ch.charCodeAt(0));
  if (bytes.length >= 8 && starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (bytes.length >= 3 && starts(0xff, 0xd8, 0xff)) return 'jpeg';
  if (bytes.length >= 6 && (ascii(0, 'GIF87a') || ascii(0, 'GIF89a'))) return 'gif';
  if (bytes.length >= 12 && ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'webp';
  return undefined;
}

// Rounded up to one decimal (MB) or a whole KB, so an image over the limit never reads as equal to it.
const formatSize = (bytes: number) => (bytes >= MB ? `${Math.ceil((bytes / MB) * 10) / 10} MB` : `${Math.ceil(bytes / KB)} KB`);

export interface StoredImage {
  url: string;
  type: ImageType;
  mime: string;
  /** The size of the image as sent (what the limit applies to), not of the re-encoded file. */
  bytes: number;
}

/** Decodes `data:[<type>][;…];base64,<payload>`; a bare base64 string is accepted too. */
export function decodeDataUrl(input: unknown, field = 'data'): Buffer {
  if (typeof input !== 'string' || input.length === 0) throw badRequest(`${field} must be a base64 data URL of an image`);
  let payload = input;
  if (input.startsWith('data:')) {
    const comma = input.indexOf(',');
    const header = comma === -1 ? '' : input.slice(5, comma);
    if (comma === -1 || !/;base64$/i.test(header)) throw badRequest(`${field} must be a base64 data URL of an image`);
    payload = input.slice(comma + 1);
  }
  payload = payload.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(payload) || payload.length === 0) {
    throw badRequest(`${field} is not valid base64`);
  }
  return Buffer.from(payload, payload.includes('-') || payload.includes('_') ? 'base64url' : 'base64');
}

export const UPLOADS_PREFIX = '/uploads/';
/** A stored upload's path: a content hash and its extension under /uploads/ (nothing else is ours). */
export const UPLOAD_PATH = /^\/uploads\/[0-9a-f]{64}\.(?:png|jpg|webp|gif)$/;

/**
 * Frozen arrays (cached lists handed out as they are, such as a venue's tables) walked once and found to
 * hold no upload path: answered again as they are, without a walk. Only frozen ones, which cannot gain a
 * path later; a WeakSet, so a list dropped from its cache is forgotten here too.
 */
const cleanLists = new WeakSet<readonly unknown[]>();

/**
 * An answer with every stored upload path (`/uploads/<hash>.<ext>`) made absolute under `base`.
 * Copy-on-write: parts without one are the same objects (cached answers are never mutated).
 */
export function withAbsoluteUploads(value: unknown, base: string): unknown {
  if (typeof value === 'string') return value.startsWith(UPLOADS_PREFIX) && UPLOAD_PATH.test(value) ? `${base}${value}` : value;
  if (Array.isArray(value)) {
    if (cleanLists.has(value)) return value;
    let copy: unknown[] | null = null;
    value.forEach((item, i) => {
      const next = withAbsoluteUploads(item, base);
      if (next !== item) (copy ??= [...value])[i] = next;
    });
    if (copy === null && Object.isFrozen(value)) cleanLists.add(value);
    return copy ?? value;
  }
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    let copy: Record<string, unknown> | null = null;
    for (const [key, item] of Object.entries(value)) {
      const next = withAbsoluteUploads(item, base);
      if (next !== item) (copy ??= { ...(value as Record<string, unknown>) })[key] = next;
    }
    return copy ?? value;
  }
  return value;
}

export function createUploads(deps: { dir: string; queue: ImageQueue }) {
  const dir = path.resolve(deps.dir);
  mkdirSync(dir, { recursive: true });
  return {
    dir,
    /** The re-encode queue (its size and what runs), for tests and the bench. */
    queue: deps.queue,
    /** Validates and stores an image; returns its public URL. Throws 400 for anything unacceptable, 503 when busy. */
    async saveImage(input: unknown, maxBytes: number, field = 'data'): Promise<StoredImage> {
      const bytes = decodeDataUrl(input, field);
      if (bytes.length > maxBytes) {
        throw badRequest(`Image is too large: ${formatSize(bytes.length)} exceeds the ${formatSize(maxBytes)} limit`);
      }
      const type = sniffImageType(bytes);
      if (!type) throw badRequest('Only PNG, JPEG, WebP and GIF images are accepted');
      // The size limit applies to what was sent; the stored image is the re-encoded one.
      // Through the image queue: 503 with Retry-After when it is full (image-queue.ts).
      const stored = await deps.queue.run(() => reencodeImage(bytes, type));
      const name = `${createHash('sha256').update(stored).digest('hex')}.${EXT[type]}`;
      const file = path.join(dir, name);
      await fs.mkdir(dir, { recursive: true });
      try {
        await fs.access(file);
      } catch {
        const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
        await fs.writeFile(tmp, stored);
        await fs.rename(tmp, file);
      }
      // Stored as a path: answers make it absolute with the base URL of the moment (`withAbsoluteUploads`),
      // so a changed PORT or PUBLIC_BASE_URL never breaks an image saved before.
      return { url: `${UPLOADS_PREFIX}${name}`, type, mime: MIME[type], bytes: bytes.length };
    },
  };
}

export type Uploads = ReturnType<typeof createUploads>;

/**
 * Serves the stored images from /uploads/ as stored, cached forever (names are content hashes). They are
 * guest-facing and embedded by other sites (widgets, mails), so any origin may load them; the type is
 * never sniffed, and opened on their own they run nothing (a sandbox without scripts or plugins).
 */
export async function serveUploads(app: FastifyInstance, uploads: Pick<Uploads, 'dir'>): Promise<void> {
  await app.register(fastifyStatic, {
    root: uploads.dir,
    prefix: '/uploads/',
    decorateReply: false,
    immutable: true,
    maxAge: '365d',
    cacheControl: true,
    setHeaders: (res) => {
      res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Security-Policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox");
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    },
  });
}
