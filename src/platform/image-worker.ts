/**
 * The image process: a child process of the server (started by images.ts) that decodes and re-encodes
 * uploaded images with sharp, so libvips and its memory stay out of the server. It answers each job
 * (`ImageJob`, over the IPC channel) by its id, several at once, and exits when the server closes the
 * channel: when the server has had no upload for a while, when it closes, or when it dies.
 */
import sharp from 'sharp';
import { AppError, badRequest } from './errors.js';
import {
  isLosslessWebp,
  MAX_ANIMATION_FRAMES,
  MAX_ANIMATION_PIXELS,
  MAX_IMAGE_PIXELS,
  type ImageJob,
  type ImageJobResult,
  type ImageType,
} from './images.js';

const LABEL: Record<ImageType, string> = { png: 'PNG', jpeg: 'JPEG', webp: 'WebP', gif: 'GIF' };

// Each upload is a new image: sharp's operation cache would only hold memory.
sharp.cache(false);
// One libvips thread per re-encode: an upload never takes more than one core from logins and reads
// (how many re-encodes run at once is the image queue's business, image-queue.ts).
sharp.concurrency(1);

/**
 * Decodes `bytes` as an image of `type` (recognised from its signature) and returns it re-encoded in
 * the same format; 400 when it does not decode completely or has too many pixels.
 */
async function reencode(bytes: Buffer, type: ImageType): Promise<Buffer> {
  const undecodable = () => badRequest(`Image could not be decoded: the data is not a complete, valid ${LABEL[type]} image`);
  const animated = type === 'gif' || type === 'webp';
  // failOn 'warning': a truncated or corrupt image is refused rather than stored half grey.
  const open = (limitInputPixels: number | false) => sharp(bytes, { animated, autoOrient: true, failOn: 'warning', limitInputPixels });

  let meta: sharp.Metadata;
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

const send = process.send?.bind(process);
if (!send) throw new Error('image-worker is the image process of the server (images.ts): it runs only as its child process');

process.on('message', (job: ImageJob) => {
  const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
  void reencode(bytes, job.type)
    .then(
      (reencoded): ImageJobResult => ({ id: job.id, bytes: reencoded }),
      (error: unknown): ImageJobResult => ({
        id: job.id,
        error:
          error instanceof AppError
            ? { status: error.status, message: error.message }
            : { message: error instanceof Error ? error.message : String(error) },
      }),
    )
    .then((result) => send(result));
});
// The server closed the channel (idle, closing) or died: nothing is left to answer.
process.on('disconnect', () => process.exit(0));
