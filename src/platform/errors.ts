/**
 * One error family for the whole product. Services throw these; the global error handler in app.ts
 * turns them into `{ error, ...extra }` with their status. Anything else becomes a 500 without details.
 */
let keptStackLimit = Error.stackTraceLimit;

/**
 * `message`, with stack capture turned off for the Error constructor about to run when the status is a
 * client's (4xx): such an answer is never logged with a stack, and capturing one (async frames and all)
 * was about 2 % of what a crowd's refusal cost. Server-side failures (5xx) keep theirs.
 */
function quietFor(status: number, message: string): string {
  keptStackLimit = Error.stackTraceLimit;
  if (status < 500) Error.stackTraceLimit = 0;
  return message;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(quietFor(status, message));
    Error.stackTraceLimit = keptStackLimit;
    this.name = 'AppError';
  }
}

export const SESSION_EXPIRED_MESSAGE = 'Session expired. Please log in again.';
export const TOO_MANY_REQUESTS_MESSAGE = 'Too many requests. Please try again later.';
export const MAINTENANCE_MESSAGE = 'The platform is undergoing maintenance. Please try again shortly.';

export const badRequest = (message: string, extra?: Record<string, unknown>) => new AppError(400, message, extra);
export const unauthorized = (message = SESSION_EXPIRED_MESSAGE) => new AppError(401, message);
export const paymentRequired = (message: string, extra?: Record<string, unknown>) => new AppError(402, message, extra);
export const forbidden = (message = 'You do not have permission to do that.') => new AppError(403, message);
export const notFound = (what = 'Resource') => new AppError(404, `${what} not found`);
export const conflict = (message: string, extra?: Record<string, unknown>) => new AppError(409, message, extra);
export const tooManyRequests = (retryAfterSeconds: number, extra: Record<string, unknown> = {}) =>
  new AppError(429, TOO_MANY_REQUESTS_MESSAGE, extra, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
export const badGateway = (message = 'The payment provider could not be reached. Please try again.') => new AppError(502, message);
export const serviceUnavailable = (message: string) => new AppError(503, message);
