/** Schemas and helpers shared by every route: error and success bodies, booleans, ids. */
import { Type, type TSchema } from 'typebox';

export const ErrorBody = Type.Object({ error: Type.String() }, { additionalProperties: true });
export const SuccessBody = Type.Object({ success: Type.Boolean() });
export const CreatedBody = Type.Object({ success: Type.Boolean(), id: Type.String() });

/** Boolean toggles: accept JSON booleans and the 0/1 integers that older clients send. */
export const Toggle = Type.Union([Type.Boolean(), Type.Literal(0), Type.Literal(1)]);
export const toFlag = (value: boolean | 0 | 1 | null | undefined): number | undefined =>
  value === undefined || value === null ? undefined : value ? 1 : 0;

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const ClockTime = Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: 'HH:MM' });
export const DateString = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });

/** The common error responses, to spread into a route's `response`. */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, ErrorBody]));

export const IdParams = Type.Object({ id: Type.String() });
export const VenueParams = Type.Object({ venueId: Type.String() });

export const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$';
export const Email = Type.String({ pattern: EMAIL_PATTERN, maxLength: 254 });
