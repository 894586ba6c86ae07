/**
 * The bookings widget: party size → date → time (→ table, when the guest may pick) → details → bot
 * check → deposit payment → confirmation with the door QR, a calendar file and the manage link.
 * What the guest entered lives in one state object kept for the visit (lib/visit.ts: this frame's
 * storage where allowed, else the host page's through the loader), so a taken slot, a declined card, a
 * lost connection or a reload never loses it; a booking awaiting payment is always finalised, also
 * after a reload.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { useVisit } from '../lib/visit';
import { api, ApiError, idempotencyKey } from '../lib/api';
import { announceBooked, askScrollTop } from '../lib/embed';
import { addDays, dateLabel } from '../lib/format';
import { DatePicker } from '../ui/DatePicker';
import { Payment } from '../ui/Payment';
import { Alert, LiveStatus, Shell } from '../ui/Shell';
import { Confirmation } from './Confirmation';
import { DetailsStep, detailErrors, type FieldErrors } from './DetailsStep';
import { GuestList } from './GuestList';
import { JoinWaitlist } from './JoinWaitlist';
import { openSlots, Slots } from './Slots';
import { Lines } from './Terms';
import type { Availability, BookingConfig, PendingBooking } from './types';
import { HORIZON_DAYS, initialState, type State, type Step } from './visit-state';

export function BookingsApp(props: { config: BookingConfig; publicId: string; venueId: string; today: string }) {
  const { config, venueId } = props;
  const base = `/api/public/venues/${encodeURIComponent(venueId)}`;
  const [state, setState] = useVisit<State>(
    `mw:bookings:${props.publicId}`,
    (saved) => initialState(config, props.today, saved),
    (restored) => resume(restored),
  );
  const update = (changes: Partial<State>) => setState((current) => ({ ...current, ...changes }));
  const [answer, setAnswer] = useState<Availability | null>(null);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<{ message: string; retry?: () => void } | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const today = props.today;

  const goTo = (step: Step, changes: Partial<State> = {}) => {
    update({ ...changes, step });
    setStatus('');
    askScrollTop();
    setTimeout(() => heading.current?.focus(), 0);
  };

  const search = useCallback(
    async (date: string, partySize: number, keepNotice = false) => {
      setBusy(true);
      if (!keepNotice) setError(null);
      try {
        const query = new URLSearchParams({ date, party_size: String(partySize), type: 'tables' });
        const result = await api<Availability>(`${base}/availability?${query}`);
        setAnswer(result);
        const open = result.slots.filter((slot) => slot.available).length;
        setStatus(
          result.party_too_large
            ? `Parties of ${partySize} cannot book online.`
            : open > 0
              ? `${open} times available on ${dateLabel(date)}.`
              : `No times available on ${dateLabel(date)}.`,
        );
      } catch (caught) {
        const failure = caught instanceof ApiError ? caught : new ApiError('failed', 'Something went wrong.', 0);
        setError({ message: failure.message, retry: () => void search(date, partySize) });
      } finally {
        setBusy(false);
      }
    },
    [base],
  );

  /** Picks the flow up where the visit was: fresh times, or the booking awaiting payment finalised. */
  function resume(visit: State) {
    if (visit.step === 'search') void search(visit.date, visit.partySize);
    if (visit.step === 'pay' && visit.pending?.paid) void finalize(visit.pending, visit, true);
  }

  useEffect(() => resume(state), []);

  async function finalize(pending: PendingBooking, visit: State, quiet = false) {
    setBusy(true);
    try {
      const result = await api<{ ok: boolean; status: string }>(`${base}/book/finalize`, {
        method: 'POST',
        body: { booking_id: pending.bookingId },
      });
      if (result.ok && result.status !== 'pending_payment' && result.status !== 'expired') {
        finished({ ...pending, status: result.status });
      } else if (result.status === 'expired') {
        setError({ message: 'The time to pay ran out and the table was released. Please choose a time again.' });
        goTo('search', { pending: null, slot: null, attemptKey: idempotencyKey() });
        void search(visit.date, visit.partySize, true);
      } else if (!quiet) {
        setError({ message: 'The payment has not gone through yet. Please try again.' });
      }
    } catch (caught) {
      if (!quiet)
        setError({
          message: caught instanceof ApiError ? caught.message : 'Something went wrong.',
          retry: () => void finalize(pending, visit),
        });
    } finally {
      setBusy(false);
    }
  }

  function finished(pending: PendingBooking) {
    announceBooked('table', pending.bookingId);
    goTo('done', { pending });
    setStatus('Your booking is confirmed.');
  }

  const [token, setToken] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  /** Bumped to make the floor plan load again (a picked table was taken). */
  const [planVersion, setPlanVersion] = useState(0);

  async function book(event: Event) {
    event.preventDefault();
    const errors = detailErrors(state.details);
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) {
      setStatus('Please correct the highlighted fields.');
      return;
    }
    setStatus('');
    if (config.turnstile_site_key && !token) {
      setError({ message: 'Please complete the check that you are not a robot.' });
      return;
    }
    if (!state.slot) return;
    const offered = state.slot.rule.bundle_ids ?? [];
    const chosenBundles = Object.entries(state.bundles ?? {})
      .filter(([id, quantity]) => quantity > 0 && offered.includes(id))
      .map(([bundle_id, quantity]) => ({ bundle_id, quantity }));
    setBusy(true);
    setError(null);
    try {
      const result = await api<{
        ok?: true;
        booking_id: string;
        status?: string;
        requires_payment?: true;
        payment_client_secret?: string;
        payment_intent_id?: string;
        amount_pence?: number;
        breakdown?: { label: string; amount_pence: number }[];
        reference?: string;
        manage_url?: string;
      }>(`${base}/book`, {
        method: 'POST',
        headers: { 'Idempotency-Key': state.attemptKey },
        body: {
          access_rule_id: state.slot.rule.id,
          rule_type: state.slot.rule.rule_type,
          date: state.date,
          time: state.slot.time,
          party_size: state.partySize,
          guest_name: state.details.name.trim(),
          guest_email: state.details.email.trim(),
          ...(state.details.phone.trim() ? { guest_phone: state.details.phone.trim() } : {}),
          ...(token ? { turnstile_token: token } : {}),
          ...(state.tableId ? { table_id: state.tableId } : {}),
          ...(chosenBundles.length > 0 ? { bundle_selections: chosenBundles } : {}),
        },
      });
      if (result.requires_payment && result.payment_intent_id && result.payment_client_secret) {
        goTo('pay', {
          pending: {
            bookingId: result.booking_id,
            intentId: result.payment_intent_id,
            clientSecret: result.payment_client_secret,
            amountPence: result.amount_pence,
            breakdown: result.breakdown,
            reference: result.reference,
            manageUrl: result.manage_url,
          },
        });
      } else {
        finished({ bookingId: result.booking_id, status: result.status, manageUrl: result.manage_url, reference: result.reference });
      }
    } catch (caught) {
      const failure = caught instanceof ApiError ? caught : new ApiError('failed', 'Something went wrong.', 0);
      if (failure.kind === 'conflict' && failure.body.reason === 'table_taken' && state.tableId) {
        // The picked table went meanwhile: keep everything, refresh the plan and ask for another.
        setError({ message: failure.message });
        update({ tableId: null, attemptKey: idempotencyKey() });
        setPlanVersion((version) => version + 1);
      } else if (failure.kind === 'conflict') {
        // The slot went meanwhile (or cannot be booked, in the API's words): keep the details, show
        // fresh times without the one refused.
        setError({ message: failure.message });
        goTo('search', { slot: null, tableId: null, attemptKey: idempotencyKey(), refused: `${state.slot.rule.id}|${state.slot.time}` });
        void search(state.date, state.partySize, true);
      } else if (failure.kind === 'busy') {
        setError({ message: failure.message });
        setTimeout(() => setError(null), Math.max(1, failure.retryAfterSeconds) * 1000);
      } else {
        setError({
          message: failure.message,
          retry: failure.kind === 'offline' || failure.kind === 'maintenance' ? () => void book(event) : undefined,
        });
      }
    } finally {
      setBusy(false);
    }
  }

  const [mode, setMode] = useState<'table' | 'guestlist'>(
    config.booking.tables_enabled || !config.booking.guest_list_enabled ? 'table' : 'guestlist',
  );
  const offersBoth = config.booking.tables_enabled && config.booking.guest_list_enabled;
  const headings: Record<Step, string> = {
    search: mode === 'guestlist' ? 'Join the guest list' : 'Book a table',
    details: 'Your details',
    pay: 'Pay the deposit',
    done: 'Booking confirmed',
  };
  const partyOptions: number[] = [];
  for (let n = Math.max(1, config.booking.default_party_min); n <= Math.max(config.booking.default_party_max, 1) + 1; n++)
    partyOptions.push(n);

  return (
    <Shell config={config} heading={headings[state.step]} showsTimes>
      <h2 class="mw-sr" tabindex={-1} ref={heading}>
        {headings[state.step]}
      </h2>
      <LiveStatus message={status} />
      <Alert message={error?.message ?? null} action={error?.retry ? { label: 'Try again', run: error.retry } : undefined} />

      {state.step === 'search' && offersBoth ? (
        <fieldset class="mw-mode">
          <legend>What would you like?</legend>
          <label class="mw-choice">
            <input
              type="radio"
              name="mw-mode"
              checked={mode === 'table'}
              onChange={() => {
                setMode('table');
                void search(state.date, state.partySize);
              }}
            />
            A table
          </label>
          <label class="mw-choice">
            <input
              type="radio"
              name="mw-mode"
              checked={mode === 'guestlist'}
              onChange={() => {
                setMode('guestlist');
                setStatus('');
              }}
            />
            The guest list
          </label>
        </fieldset>
      ) : null}

      {state.step === 'search' && mode === 'guestlist' ? <GuestList config={config} venueId={venueId} today={today} /> : null}

      {state.step === 'search' && mode === 'table' ? (
        <form
          class="mw-step"
          onSubmit={(event) => {
            event.preventDefault();
            void search(state.date, state.partySize);
          }}
        >
          <div class="mw-row">
            <div class="mw-field">
              <label for="mw-party">Guests</label>
              <select
                id="mw-party"
                value={state.partySize}
                onChange={(event) => {
                  const partySize = Number((event.target as HTMLSelectElement).value);
                  update({ partySize });
                  void search(state.date, partySize);
                }}
              >
                {partyOptions.map((n) => (
                  <option key={n} value={n}>
                    {n === partyOptions[partyOptions.length - 1] ? `${n}+` : n} {n === 1 ? 'guest' : 'guests'}
                  </option>
                ))}
              </select>
            </div>
            <DatePicker
              id="mw-date"
              label="Date"
              value={state.date}
              min={today}
              max={addDays(today, HORIZON_DAYS)}
              onChange={(date) => {
                update({ date });
                void search(date, state.partySize);
              }}
            />
          </div>
          {busy && !answer ? <p class="mw-hint">Looking for free tables…</p> : null}
          {answer ? (
            <Slots
              answer={answer}
              partySize={state.partySize}
              refused={state.refused ?? null}
              venuePhone={config.venue.phone}
              onDate={(date) => {
                update({ date });
                void search(date, state.partySize);
              }}
              onPick={(slot) => goTo('details', { slot, tableId: null, bundles: {}, refused: null })}
            />
          ) : null}
        </form>
      ) : null}
      {state.step === 'search' &&
      mode === 'table' &&
      answer &&
      !answer.party_too_large &&
      answer.slots.length > 0 &&
      openSlots(answer).length === 0 ? (
        // Nothing free that day for the party, but the venue is open: the guest can wait for a table.
        <JoinWaitlist
          key={`${answer.date}|${answer.party_size}`}
          venueId={venueId}
          date={answer.date}
          partySize={answer.party_size}
          times={[...new Set(answer.slots.map((slot) => slot.time))].sort()}
          siteKey={config.turnstile_site_key}
        />
      ) : null}

      {state.step === 'details' && state.slot ? (
        <DetailsStep
          config={config}
          venueId={venueId}
          state={state}
          slot={state.slot}
          busy={busy}
          planVersion={planVersion}
          fieldErrors={fieldErrors}
          update={update}
          onToken={setToken}
          onChangeTime={() => goTo('search', { slot: null })}
          onSubmit={(event) => void book(event)}
        />
      ) : null}

      {state.step === 'pay' && state.pending?.intentId && state.pending.clientSecret && config.publishable_key ? (
        <>
          <p class="mw-summary">
            {dateLabel(state.date)} at {state.slot?.time}, table for {state.partySize}. A deposit secures this booking.
          </p>
          {state.pending.breakdown?.length && state.pending.amountPence !== undefined ? (
            <Lines lines={state.pending.breakdown} total={state.pending.amountPence} />
          ) : null}
          <Payment
            publishableKey={config.publishable_key}
            clientSecret={state.pending.clientSecret}
            intentId={state.pending.intentId}
            amountPence={state.pending.amountPence}
            onPaid={() => {
              const paid = { ...state.pending!, paid: true };
              update({ pending: paid });
              void finalize(paid, state);
            }}
          />
        </>
      ) : null}

      {state.step === 'done' && state.pending ? (
        <Confirmation
          config={config}
          venueId={venueId}
          state={state}
          onAgain={() => goTo('search', { pending: null, slot: null, attemptKey: idempotencyKey() })}
        />
      ) : null}
    </Shell>
  );
}
