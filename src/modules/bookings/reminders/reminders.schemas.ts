/** Schemas of the reminder settings, message templates and reminder-link routes. */
import { Type, type Static } from 'typebox';
import { MESSAGE_KINDS, TEMPLATE_MAX_LENGTH } from '../../../domain/message-templates.js';
import { REMINDER_TOKEN_MAX_LENGTH } from '../../../domain/booking-tokens/index.js';
import { ClockTime, Nullable } from '../../../platform/http.js';
import { MAX_OFFSET_MINUTES, MAX_OFFSETS, MIN_OFFSET_MINUTES, REMINDER_CHANNELS } from './reminders.service.js';

const settingsFields = {
  enabled: Type.Boolean({ description: 'reminders are sent (default false: a venue turns them on)' }),
  offsets_minutes: Type.Array(Type.Integer({ minimum: MIN_OFFSET_MINUTES, maximum: MAX_OFFSET_MINUTES }), {
    minItems: 1,
    maxItems: MAX_OFFSETS,
    description: 'minutes before the booking starts, e.g. [1440, 120] for 24 h and 2 h; each offset is one reminder',
  }),
  channels: Type.Array(Type.Enum([...REMINDER_CHANNELS]), {
    minItems: 1,
    maxItems: 2,
    description: '`mail` and/or `sms` (SMS only to guests who consented, never after STOP)',
  }),
  quiet_hours: Nullable(
    Type.Object(
      { start: ClockTime, end: ClockTime },
      { description: 'venue-local window with no reminders (may span midnight, e.g. 22:00–08:00); null: none' },
    ),
  ),
  quiet_mode: Type.Enum(['shift', 'skip'], {
    description: '`shift`: a reminder due in quiet hours goes when they end, if still before the booking; `skip`: not sent',
  }),
};

export const ReminderSettingsBody = Type.Object(settingsFields, { additionalProperties: false });
export type ReminderSettingsBody = Static<typeof ReminderSettingsBody>;

export const ReminderSettingsAnswer = Type.Object({ ...settingsFields, updated_at: Nullable(Type.String()) });

export const TemplateParams = Type.Object({ venueId: Type.String(), kind: Type.String({ maxLength: 40 }) });

export const TemplateBody = Type.Object(
  {
    body: Nullable(
      Type.String({
        maxLength: 4000,
        description: `the wording, with {placeholders} (at most ${TEMPLATE_MAX_LENGTH} characters); null: back to the default`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const TemplateAnswer = Type.Object({
  kind: Type.Enum([...MESSAGE_KINDS]),
  body: Type.String(),
  default_body: Type.String(),
  custom: Type.Boolean({ description: 'the venue has its own wording' }),
  placeholders: Type.Array(Type.String(), { description: 'the {placeholders} this kind may use' }),
  updated_at: Nullable(Type.String()),
});

export const ReminderToken = Type.String({
  minLength: 1,
  maxLength: REMINDER_TOKEN_MAX_LENGTH,
  description: 'the `token` of the reminder link',
});

export const ReminderActionAnswer = Type.Object({
  success: Type.Literal(true),
  booking_id: Type.String(),
  action: Type.Enum(['confirm', 'cancel', 'unsubscribe']),
  status: Type.String({ description: 'the booking status after the action' }),
  guest_confirmed_at: Nullable(Type.String()),
  refunded_pence: Type.Optional(Type.Integer({ description: 'cancel: refunded for the booking in total' })),
});

export const ReminderLinkView = Type.Object({
  success: Type.Literal(true),
  booking_id: Type.String(),
  action: Type.Enum(['confirm', 'cancel', 'unsubscribe']),
  status: Type.String(),
  guest_confirmed_at: Nullable(Type.String()),
  venue_name: Type.String(),
  date: Type.String(),
  time: Nullable(Type.String()),
  party_size: Type.Integer(),
});
