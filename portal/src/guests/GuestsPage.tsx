/**
 * The guest roster (`/guests`): search as you type (name, email, phone or its last digits; debounced,
 * `GET /api/my-guests/search`), or the whole roster latest seen first, narrowed by tag and last seen
 * (`GET /api/my-guests?tag=&seen_since=&seen_before=`, cursor paging with "Load more"). The search, tag
 * and last-seen choice live in the URL. A walk-in record can be added here with `guests` write.
 */
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { Button, Input, Label, ListBox, ListBoxItem, Popover, SearchField, Select, SelectValue, Text } from 'react-aria-components';
import { useCan, useCurrentVenue } from '../shell/account';
import { isWalkIn, messageOf, SEEN_CHOICES, useGuestSearch, useRoster, type Guest, type Seen } from './data';
import { WalkInDialog } from './WalkInDialog';
import './guests.css';

export interface GuestsSearch {
  venue?: string;
  q?: string;
  tag?: string;
  seen?: Seen;
  /** What an erasure did, shown once the roster opens after it. */
  erased?: string;
}

const DEBOUNCE_MS = 300;

export default function GuestsPage() {
  const can = useCan();
  const venue = useCurrentVenue();
  const search = useSearch({ strict: false }) as GuestsSearch;
  const navigate = useNavigate();
  const q = search.q ?? '';
  const tag = search.tag ?? '';
  const seen = search.seen ?? 'any';
  const [text, setText] = useState(q);
  const [tagText, setTagText] = useState(tag);
  const [walkIn, setWalkIn] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const searching = q.trim().length >= 2;

  const update = (changes: Partial<GuestsSearch>) =>
    void navigate({
      to: '/guests',
      search: (prev: GuestsSearch) => {
        const next = { ...prev, ...changes };
        return {
          venue: next.venue,
          q: next.q || undefined,
          tag: next.tag || undefined,
          seen: next.seen && next.seen !== 'any' ? next.seen : undefined,
        };
      },
      replace: true,
    });
  // Search as you type: the URL (and so the request) follows the box once typing pauses.
  const latest = useRef(update);
  latest.current = update;
  useEffect(() => {
    if (text === q) return;
    const timer = setTimeout(() => latest.current({ q: text.trim() }), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, q]);
  useEffect(() => {
    if (tagText.trim() === tag) return;
    const timer = setTimeout(() => latest.current({ tag: tagText.trim() }), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [tagText, tag]);

  const found = useGuestSearch(q);
  const roster = useRoster({ tag, seen }, !searching && can('guests', 'read'));
  const rows: Guest[] = searching ? (found.data?.data ?? []) : (roster.data?.pages.flatMap((page) => page.data) ?? []);
  const loading = searching ? found.isPending : roster.isPending;
  const error = searching ? found.error : roster.error;
  const filtered = Boolean(tag) || seen !== 'any';

  if (!can('guests', 'read'))
    return (
      <main className="page guests" id="main">
        <h1>Guests</h1>
        <p className="notice">Your role cannot see guests.</p>
      </main>
    );

  return (
    <main className="page guests" id="main">
      <div className="guests__head">
        <h1>Guests</h1>
        {can('guests', 'write') && venue && (
          <Button className="button" onPress={() => setWalkIn(true)}>
            Add a walk-in record
          </Button>
        )}
      </div>
      {(notice ?? search.erased) && (
        <p className="notice notice--ok" role="status">
          {notice ?? search.erased}
        </p>
      )}

      <section className="panel guests__filters" aria-label="Find guests">
        <SearchField className="field guests__search" value={text} onChange={setText} onClear={() => update({ q: '' })}>
          <Label>Search</Label>
          <Input placeholder="Name, email or phone" />
          <Text slot="description" className="muted">
            At least 2 characters. The last digits of a phone number work too.
          </Text>
        </SearchField>
        <div className="field guests__tag">
          <label htmlFor="guests-tag">Tag</label>
          <input
            id="guests-tag"
            value={tagText}
            onChange={(event) => setTagText(event.target.value)}
            disabled={searching}
            placeholder="e.g. VIP"
            aria-describedby={searching ? 'guests-filters-note' : undefined}
          />
        </div>
        <Select
          className="field guests__seen"
          selectedKey={seen}
          onSelectionChange={(key) => update({ seen: key as Seen })}
          isDisabled={searching}
          aria-describedby={searching ? 'guests-filters-note' : undefined}
        >
          <Label>Last seen</Label>
          <Button className="button guests__select">
            <SelectValue />
            <span aria-hidden="true"> ▾</span>
          </Button>
          <Popover>
            <ListBox items={SEEN_CHOICES} className="menu">
              {(item) => (
                <ListBoxItem id={item.id} className="menu__item">
                  {item.label}
                </ListBoxItem>
              )}
            </ListBox>
          </Popover>
        </Select>
        {searching && (
          <p id="guests-filters-note" className="muted guests__note">
            A search looks through every guest: the tag and last-seen filters apply to the full list.
          </p>
        )}
        {!searching && (
          <p className="muted guests__note">
            Last seen: the guest’s latest booking, ticket, voucher, walk-in record or tag at your venues.
          </p>
        )}
      </section>

      <section aria-labelledby="guests-results" className="guests__results">
        <h2 id="guests-results" className="guests__count" aria-live="polite">
          {loading
            ? 'Loading guests…'
            : searching
              ? `${rows.length === 50 ? 'The first 50' : rows.length} ${rows.length === 1 ? 'guest matches' : 'guests match'} “${q}”`
              : `${rows.length}${roster.hasNextPage ? '+' : ''} ${rows.length === 1 ? 'guest' : 'guests'}${filtered ? ' (filtered)' : ''}`}
        </h2>
        {error && (
          <p className="error" role="alert">
            {messageOf(error)}
          </p>
        )}
        {!loading && rows.length === 0 && !error && (
          <p className="muted">
            {searching
              ? 'No guest matches: try part of the name, the email or the phone.'
              : filtered
                ? 'No guest matches these filters.'
                : 'No guests yet.'}
          </p>
        )}
        {rows.length > 0 && (
          <div className="table-scroll">
            <table className="guests__table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Phone</th>
                  <th scope="col" className="num">
                    Visits
                  </th>
                  <th scope="col" className="num">
                    Loyalty points
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((guest) => (
                  <tr key={guest.id}>
                    <th scope="row">
                      <Link to="/guests/$guestId" params={{ guestId: guest.id }} search={{ venue: search.venue }}>
                        {guest.name}
                      </Link>
                    </th>
                    <td>{isWalkIn(guest.email) ? <span className="muted">Walk-in record (no email)</span> : guest.email}</td>
                    <td className="nowrap">{guest.phone || <span className="muted">—</span>}</td>
                    <td className="num">{guest.successful_visits}</td>
                    <td className="num">{guest.loyalty_points}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {!searching && roster.hasNextPage && (
          <Button className="button" isDisabled={roster.isFetchingNextPage} onPress={() => void roster.fetchNextPage()}>
            {roster.isFetchingNextPage ? 'Loading…' : 'Load more guests'}
          </Button>
        )}
      </section>

      {walkIn && venue && (
        <WalkInDialog
          venue={venue}
          onClose={() => setWalkIn(false)}
          onDone={(name) => {
            setWalkIn(false);
            setNotice(`${name} was added as a walk-in record at ${venue.name}.`);
          }}
        />
      )}
    </main>
  );
}
