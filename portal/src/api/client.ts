/**
 * The typed API client (openapi-fetch over the generated `paths`): one middleware adds the bearer token
 * and turns a 401 into "session expired". `call` unwraps an answer or throws an ApiError with the
 * server's `{ error }` message (and its `request_id`), which the screens show as is.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema';
import { session } from './session';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The request's id from the error body (`request_id`), which staff can quote to support. */
    readonly requestId?: string,
  ) {
    super(message);
  }
}

/** What to tell the user of a failed call: the API's error, or that the server could not be reached. */
export const messageOf = (error: unknown) => (error instanceof ApiError ? error.message : 'Could not reach the server: try again.');

const auth: Middleware = {
  onRequest({ request }) {
    const token = session.token();
    if (token) request.headers.set('authorization', `Bearer ${token}`);
    return request;
  },
  onResponse({ request, response }) {
    if (response.status === 401 && request.headers.has('authorization')) session.expire();
    return response;
  },
};

export const api = createClient<paths>({ baseUrl: '' });
api.use(auth);

/** The data of a successful answer, or an ApiError naming what went wrong. */
export async function call<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await pending;
  if (response.ok) return data as T;
  const message =
    error && typeof error === 'object' && 'error' in error && typeof error.error === 'string'
      ? error.error
      : response.status === 429
        ? `Too many attempts: try again in ${response.headers.get('retry-after') ?? 'a few'} seconds`
        : `The server answered ${response.status}`;
  const requestId =
    error && typeof error === 'object' && 'request_id' in error && typeof error.request_id === 'string'
      ? error.request_id
      : (response.headers.get('x-request-id') ?? undefined);
  throw new ApiError(response.status, message, requestId);
}
