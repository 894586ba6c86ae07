/** What every public booking route shares: its tag, no caching of personal answers, and real calendar dates. */
import { isCalendarDate } from '../../../domain/venue-time.js';
import { badRequest } from '../../../platform/errors.js';

export const tags = ['public'];

export const noStore = async (_request: unknown, reply: { header(name: string, value: string): unknown }) => {
  reply.header('Cache-Control', 'no-store');
};

export const checkDate = (date: string) => {
  if (!isCalendarDate(date)) throw badRequest('date must be a real calendar date');
};
