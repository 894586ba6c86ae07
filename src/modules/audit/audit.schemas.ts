import { Type, type Static } from 'typebox';
import { IdText, Nullable } from '../../platform/http.js';
import { PagedList, pagingQueryFields } from '../../platform/paging.js';

const Instant = Type.String({
  maxLength: 40,
  pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2}))?$',
  description: 'a date (YYYY-MM-DD, a UTC day) or an ISO 8601 instant with its offset',
});

export const AuditQuery = Type.Object({
  ...pagingQueryFields,
  venue_id: Type.Optional(IdText),
  actor_user_id: Type.Optional(IdText),
  action: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: '^[a-z0-9_.]+$',
      description: 'an action (`booking.cancelled`) or its prefix up to a dot (`booking` matches every `booking.*`)',
    }),
  ),
  entity_type: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
  entity_id: Type.Optional(IdText),
  from: Type.Optional(Type.Union([Instant], { description: 'entries at or after (a date: from the start of that UTC day)' })),
  to: Type.Optional(Type.Union([Instant], { description: 'entries before (a date: up to the end of that UTC day)' })),
});
export type AuditQuery = Static<typeof AuditQuery>;

const Fields = Nullable(Type.Record(Type.String(), Type.Unknown(), { description: 'the changed fields only; secrets are `[redacted]`' }));

export const AuditEntry = Type.Object({
  id: Type.String(),
  at: Type.String({ description: 'when, ISO 8601 UTC' }),
  venue_id: Nullable(Type.String()),
  venue_name: Nullable(Type.String()),
  actor: Type.Object({
    type: Type.String({ description: '`user` (operator staff), `guest`, or `system`' }),
    user_id: Nullable(Type.String()),
    name: Nullable(Type.String({ description: 'as it was at the time' })),
    email: Nullable(Type.String({ description: 'as it was at the time' })),
  }),
  action: Type.String(),
  entity_type: Type.String(),
  entity_id: Nullable(Type.String()),
  before: Fields,
  after: Fields,
  request_id: Nullable(Type.String()),
  ip: Nullable(Type.String()),
});
export type AuditEntry = Static<typeof AuditEntry>;

export const AuditList = PagedList(AuditEntry, 'Audit entries, newest first');
