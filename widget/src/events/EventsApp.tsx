/**
 * The events widget: what's on (upcoming approved public events), an event's ticket types with what
 * is left, quantity, the buyer's details, bot check, payment, confirmation with the door QR. A purchase
 * awaiting payment is finalised after a reload; a declined card keeps every entry. Where the venue's group
 * sells memberships, a member signs in with a mailed code (the session lives in this page's memory only)
 * to see and pay the member price; others are offered the account app's membership page.
 * The list step is EventList.tsx; the ticket types are TicketChoice.tsx.
 */
import { useEffect, useState } from 'preact/hooks';
import { useVisit } from '../lib/visit';
import { api, ApiError, idempotencyKey } from '../lib/api';
import type { BaseConfig } from '../lib/config';
import { announceBooked, askScrollTop } from '../lib/embed';
import { dateLabel, isEmail, money } from '../lib/format';
import { BotCheck } from '../ui/BotCheck';
import { Field } from '../ui/Field';
import { Payment } from '../ui/Payment';
import { BookingQr } from '../ui/Qr';
import { Alert, LiveStatus, Shell } from '../ui/Shell';
import { SignIn, type GuestSession } from '../ui/SignIn';
import { EventList, type EventSummary } from './EventList';
import { TicketChoice, type TicketType } from './TicketChoice';

interface Options {
  event: EventSummary;
  ticket_types: TicketType[];
  policy: string;
  publishable_key: string | null;
}
interface State {
  step: 'list' | 'tickets' | 'pay' | 'done';
  eventId: string | null;
  ticketTypeId: string | null;
  quantity: number;
  name: string;
  email: string;
  attemptKey: string;
  /** `paid` once the card step succeeded: only then is finalize called (finalizing an unpaid intent releases the tickets). */
  purchase: { bookingId: string; intentId?: string; secret?: string; amount: number; status: string; paid?: boolean } | null;
}

export function EventsApp(props: { config: BaseConfig; publicId: string; venueId: string }) {
  const key = `mw:events:${props.publicId}`;
  const [state, setState] = useVisit<State>(
    key,
    (saved) =>
      saved ?? {
        step: 'list',
        eventId: null,
        ticketTypeId: null,
        quantity: 1,
        name: '',
        email: '',
        attemptKey: idempotencyKey(),
        purchase: null,
      },
    (restored) => resume(restored),
  );
  const update = (changes: Partial<State>) => setState((current) => ({ ...current, ...changes }));
  const [events, setEvents] = useState<EventSummary[] | null>(null);
  const [options, setOptions] = useState<Options | null>(null);
  const [error, setError] = useState<{ message: string; retry?: () => void } | null>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const [token, setToken] = useState<string | null>(null);
  const [member, setMember] = useState<GuestSession | null>(null);
  const [signingIn, setSigningIn] = useState(false);
  const [sellsMemberships, setSellsMemberships] = useState(false);
  const bearer = (session: GuestSession | null): Record<string, string> => (session ? { authorization: `Bearer ${session.token}` } : {});
  const [fieldErrors, setFieldErrors] = useState<{ name?: string; email?: string }>({});

  const loadEvents = () => {
    setError(null);
    api<{ events: EventSummary[] }>(`/api/public/venues/${encodeURIComponent(props.venueId)}/events-widget`)
      .then((answer) => {
        setEvents(answer.events);
        setStatus(answer.events.length === 0 ? 'No events are on sale right now.' : `${answer.events.length} upcoming events.`);
      })
      .catch((caught: unknown) =>
        setError({ message: caught instanceof ApiError ? caught.message : 'Events could not be loaded.', retry: loadEvents }),
      );
  };
  const loadOptions = (eventId: string, session = member) => {
    setError(null);
    api<Options>(`/api/public/events/${encodeURIComponent(eventId)}/booking-options`, { headers: bearer(session) })
      .then((answer) => {
        setOptions(answer);
        const first = answer.ticket_types.find((t) => !t.sold_out);
        setState((current) => ({
          ...current,
          ticketTypeId:
            current.ticketTypeId && answer.ticket_types.some((t) => t.id === current.ticketTypeId)
              ? current.ticketTypeId
              : (first?.id ?? null),
        }));
      })
      .catch((caught: unknown) =>
        setError({
          message: caught instanceof ApiError ? caught.message : 'Tickets could not be loaded.',
          retry: () => loadOptions(eventId),
        }),
      );
  };

  /** Picks the visit up where it was; a purchase awaiting payment is finalised first. */
  function resume(visit: State) {
    if (visit.step === 'list') loadEvents();
    if (visit.step === 'tickets' && visit.eventId) loadOptions(visit.eventId);
    if (visit.step === 'pay' && visit.purchase?.paid && visit.purchase.intentId && visit.eventId) {
      void finalize(visit.eventId, visit.purchase.intentId, true);
    }
  }
  useEffect(() => resume(state), []);
  // Whether the venue's group sells memberships: only then is a member sign-in offered.
  useEffect(() => {
    api<{ data: unknown[] }>(`/api/public/venues/${encodeURIComponent(props.venueId)}/membership-tiers`)
      .then((answer) => setSellsMemberships(answer.data.length > 0))
      .catch(() => setSellsMemberships(false));
  }, []);

  function memberSignedIn(session: GuestSession) {
    setMember(session);
    setSigningIn(false);
    update({ name: state.name.trim() ? state.name : session.name, email: session.email });
    if (state.eventId) loadOptions(state.eventId, session);
    setStatus(`Signed in as ${session.name || session.email}.`);
  }

  const open = (eventId: string) => {
    update({ step: 'tickets', eventId, ticketTypeId: null, quantity: 1 });
    // The list's count ("2 upcoming events.") belongs to the list: it does not follow the guest on.
    setStatus('');
    setOptions(null);
    loadOptions(eventId);
    askScrollTop();
  };

  async function buy(event: Event) {
    event.preventDefault();
    const errors: { name?: string; email?: string } = {};
    if (!state.name.trim()) errors.name = 'Enter your name.';
    if (!isEmail(state.email)) errors.email = 'Enter an email address like name@example.com.';
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0 || !state.eventId || !state.ticketTypeId) {
      setStatus('Please correct the highlighted fields.');
      return;
    }
    setStatus('');
    setBusy(true);
    setError(null);
    try {
      const result = await api<{
        booking_id: string;
        status: string;
        free?: boolean;
        requires_payment?: boolean;
        requires_confirmation?: boolean;
        payment_intent_id?: string;
        client_secret?: string;
        amount_pence: number;
      }>(`/api/public/events/${encodeURIComponent(state.eventId)}/create-intent`, {
        method: 'POST',
        headers: { 'Idempotency-Key': state.attemptKey, ...bearer(member) },
        body: {
          selection: { kind: 'ticket', ticket_type_id: state.ticketTypeId, quantity: state.quantity, party_size: state.quantity },
          guest_name: state.name.trim(),
          guest_email: state.email.trim(),
          ...(token ? { turnstile_token: token } : {}),
        },
      });
      const purchase = {
        bookingId: result.booking_id,
        intentId: result.payment_intent_id,
        secret: result.client_secret,
        amount: result.amount_pence,
        status: result.status,
      };
      if (result.requires_payment && result.payment_intent_id && result.client_secret) {
        update({ step: 'pay', purchase });
      } else {
        update({ step: 'done', purchase });
        announceBooked('event', result.booking_id);
        setStatus(result.requires_confirmation ? 'Request sent: the venue will confirm.' : 'Your tickets are booked.');
      }
      askScrollTop();
    } catch (caught) {
      const failure = caught instanceof ApiError ? caught : new ApiError('failed', 'Something went wrong.', 0);
      if (failure.kind === 'conflict') {
        setError({ message: 'Those tickets have just sold. Here is what is left.' });
        update({ attemptKey: idempotencyKey() });
        loadOptions(state.eventId);
      } else {
        setError({ message: failure.message });
      }
    } finally {
      setBusy(false);
    }
  }

  async function finalize(eventId: string, intentId: string, quiet = false) {
    setBusy(true);
    try {
      const result = await api<{ success: boolean; booking_id: string; status: string }>(
        `/api/public/events/${encodeURIComponent(eventId)}/finalize`,
        {
          method: 'POST',
          body: { payment_intent_id: intentId },
        },
      );
      if (result.success && result.status !== 'pending_payment') {
        setState((current) => ({
          ...current,
          step: 'done',
          purchase: current.purchase ? { ...current.purchase, status: result.status } : null,
        }));
        announceBooked('event', result.booking_id);
        setStatus('Your tickets are booked.');
        askScrollTop();
      } else if (result.status === 'expired') {
        setError({ message: 'The time to pay ran out and the tickets were released. Please choose again.' });
        update({ step: 'tickets', purchase: null, attemptKey: idempotencyKey() });
        loadOptions(eventId);
      } else if (!quiet) {
        setError({ message: 'The payment has not gone through yet. Please try again.' });
      }
    } catch (caught) {
      if (!quiet)
        setError({
          message: caught instanceof ApiError ? caught.message : 'Something went wrong.',
          retry: () => void finalize(eventId, intentId),
        });
    } finally {
      setBusy(false);
    }
  }

  const chosen = options?.ticket_types.find((t) => t.id === state.ticketTypeId);
  const priceOf = (ticket: TicketType) => ticket.member_price_pence ?? ticket.price_pence;
  const memberPrices = options?.ticket_types.some((t) => t.member_price_pence !== null && t.member_price_pence < t.price_pence);
  const maxQuantity = Math.max(1, Math.min(chosen?.max_per_order ?? 10, chosen?.remaining ?? Infinity));

  return (
    <Shell config={props.config} heading={state.step === 'list' ? "What's on" : (options?.event.name ?? 'Tickets')} showsTimes>
      <LiveStatus message={status} />
      <Alert message={error?.message ?? null} action={error?.retry ? { label: 'Try again', run: error.retry } : undefined} />
      {state.step === 'list' ? <EventList events={events} onOpen={open} /> : null}

      {state.step === 'tickets' && signingIn ? (
        <section class="mw-step">
          <button type="button" class="mw-link" onClick={() => setSigningIn(false)}>
            Back to the tickets
          </button>
          <SignIn
            heading="Member sign-in"
            hint="We email you a code: no password needed. Once signed in, you see and pay your member price."
            onSignedIn={memberSignedIn}
          />
        </section>
      ) : null}

      {state.step === 'tickets' && !signingIn ? (
        <form class="mw-step" onSubmit={(event) => void buy(event)} noValidate>
          <button
            type="button"
            class="mw-link"
            onClick={() => {
              update({ step: 'list' });
              if (!events) loadEvents();
            }}
          >
            All events
          </button>
          {!options ? (
            <p class="mw-hint">Loading tickets…</p>
          ) : (
            <>
              <p class="mw-summary">
                {dateLabel(options.event.event_date)}
                {options.event.start_time ? `, ${options.event.start_time}` : ''}
              </p>
              <TicketChoice
                ticketTypes={options.ticket_types}
                chosenId={state.ticketTypeId}
                onChoose={(id) => update({ ticketTypeId: id, quantity: 1 })}
              />
              {member ? (
                <p class="mw-hint">
                  {memberPrices ? 'Your member prices are shown.' : 'You are signed in; no member price applies to you at this venue.'}
                </p>
              ) : sellsMemberships ? (
                <p class="mw-hint">
                  Member?{' '}
                  <button type="button" class="mw-link" onClick={() => setSigningIn(true)}>
                    Sign in for your member price
                  </button>
                  . Not yet?{' '}
                  <a href={`/account?venue=${encodeURIComponent(props.venueId)}#memberships`} target="_blank" rel="noopener noreferrer">
                    Become a member
                  </a>
                  .
                </p>
              ) : null}
              <div class="mw-field">
                <label for="mw-qty">How many</label>
                <select
                  id="mw-qty"
                  value={state.quantity}
                  onChange={(e) => update({ quantity: Number((e.target as HTMLSelectElement).value) })}
                >
                  {Array.from({ length: maxQuantity }, (_, i) => i + 1).map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </select>
              </div>
              <Field
                id="mw-name"
                label="Name"
                autocomplete="name"
                value={state.name}
                error={fieldErrors.name}
                onValue={(value) => update({ name: value })}
              />
              <Field
                id="mw-email"
                label="Email"
                type="email"
                autocomplete="email"
                value={state.email}
                error={fieldErrors.email}
                onValue={(value) => update({ email: value })}
              />
              {options.policy ? <p class="mw-hint">{options.policy}</p> : null}
              <BotCheck siteKey={props.config.turnstile_site_key} onToken={setToken} />
              <button type="submit" class="mw-primary" disabled={busy || !chosen || chosen.sold_out}>
                {busy
                  ? 'Please wait…'
                  : chosen && priceOf(chosen) > 0
                    ? `Continue: ${money(priceOf(chosen) * state.quantity)}`
                    : 'Book free tickets'}
              </button>
            </>
          )}
        </form>
      ) : null}

      {state.step === 'pay' &&
      state.purchase?.intentId &&
      state.purchase.secret &&
      (options?.publishable_key ?? props.config.publishable_key) ? (
        <Payment
          publishableKey={(options?.publishable_key ?? props.config.publishable_key)!}
          clientSecret={state.purchase.secret}
          intentId={state.purchase.intentId}
          amountPence={state.purchase.amount}
          onPaid={() => {
            update({ purchase: { ...state.purchase!, paid: true } });
            void finalize(state.eventId!, state.purchase!.intentId!);
          }}
        />
      ) : null}

      {state.step === 'done' && state.purchase ? (
        <section class="mw-step mw-done">
          <p class="mw-summary">
            <span aria-hidden="true">✓ </span>
            {state.purchase.status === 'pending'
              ? 'Your request is with the venue; we will email you when it is confirmed.'
              : `Booked. Your tickets are on their way to ${state.email}.`}
          </p>
          {state.purchase.status !== 'pending' ? <BookingQr venueId={props.venueId} bookingId={state.purchase.bookingId} /> : null}
          <button
            type="button"
            class="mw-link"
            onClick={() => {
              update({ step: 'list', purchase: null, attemptKey: idempotencyKey() });
              loadEvents();
            }}
          >
            See other events
          </button>
        </section>
      ) : null}
    </Shell>
  );
}
