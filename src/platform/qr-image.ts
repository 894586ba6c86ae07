/**
 * QR code images as PNG data URLs (two-factor set-up, booking QR codes). qrcode loads on first use,
 * not at start-up; with require(), not import(): the compiled runtime runs code from V8's code cache,
 * where import() has no loader on Node 20 (scripts/run-compiled.mjs).
 */
import { createRequire } from 'node:module';
import type * as QRCode from 'qrcode';

const requireCjs = createRequire(import.meta.url);

export function qrDataUrl(text: string): Promise<string> {
  return (requireCjs('qrcode') as typeof QRCode).toDataURL(text, { errorCorrectionLevel: 'M', margin: 2 });
}
