/** Schemas and helpers shared by every route: error and success bodies, booleans, ids. */
import { Type, type TSchema } from 'typebox';

/** Every error body names its request (also its X-Request-Id header and on its log lines). */
export const RequestId = Type.Optional(
  Type.String({ description: 'The id of the request (also its X-Request-Id header), for support and the logs' }),
);

export const ErrorBody = Type.Object({ error: Type.String(), request_id: RequestId }, { additionalProperties: true });
export const SuccessBody = Type.Object({ success: Type.Boolean() }, { description: 'Done: `{ success: true }`' });
export const CreatedBody = Type.Object(
  { success: Type.Boolean(), id: Type.String() },
  { description: 'Created: `{ success: true, id }` with the new id' },
);

/** Boolean toggles: accept JSON booleans and the 0/1 integers that older clients send. */
export const Toggle = Type.Union([Type.Boolean(), Type.Literal(0), Type.Literal(1)]);
export const toFlag = (value: boolean | 0 | 1 | null | undefined): number | undefined =>
  value === undefined || value === null ? undefined : value ? 1 : 0;

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

// A pattern's `description` completes "must be …" in validation messages (src/platform/validation.ts),
// so a client reads the expected format rather than a regular expression.
export const ClockTime = Type.String({
  maxLength: 5,
  pattern: '^([01]\\d|2[0-3]):[0-5]\\d$',
  description: 'a clock time as HH:MM (24-hour)',
});
export const DateString = Type.String({ maxLength: 10, pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'a date as YYYY-MM-DD' });

/**
 * An absolute http(s) URL with a host: the only links the API accepts (security round 2: a
 * `javascript:` or `data:` URL stored in a link field ends up as a clickable link in a widget).
 */
export const HttpUrl = (maxLength = 2000) =>
  Type.String({ maxLength, pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]+[^\\s]*$', description: 'an http(s) URL' });

/** An image address: an http(s) URL, or a site-relative path such as the `/uploads/…` an upload stores. */
export const ImageUrl = (maxLength = 2000) =>
  Type.String({
    maxLength,
    pattern: '^([Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]+|/)[^\\s]*$',
    description: 'an http(s) URL or a site-relative path',
  });

/** Ids sent in bodies (`table_ids`, `role_id` …): ours are about 30 characters. */
export const IdText = Type.String({ minLength: 1, maxLength: 100 });

/** What each status means across the API: the description of a response that does not say more. */
export const RESPONSE_DESCRIPTIONS: Record<number, string> = {
  200: 'OK',
  304: 'Not modified: the `If-None-Match` ETag still matches (empty body)',
  400: 'Invalid request: a field is missing or invalid; `error` says which',
  401: 'Not signed in, or the session has expired: sign in again',
  402: 'Payment required: a card or payment step is needed',
  403: 'Signed in, but not allowed: not an operator user, or the role lacks the permission',
  404: 'Not found, or a venue outside the account or the role’s venue scope',
  409: 'Conflicts with the current state; `error` says why',
  429: 'Too many requests: retry after the `Retry-After` header’s seconds',
  500: 'Unexpected server error',
  502: 'An upstream provider failed',
  503: 'A dependency is unconfigured or unreachable, or the platform is in maintenance (`Retry-After`)',
};

const errorBodies = new Map<number, typeof ErrorBody>();
/** The `{ error }` body of one status, described by what that status means. */
export function errorBody(status: number): typeof ErrorBody {
  let body = errorBodies.get(status);
  if (!body) {
    body = Type.Object(
      { error: Type.String(), request_id: RequestId },
      { additionalProperties: true, description: RESPONSE_DESCRIPTIONS[status] ?? `Error ${status}` },
    );
    errorBodies.set(status, body);
  }
  return body;
}

/** The 503 of an image upload while the image queue is full (platform/image-queue.ts). */
export const UploadBusy = Type.Object(
  { error: Type.String() },
  {
    additionalProperties: true,
    description: 'Image processing is busy (the upload queue is full): nothing was stored; retry after the `Retry-After` header’s seconds',
  },
);

/** The common error responses, to spread into a route's `response`. */
export const errorResponses = (...statuses: number[]) => Object.fromEntries(statuses.map((status) => [status, errorBody(status)]));

export const IdParams = Type.Object({ id: Type.String() });
export const VenueParams = Type.Object({ venueId: Type.String() });

export const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$';
export const Email = Type.String({ pattern: EMAIL_PATTERN, maxLength: 254, description: 'an email address' });
