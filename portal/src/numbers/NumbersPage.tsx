/**
 * Numbers (`/numbers?venue=&from=&to=`): the venue's headline figures, then charts over a chosen range of
 * venue-local dates (a week ending today unless chosen) — covers by day, covers by shift, no-shows,
 * deposits and ticket sales — each with its numbers in a table beside it and a CSV download, and what
 * is still owed on vouchers. Needs `stats` read; covers by shift also need `availability` read (the
 * shifts), and voucher liability `vouchers` read.
 */
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { useCan, useCurrentVenue } from '../shell/account';
import { Chart } from './Chart';
import {
  addDays,
  dayLabel,
  daysBetween,
  money,
  poundsCell,
  shiftOf,
  useDaily,
  useShiftTimes,
  useVenueStats,
  useVoucherLiability,
  type Daily,
  type ShiftTime,
} from './data';
import './numbers.css';

const MAX_DAYS = 92;

export default function NumbersPage() {
  const venue = useCurrentVenue();
  const can = useCan();
  const search = useSearch({ from: '/numbers' });
  if (!venue) return null;
  if (!can('stats', 'read'))
    return (
      <main className="page numbers" id="main">
        <h1>Numbers</h1>
        <p>Your role may not see this venue’s figures.</p>
      </main>
    );
  const to = search.to ?? venue.today;
  const from = search.from ?? addDays(to, -6);
  return (
    <Numbers
      key={venue.id}
      venueId={venue.id}
      venueName={venue.name}
      today={venue.today}
      from={from}
      to={to}
      canShifts={can('availability', 'read')}
      canVouchers={can('vouchers', 'read')}
    />
  );
}

function Numbers(props: {
  venueId: string;
  venueName: string;
  today: string;
  from: string;
  to: string;
  canShifts: boolean;
  canVouchers: boolean;
}) {
  const { venueId, from, to } = props;
  const daily = useDaily(venueId, from, to);
  const stats = useVenueStats(venueId);
  const shifts = useShiftTimes(venueId, props.canShifts);
  const owed = useVoucherLiability(venueId, props.canVouchers);
  const range = `${from}_to_${to}`;

  return (
    <main className="page numbers" id="main">
      <header>
        <h1>Numbers</h1>
        <p className="muted">
          {props.venueName} · {dayLabel(from, true)} to {dayLabel(to, true)} (venue-local dates)
        </p>
      </header>
      <RangePicker venueId={venueId} today={props.today} from={from} to={to} />

      {stats.data && (
        <section className="panel" aria-labelledby="headline-title">
          <h2 id="headline-title">At a glance</h2>
          <dl className="tiles">
            <Tile label="Revenue today" value={money(stats.data.revenue.today)} />
            <Tile label="Revenue this week" value={money(stats.data.revenue.week)} />
            <Tile label="Revenue this month" value={money(stats.data.revenue.month)} />
            <Tile label="Revenue all time" value={money(stats.data.revenue.alltime)} />
            <Tile label="Bookings today" value={String(stats.data.bookings.today_count)} />
            <Tile label="Waiting for approval" value={String(stats.data.bookings.pending)} />
            <Tile label="Guests all time" value={String(stats.data.unique_guests)} />
          </dl>
        </section>
      )}

      {daily.error && (
        <p className="error" role="alert">
          {daily.error.message}
        </p>
      )}
      {daily.isPending && <p className="muted">Loading the figures…</p>}
      {daily.data && (
        <DailyCharts daily={daily.data} range={range} shifts={props.canShifts ? shifts.data : undefined} canShifts={props.canShifts} />
      )}

      {props.canVouchers && owed.data && (
        <Chart
          id="liability"
          title="Voucher liability"
          intro="What is still owed on active vouchers now (not limited to the dates above): the balance left to spend, by issuing venue."
          keyHeading="Venue"
          keys={owed.data.map((row) => row.venue)}
          keyLabel={(key) => key}
          series={[{ label: 'Owed', values: owed.data.map((row) => row.pence) }]}
          format={money}
          csvValue={poundsCell}
          csvHeadings={['Owed (GBP)']}
          file={`voucher-liability-${props.today}`}
        />
      )}
      {owed.error && (
        <p className="error" role="alert">
          {owed.error.message}
        </p>
      )}
    </main>
  );
}

function Tile({ label, value }: { label: string; value: string }) {
  return (
    <div className="tile">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

function DailyCharts({ daily, range, shifts, canShifts }: { daily: Daily; range: string; shifts?: ShiftTime[]; canShifts: boolean }) {
  const dates = daily.days.map((d) => d.date);
  const column = (pick: (d: Daily['days'][number]) => number) => daily.days.map(pick);

  // Covers of each start time, put into the shift it falls in (or "Other times").
  const shiftNames = [...new Set((shifts ?? []).map((s) => s.name))];
  const byShift = new Map<string, number[]>([...shiftNames, 'Other times'].map((name) => [name, dates.map(() => 0)]));
  for (const slot of daily.times) {
    const name = shiftOf(shifts ?? [], slot.date, slot.start_time) ?? 'Other times';
    byShift.get(name)![dates.indexOf(slot.date)] += slot.covers;
  }
  const shiftSeries = [...byShift.entries()]
    .filter(([name, values]) => name !== 'Other times' || values.some((v) => v > 0))
    .map(([label, values]) => ({ label, values }));

  return (
    <>
      <Chart
        id="covers"
        title="Covers by day"
        intro="Guests of reservations going ahead (pending, approved, confirmed or seated), by the date booked for."
        keyHeading="Date"
        keys={dates}
        keyLabel={(d) => dayLabel(d)}
        series={[{ label: 'Covers', values: column((d) => d.covers) }]}
        file={`covers-${range}`}
      />
      <BookingsTable daily={daily} />
      {canShifts && shifts && (
        <Chart
          id="shifts"
          title="Covers by shift"
          intro="The same covers, by the shift their start time falls in."
          keyHeading="Date"
          keys={dates}
          keyLabel={(d) => dayLabel(d)}
          series={shiftSeries}
          file={`covers-by-shift-${range}`}
        />
      )}
      {!canShifts && <p className="muted">Covers by shift need permission to read the venue’s availability.</p>}
      <Chart
        id="no-shows"
        title="No-shows"
        intro="Reservations marked no-show, and their guests."
        keyHeading="Date"
        keys={dates}
        keyLabel={(d) => dayLabel(d)}
        series={[{ label: 'No-show covers', values: column((d) => d.no_show_covers) }]}
        file={`no-shows-${range}`}
      />
      <Chart
        id="deposits"
        title="Deposits"
        intro="Deposits and captured card holds taken on reservations of each date, before refunds (refunds are in the table and CSV)."
        keyHeading="Date"
        keys={dates}
        keyLabel={(d) => dayLabel(d)}
        series={[{ label: 'Taken', values: column((d) => d.deposits_pence) }]}
        format={money}
        csvValue={poundsCell}
        csvHeadings={['Taken (GBP)']}
        file={`deposits-${range}`}
      />
      <Chart
        id="tickets"
        title="Ticket sales"
        intro="Event tickets for each date, and what they cost."
        keyHeading="Date"
        keys={dates}
        keyLabel={(d) => dayLabel(d)}
        series={[{ label: 'Sales', values: column((d) => d.ticket_pence) }]}
        format={money}
        csvValue={poundsCell}
        csvHeadings={['Sales (GBP)']}
        file={`ticket-sales-${range}`}
      />
    </>
  );
}

/** Every figure of every date, in one table (bookings, cancellations, no-shows, refunds, tickets). */
function BookingsTable({ daily }: { daily: Daily }) {
  return (
    <details className="panel">
      <summary>All figures by day</summary>
      <div className="table-scroll" role="region" aria-label="All figures by day" tabIndex={0}>
        <table className="money-table">
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col" className="num">
                Bookings
              </th>
              <th scope="col" className="num">
                Covers
              </th>
              <th scope="col" className="num">
                No-shows
              </th>
              <th scope="col" className="num">
                Cancelled
              </th>
              <th scope="col" className="num">
                Deposits taken
              </th>
              <th scope="col" className="num">
                Deposits refunded
              </th>
              <th scope="col" className="num">
                Tickets
              </th>
              <th scope="col" className="num">
                Ticket sales
              </th>
            </tr>
          </thead>
          <tbody>
            {daily.days.map((d) => (
              <tr key={d.date}>
                <th scope="row">{dayLabel(d.date)}</th>
                <td className="num">{d.bookings}</td>
                <td className="num">{d.covers}</td>
                <td className="num">{d.no_shows}</td>
                <td className="num">{d.cancelled}</td>
                <td className="num">{money(d.deposits_pence)}</td>
                <td className="num">{money(d.deposits_refunded_pence)}</td>
                <td className="num">{d.tickets}</td>
                <td className="num">{money(d.ticket_pence)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

function RangePicker(props: { venueId: string; today: string; from: string; to: string }) {
  const navigate = useNavigate();
  const [from, setFrom] = useState(props.from);
  const [to, setTo] = useState(props.to);
  const [failure, setFailure] = useState<string | null>(null);
  const go = (nextFrom: string, nextTo: string) => {
    setFrom(nextFrom);
    setTo(nextTo);
    setFailure(null);
    void navigate({ to: '/numbers', search: { venue: props.venueId, from: nextFrom, to: nextTo } });
  };
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!from || !to) return setFailure('Choose both dates.');
    if (to < from) return setFailure('The last date must not be before the first.');
    if (daysBetween(from, to) > MAX_DAYS) return setFailure(`Choose at most ${MAX_DAYS} days.`);
    go(from, to);
  }
  return (
    <form className="panel range" aria-label="Dates shown" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor="range-from">From</label>
        <input id="range-from" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="range-to">To</label>
        <input id="range-to" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
      </div>
      <div className="field">
        <button type="submit" className="button button--primary">
          Show
        </button>
      </div>
      <div className="range__presets" role="group" aria-label="Quick ranges">
        <button type="button" className="button" onClick={() => go(addDays(props.today, -6), props.today)}>
          Last 7 days
        </button>
        <button type="button" className="button" onClick={() => go(addDays(props.today, -27), props.today)}>
          Last 28 days
        </button>
        <button type="button" className="button" onClick={() => go(props.today, addDays(props.today, 6))}>
          Next 7 days
        </button>
      </div>
      {failure && (
        <p className="error range__error" role="alert">
          {failure}
        </p>
      )}
    </form>
  );
}
