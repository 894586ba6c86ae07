/**
 * Memberships: the guest's own (tier, venue group, until when, renew), and the tiers on offer at the venue
 * the guest came from (`?venue=` in the address: the events widget's "Become a member" link) and at the
 * venues of their bookings. Buying goes through the payment provider's checkout page, which sends the guest
 * back here with `membership=paid`; the provider's webhook starts the membership, so the screen re-reads a
 * few times until it shows.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../lib/api';
import { money } from '../lib/format';
import { Alert } from '../ui/Shell';
import type { MyBooking } from './Bookings';
import { meApi, type Session } from './session';

interface Tier {
  id: string;
  name: string;
  description: string;
  price_pence: number;
  period: 'monthly' | 'yearly' | 'days';
  period_days: number | null;
  perks: string[];
  ticket_discount_pct: number;
}

interface Membership {
  id: string;
  operator_name: string;
  tier: Tier;
  started_at: string;
  expires_at: string;
  active: boolean;
}

/** A tier on offer and the venue it is bought through (the guest joins that venue's list on payment). */
interface Offer {
  tier: Tier;
  venue: { id: string; name: string };
}

const RETURN_PATH_SCREEN = '#memberships';
/** How often and how long the return page waits for the provider's webhook (a real one takes seconds). */
const POLL_MS = 1000;
const POLL_TRIES = 10;

function periodWords(tier: Pick<Tier, 'period' | 'period_days'>): string {
  if (tier.period === 'monthly') return 'a month';
  if (tier.period === 'yearly') return 'a year';
  return tier.period_days === 1 ? 'for 1 day' : `for ${tier.period_days ?? 0} days`;
}

/** The date part of an instant, as the guest reads it (their own clock). */
const day = (instant: string) =>
  new Date(instant).toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });

/** null for an answer the API gave (the caller goes on without it); no answer at all is thrown on. */
const onlyRefusals = (caught: unknown): null => {
  if (caught instanceof ApiError && caught.kind !== 'offline') return null;
  throw caught;
};

/** The venues to offer tiers of: the one in the address first, then those of the guest's bookings. */
async function venuesToOffer(session: Session, fromAddress: string | null): Promise<string[]> {
  const venues = new Set<string>(fromAddress ? [fromAddress] : []);
  // The bookings only add venues to offer: without them (the API refused), the address's venue is still offered.
  // No answer at all (offline) is an error the screen shows.
  const bookings = await meApi<{ upcoming: MyBooking[]; past: MyBooking[] }>(session, '/api/me/bookings').catch(onlyRefusals);
  for (const b of [...(bookings?.upcoming ?? []), ...(bookings?.past ?? [])]) venues.add(b.venue.id);
  return [...venues].slice(0, 10);
}

async function loadOffers(session: Session, fromAddress: string | null): Promise<Offer[]> {
  const lists = await Promise.all(
    (await venuesToOffer(session, fromAddress)).map(async (venueId) => {
      // A venue that is not live (any more) sells nothing: left out (404). Anything else is an error the screen shows.
      const answer = await api<{ venue: Offer['venue']; data: Tier[] }>(
        `/api/public/venues/${encodeURIComponent(venueId)}/membership-tiers`,
      ).catch((caught: unknown) => {
        if (caught instanceof ApiError && caught.kind === 'not_found') return null;
        throw caught;
      });
      return (answer?.data ?? []).map((tier) => ({ tier, venue: answer!.venue }));
    }),
  );
  // A venue group's tiers are the same at each of its venues: offered once, through the first venue.
  const seen = new Set<string>();
  return lists.flat().filter((offer) => !seen.has(offer.tier.id) && seen.add(offer.tier.id));
}

export function Memberships(props: { session: Session; onStatus: (message: string) => void }) {
  const params = new URLSearchParams(location.search);
  const fromAddress = params.get('venue');
  const outcome = params.get('membership');
  const [mine, setMine] = useState<Membership[] | null>(null);
  const [offers, setOffers] = useState<Offer[] | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const loadMine = () =>
    meApi<{ data: Membership[] }>(props.session, '/api/me/memberships').then((answer) => {
      setMine(answer.data);
      return answer.data;
    });

  const load = () => {
    setError(null);
    const failed = (caught: unknown) => setError(caught instanceof ApiError ? caught.message : 'Your memberships could not be loaded.');
    loadMine()
      .then(async (memberships) => {
        // Back from a paid checkout: the webhook may land a moment later; re-read until the purchase shows.
        const purchase = params.get('purchase');
        if (outcome === 'paid' && purchase) {
          let latest = memberships;
          for (let tries = 0; tries < POLL_TRIES && !latest.some((m) => m.active); tries += 1) {
            await new Promise((resolve) => setTimeout(resolve, POLL_MS));
            latest = await loadMine();
          }
          const running = latest.find((m) => m.active);
          if (running) props.onStatus(`You are a ${running.tier.name} member until ${day(running.expires_at)}.`);
        }
      })
      .catch(failed);
    loadOffers(props.session, fromAddress)
      .then((found) => {
        setOffers(found);
        setChosen((current) => current ?? found[0]?.tier.id ?? null);
      })
      .catch(failed);
  };
  useEffect(load, []);

  async function buy(offer: Offer) {
    setBusy(true);
    setError(null);
    try {
      const back = `/account${fromAddress ? `?venue=${encodeURIComponent(fromAddress)}` : ''}${RETURN_PATH_SCREEN}`;
      const answer = await meApi<{ checkout_url: string }>(props.session, '/api/me/memberships', {
        method: 'POST',
        body: { tier_id: offer.tier.id, venue_id: offer.venue.id, return_path: back },
      });
      location.assign(answer.checkout_url);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'The purchase could not be started. Please try again.');
      setBusy(false);
    }
  }

  function submit(event: Event) {
    event.preventDefault();
    const offer = offers?.find((o) => o.tier.id === chosen);
    if (offer) void buy(offer);
  }

  if (!mine)
    return error ? <Alert message={error} action={{ label: 'Try again', run: load }} /> : <p class="mw-hint">Loading your memberships…</p>;
  const running = new Set(mine.filter((m) => m.active).map((m) => m.tier.id));
  const offer = offers?.find((o) => o.tier.id === chosen);
  return (
    <>
      <Alert message={error} />
      {outcome === 'paid' && running.size === 0 ? (
        <p>Thank you: your payment went through. Your membership shows here as soon as it is confirmed.</p>
      ) : null}
      {outcome === 'cancelled' ? <p>The membership was not paid: nothing was charged.</p> : null}
      {mine.length === 0 ? (
        <p>You are not a member anywhere yet.</p>
      ) : (
        <ul class="mw-list">
          {mine.map((m) => (
            <li class="mw-card" key={m.id} aria-labelledby={`mw-membership-${m.id}`}>
              <h3 id={`mw-membership-${m.id}`}>
                {m.tier.name} · {m.operator_name}
              </h3>
              <p class="mw-summary">
                {m.active ? `Member until ${day(m.expires_at)}` : `Ended ${day(m.expires_at)}`}
                {m.active ? '' : ' (not active)'}
              </p>
              <Benefits tier={m.tier} />
            </li>
          ))}
        </ul>
      )}
      <h2 class="mw-section">Join or renew</h2>
      {offers === null ? (
        <p class="mw-hint">Loading the memberships on offer…</p>
      ) : offers.length === 0 ? (
        <p>None of the venues you have booked with sells memberships yet.</p>
      ) : (
        <form class="mw-step" onSubmit={submit}>
          <fieldset>
            <legend>Memberships on offer</legend>
            {offers.map((o) => (
              <label class="mw-choice" key={o.tier.id}>
                <input type="radio" name="mw-tier" checked={chosen === o.tier.id} onChange={() => setChosen(o.tier.id)} />
                <span>
                  {o.tier.name} at {o.venue.name}: {money(o.tier.price_pence)} {periodWords(o.tier)}
                  {o.tier.ticket_discount_pct > 0 ? `, ${o.tier.ticket_discount_pct}% off tickets` : ''}
                  {running.has(o.tier.id) ? ' (renews yours)' : ''}
                </span>
              </label>
            ))}
          </fieldset>
          {offer ? (
            <>
              {offer.tier.description ? <p>{offer.tier.description}</p> : null}
              <Benefits tier={offer.tier} />
            </>
          ) : null}
          <button type="submit" class="mw-primary" disabled={busy || !offer}>
            {busy
              ? 'Opening the payment page…'
              : offer
                ? `${running.has(offer.tier.id) ? 'Renew' : 'Join'}: pay ${money(offer.tier.price_pence)}`
                : 'Choose a membership'}
          </button>
        </form>
      )}
    </>
  );
}

function Benefits(props: { tier: Tier }) {
  const items = [
    ...(props.tier.ticket_discount_pct > 0 ? [`${props.tier.ticket_discount_pct}% off event tickets`] : []),
    ...props.tier.perks,
  ];
  if (items.length === 0) return null;
  return (
    <ul class="mw-perks" aria-label={`What ${props.tier.name} members get`}>
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}
