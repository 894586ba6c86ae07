/**
 * The stock-image adapter behind `generate-image`: Unsplash's search API (`GET /search/photos`,
 * `Authorization: Client-ID <UNSPLASH_ACCESS_KEY>`). Following Unsplash's API guidelines, the photo is
 * hot-linked (its `urls.regular`, never copied), the photographer and Unsplash are credited with links
 * carrying `utm_source`/`utm_medium=referral`, and the photo's `download_location` is requested when it
 * is chosen (their download-tracking rule), only on the API's own host: the request carries the access
 * key. Unconfigured: 503; the provider failing or timing out: 502.
 */
import type { Logger } from 'pino';
import { AppError, badGateway, serviceUnavailable } from '../../platform/errors.js';

export const IMAGE_SEARCH_TIMEOUT_MS = 8_000;
const UTM = 'utm_source=maitred&utm_medium=referral';
export const IMAGE_SEARCH_UNCONFIGURED = 'Stock images are not configured on this platform (UNSPLASH_ACCESS_KEY)';
export const IMAGE_SEARCH_FAILED = 'The stock image service could not be reached. Please try again.';

export interface FoundImage {
  url: string;
  attribution: { photographer: string; photographer_url: string; unsplash_url: string };
}

interface UnsplashPhoto {
  urls?: { regular?: string };
  links?: { html?: string; download_location?: string };
  user?: { name?: string; links?: { html?: string } };
}

const withUtm = (url: string) => `${url}${url.includes('?') ? '&' : '?'}${UTM}`;

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
};

export function createImageSearch(deps: { accessKey: string | undefined; apiBase: string; log: Logger; timeoutMs?: number }) {
  const apiOrigin = new URL(deps.apiBase).origin;
  /**
   * Whether a URL the API answered is on the API's own origin (scheme, host and port): the access key goes
   * with every request, so it is sent nowhere else, whatever host an answer names.
   */
  const onApiHost = (url: string) => {
    try {
      return new URL(url).origin === apiOrigin;
    } catch {
      return false;
    }
  };

  async function call(url: string): Promise<Response> {
    try {
      return await fetch(url, {
        headers: { authorization: `Client-ID ${deps.accessKey}`, 'accept-version': 'v1' },
        signal: AbortSignal.timeout(deps.timeoutMs ?? IMAGE_SEARCH_TIMEOUT_MS),
      });
    } catch (error) {
      deps.log.warn({ err: error }, 'stock image search failed');
      throw badGateway(IMAGE_SEARCH_FAILED);
    }
  }

  async function search(query: string): Promise<UnsplashPhoto | undefined> {
    const url = `${deps.apiBase}/search/photos?${new URLSearchParams({ query, per_page: '1', orientation: 'landscape', content_filter: 'high' })}`;
    const res = await call(url);
    if (!res.ok) {
      deps.log.warn({ status: res.status }, 'stock image search answered an error');
      throw badGateway(IMAGE_SEARCH_FAILED);
    }
    let body: { results?: UnsplashPhoto[] } | undefined;
    try {
      body = (await res.json()) as { results?: UnsplashPhoto[] } | undefined;
    } catch (error) {
      deps.log.warn({ err: error }, 'stock image search answered something other than JSON');
      throw badGateway(IMAGE_SEARCH_FAILED);
    }
    if (!body || !Array.isArray(body.results)) throw badGateway(IMAGE_SEARCH_FAILED);
    return body.results.find((photo) => photo.urls?.regular && photo.user?.name && photo.links?.html);
  }

  return {
    configured: Boolean(deps.accessKey),

    /** The best photo for the words, then the event type alone; 404 when neither finds one. */
    async find(name: string, eventType: string | null | undefined): Promise<FoundImage> {
      if (!deps.accessKey) throw serviceUnavailable(IMAGE_SEARCH_UNCONFIGURED);
      const type = eventType?.replace(/_/g, ' ').trim();
      const queries = [...new Set([[name, type].filter(Boolean).join(' '), type, 'night event'].filter((q): q is string => Boolean(q)))];
      let photo: UnsplashPhoto | undefined;
      for (const query of queries) {
        photo = await search(query.slice(0, 200));
        if (photo) break;
      }
      if (!photo) throw new AppError(404, 'No stock image matches this event');
      const tracking = photo.links?.download_location;
      if (tracking && onApiHost(tracking)) {
        // Download tracking: Unsplash counts a use when the photo is chosen. A failure costs nothing here.
        const tracked = await call(tracking).catch((error: unknown) => {
          deps.log.warn({ err: error }, 'stock image download tracking failed');
          return undefined;
        });
        if (tracked && !tracked.ok) deps.log.warn({ status: tracked.status }, 'stock image download tracking answered an error');
      } else if (tracking) {
        deps.log.warn({ host: hostOf(tracking) }, 'stock image download_location is not on the API host: not requested');
      }
      return {
        url: photo.urls!.regular!,
        attribution: {
          photographer: photo.user!.name!,
          photographer_url: withUtm(photo.user?.links?.html ?? photo.links!.html!),
          unsplash_url: withUtm(photo.links!.html!),
        },
      };
    },
  };
}

export type ImageSearch = ReturnType<typeof createImageSearch>;
