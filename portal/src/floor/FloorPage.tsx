/**
 * The reservation floor (frontend.md §6): the venue's service day as a grid of tables × time, a list, or
 * the floor plan; the unassigned strip; the pacing footer; the drawer of the open booking; dialogs to
 * create and move; and a live region that says what changed.
 */
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { memo, useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { Button } from 'react-aria-components';
import { api, call } from '../api/client';
import { floorRoute } from '../router';
import { useCan, useCurrentVenue, usePermissions } from '../shell/account';
import { bookingApi, useBookingChange, type Change, type Report } from './actions';
import { useFloorData, useLiveChanges } from './data';
import { Drawer } from './Drawer';
import { Grid, type Slot } from './Grid';
import { layoutRows, pacing, placeBlocks, placeBookings, shiftTotals, STATUS } from './model';
import { NewDialog } from './NewDialog';
import { FloorPlan, ListView } from './Views';
import {
  addDays,
  atServiceMinute,
  clockOf,
  longDate,
  serverNow,
  serviceDayOf,
  venueLocal,
  clockMinutes,
  DAY_START,
  DAY_MINUTES,
} from './time';

/** Polling while the change stream is not open (tests set it with `sessionStorage['maitred.poll-ms']`). */
function pollInterval(): number {
  const override = Number(sessionStorage.getItem('maitred.poll-ms'));
  return Number.isFinite(override) && override >= 200 ? override : 30_000;
}

export function FloorPage() {
  const venue = useCurrentVenue()!;
  const search = floorRoute.useSearch();
  const navigate = useNavigate({ from: '/floor' });
  const can = useCan();
  const timeZone = venue.timezone;
  const [clock, setClock] = useState(() => serverNow());
  useEffect(() => {
    const timer = setInterval(() => setClock(serverNow()), 30_000);
    return () => clearInterval(timer);
  }, []);
  const today = serviceDayOf(clock, timeZone);
  const date = search.date ?? today;
  // A role that may not read tables (a door role) gets the list: bookings without the grid or the plan.
  const permissions = usePermissions();
  const tablesReadable = can('tables', 'read');
  const view = tablesReadable ? (search.view ?? 'grid') : 'list';
  const nowLocal = venueLocal(clock, timeZone);
  const nowMinute = (clockMinutes(nowLocal.time) - DAY_START + DAY_MINUTES) % DAY_MINUTES;

  const [live, setLive] = useState(false);
  const [poll] = useState(pollInterval);
  const data = useFloorData(venue.id, date, live ? 5 * 60_000 : poll, tablesReadable);
  useLiveChanges(venue.id, setLive);

  const [message, setMessage] = useState<{ text: string; kind: 'ok' | 'error'; ref?: string } | null>(null);
  const report = useCallback<Report>((text, kind, ref) => setMessage({ text, kind, ref }), []);
  const change = useBookingChange(venue.id, date, report);
  const run = useCallback((c: Change) => change.mutate(c), [change]);

  const [openId, setOpenId] = useState<string | null>(null);
  const [slot, setSlot] = useState<Slot | null>(null);
  const [preview, setPreview] = useState(false);

  const tables = useMemo(() => data.tables.data?.data ?? [], [data.tables.data]);
  const areas = useMemo(() => data.areas.data?.data ?? [], [data.areas.data]);
  const bookings = useMemo(() => data.bookings.data ?? [], [data.bookings.data]);
  const layout = useMemo(() => layoutRows(tables, areas), [tables, areas]);
  const tableMap = useMemo(() => new Map(tables.map((t) => [t.id, t])), [tables]);
  const placed = useMemo(
    () => placeBookings(bookings, tableMap, date, { day: today, minute: nowMinute }),
    [bookings, tableMap, date, today, nowMinute],
  );
  const blocks = useMemo(() => placeBlocks(data.blocks.data?.data ?? [], date, timeZone), [data.blocks.data, date, timeZone]);
  // The pacing strip follows the grid in a second, lower-priority render: the grid is what staff wait for.
  const steps = useDeferredValue(useMemo(() => pacing(placed), [placed]));
  const totals = useMemo(() => shiftTotals(placed, data.shifts.data?.data ?? [], date), [placed, data.shifts.data, date]);
  const unassigned = placed.filter((p) => p.booking.table_ids.length === 0 && p.booking.status !== 'no_show');
  const writable = can('bookings', 'write');

  const smart = useQuery({
    queryKey: ['smart-preview', venue.id, date],
    queryFn: () =>
      call(api.GET('/api/my-venues/{venueId}/smart-tables/preview', { params: { path: { venueId: venue.id }, query: { date } } })),
    enabled: preview,
  });

  const loading = permissions.isPending || (tablesReadable && data.tables.isPending) || data.bookings.isPending;
  const failed = [data.tables, data.areas, data.bookings, data.blocks].find((q) => q.error)?.error;
  const set = (next: Partial<typeof search>) => void navigate({ search: (prev) => ({ ...prev, venue: venue.id, ...next }) });
  const dayCovers = placed.filter((p) => p.booking.status !== 'no_show').reduce((s, p) => s + p.booking.guest_count, 0);

  return (
    <main className="floor" id="main">
      <div className="toolbar">
        <h1 className="toolbar__title">
          {venue.name} <span className="muted">· {longDate(date)}</span>
        </h1>
        <div className="toolbar__group" role="group" aria-label="Day">
          <Button className="button" onPress={() => set({ date: addDays(date, -1) })} aria-label="Previous day">
            ‹
          </Button>
          <Button className="button" onPress={() => set({ date: undefined })} isDisabled={date === today}>
            Today
          </Button>
          <Button className="button" onPress={() => set({ date: addDays(date, 1) })} aria-label="Next day">
            ›
          </Button>
          <label className="date-input">
            <span className="visually-hidden">Date</span>
            <input type="date" value={date} onChange={(e) => e.target.value && set({ date: e.target.value })} />
          </label>
        </div>
        {tablesReadable ? (
          <nav className="toolbar__group segmented" aria-label="View">
            {(['grid', 'list', 'floor'] as const).map((v) => (
              <Link
                key={v}
                to="/floor"
                search={(prev) => ({ ...prev, venue: venue.id, view: v === 'grid' ? undefined : v })}
                aria-current={view === v ? 'page' : undefined}
                className="segmented__item"
              >
                {v === 'grid' ? 'Grid' : v === 'list' ? 'List' : 'Floor plan'}
              </Link>
            ))}
          </nav>
        ) : (
          <span className="muted">List only: your role cannot see tables</span>
        )}
        <div className="toolbar__group toolbar__end">
          <span className="summary">
            <strong>{placed.filter((p) => p.booking.status !== 'no_show').length}</strong> bookings · <strong>{dayCovers}</strong> covers
          </span>
          <span className={`live-dot ${live ? 'live-dot--on' : ''}`}>{live ? 'Live' : 'Auto-refresh'}</span>
          {can('tables', 'read') && (
            <Button className="button" onPress={() => setPreview((p) => !p)} aria-pressed={preview}>
              Smart tables
            </Button>
          )}
          {writable && (
            <Button
              className="button button--primary"
              onPress={() => setSlot({ tableId: null, minute: Math.max(0, Math.ceil(nowMinute / 15) * 15) })}
            >
              New…
            </Button>
          )}
        </div>
      </div>

      <div className="sr-only" role="status" aria-live="polite">
        {message?.kind === 'ok' ? message.text : ''}
      </div>
      {message?.kind === 'error' && (
        <div className="toast toast--error" role="alert">
          <span>
            {message.text}
            {message.ref && <small className="toast__ref">Ref: {message.ref}</small>}
          </span>
          <Button className="button button--quiet" onPress={() => setMessage(null)}>
            Dismiss
          </Button>
        </div>
      )}
      {failed && (
        <p className="error" role="alert">
          Could not load the floor: {failed.message}
        </p>
      )}

      {preview && (
        <section className="panel" aria-labelledby="smart-title">
          <h2 id="smart-title">Smart-table proposal</h2>
          {smart.isPending && <p>Working out the best seating…</p>}
          {smart.data && smart.data.moves.length === 0 && <p>The seating is already as good as it gets for this day.</p>}
          {smart.data && smart.data.moves.length > 0 && (
            <ul className="moves">
              {smart.data.moves.map((m) => (
                <li key={m.booking_id}>
                  <strong>{m.start_time}</strong> {m.guest_name ?? 'Guest'} ({m.party_size}): table {m.from.table_numbers.join('+') || '—'}{' '}
                  → <strong>{m.to.table_numbers.join('+')}</strong>
                </li>
              ))}
            </ul>
          )}
          {smart.data && (
            <p className="muted">
              {smart.data.seats_freed} seats freed. Shown on the grid as dashed outlines; the nightly pass applies them.
            </p>
          )}
        </section>
      )}

      {loading ? (
        <p className="page">Loading the floor…</p>
      ) : view === 'list' ? (
        <ListView placed={placed} tables={tableMap} onOpen={setOpenId} />
      ) : view === 'floor' ? (
        <FloorPlan
          tables={tables}
          floors={data.floors.data?.data ?? []}
          floorId={search.floor}
          onFloor={(floor) => set({ floor })}
          placed={placed}
          blocks={blocks}
          nowMinute={date === today ? nowMinute : -1}
          onOpen={setOpenId}
          onEmpty={(tableId) => writable && setSlot({ tableId, minute: Math.ceil(nowMinute / 15) * 15, kind: 'walk_in' })}
        />
      ) : (
        <Grid
          pacing={steps}
          layout={layout}
          placed={placed}
          blocks={blocks}
          unassigned={unassigned}
          nowMinute={date === today ? nowMinute : -1}
          writable={writable}
          proposals={preview ? (smart.data?.moves ?? []) : []}
          onOpen={setOpenId}
          onEmpty={(s) => writable && setSlot(s)}
          onMove={(p, to, label) => {
            const name = p.booking.guest_name ?? 'the booking';
            if (to.start === undefined) {
              const tableIds = to.tableIds ?? p.booking.table_ids;
              return run({
                bookingId: p.booking.id,
                patch: { table_ids: tableIds },
                done: tableIds.length ? `Moved ${name} to ${label}` : `${p.booking.guest_name ?? 'Booking'} is unassigned`,
                run: () => bookingApi.assign(p.booking.id, tableIds),
              });
            }
            // A new time (and maybe tables): one call, so the two never half-happen.
            const at = atServiceMinute(date, to.start);
            run({
              bookingId: p.booking.id,
              patch: { booking_date: at.date, start_time: at.time, ...(to.tableIds ? { table_ids: to.tableIds } : {}) },
              done: `Moved ${name} to ${label}`,
              run: () => bookingApi.move(p.booking.id, at, to.tableIds),
            });
          }}
          onResize={(p, minutes) =>
            run({
              bookingId: p.booking.id,
              patch: { duration_minutes: minutes },
              done: `${p.booking.guest_name ?? 'Booking'} now ${clockOf(p.start)}–${clockOf(p.start + minutes)}`,
              run: () => bookingApi.duration(p.booking.id, minutes),
            })
          }
          onAnnounce={(text) => report(text, 'ok')}
        />
      )}

      <footer className="pacing" aria-label="Pacing">
        <div className="pacing__totals">
          {totals.map((t) => (
            <span key={`${t.name}${t.from}`}>
              {t.name} {t.from}–{t.to}: <strong>{t.covers}</strong> covers, {t.bookings} bookings
            </span>
          ))}
          <span>
            Day: <strong>{dayCovers}</strong> covers
          </span>
          <span className="muted">
            Legend: {['confirmed', 'pending', 'checked_in', 'no_show'].map((s) => `${STATUS[s].icon} ${STATUS[s].label}`).join(' · ')}
          </span>
        </div>
        {/* On the grid the covers per 15 minutes run under its hours, on its time scale. */}
        {view === 'grid' ? <PacingList steps={steps} /> : <PacingBars steps={steps} />}
      </footer>

      {openId && (
        <Drawer
          bookingId={openId}
          venueId={venue.id}
          timeZone={timeZone}
          tables={tables}
          run={run}
          onClose={() => setOpenId(null)}
          writable={writable}
        />
      )}
      {slot && (
        <NewDialog
          venueId={venue.id}
          date={date}
          slot={slot}
          tables={layout.tableRows}
          onClose={() => setSlot(null)}
          onDone={(text) => {
            report(text, 'ok');
            setSlot(null);
          }}
        />
      )}
    </main>
  );
}

/** The grid's pacing row as screen readers get it: the quarter hours with arrivals, in words. */
const PacingList = memo(function PacingList({ steps }: { steps: number[] }) {
  return (
    <ul className="sr-only" aria-label="Covers per 15 minutes">
      {steps.map((covers, i) =>
        covers > 0 ? (
          <li key={i}>
            {clockOf(i * 15)}: {covers} covers
          </li>
        ) : null,
      )}
    </ul>
  );
});

/** Covers starting in each 15 minutes of the busy part of the day, as a compact bar strip with numbers. */
const PacingBars = memo(function PacingBars({ steps }: { steps: number[] }) {
  const first = steps.findIndex((s) => s > 0);
  if (first < 0) return <p className="muted">No covers booked for this day yet.</p>;
  const last = steps.length - 1 - [...steps].reverse().findIndex((s) => s > 0);
  const max = Math.max(...steps);
  const shown = steps.slice(Math.max(0, first - 2), Math.min(steps.length, last + 3));
  const offset = Math.max(0, first - 2);
  return (
    <ol className="pacing__bars" aria-label="Covers per 15 minutes" tabIndex={0}>
      {shown.map((covers, i) => (
        <li key={i} title={`${clockOf((offset + i) * 15)}: ${covers} covers`}>
          <span className="pacing__bar" style={{ height: `${Math.round((covers / max) * 28) + 2}px` }} aria-hidden="true" />
          <span className="pacing__n">{covers || ''}</span>
          <span className="pacing__t">{(offset + i) % 4 === 0 ? clockOf((offset + i) * 15) : ''}</span>
          <span className="sr-only">
            {clockOf((offset + i) * 15)}: {covers} covers
          </span>
        </li>
      ))}
    </ol>
  );
});
