/** AppError: a client's answer (4xx) carries no stack; a server failure (5xx) and every other error keep theirs. */
import { describe, expect, it } from 'vitest';
import { AppError, conflict, serviceUnavailable } from './errors.js';

const frames = (error: Error) => (error.stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at ')).length;

describe('AppError', () => {
  it('captures no stack for a 4xx, keeps one for a 5xx, and leaves the stack limit as it was', () => {
    const limit = Error.stackTraceLimit;
    const refusal = conflict('That time is no longer available', { reason: 'no_table' });
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal.status).toBe(409);
    expect(refusal.message).toBe('That time is no longer available');
    expect(refusal.extra).toEqual({ reason: 'no_table' });
    expect(frames(refusal)).toBe(0);
    expect(Error.stackTraceLimit).toBe(limit);
    expect(frames(serviceUnavailable('down'))).toBeGreaterThan(0);
    expect(frames(new Error('plain'))).toBeGreaterThan(0);
    expect(Error.stackTraceLimit).toBe(limit);
  });
});
