/**
 * Calls to the Maitred API from a widget page (same origin: no cookies, no third-party storage). Every
 * failure becomes an ApiError the screens can explain: `offline` (no answer at all), `busy` (429, with the
 * seconds to wait from Retry-After), `maintenance` (503), `conflict` (409, e.g. the slot was taken), or
 * the API's own `{ error }` message.
 */
export type ApiErrorKind = 'offline' | 'busy' | 'maintenance' | 'conflict' | 'not_found' | 'invalid' | 'payment' | 'failed';

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly status: number,
    readonly retryAfterSeconds = 0,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

const KIND_BY_STATUS: Record<number, ApiErrorKind> = {
  400: 'invalid',
  402: 'payment',
  403: 'invalid',
  404: 'not_found',
  409: 'conflict',
  429: 'busy',
  503: 'maintenance',
};

function parseBody(text: string): Record<string, unknown> {
  try {
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export async function api<T>(
  path: string,
  options: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? 'GET',
      headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'omit',
    });
  } catch {
    throw new ApiError('offline', 'We could not reach the booking service. Check your connection and try again.', 0);
  }
  const body = parseBody(await response.text());
  if (response.ok) return body as T;
  const kind = KIND_BY_STATUS[response.status] ?? 'failed';
  const retryAfter = Number(response.headers.get('retry-after') ?? 0) || 0;
  const message =
    kind === 'busy'
      ? `Lots of people are booking right now. Please try again in ${Math.max(1, retryAfter)} seconds.`
      : kind === 'maintenance'
        ? 'Booking is briefly unavailable while we do maintenance. Please try again in a few minutes.'
        : typeof body.error === 'string'
          ? body.error
          : 'Something went wrong. Please try again.';
  throw new ApiError(kind, message, response.status, retryAfter, body);
}

/** A key that makes a retried create safe (the API answers a repeat with the first answer). */
export function idempotencyKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
