/** The details step: the chosen time (with a way back), a table pick and bundles where the rule offers them, and the guest's contact. */
import { dateLabel, isEmail } from '../lib/format';
import { BotCheck } from '../ui/BotCheck';
import { Field } from '../ui/Field';
import { useState } from 'preact/hooks';
import { Bundles, type PublicBundle } from './Bundles';
import { Terms } from './Terms';
import { Floorplan } from './Floorplan';
import type { BookingConfig, GuestDetails, Slot } from './types';
import type { State } from './visit-state';

export type FieldErrors = Partial<Record<keyof GuestDetails, string>>;

/** What is wrong with the guest's details, by field (empty when nothing is). */
export function detailErrors(details: GuestDetails): FieldErrors {
  const errors: FieldErrors = {};
  if (!details.name.trim()) errors.name = 'Enter your name.';
  if (!isEmail(details.email)) errors.email = 'Enter an email address like name@example.com.';
  if (details.phone && !/^[+\d][\d\s()-]{5,}$/.test(details.phone.trim())) errors.phone = 'Enter a phone number, or leave it empty.';
  return errors;
}

export function DetailsStep(props: {
  config: BookingConfig;
  venueId: string;
  state: State;
  slot: Slot;
  busy: boolean;
  /** A new value loads the floor plan again. */
  planVersion: number;
  fieldErrors: FieldErrors;
  update: (changes: Partial<State>) => void;
  onToken: (token: string | null) => void;
  onChangeTime: () => void;
  onSubmit: (event: Event) => void;
}) {
  const { config, venueId, state, slot, busy, fieldErrors, update } = props;
  const [catalogue, setCatalogue] = useState<PublicBundle[]>([]);
  const extras = catalogue
    .filter((bundle) => (state.bundles?.[bundle.id] ?? 0) > 0)
    .map((bundle) => {
      const quantity = state.bundles[bundle.id];
      return { label: quantity > 1 ? `${bundle.name} × ${quantity}` : bundle.name, amount_pence: bundle.price_pence * quantity };
    });
  return (
    <form class="mw-step" onSubmit={props.onSubmit} noValidate>
      <p class="mw-summary">
        {dateLabel(state.date)} at {slot.time}, table for {state.partySize}{' '}
        <button type="button" class="mw-link" onClick={props.onChangeTime}>
          Change
        </button>
      </p>
      <Terms
        venueId={venueId}
        ruleId={slot.rule.id}
        date={state.date}
        time={slot.time}
        partySize={state.partySize}
        tableId={state.tableId}
        extras={extras}
      />
      {slot.rule.table_assignment_mode === 'guest_pick' ? (
        <Floorplan
          venueId={venueId}
          date={state.date}
          time={slot.time}
          partySize={state.partySize}
          ruleId={slot.rule.id}
          version={props.planVersion}
          value={state.tableId}
          onChange={(tableId) => update({ tableId })}
        />
      ) : null}
      {slot.rule.bundle_ids?.length ? (
        <Bundles
          venueId={venueId}
          offered={slot.rule.bundle_ids}
          value={state.bundles ?? {}}
          onChange={(bundles) => update({ bundles })}
          onLoaded={setCatalogue}
        />
      ) : null}
      <Field
        id="mw-name"
        label="Name"
        autocomplete="name"
        required
        value={state.details.name}
        error={fieldErrors.name}
        onValue={(value) => update({ details: { ...state.details, name: value } })}
      />
      <Field
        id="mw-email"
        label="Email"
        type="email"
        autocomplete="email"
        required
        value={state.details.email}
        error={fieldErrors.email}
        hint="We send your confirmation here."
        onValue={(value) => update({ details: { ...state.details, email: value } })}
      />
      <Field
        id="mw-phone"
        label="Phone (optional)"
        type="tel"
        autocomplete="tel"
        value={state.details.phone}
        error={fieldErrors.phone}
        onValue={(value) => update({ details: { ...state.details, phone: value } })}
      />
      <BotCheck siteKey={config.turnstile_site_key} onToken={props.onToken} />
      <button type="submit" class="mw-primary" disabled={busy} aria-busy={busy ? 'true' : undefined}>
        {busy ? 'Booking…' : 'Book'}
      </button>
    </form>
  );
}
