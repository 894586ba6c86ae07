/** Event images: an uploaded image (2 MB, stored through uploads) or a stock photo found for the event (image-search.ts). */
import { UPLOAD_LIMITS, type Uploads } from '../../platform/uploads.js';
import type { ImageSearch } from './image-search.js';

export function createEventImages(deps: { uploads: Pick<Uploads, 'saveImage'>; search: ImageSearch }) {
  return {
    async upload(data: string) {
      const stored = await deps.uploads.saveImage(data, UPLOAD_LIMITS.eventImage);
      return { url: stored.url };
    },

    async generate(name: string, eventType: string | null | undefined) {
      const found = await deps.search.find(name.trim(), eventType);
      return { success: true, url: found.url, attribution: found.attribution };
    },
  };
}

export type EventImages = ReturnType<typeof createEventImages>;
