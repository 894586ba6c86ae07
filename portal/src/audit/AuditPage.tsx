/**
 * The audit log (`/app/audit-log`, permission `operators.audit` read): who changed what and when in the
 * account, newest first, narrowed by area (the action's prefix), venue and dates, with each entry's changed
 * fields shown before → after (docs/audit-log.md). Cursor paging: "Load more".
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, call } from '../api/client';
import { useVenues } from '../shell/account';
import '../setup/availability/setup.css';
import './audit.css';

const PAGE = 50;

/** The areas an operator filters by: each is an action prefix (`booking` matches every `booking.*`). */
const AREAS = [
  ['', 'Everything'],
  ['venue', 'Venue settings'],
  ['time_period', 'Time periods'],
  ['shift', 'Shifts'],
  ['access_rule', 'Access rules'],
  ['blackout', 'Blackouts'],
  ['table', 'Tables'],
  ['role', 'Roles'],
  ['user', 'Portal users'],
  ['booking', 'Bookings'],
  ['voucher', 'Vouchers'],
  ['voucher_settings', 'Voucher settings'],
  ['guest', 'Guests (exports and erasures)'],
] as const;

interface Filter {
  action: string;
  venue: string;
  from: string;
  to: string;
}

function useAuditLog(filter: Filter) {
  return useInfiniteQuery({
    queryKey: ['audit-log', filter],
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/api/my-operator/audit-log', {
          params: {
            query: {
              paging: 'cursor',
              limit: PAGE,
              ...(pageParam ? { cursor: pageParam } : {}),
              ...(filter.action ? { action: filter.action } : {}),
              ...(filter.venue ? { venue_id: filter.venue } : {}),
              ...(filter.from ? { from: filter.from } : {}),
              ...(filter.to ? { to: filter.to } : {}),
            },
          },
        }),
      ),
    initialPageParam: '',
    getNextPageParam: (last) => ('cursor' in last && last.has_more && last.cursor ? last.cursor : undefined),
  });
}

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

const shown = (value: unknown): string => {
  if (value === undefined) return '—';
  if (value === null) return 'none';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
};

const words = (action: string) => action.replace(/[._]/g, ' ');

/** Fields the row already says (the entity, its account and venue), not repeated in the changes. */
const SAID = new Set(['id', 'operator_id', 'venue_id']);

export default function AuditPage() {
  const venues = useVenues();
  const [filter, setFilter] = useState<Filter>({ action: '', venue: '', from: '', to: '' });
  const log = useAuditLog(filter);
  const entries = log.data?.pages.flatMap((page) => page.data) ?? [];
  const ids = { area: useId(), venue: useId(), from: useId(), to: useId(), caption: useId() };
  const set = (key: keyof Filter) => (event: { target: { value: string } }) => setFilter({ ...filter, [key]: event.target.value });
  return (
    <main className="page setup audit" id="main">
      <header>
        <h1>Audit log</h1>
        <p className="muted">
          Who changed what in your account, and when: settings, tables, roles and users, bookings, refunds, vouchers, guest exports and
          erasures.
        </p>
      </header>
      <form className="audit-filters" onSubmit={(event) => event.preventDefault()} aria-label="Filter the audit log">
        <label htmlFor={ids.area}>Area</label>
        <select id={ids.area} value={filter.action} onChange={set('action')}>
          {AREAS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <label htmlFor={ids.venue}>Venue</label>
        <select id={ids.venue} value={filter.venue} onChange={set('venue')}>
          <option value="">All venues and the account</option>
          {venues.data?.map((venue) => (
            <option key={venue.id} value={venue.id}>
              {venue.name}
            </option>
          ))}
        </select>
        <label htmlFor={ids.from}>From</label>
        <input id={ids.from} type="date" value={filter.from} onChange={set('from')} />
        <label htmlFor={ids.to}>To</label>
        <input id={ids.to} type="date" value={filter.to} onChange={set('to')} />
      </form>
      {log.error && (
        <p className="error" role="alert">
          {log.error.message}
        </p>
      )}
      {log.isPending && <p className="muted">Loading…</p>}
      {!log.isPending && entries.length === 0 && <p>No changes recorded for this choice.</p>}
      {entries.length > 0 && (
        <table className="audit-table" aria-labelledby={ids.caption}>
          <caption id={ids.caption} className="visually-hidden">
            Changes, newest first
          </caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Changes</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => {
              const fields = [...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})])].filter(
                (f) => !SAID.has(f),
              );
              // A creation (nothing before) or a deletion (nothing after) lists values, not changes.
              const one = entry.before === null ? entry.after : entry.after === null ? entry.before : null;
              return (
                <tr key={entry.id}>
                  <td>{when(entry.at)}</td>
                  <td>
                    {entry.actor.name ?? (entry.actor.type === 'system' ? 'Maitred' : entry.actor.type)}
                    {entry.actor.email && <div className="muted">{entry.actor.email}</div>}
                  </td>
                  <td>
                    <strong>{words(entry.action)}</strong>
                    <div className="muted">
                      {entry.venue_name ?? 'Account'}
                      {entry.entity_id && <> · {entry.entity_id}</>}
                    </div>
                  </td>
                  <td>
                    {fields.length === 0 ? (
                      <span className="muted">—</span>
                    ) : (
                      <dl className="audit-diff">
                        {fields.map((field) => (
                          <div key={field}>
                            <dt>{field.replace(/_/g, ' ')}</dt>
                            {one ? (
                              <dd>{shown(one[field])}</dd>
                            ) : (
                              <dd>
                                <span className="audit-before">{shown(entry.before?.[field])}</span>
                                <span aria-hidden="true"> → </span>
                                <span className="visually-hidden"> changed to </span>
                                <span className="audit-after">{shown(entry.after?.[field])}</span>
                              </dd>
                            )}
                          </div>
                        ))}
                      </dl>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {log.hasNextPage && (
        <button type="button" className="button" disabled={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()}>
          {log.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      )}
    </main>
  );
}
