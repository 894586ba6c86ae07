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
 */
import { createRequire } from 'node:module';
import type Sharp from 'sharp';
import { badRequest } from './errors.js';

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

const LABEL: Record<ImageType, string> = { png: 'PNG', jpeg: 'JPEG', webp: 'WebP', gif: 'GIF' };

const requireCjs = createRequire(import.meta.url);
let loaded: typeof Sharp | undefined;
/** sharp (libvips, ~100 ms to load) is loaded with the first upload, not at start-up. */
function sharp(...args: Parameters<typeof Sharp>) {
  if (!loaded) {
    loaded = requireCjs('sharp') as typeof Sharp;
    // Each upload is a new image: sharp's operation cache would only hold memory.
    loaded.cache(false);
    // One libvips thread per re-encode: an upload never takes more than one core from logins and reads
    // (how many re-encodes run at once is the image queue's business, image-queue.ts).
    loaded.concurrency(1);
  }
  return loaded(...args);
}

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

/**
 * Decodes `bytes` as an image of `type` (recognised from its signature) and returns it re-encoded in
 * the same format; 400 when it does not decode completely or has too many pixels.
 */
export async function reencodeImage(bytes: Buffer, type: ImageType): Promise<Buffer> {
  const undecodable = () => badRequest(`Image could not be decoded: the data is not a complete, valid ${LABEL[type]} image`);
  const animated = type === 'gif' || type === 'webp';
  // failOn 'warning': a truncated or corrupt image is refused rather than stored half grey.
  const open = (limitInputPixels: number | false) => sharp(bytes, { animated, autoOrient: true, failOn: 'warning', limitInputPixels });

  let meta: Sharp.Metadata;
  try {
    // The header alone, without the pixel limit, so an oversized image gets its own message below.
    meta = await open(false).metadata();
  } catch {
    throw undecodable();
  }
  if (meta.format !== type) throw undecodable();
  // Height covers every frame of an animation.
  const pixels = (meta.width ?? 0) * (meta.height ?? 0);
  if (pixels > MAX_IMAGE_PIXELS) {
    throw badRequest(`Image is too large: more than ${MAX_IMAGE_PIXELS / 1_000_000} megapixels (all frames together)`);
  }
  const frames = meta.pages ?? 1;
  if (frames > MAX_ANIMATION_FRAMES) throw badRequest(`Image has too many frames: more than ${MAX_ANIMATION_FRAMES}`);
  const costly = type === 'gif' || frames > 1;
  if (costly && pixels > MAX_ANIMATION_PIXELS) {
    throw badRequest(
      `Image is too large: a GIF or an animation may have at most ${MAX_ANIMATION_PIXELS / 1_000_000} megapixels (all frames together)`,
    );
  }

  const image = open(costly ? MAX_ANIMATION_PIXELS : MAX_IMAGE_PIXELS);
  if (type === 'png') image.png({ palette: meta.isPalette === true });
  else if (type === 'jpeg') image.jpeg({ quality: 90 });
  else if (type === 'webp') image.webp(isLosslessWebp(bytes) ? { lossless: true } : { quality: 90 });
  else image.gif();
  try {
    return await image.toBuffer();
  } catch {
    throw undecodable();
  }
}
