/** The waitlist's request and response schemas (operator and public routes; docs/waitlist.md). */
import { Type, type Static } from 'typebox';
import { WAITLIST_KINDS, WAITLIST_STATUSES } from '../../domain/waitlist.js';
import { ClockTime, DateString, Email, Nullable } from '../../platform/http.js';

const Id = Type.String({ minLength: 1, maxLength: 100 });
const PartySize = Type.Integer({ minimum: 1, maximum: 100 });
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Phone = Type.String({ maxLength: 40 });
const Notes = Type.String({ maxLength: 1000 });

export const VenueWaitlistParams = Type.Object({ venueId: Type.String() });
export const EntryParams = Type.Object({ venueId: Type.String(), id: Type.String() });

export const ListQuery = Type.Object({
  date: Type.Optional(DateString),
  kind: Type.Optional(Type.Enum([...WAITLIST_KINDS])),
  all: Type.Optional(Type.Boolean({ description: 'also the entries that left the list (seated, booked, removed…)' })),
});
export type ListQuery = Static<typeof ListQuery>;

export const QuoteQuery = Type.Object({ party_size: PartySize });

export const Quote = Type.Object({
  minutes: Nullable(Type.Integer({ description: 'the wait to quote, in minutes (0: a table is free now)' })),
  fits: Type.Boolean({ description: 'false when no single table seats the party (`minutes` is then null)' }),
});

export const WalkInBody = Type.Object(
  {
    party_size: PartySize,
    guest_name: Name,
    guest_phone: Type.Optional(Nullable(Phone)),
    guest_email: Type.Optional(Nullable(Email)),
    notes: Type.Optional(Nullable(Notes)),
  },
  { additionalProperties: false },
);
export type WalkInBody = Static<typeof WalkInBody>;

export const WalkInCreated = Type.Object({
  success: Type.Boolean(),
  id: Type.String(),
  quoted_minutes: Nullable(Type.Integer()),
});

export const SeatBody = Type.Object(
  {
    table_ids: Type.Optional(Type.Array(Id, { maxItems: 20, description: 'omitted: the best free tables' })),
    duration_minutes: Type.Optional(Type.Integer({ minimum: 15, maximum: 720 })),
  },
  { additionalProperties: false },
);
export type SeatBody = Static<typeof SeatBody>;

export const Seated = Type.Object({ success: Type.Boolean(), booking_id: Type.String() });

export const RemoveBody = Type.Object(
  { no_show: Type.Optional(Type.Boolean({ description: 'a notified walk-in who did not come back: `no_show` instead of `removed`' })) },
  { additionalProperties: false },
);

export const Notified = Type.Object({
  success: Type.Boolean(),
  channels: Type.Array(Type.Enum(['sms', 'mail']), { description: 'how the guest was told (empty: tell them in person)' }),
});

export const Entry = Type.Object({
  id: Type.String(),
  kind: Type.Enum([...WAITLIST_KINDS]),
  status: Type.Enum([...WAITLIST_STATUSES]),
  position: Nullable(Type.Integer({ description: 'the place in line among the open entries of its list (1 = next); null once it left' })),
  party_size: Type.Integer(),
  guest_name: Type.String(),
  guest_phone: Nullable(Type.String()),
  guest_email: Nullable(Type.String()),
  notes: Nullable(Type.String()),
  date: Type.String(),
  time_from: Nullable(Type.String()),
  time_to: Nullable(Type.String()),
  quoted_minutes: Nullable(Type.Integer({ description: 'walk-in: the wait quoted when it joined' })),
  estimated_minutes: Nullable(Type.Integer({ description: 'walk-in, while in line: the wait from the floor now' })),
  waited_minutes: Type.Integer({ description: 'since it joined' }),
  offer: Nullable(
    Type.Object({
      time: Type.String(),
      access_rule_id: Type.String(),
      expires_at: Type.String(),
    }),
  ),
  offers_made: Type.Integer(),
  notified_at: Nullable(Type.String()),
  booking_id: Nullable(Type.String()),
  created_at: Type.String(),
  status_changed_at: Type.String(),
});
export type Entry = Static<typeof Entry>;

export const EntryList = Type.Object({ data: Type.Array(Entry) });

// Public

export const PublicVenueParams = Type.Object({ venueId: Type.String() });

export const JoinBody = Type.Object(
  {
    date: DateString,
    party_size: PartySize,
    time_from: ClockTime,
    time_to: ClockTime,
    guest_name: Name,
    guest_email: Email,
    guest_phone: Type.Optional(Phone),
    notes: Type.Optional(Notes),
    turnstile_token: Type.Optional(Type.String({ maxLength: 4096 })),
  },
  { additionalProperties: false },
);
export type JoinBody = Static<typeof JoinBody>;

export const Joined = Type.Object({
  success: Type.Boolean(),
  id: Type.String(),
  status: Type.String(),
  position: Type.Integer({ description: 'the place in line for that date (1 = first)' }),
  manage_url: Type.String({ description: 'the guest’s waitlist page (also mailed): see the place, leave, accept an offer' }),
});

export const TokenQuery = Type.Object({ token: Type.String({ maxLength: 256 }) });
export const TokenBody = Type.Object({ token: Type.String({ maxLength: 256 }) }, { additionalProperties: false });
export const AcceptBody = Type.Object(
  { token: Type.String({ maxLength: 256 }), turnstile_token: Type.Optional(Type.String({ maxLength: 4096 })) },
  { additionalProperties: false },
);

export const GuestEntry = Type.Object({
  venue: Type.Object({ id: Type.String(), name: Type.String() }),
  status: Type.Enum([...WAITLIST_STATUSES]),
  position: Nullable(Type.Integer()),
  party_size: Type.Integer(),
  guest_name: Type.String(),
  date: Type.String(),
  time_from: Nullable(Type.String()),
  time_to: Nullable(Type.String()),
  offer: Nullable(Type.Object({ time: Type.String(), expires_at: Type.String() })),
  booking_id: Nullable(Type.String()),
});
export type GuestEntry = Static<typeof GuestEntry>;
