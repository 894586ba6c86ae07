/**
 * Vouchers (`/vouchers?venue=`): look a voucher up by its code (typed grouped or not) and redeem part or
 * all of it or refund what is left; issue a complimentary or paid voucher; the vouchers of the venue and
 * its sister venues, newest first; and the venue's voucher settings. Needs `vouchers` read; changes need
 * `vouchers` write (otherwise the page is read-only and says so).
 */
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useCan, useCurrentVenue } from '../shell/account';
import { LiveNotice } from '../shell/Notice';
import { IssueForm } from './IssueForm';
import { SettingsForm } from './SettingsForm';
import { VoucherCard } from './VoucherCard';
import {
  lookUp,
  messageOf,
  money,
  PAGE_SIZE,
  STATUS_WORDS,
  useRefreshVouchers,
  useVoucherList,
  useVoucherSettings,
  vouchersKey,
} from './data';
import './vouchers.css';

export default function VouchersPage() {
  const venue = useCurrentVenue();
  const can = useCan();
  if (!venue) return null;
  if (!can('vouchers', 'read'))
    return (
      <main className="page money" id="main">
        <h1>Vouchers</h1>
        <p>Your role may not see this venue’s vouchers.</p>
      </main>
    );
  return <Vouchers key={venue.id} venueId={venue.id} venueName={venue.name} canWrite={can('vouchers', 'write')} />;
}

function Vouchers({ venueId, venueName, canWrite }: { venueId: string; venueName: string; canWrite: boolean }) {
  const [code, setCode] = useState('');
  const [asked, setAsked] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const refresh = useRefreshVouchers(venueId);
  const lookup = useQuery({
    queryKey: [...vouchersKey(venueId), 'lookup', asked],
    queryFn: () => lookUp(venueId, asked!),
    enabled: asked !== null,
    // Look-ups are rate limited: read again only after a change here, not on focus.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    retry: false,
  });

  function find(event: FormEvent) {
    event.preventDefault();
    const typed = code.trim();
    if (!typed) return;
    setNote(null);
    if (typed === asked) void lookup.refetch();
    else setAsked(typed);
  }
  /** Shows a voucher in the look-up (from the list, or just issued). */
  const open = (voucherCode: string) => {
    setCode(voucherCode);
    setNote(null);
    setAsked(voucherCode);
  };

  return (
    <main className="page money" id="main">
      <header>
        <h1>Vouchers</h1>
        <p className="muted">{venueName} and its sister venues</p>
      </header>

      <section className="panel money__panel" aria-labelledby="lookup-title">
        <h2 id="lookup-title">Look up a voucher</h2>
        <form className="row-fields" onSubmit={find} role="search" aria-label="Voucher code">
          <div className="field">
            <label htmlFor="lookup-code">Code</label>
            <input
              id="lookup-code"
              className="code-input"
              value={code}
              maxLength={40}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              aria-describedby="lookup-code-hint"
              onChange={(e) => setCode(e.target.value)}
            />
            <small id="lookup-code-hint" className="muted">
              12 characters, with or without dashes
            </small>
          </div>
          <div className="field field--button">
            <button type="submit" className="button button--primary" disabled={lookup.isFetching}>
              Look up
            </button>
          </div>
        </form>
        <LiveNotice note={note} error={lookup.error && messageOf(lookup.error)}>
          {lookup.isFetching && !lookup.data && <p className="muted">Looking…</p>}
        </LiveNotice>
        {lookup.data && asked && (
          <VoucherCard
            venueId={venueId}
            lookup={lookup.data}
            canWrite={canWrite}
            onChanged={(text) => {
              setNote(text);
              void refresh();
            }}
          />
        )}
      </section>

      {canWrite && (
        <IssueForm
          venueId={venueId}
          onIssued={(issued) => {
            void refresh();
            open(issued);
          }}
        />
      )}

      <VoucherList venueId={venueId} onOpen={open} />

      <Settings venueId={venueId} canWrite={canWrite} />
    </main>
  );
}

function VoucherList({ venueId, onOpen }: { venueId: string; onOpen: (code: string) => void }) {
  const [offset, setOffset] = useState(0);
  const list = useVoucherList(venueId, offset);
  const total = list.data?.total ?? 0;
  return (
    <section className="panel money__panel" aria-labelledby="list-title">
      <h2 id="list-title">All vouchers</h2>
      {list.error && (
        <p className="error" role="alert">
          {messageOf(list.error)}
        </p>
      )}
      {list.isPending && <p className="muted">Loading…</p>}
      {list.data && list.data.data.length === 0 && <p>No vouchers yet.</p>}
      {list.data && list.data.data.length > 0 && (
        <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="list-title">
          <table className="money-table">
            <thead>
              <tr>
                <th scope="col">Code</th>
                <th scope="col">Venue</th>
                <th scope="col">Kind</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col" className="num">
                  Left
                </th>
                <th scope="col">Status</th>
                <th scope="col">For</th>
                <th scope="col">Last day</th>
                <th scope="col">Issued</th>
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((v) => (
                <tr key={v.id}>
                  <td>
                    <button
                      type="button"
                      className="link code"
                      onClick={() => {
                        onOpen(v.code);
                        document.getElementById('lookup-title')?.scrollIntoView();
                      }}
                      aria-label={`Open voucher ${v.display_code}`}
                    >
                      {v.display_code}
                    </button>
                  </td>
                  <td>{v.venue_name}</td>
                  <td>{v.mode === 'paid' ? 'Paid' : 'Comp'}</td>
                  <td className="num">{money(v.amount_pence)}</td>
                  <td className="num">{money(v.remaining_pence)}</td>
                  <td>
                    <span className={`status status--${v.status}`}>{STATUS_WORDS[v.status] ?? v.status}</span>
                  </td>
                  <td>{v.recipient_name ?? '—'}</td>
                  <td>{v.expires_at}</td>
                  <td>{v.created_at.slice(0, 10)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {total > PAGE_SIZE && (
        <nav className="pager" aria-label="Voucher pages">
          <button type="button" className="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
            Newer
          </button>
          <span>
            {offset + 1}–{Math.min(total, offset + PAGE_SIZE)} of {total}
          </span>
          <button type="button" className="button" disabled={offset + PAGE_SIZE >= total} onClick={() => setOffset(offset + PAGE_SIZE)}>
            Older
          </button>
        </nav>
      )}
    </section>
  );
}

function Settings({ venueId, canWrite }: { venueId: string; canWrite: boolean }) {
  const settings = useVoucherSettings(venueId);
  if (settings.error)
    return (
      <p className="error" role="alert">
        {messageOf(settings.error)}
      </p>
    );
  if (!settings.data) return <p className="muted">Loading the settings…</p>;
  return <SettingsForm venueId={venueId} settings={settings.data} canWrite={canWrite} />;
}
