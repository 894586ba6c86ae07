/**
 * The waitlist (`/waitlist?venue=`): today's walk-in list in line order with each party's quoted wait and
 * its wait from the floor now, adding a party (quoted before it is added), telling a party their table is
 * ready, seating it (a walk-in booking on the best free tables) and taking it off the list; and the
 * online list with each guest's window and the open offer. Needs `bookings` read; changes need write.
 */
import { useState, type FormEvent } from 'react';
import { useCan, useCurrentVenue } from '../shell/account';
import { LiveNotice } from '../shell/Notice';
import {
  addWalkIn,
  messageOf,
  notify,
  quote,
  remove,
  seat,
  STATUS_WORDS,
  useRefreshWaitlist,
  useWaitlist,
  waitWords,
  type Entry,
} from './data';
import './waitlist.css';

export default function WaitlistPage() {
  const venue = useCurrentVenue();
  const can = useCan();
  if (!venue) return null;
  if (!can('bookings', 'read'))
    return (
      <main className="page waitlist" id="main">
        <h1>Waitlist</h1>
        <p>Your role may not see this venue’s bookings.</p>
      </main>
    );
  return <Waitlist key={venue.id} venueId={venue.id} venueName={venue.name} canWrite={can('bookings', 'write')} />;
}

function Waitlist({ venueId, venueName, canWrite }: { venueId: string; venueName: string; canWrite: boolean }) {
  const list = useWaitlist(venueId);
  const refresh = useRefreshWaitlist(venueId);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const walkIns = list.data?.filter((e) => e.kind === 'walk_in') ?? [];
  const online = list.data?.filter((e) => e.kind === 'online') ?? [];

  async function act(entry: Entry, label: string, run: () => Promise<unknown>, done: string) {
    setBusy(`${entry.id}:${label}`);
    setError(null);
    setNote(null);
    try {
      await run();
      setNote(done);
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(null);
      void refresh();
    }
  }

  return (
    <main className="page waitlist" id="main">
      <header>
        <h1>Waitlist</h1>
        <p className="muted">{venueName}, today</p>
      </header>
      <LiveNotice note={note} error={error} />

      {canWrite && (
        <AddParty
          venueId={venueId}
          onAdded={(text) => {
            setNote(text);
            void refresh();
          }}
        />
      )}

      <section className="panel" aria-labelledby="walk-ins-title">
        <h2 id="walk-ins-title">Walk-ins</h2>
        {list.error && (
          <p className="error" role="alert">
            {messageOf(list.error)}
          </p>
        )}
        {list.isPending && <p className="muted">Loading…</p>}
        {list.data && walkIns.length === 0 && <p>Nobody is waiting.</p>}
        {walkIns.length > 0 && (
          <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="walk-ins-title">
            <table className="waitlist-table">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Name</th>
                  <th scope="col" className="num">
                    Party
                  </th>
                  <th scope="col">Quoted</th>
                  <th scope="col">Wait now</th>
                  <th scope="col">Waited</th>
                  <th scope="col">Status</th>
                  {canWrite && <th scope="col">Actions</th>}
                </tr>
              </thead>
              <tbody>
                {walkIns.map((entry) => (
                  <tr key={entry.id}>
                    <td>{entry.position}</td>
                    <td>
                      {entry.guest_name}
                      {entry.guest_phone && <small className="muted"> {entry.guest_phone}</small>}
                      {entry.notes && <small className="muted waitlist__notes">{entry.notes}</small>}
                    </td>
                    <td className="num">{entry.party_size}</td>
                    <td>{waitWords(entry.quoted_minutes)}</td>
                    <td>{waitWords(entry.estimated_minutes)}</td>
                    <td>{entry.waited_minutes} min</td>
                    <td>{STATUS_WORDS[entry.status] ?? entry.status}</td>
                    {canWrite && (
                      <td className="waitlist__actions">
                        <button
                          type="button"
                          className="button"
                          disabled={busy !== null}
                          aria-label={`Notify ${entry.guest_name}`}
                          onClick={() =>
                            void act(entry, 'notify', () => notify(venueId, entry.id), `${entry.guest_name} was told their table is ready.`)
                          }
                        >
                          Notify
                        </button>
                        <button
                          type="button"
                          className="button button--primary"
                          disabled={busy !== null}
                          aria-label={`Seat ${entry.guest_name}`}
                          onClick={() => void act(entry, 'seat', () => seat(venueId, entry.id), `${entry.guest_name} is seated.`)}
                        >
                          Seat
                        </button>
                        <button
                          type="button"
                          className="button"
                          disabled={busy !== null}
                          aria-label={`Remove ${entry.guest_name}`}
                          onClick={() =>
                            void act(
                              entry,
                              'remove',
                              () => remove(venueId, entry.id, entry.status === 'notified'),
                              `${entry.guest_name} is off the list.`,
                            )
                          }
                        >
                          {entry.status === 'notified' ? 'No-show' : 'Remove'}
                        </button>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section className="panel" aria-labelledby="online-title">
        <h2 id="online-title">Online waitlist</h2>
        <p className="muted">
          Guests waiting for a full date. A freed table is offered to the first in line it fits, by mail, for a limited time.
        </p>
        {list.data && online.length === 0 && <p>Nobody is waiting online for today.</p>}
        {online.length > 0 && (
          <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="online-title">
            <table className="waitlist-table">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Name</th>
                  <th scope="col" className="num">
                    Party
                  </th>
                  <th scope="col">Window</th>
                  <th scope="col">Status</th>
                  <th scope="col">Offer</th>
                  {canWrite && <th scope="col">Actions</th>}
                </tr>
              </thead>
              <tbody>
                {online.map((entry) => (
                  <tr key={entry.id}>
                    <td>{entry.position}</td>
                    <td>
                      {entry.guest_name}
                      {entry.guest_email && <small className="muted"> {entry.guest_email}</small>}
                    </td>
                    <td className="num">{entry.party_size}</td>
                    <td>
                      {entry.time_from}–{entry.time_to}
                    </td>
                    <td>{STATUS_WORDS[entry.status] ?? entry.status}</td>
                    <td>
                      {entry.offer
                        ? `${entry.offer.time}, until ${new Date(entry.offer.expires_at).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })}`
                        : entry.offers_made > 0
                          ? `${entry.offers_made} made`
                          : '—'}
                    </td>
                    {canWrite && (
                      <td>
                        {entry.status !== 'accepting' && (
                          <button
                            type="button"
                            className="button"
                            disabled={busy !== null}
                            aria-label={`Remove ${entry.guest_name}`}
                            onClick={() =>
                              void act(entry, 'remove', () => remove(venueId, entry.id, false), `${entry.guest_name} is off the list.`)
                            }
                          >
                            Remove
                          </button>
                        )}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </main>
  );
}

function AddParty({ venueId, onAdded }: { venueId: string; onAdded: (text: string) => void }) {
  const [name, setName] = useState('');
  const [party, setParty] = useState('2');
  const [phone, setPhone] = useState('');
  const [notes, setNotes] = useState('');
  const [quoted, setQuoted] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const size = Number(party);
  const validSize = Number.isInteger(size) && size >= 1 && size <= 100;

  async function ask() {
    if (!validSize) return;
    setError(null);
    try {
      const answer = await quote(venueId, size);
      setQuoted(`Quoted wait for ${size}: ${waitWords(answer.minutes)}`);
    } catch (caught) {
      setError(messageOf(caught));
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!validSize) {
      setError('Party size must be a whole number from 1 to 100.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const added = await addWalkIn(venueId, {
        party_size: size,
        guest_name: name,
        ...(phone.trim() ? { guest_phone: phone.trim() } : {}),
        ...(notes.trim() ? { notes: notes.trim() } : {}),
      });
      onAdded(`${name} added, quoted ${waitWords(added.quoted_minutes)}.`);
      setName('');
      setPhone('');
      setNotes('');
      setQuoted(null);
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="panel" aria-labelledby="add-title">
      <h2 id="add-title">Add a walk-in</h2>
      <form className="row-fields" onSubmit={(event) => void submit(event)}>
        <div className="field">
          <label htmlFor="wl-name">Name</label>
          <input id="wl-name" value={name} required maxLength={200} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="wl-party">Party</label>
          <input
            id="wl-party"
            inputMode="numeric"
            value={party}
            required
            onChange={(e) => {
              setParty(e.target.value);
              setQuoted(null);
            }}
            onBlur={() => void ask()}
          />
        </div>
        <div className="field">
          <label htmlFor="wl-phone">Phone (for a text when the table is ready)</label>
          <input id="wl-phone" type="tel" value={phone} maxLength={40} onChange={(e) => setPhone(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="wl-notes">Notes</label>
          <input id="wl-notes" value={notes} maxLength={1000} onChange={(e) => setNotes(e.target.value)} />
        </div>
        <div className="field field--button">
          <button type="button" className="button" onClick={() => void ask()} disabled={!validSize}>
            Quote
          </button>
        </div>
        <div className="field field--button">
          <button type="submit" className="button button--primary" disabled={busy}>
            Add to the list
          </button>
        </div>
      </form>
      <LiveNotice error={error}>{quoted && <p role="status">{quoted}</p>}</LiveNotice>
    </section>
  );
}
